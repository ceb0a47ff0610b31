-- A banner's photo, uploaded by a manager, as a product's (000020): its name in MEDIA_DIR and the
-- original's size upright. It takes the place of both drawings (desktop_image, mobile_image) on
-- every screen; none: the drawings. The three are set together or not at all.
ALTER TABLE banners ADD COLUMN photo TEXT;
ALTER TABLE banners ADD COLUMN photo_width INTEGER;
ALTER TABLE banners ADD COLUMN photo_height INTEGER;
ALTER TABLE banners ADD CONSTRAINT banners_photo_whole CHECK (
    (photo IS NULL AND photo_width IS NULL AND photo_height IS NULL)
    OR (photo IS NOT NULL AND photo_width IS NOT NULL AND photo_height IS NOT NULL
        AND photo_width > 0 AND photo_height > 0)
);
