DROP TRIGGER products_photo_whole_update;
DROP TRIGGER products_photo_whole_insert;
ALTER TABLE products DROP COLUMN photo_height;
ALTER TABLE products DROP COLUMN photo_width;
ALTER TABLE products DROP COLUMN photo;
