ALTER TABLE carts DROP COLUMN previous_cart_id;
ALTER TABLE orders DROP COLUMN confirmation_mailed;
DROP TABLE cart_refills;
