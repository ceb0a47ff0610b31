DROP TRIGGER banners_photo_whole_update;
DROP TRIGGER banners_photo_whole_insert;
ALTER TABLE banners DROP COLUMN photo_height;
ALTER TABLE banners DROP COLUMN photo_width;
ALTER TABLE banners DROP COLUMN photo;
