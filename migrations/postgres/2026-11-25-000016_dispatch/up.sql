-- Dispatch. A run is a rider, a Manila day (YYYY-MM-DD) and the delivery orders they take, in
-- the order the dispatcher set (seq). The dispatcher sends it out (its orders go out for
-- delivery); the rider ends each stop delivered (the cash received and the empty cases taken
-- back) or failed (a reason from the list, and a note); the dispatcher closes the run when the
-- rider has handed in the cash (centavos).
CREATE TABLE runs (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    day TEXT NOT NULL,
    rider_id BIGINT NOT NULL REFERENCES staff (id),
    created_at BIGINT NOT NULL,
    sent_at BIGINT,
    closed_at BIGINT,
    cash_handed_in BIGINT
);
CREATE INDEX runs_by_day ON runs (day, id);
CREATE INDEX runs_by_rider ON runs (rider_id, day);

-- outcome: pending, delivered or failed. An order is on at most one pending stop: a failed one
-- may go on another run.
CREATE TABLE run_stops (
    run_id BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    order_id BIGINT NOT NULL REFERENCES orders (id),
    seq INTEGER NOT NULL,
    outcome TEXT NOT NULL DEFAULT 'pending' CHECK (outcome IN ('pending', 'delivered', 'failed')),
    cash_received BIGINT,
    empties_returned INTEGER,
    reason TEXT NOT NULL DEFAULT '',
    note TEXT NOT NULL DEFAULT '',
    done_at BIGINT,
    PRIMARY KEY (run_id, order_id)
);
CREATE INDEX run_stops_by_order ON run_stops (order_id);
CREATE UNIQUE INDEX run_stops_one_open ON run_stops (order_id) WHERE outcome = 'pending';

-- The containers an order lends, by deposit (cases_out), and the empty cases its shopper said
-- they return (cases_back): what a run loads and what its rider collects.
CREATE TABLE order_containers (
    order_id BIGINT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    cases_out INTEGER NOT NULL,
    cases_back INTEGER NOT NULL,
    PRIMARY KEY (order_id, name)
);
