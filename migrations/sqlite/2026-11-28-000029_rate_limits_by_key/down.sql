CREATE TABLE rate_limits_by_rowid (
    key TEXT PRIMARY KEY NOT NULL,
    window_start BIGINT NOT NULL,
    hits INTEGER NOT NULL
);
INSERT INTO rate_limits_by_rowid (key, window_start, hits)
    SELECT key, window_start, hits FROM rate_limits;
DROP TABLE rate_limits;
ALTER TABLE rate_limits_by_rowid RENAME TO rate_limits;
CREATE INDEX rate_limits_by_window ON rate_limits (window_start);
