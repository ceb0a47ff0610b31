-- The words shoppers type in Filipino and Taglish (and other spellings), and what they mean in the
-- catalog's words (crates/search): `lata` is a can. `means` empty: a word for anything the store
-- sells (`serbesa`, `kaha`), which narrows nothing. The store's data, edited by staff
-- (`store search-words`); a change moves the catalog's data version, which rebuilds the index.
CREATE TABLE search_words (
    word TEXT PRIMARY KEY NOT NULL,
    means TEXT NOT NULL DEFAULT ''
);
INSERT INTO search_words (word, means) VALUES
    ('bote', 'bottle bottles'),
    ('botelya', 'bottle bottles'),
    ('lata', 'can cans'),
    ('delata', 'can cans'),
    ('bariles', 'keg'),
    ('barrel', 'keg'),
    ('draft', 'keg'),
    ('draught', 'keg'),
    ('gripo', 'keg'),
    ('tap', 'keg'),
    ('pilsner', 'pilsen'),
    ('pils', 'pilsen'),
    ('malaki', 'grande'),
    ('matapang', 'strong'),
    ('malakas', 'strong'),
    ('maitim', 'dark porter'),
    ('itim', 'dark porter'),
    ('mangga', 'mango'),
    ('calamansi', 'kalamansi'),
    ('mapait', 'ipa'),
    ('trigo', 'wheat'),
    ('serbesa', ''),
    ('serbisa', ''),
    ('cerveza', ''),
    ('beer', ''),
    ('beers', ''),
    ('bir', ''),
    ('alak', ''),
    ('inumin', ''),
    ('malamig', ''),
    ('kaha', ''),
    ('kahon', ''),
    ('case', '');
