-- The last 30-second step of a member's authenticator app whose code was taken: a code is taken
-- only when its step is later (one statement decides, on every app server alike), so neither a
-- code nor one of an earlier step is taken twice. Empty until the first code.
ALTER TABLE staff ADD COLUMN totp_last_step BIGINT;
