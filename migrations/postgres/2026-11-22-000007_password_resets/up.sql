-- Password reset links: single use, expiring, stored only as the SHA-256 of their token.
CREATE TABLE password_resets (
    token_hash TEXT PRIMARY KEY NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    expires_at BIGINT NOT NULL,
    used_at BIGINT
);
CREATE INDEX password_resets_by_user ON password_resets (user_id);
