-- Rate-limit windows swept in the order of their key. A window's key (an action and who does
-- it) is found by the key alone (the primary key); housekeeping walks the keys in order and
-- deletes the windows long past, so the index of the window's start, which made every deleted
-- row one more scattered index entry, goes.
DROP INDEX rate_limits_by_window;
