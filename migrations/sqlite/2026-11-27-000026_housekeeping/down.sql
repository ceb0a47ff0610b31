DROP INDEX mail_outbox_by_age;
DROP INDEX newsletter_unconfirmed;
DROP INDEX password_resets_by_expiry;
DROP INDEX registrations_by_expiry;
DROP INDEX rate_limits_by_window;
DROP TABLE housekeeping;
