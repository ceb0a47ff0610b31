DROP TABLE payment_events;
DROP TABLE payments;
DROP TABLE checkout_sessions;
