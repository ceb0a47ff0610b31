-- A member's saved delivery addresses: the line a rider reads (house, building, street) and the
-- PSGC place it is in.
CREATE TABLE addresses (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    address TEXT NOT NULL,
    barangay_id BIGINT NOT NULL REFERENCES barangays (id),
    street_id INTEGER REFERENCES streets (id),
    created_at BIGINT NOT NULL
);
CREATE INDEX addresses_by_user ON addresses (user_id);
