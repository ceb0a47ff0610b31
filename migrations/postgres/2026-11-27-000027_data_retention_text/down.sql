DELETE FROM site_texts WHERE key = 'data_retention';
