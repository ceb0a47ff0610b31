-- A refill counts once per click, and a guest's order confirmations to one address are held past
-- a few an hour.

-- A refill (Order Again, a Go-to Case's Add to Cart) is one per click: the client names the cart
-- revision it was made against, and a refill of the same source against the same revision is
-- answered as done without adding again (a double click, a retry, two tabs). source is what was
-- refilled from: 'order 42' or 'goto case 7'. The rows go with their cart.
CREATE TABLE cart_refills (
    cart_id BIGINT NOT NULL REFERENCES carts (id) ON DELETE CASCADE,
    source TEXT NOT NULL,
    revision BIGINT NOT NULL,
    refilled_at BIGINT NOT NULL,
    PRIMARY KEY (cart_id, source, revision)
);

-- A guest's order confirmation goes to an address at most 3 times an hour; past that the order
-- is placed and its confirmation held (not mailed), so nobody can lock an address out of guest
-- checkout by ordering with it. The order page says which.
ALTER TABLE orders ADD COLUMN confirmation_mailed BOOLEAN NOT NULL DEFAULT TRUE;
