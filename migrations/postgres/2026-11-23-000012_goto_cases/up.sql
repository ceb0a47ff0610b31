-- Go-to Cases: a member's named cases, kept to refill the cart from later.
-- A Go-to Case holds items of one case type (its packaging); its name is unique per member
-- regardless of case (name_key is the name lowercased by the store). It goes with its member.
CREATE TABLE goto_cases (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    packaging_id INTEGER NOT NULL REFERENCES packagings (id),
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    UNIQUE (user_id, name_key)
);

-- Quantities are units (bottles, cans, kegs), as in a cart.
CREATE TABLE goto_case_items (
    goto_case_id BIGINT NOT NULL REFERENCES goto_cases (id) ON DELETE CASCADE,
    product_id INTEGER NOT NULL REFERENCES products (id),
    quantity INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 999),
    added_at BIGINT NOT NULL,
    PRIMARY KEY (goto_case_id, product_id)
);
