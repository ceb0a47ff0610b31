-- A banner may be scheduled: shown from starts_on to ends_on (Manila days, both included, as a
-- promo's), either left open. Without dates it shows every day, as before.
ALTER TABLE banners ADD COLUMN starts_on TEXT;
ALTER TABLE banners ADD COLUMN ends_on TEXT;
