-- Rate-limit windows kept in the order of their key and swept in it. A window's key (an action
-- and who does it) is found by the key alone, so the table is kept as one tree of keys (WITHOUT
-- ROWID: no rowid beside it) and has no index of the window's start: housekeeping walks the keys
-- in order and deletes the windows long past, freeing neighbouring pages of one tree, where
-- sweeping in the order of the windows' start touched a page of the key's index and one of the
-- rowids for every row.
CREATE TABLE rate_limits_by_key (
    key TEXT PRIMARY KEY NOT NULL,
    window_start BIGINT NOT NULL,
    hits INTEGER NOT NULL
) WITHOUT ROWID;
INSERT INTO rate_limits_by_key (key, window_start, hits)
    SELECT key, window_start, hits FROM rate_limits;
DROP TABLE rate_limits;
ALTER TABLE rate_limits_by_key RENAME TO rate_limits;
