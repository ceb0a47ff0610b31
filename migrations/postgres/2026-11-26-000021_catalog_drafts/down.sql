DROP TABLE catalog_drafts;
