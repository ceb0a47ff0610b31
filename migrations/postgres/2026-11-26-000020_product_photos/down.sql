ALTER TABLE products DROP CONSTRAINT products_photo_whole;
ALTER TABLE products DROP COLUMN photo_height;
ALTER TABLE products DROP COLUMN photo_width;
ALTER TABLE products DROP COLUMN photo;
