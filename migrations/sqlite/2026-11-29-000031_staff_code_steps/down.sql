ALTER TABLE staff DROP COLUMN totp_last_step;
