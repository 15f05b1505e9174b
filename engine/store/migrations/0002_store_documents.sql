-- Private documents of the store itself, not of one game: the service's signing key
-- ("signing": Ed25519, issue 13), shared by every node so one public key checks every receipt.
CREATE TABLE store_documents (
    name     text PRIMARY KEY CHECK (name ~ '^[a-z]{1,16}$'),
    document jsonb NOT NULL
);
