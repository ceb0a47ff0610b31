DROP TABLE goto_case_items;
DROP TABLE goto_cases;
