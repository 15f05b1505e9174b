-- The store's transparency log (engine.tlog, issue 20; docs/trust.md): one leaf a write to a
-- stream, the game's head after it ('devil-leaf|1|<game>|<seq>|<link hex>', engine.tlog.leaves).
-- A trigger on games adds it in the writing transaction, so no write is without its leaf;
-- tlog_pending holds leaves not yet given an index, and whoever next reads the log moves them,
-- under an advisory lock, to the end of tlog in the order they were written (the log's
-- "integration": indices are dense and only ever added).
CREATE TABLE tlog_pending (
    id    bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    entry bytea NOT NULL
);

CREATE TABLE tlog (
    idx   bigint PRIMARY KEY CHECK (idx >= 0),
    entry bytea NOT NULL
);

CREATE FUNCTION tlog_leaf() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.head_seq > 0 AND (TG_OP = 'INSERT' OR NEW.head_seq <> OLD.head_seq
                             OR NEW.head_link <> OLD.head_link) THEN
        INSERT INTO tlog_pending (entry) VALUES (convert_to(
            'devil-leaf|1|' || NEW.id || '|' || NEW.head_seq || '|' || encode(NEW.head_link, 'hex'),
            'UTF8'));
    END IF;
    RETURN NULL;
END $$;

CREATE TRIGGER games_tlog AFTER INSERT OR UPDATE OF head_seq, head_link ON games
    FOR EACH ROW EXECUTE FUNCTION tlog_leaf();
