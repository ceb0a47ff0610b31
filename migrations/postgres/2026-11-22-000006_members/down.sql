DROP TABLE registrations;
DROP TABLE users;
