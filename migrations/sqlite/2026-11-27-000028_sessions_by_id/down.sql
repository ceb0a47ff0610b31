DROP TABLE sessions;
CREATE TABLE sessions (
    token_hash TEXT PRIMARY KEY NOT NULL,
    user_id BIGINT,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);
CREATE INDEX sessions_by_user ON sessions (user_id);
CREATE INDEX sessions_by_expiry ON sessions (expires_at);
