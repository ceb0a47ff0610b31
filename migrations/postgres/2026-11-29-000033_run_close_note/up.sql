-- Why the cash handed in on closing a run differs from what the run expects: a run whose cash
-- differs closes only with a note, which the run's page, its audit entry and the day report show.
-- Empty when the cash was right (and on the runs closed before the rule).
ALTER TABLE runs ADD COLUMN close_note TEXT NOT NULL DEFAULT '';
