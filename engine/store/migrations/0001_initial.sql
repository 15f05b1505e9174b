-- devil's event store, schema version 1 (engine/store/postgres.py; docs/postgres.md).
-- Applied by `devil db init URL` / engine.store.postgres.init(url), in one transaction.

-- One row a game: its .devlog header bytes and where its stream ends.
CREATE TABLE games (
    id          text PRIMARY KEY CHECK (id ~ '^[a-z]+-[a-z0-9]{4,32}$'),
    ord         bigint GENERATED ALWAYS AS IDENTITY UNIQUE,  -- creation order (games())
    kind        text NOT NULL,
    created     bigint NOT NULL,              -- ms since the Unix epoch (the header's created)
    header      bytea NOT NULL,               -- the header record's exact .devlog bytes
    header_link bytea NOT NULL CHECK (length(header_link) = 8),
    head_seq    bigint NOT NULL DEFAULT 0,    -- the last record's seq (0: header only)
    head_link   bytea NOT NULL CHECK (length(head_link) = 8),  -- and its link
    added       timestamptz NOT NULL DEFAULT now()
);

-- One row a record: its exact .devlog bytes, and its fields in columns.
CREATE TABLE records (
    game    text NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq     bigint NOT NULL CHECK (seq > 0),
    actor   integer NOT NULL,
    cmd     text,
    ts      bigint NOT NULL,                  -- ms after the game's created
    "left"  integer NOT NULL CHECK ("left" >= 0),
    link    bytea NOT NULL CHECK (length(link) = 8),
    bytes   bytea NOT NULL,
    PRIMARY KEY (game, seq),
    -- one command id, one command: a command's records share its id and count "left" down to
    -- 0, so a second command with the same id collides here at the latest on "left" = 0.  The
    -- index also finds a command's records.
    CONSTRAINT records_command UNIQUE (game, cmd, "left")
);

-- The secret kept at creation (a digital game's seed), in a table of its own.
CREATE TABLE secrets (
    game     text PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    document jsonb NOT NULL
);

-- Other private documents of a game (the service's token hashes, ...).
CREATE TABLE private_documents (
    game     text NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    name     text NOT NULL CHECK (name ~ '^[a-z]{1,16}$' AND name <> 'secret'),
    document jsonb NOT NULL,
    PRIMARY KEY (game, name)
);

-- The last snapshot of the service's folds of a game (never trusted: checked on load).
CREATE TABLE snapshots (
    game  text PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    data  bytea NOT NULL,
    saved timestamptz NOT NULL DEFAULT now()
);
