DROP TABLE search_words;
