-- Benchmarks, comparison keys and devices an admin took off the public pages (issue 37, item 4): the latest
-- CatalogEntryHidden of each, hidden or shown again (kept, so that an older event applied late changes nothing). A read
-- model: a rebuild empties and replays it. query-service leaves out of every public list what it holds with hidden set,
-- one primary-key probe per listed name; its size is what admins hid, never what agents sent.
CREATE TABLE proj_hidden_catalog (
    kind       TEXT        NOT NULL CHECK (kind IN ('benchmark', 'key', 'device')),
    name       TEXT        NOT NULL,   -- a benchmark's name, a key id, a device id
    hidden     BOOLEAN     NOT NULL,
    reason     TEXT        NOT NULL,
    actor      TEXT        NOT NULL,
    changed_at TIMESTAMPTZ NOT NULL,   -- the event's occurred_at, the command side's clock
    position   BIGINT      NOT NULL,
    PRIMARY KEY (kind, name)
);
COMMENT ON TABLE proj_hidden_catalog IS 'What an admin hid from the public pages (hidden) or showed again, by kind and name.';
