ALTER TABLE banners DROP COLUMN ends_on;
ALTER TABLE banners DROP COLUMN starts_on;
