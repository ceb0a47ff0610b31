-- Rate limits shared by every app server: how many times a key (an action and who does it) was
-- used in its current window.
CREATE TABLE rate_limits (
    key TEXT PRIMARY KEY NOT NULL,
    window_start BIGINT NOT NULL,
    hits INTEGER NOT NULL
);
