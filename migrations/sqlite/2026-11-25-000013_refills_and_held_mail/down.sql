ALTER TABLE orders DROP COLUMN confirmation_mailed;
DROP TABLE cart_refills;
