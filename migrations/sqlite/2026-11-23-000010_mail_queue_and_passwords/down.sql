ALTER TABLE users DROP COLUMN password_set;
DROP INDEX mail_outbox_due;
DROP TABLE mail_outbox;
