DROP TABLE password_resets;
