-- Mail leaves through a queue: a call writes its messages here with its other work,
-- and a sender task delivers them off the request path, retrying until they are sent (a crash
-- loses nothing: a claimed message is claimed only for a while).
CREATE TABLE mail_outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    recipient TEXT NOT NULL,
    subject TEXT NOT NULL,
    text_body TEXT NOT NULL,
    html_body TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at BIGINT NOT NULL,
    claimed_until BIGINT,
    last_error TEXT
);
CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at);
-- Whether the member chose the password (false for an account made through a social provider,
-- which got a random one): deleting the account or changing the mobile asks for it.
ALTER TABLE users ADD COLUMN password_set BOOLEAN NOT NULL DEFAULT TRUE;
