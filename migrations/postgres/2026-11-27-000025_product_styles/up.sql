-- A product's beer style (Pale Pilsen, Strong Lager, IPA, Stout…): the lists filter by it and the
-- search reads it. Empty: none given (a catalog file may leave it out). Kept with the product in
-- the catalog file (`style`); a change moves the data version (the products table's triggers).
ALTER TABLE products ADD COLUMN style TEXT NOT NULL DEFAULT '';
