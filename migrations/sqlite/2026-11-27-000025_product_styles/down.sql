ALTER TABLE products DROP COLUMN style;
