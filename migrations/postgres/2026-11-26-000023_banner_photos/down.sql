ALTER TABLE banners DROP CONSTRAINT banners_photo_whole;
ALTER TABLE banners DROP COLUMN photo_height;
ALTER TABLE banners DROP COLUMN photo_width;
ALTER TABLE banners DROP COLUMN photo;
