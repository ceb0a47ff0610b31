-- The staff who fill the orders: accounts and sessions of their own, never a shopper's. A
-- member is added from the command line and chooses a password by an emailed link; a second
-- factor (TOTP, RFC 6238) is enrolled at the first login. role is manager, dispatcher or rider.
-- Passwords are argon2id hashes; links, sessions and recovery codes are stored only as the
-- SHA-256 of their token. changed_at moves on a password or role change and on disabling: a
-- session begun before it has ended.
CREATE TABLE staff (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    email TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    role TEXT NOT NULL CHECK (role IN ('manager', 'dispatcher', 'rider')),
    password_hash TEXT,
    totp_secret TEXT,
    -- A second factor shown at the first login and not yet confirmed by a code: its secret and
    -- its recovery codes (not yet credentials; kept until a code from the app confirms them).
    totp_pending TEXT,
    disabled_at BIGINT,
    created_at BIGINT NOT NULL,
    changed_at BIGINT NOT NULL
);

-- A link to choose a password (a new member of staff, or a reset a manager asks for).
CREATE TABLE staff_links (
    token_hash TEXT PRIMARY KEY NOT NULL,
    staff_id BIGINT NOT NULL REFERENCES staff (id) ON DELETE CASCADE,
    expires_at BIGINT NOT NULL,
    used_at BIGINT
);
CREATE INDEX staff_links_by_staff ON staff_links (staff_id);

-- A staff session: begun with the password, whole once the second factor is given. It ends 12
-- hours after it began, after 30 minutes without use, or when its member changes (changed_at).
CREATE TABLE staff_sessions (
    token_hash TEXT PRIMARY KEY NOT NULL,
    staff_id BIGINT NOT NULL REFERENCES staff (id) ON DELETE CASCADE,
    second_factor BOOLEAN NOT NULL DEFAULT FALSE,
    created_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL
);
CREATE INDEX staff_sessions_by_staff ON staff_sessions (staff_id);

-- One-time recovery codes of a second factor, each used once.
CREATE TABLE staff_recovery_codes (
    staff_id BIGINT NOT NULL REFERENCES staff (id) ON DELETE CASCADE,
    code_hash TEXT NOT NULL,
    used_at BIGINT,
    PRIMARY KEY (staff_id, code_hash)
);

-- Every staff write: who (a member of staff, or the command line when staff_id is null), when,
-- what (an action's name and its subject) and the subject before and after, as JSON.
CREATE TABLE audit_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL,
    at BIGINT NOT NULL,
    staff_id BIGINT REFERENCES staff (id),
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    subject TEXT NOT NULL,
    before_state TEXT,
    after_state TEXT
);
CREATE INDEX audit_log_by_time ON audit_log (at);
CREATE INDEX audit_log_by_staff ON audit_log (staff_id);
