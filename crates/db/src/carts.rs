//! Carts: a member's, or a browser's (guest), with their items in units and the empty
//! cases the shopper returns; and the catalog data a cart is priced with (case types, deposits,
//! delivery fees, where products are sold). Each function takes a connection, so several compose
//! in one `conn.transaction(...)`. Every change to a cart starts with [`lock`] (or [`lock_placed`],
//! which also sets the place priced for, or [`lock_owner_placed`], which also finds the cart and
//! makes it when there is none), which takes the cart's row (PostgreSQL) or the database's write
//! lock (SQLite) first, so concurrent changes of one cart run one after the other and never fail
//! halfway.

use diesel::prelude::*;

use crate::models::Product;
use crate::schema::*;
use crate::AnyConnection;
use domain::{CityId, FulfillmentId, ProductId, UserId};

/// Whose cart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Owner<'a> {
    Member(UserId),
    /// A browser's cart: the id its cart cookie carries and the SHA-256 of the cookie (or of the
    /// session token of a client that keeps no cookies), `api::cart::keyed`.
    Guest(&'a str),
}

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = carts)]
pub struct CartRow {
    pub id: i64,
    pub user_id: Option<i64>,
    pub barangay_id: Option<i64>,
    pub street_id: Option<i32>,
    pub revision: i64,
    pub updated_at: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, serde::Serialize)]
#[diesel(table_name = case_types)]
pub struct CaseType {
    pub packaging_id: i32,
    pub name: String,
    pub unit_noun: String,
    pub unit_per_case: i32,
    pub minimum_order_qty: i32,
}

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, serde::Serialize)]
#[diesel(table_name = deposits)]
pub struct Deposit {
    pub id: i32,
    pub name: String,
    pub amount: i64,
    pub product_id: Option<i32>,
    pub packaging_id: Option<i32>,
}

/// One item of a cart: its product as the catalog has it now, and the units.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub product: Product,
    pub quantity: i32,
}

/// The owner's cart, if it has one.
pub fn find(conn: &mut AnyConnection, owner: Owner) -> QueryResult<Option<CartRow>> {
    // Two statements of fixed shape (prepared once per connection), not one boxed query.
    let q = carts::table.select(CartRow::as_select());
    match owner {
        Owner::Member(id) => q.filter(carts::user_id.eq(id.get())).first(conn),
        // A key of a token without an id is its hash alone: a cart begun before keys carried
        // their time is found by the hash after the id (two lookups of one unique index; an
        // `OR`, not `IN (…)`, which SQLite's statements would not keep prepared). Were both
        // there (a server of the version before beside one of this, each making the cart it
        // could not find), the first made is the cart, always the same.
        Owner::Guest(key) => q
            .filter(
                carts::guest_key
                    .eq(key)
                    .or(carts::guest_key.eq(hash_of_key(key))),
            )
            .order(carts::id)
            .first(conn),
    }
    .optional()
}

/// A guest cart's key: the id its token carries (when it carries one) in 16 hex digits, then the
/// token's hash; keys of carts begun together sort together.
pub fn guest_key(id: Option<i64>, hash: String) -> String {
    match id {
        Some(id) => format!("{id:016x}{hash}"),
        None => hash,
    }
}

/// The hash part of a guest cart's key ([`guest_key`]): after the id's 16 hex digits, if it has
/// them.
fn hash_of_key(key: &str) -> &str {
    match key.get(16..) {
        Some(hash) if key.len() == 80 => hash,
        _ => key,
    }
}

/// The owner's cart, made empty when it has none (two first adds at once make one cart).
pub fn find_or_create(conn: &mut AnyConnection, owner: Owner, now: i64) -> QueryResult<CartRow> {
    if let Some(cart) = find(conn, owner)? {
        return Ok(cart);
    }
    create(conn, owner, now)?;
    find(conn, owner)?.ok_or(diesel::result::Error::NotFound)
}

/// Makes the owner's cart, empty, unless it has one (two first made at once make one cart: the
/// second waits for the first and then makes none).
pub fn create(conn: &mut AnyConnection, owner: Owner, now: i64) -> QueryResult<()> {
    use diesel::sql_types::{BigInt, Nullable, Text};
    const INSERT: &str = "INSERT INTO carts (user_id, guest_key, updated_at) VALUES ($1, $2, $3) \
        ON CONFLICT DO NOTHING";
    let (user, guest) = match owner {
        Owner::Member(id) => (Some(id.get()), None),
        Owner::Guest(key) => (None, Some(key.to_string())),
    };
    match conn {
        AnyConnection::Postgresql(c) => diesel::sql_query(INSERT)
            .bind::<Nullable<BigInt>, _>(user)
            .bind::<Nullable<Text>, _>(guest)
            .bind::<BigInt, _>(now)
            .execute(c)?,
        AnyConnection::Sqlite(c) => diesel::sql_query(INSERT.replace('$', "?"))
            .bind::<Nullable<BigInt>, _>(user)
            .bind::<Nullable<Text>, _>(guest)
            .bind::<BigInt, _>(now)
            .execute(c)?,
    };
    Ok(())
}

/// Takes the cart for a change (first statement of the change's transaction) and counts the
/// change: its revision goes up by one. Answers the new revision.
pub fn lock(conn: &mut AnyConnection, cart: i64, now: i64) -> QueryResult<i64> {
    crate::cart_statements::Lock { cart, now }.get_result(conn)
}

/// As [`lock`], and prices the cart for `barangay` (and `street`) from now on, in one statement:
/// the cart after.
pub fn lock_placed(
    conn: &mut AnyConnection,
    cart: i64,
    now: i64,
    barangay: domain::BarangayId,
    street: Option<domain::StreetId>,
) -> QueryResult<CartRow> {
    crate::cart_statements::LockPlaced {
        cart,
        now,
        barangay: barangay.get(),
        street: street.map(domain::StreetId::get),
    }
    .get_result(conn)
}

/// As [`lock_placed`], for the owner's cart, made empty first when the owner has none: the cart
/// after. The cart is found in the statement that takes it, one round trip where [`find`] and
/// [`lock_placed`] are two; its first statement is a write (SQLite's lock at once).
pub fn lock_owner_placed(
    conn: &mut AnyConnection,
    owner: Owner,
    now: i64,
    barangay: domain::BarangayId,
    street: Option<domain::StreetId>,
) -> QueryResult<CartRow> {
    if let Some(cart) = take_owner_placed(conn, owner, now, barangay, street)? {
        return Ok(cart);
    }
    create(conn, owner, now)?;
    take_owner_placed(conn, owner, now, barangay, street)?.ok_or(diesel::result::Error::NotFound)
}

/// [`lock_owner_placed`]'s statement: none when the owner has no cart (nothing changed then).
fn take_owner_placed(
    conn: &mut AnyConnection,
    owner: Owner,
    now: i64,
    barangay: domain::BarangayId,
    street: Option<domain::StreetId>,
) -> QueryResult<Option<CartRow>> {
    let barangay = barangay.get();
    let street = street.map(domain::StreetId::get);
    match owner {
        Owner::Member(user) => crate::cart_statements::LockMemberPlaced {
            user: user.get(),
            now,
            barangay,
            street,
        }
        .get_result(conn),
        Owner::Guest(key) => crate::cart_statements::LockGuestPlaced {
            key,
            hash: hash_of_key(key),
            now,
            barangay,
            street,
        }
        .get_result(conn),
    }
    .optional()
}

/// The revisions `source` was recorded with for the cart other than `revision` (a client's key
/// sent before with another change: [`record_once`]'s revision is then the change's digest).
pub fn recorded_otherwise(
    conn: &mut AnyConnection,
    cart: i64,
    source: &str,
    revision: i64,
) -> QueryResult<Vec<i64>> {
    cart_refills::table
        .filter(cart_refills::cart_id.eq(cart))
        .filter(cart_refills::source.eq(source))
        .filter(cart_refills::revision.ne(revision))
        .select(cart_refills::revision)
        .load(conn)
}

/// Records a change of the cart made once, as the first statement of its transaction: a refill
/// of `source` (`order 42`, `goto case 7`) against the cart's `revision`, or a change the client
/// named by its key (`add <key>`, `goto save <key>`) with the change's digest as its revision
/// (0: recorded before digests). False when it was recorded before (a double click, a retry, a
/// second tab), and then nothing is to be changed. A concurrent change of the same waits here
/// for the first to end; when that one fails (rolls back) this one goes on. The rows (table
/// `cart_refills`, named for the first of them) go with their cart.
pub fn record_once(
    conn: &mut AnyConnection,
    cart: i64,
    source: &str,
    revision: i64,
    now: i64,
) -> QueryResult<bool> {
    let q = crate::cart_statements::RecordOnce {
        cart,
        source,
        revision,
        now,
    };
    Ok(q.execute(conn)? == 1)
}

/// Takes the cart for a transaction that reads it before deciding (placing an order, a change
/// the client keyed) without counting a change.
pub fn hold(conn: &mut AnyConnection, cart: i64) -> QueryResult<()> {
    crate::cart_statements::Hold { cart }
        .execute(conn)
        .map(|_| ())
}

/// The cart's items with their products, oldest first.
pub fn items(conn: &mut AnyConnection, cart: i64) -> QueryResult<Vec<Item>> {
    let rows: Vec<(Product, i32)> = cart_items::table
        .inner_join(products::table)
        .filter(cart_items::cart_id.eq(cart))
        .order((cart_items::added_at, cart_items::product_id))
        .select((Product::as_select(), cart_items::quantity))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(product, quantity)| Item { product, quantity })
        .collect())
}

/// What a cart holds, without its products: its lines (each product's id and units, oldest first,
/// as [`items`] has them) and its returned empties (as [`empties`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Contents {
    pub lines: Vec<(ProductId, i32)>,
    pub empties: Vec<(i32, i32)>,
}

/// The cart's [`Contents`], in one read. A caller that keeps the catalog's products
/// (`api::cart`, under the data version) reads this instead of [`items`] and [`empties`]: one
/// round trip where they are two, and no join of every line's product row, which cost the
/// database the most of an add's statements.
pub fn contents(conn: &mut AnyConnection, cart: i64) -> QueryResult<Contents> {
    let rows: Vec<(i32, i32, i32, i64)> =
        crate::cart_statements::ReadContents { cart }.load(conn)?;
    let mut contents = Contents::default();
    for (kind, id, count, _) in rows {
        match kind {
            0 => contents.lines.push((ProductId::from_db(id), count)),
            _ => contents.empties.push((id, count)),
        }
    }
    Ok(contents)
}

/// The units of one product in the cart (0 when it holds none).
pub fn quantity_of(conn: &mut AnyConnection, cart: i64, product: ProductId) -> QueryResult<i32> {
    Ok(cart_items::table
        .find((cart, product.get()))
        .select(cart_items::quantity)
        .first(conn)
        .optional()?
        .unwrap_or(0))
}

/// How many different products the cart holds.
pub fn count_items(conn: &mut AnyConnection, cart: i64) -> QueryResult<i64> {
    cart_items::table
        .filter(cart_items::cart_id.eq(cart))
        .count()
        .get_result(conn)
}

/// Sets the units of a product (adding it when new).
pub fn set_quantity(
    conn: &mut AnyConnection,
    cart: i64,
    product: ProductId,
    quantity: i32,
    now: i64,
) -> QueryResult<()> {
    let changed = diesel::update(cart_items::table.find((cart, product.get())))
        .set(cart_items::quantity.eq(quantity))
        .execute(conn)?;
    if changed == 0 {
        diesel::insert_into(cart_items::table)
            .values((
                cart_items::cart_id.eq(cart),
                cart_items::product_id.eq(product.get()),
                cart_items::quantity.eq(quantity),
                cart_items::added_at.eq(now),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// Adds `quantity` units of `product` to the cart (a new item is added `now`) when the units come
/// to at most `most`, in one statement: whether they were added.
pub fn add_quantity(
    conn: &mut AnyConnection,
    cart: i64,
    product: ProductId,
    quantity: i32,
    most: i32,
    now: i64,
) -> QueryResult<bool> {
    let q = crate::cart_statements::AddUnits {
        cart,
        product: product.get(),
        quantity,
        most,
        now,
    };
    Ok(q.execute(conn)? == 1)
}

/// Removes products; answers how many were there.
pub fn remove(conn: &mut AnyConnection, cart: i64, products: &[ProductId]) -> QueryResult<usize> {
    let ids: Vec<i32> = products.iter().map(|p| p.get()).collect();
    diesel::delete(
        cart_items::table
            .filter(cart_items::cart_id.eq(cart))
            .filter(cart_items::product_id.eq_any(ids)),
    )
    .execute(conn)
}

/// Empties the cart (items and returned empties).
pub fn clear(conn: &mut AnyConnection, cart: i64) -> QueryResult<()> {
    diesel::delete(cart_items::table.filter(cart_items::cart_id.eq(cart))).execute(conn)?;
    diesel::delete(cart_empties::table.filter(cart_empties::cart_id.eq(cart))).execute(conn)?;
    Ok(())
}

/// Where the cart was last priced for (checkout's place).
pub fn set_place(
    conn: &mut AnyConnection,
    cart: i64,
    barangay: domain::BarangayId,
    street: Option<domain::StreetId>,
) -> QueryResult<()> {
    diesel::update(carts::table.find(cart))
        .set((
            carts::barangay_id.eq(barangay.get()),
            carts::street_id.eq(street.map(domain::StreetId::get)),
        ))
        .execute(conn)
        .map(|_| ())
}

/// The empty cases returned, per deposit row.
pub fn empties(conn: &mut AnyConnection, cart: i64) -> QueryResult<Vec<(i32, i32)>> {
    cart_empties::table
        .filter(cart_empties::cart_id.eq(cart))
        .order(cart_empties::deposit_id)
        .select((cart_empties::deposit_id, cart_empties::cases))
        .load(conn)
}

/// Sets how many empty cases of a deposit row the shopper returns (0 returns none).
pub fn set_empties(
    conn: &mut AnyConnection,
    cart: i64,
    deposit: i32,
    cases: i32,
) -> QueryResult<()> {
    diesel::delete(cart_empties::table.find((cart, deposit))).execute(conn)?;
    if cases > 0 {
        diesel::insert_into(cart_empties::table)
            .values((
                cart_empties::cart_id.eq(cart),
                cart_empties::deposit_id.eq(deposit),
                cart_empties::cases.eq(cases),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// Moves a guest's cart into a member's: quantities add per product up to `max` units; a
/// product the member's cart lacks comes over while it holds fewer than `max_products`. The
/// guest's cart is deleted. Answers what did not fit, product by product.
pub fn merge(
    conn: &mut AnyConnection,
    from: i64,
    into: i64,
    max: i32,
    max_products: i64,
    now: i64,
) -> QueryResult<Vec<String>> {
    lock(conn, into, now)?;
    let mut left_out = Vec::new();
    for item in items(conn, from)? {
        let id = item.product.id;
        let have = quantity_of(conn, into, id)?;
        if have == 0 && count_items(conn, into)? >= max_products {
            left_out.push(format!(
                "{} (the cart holds {max_products} products at most)",
                item.product.product_name
            ));
            continue;
        }
        if have + item.quantity > max {
            left_out.push(format!(
                "{} ({} of {} units: {max} at most)",
                item.product.product_name,
                max - have,
                item.quantity
            ));
        }
        set_quantity(conn, into, id, (have + item.quantity).min(max), now)?;
    }
    for (deposit, cases) in empties(conn, from)? {
        let have: i32 = cart_empties::table
            .find((into, deposit))
            .select(cart_empties::cases)
            .first(conn)
            .optional()?
            .unwrap_or(0);
        set_empties(conn, into, deposit, (have + cases).min(max))?;
    }
    retire(conn, from, into)?;
    Ok(left_out)
}

/// Deletes the cart `from` whose shopper now shops with `into` (a guest who logged in): what it
/// recorded as made once (a keyed add, a refill) is recorded for `into`, so a retry of such a
/// change that arrives after the login changes nothing there either.
pub fn retire(conn: &mut AnyConnection, from: i64, into: i64) -> QueryResult<()> {
    use diesel::sql_types::BigInt;
    const HAND_OVER: &str = "INSERT INTO cart_refills (cart_id, source, revision, refilled_at) \
        SELECT $1, source, revision, refilled_at FROM cart_refills WHERE cart_id = $2 \
        ON CONFLICT DO NOTHING";
    match conn {
        AnyConnection::Postgresql(c) => diesel::sql_query(HAND_OVER)
            .bind::<BigInt, _>(into)
            .bind::<BigInt, _>(from)
            .execute(c)?,
        AnyConnection::Sqlite(c) => diesel::sql_query(HAND_OVER.replace('$', "?"))
            .bind::<BigInt, _>(into)
            .bind::<BigInt, _>(from)
            .execute(c)?,
    };
    delete(conn, from)
}

/// Deletes a cart.
pub fn delete(conn: &mut AnyConnection, cart: i64) -> QueryResult<()> {
    diesel::delete(carts::table.find(cart))
        .execute(conn)
        .map(|_| ())
}

pub fn case_types(conn: &mut AnyConnection) -> QueryResult<Vec<CaseType>> {
    case_types::table
        .order(case_types::packaging_id)
        .select(CaseType::as_select())
        .load(conn)
}

pub fn deposits(conn: &mut AnyConnection) -> QueryResult<Vec<Deposit>> {
    deposits::table
        .order(deposits::id)
        .select(Deposit::as_select())
        .load(conn)
}

/// A delivery fee: a city's, for a fulfillment type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct DeliveryFee {
    pub city: CityId,
    pub fulfillment: FulfillmentId,
    pub amount: i64,
}

/// Every delivery fee (a city and fulfillment type without a row has none).
pub fn delivery_fees(conn: &mut AnyConnection) -> QueryResult<Vec<DeliveryFee>> {
    Ok(delivery_fees::table
        .order((delivery_fees::city_id, delivery_fees::fulfillment_type_id))
        .select((
            delivery_fees::city_id,
            delivery_fees::fulfillment_type_id,
            delivery_fees::amount,
        ))
        .load::<(i64, i32, i64)>(conn)?
        .into_iter()
        .map(|(city, fulfillment, amount)| DeliveryFee {
            city: CityId::from_db(city),
            fulfillment: FulfillmentId::from_db(fulfillment),
            amount,
        })
        .collect())
}

/// Of `products`, those listed as sold in `city` (products sold everywhere are not listed).
pub fn listed_in_city(
    conn: &mut AnyConnection,
    city: CityId,
    products: &[ProductId],
) -> QueryResult<Vec<ProductId>> {
    // One lookup by the key per product (a cart holds a few): a statement of one shape, prepared
    // once per connection, where a list of a cart's length (`IN (...)`) is prepared again on every
    // call, and that preparing cost more than the lookups.
    let mut listed = Vec::with_capacity(products.len());
    for &product in products {
        let found = product_areas::table
            .find((product.get(), city.get()))
            .select(product_areas::product_id)
            .first::<i32>(conn)
            .optional()?;
        if found.is_some() {
            listed.push(product);
        }
    }
    Ok(listed)
}

/// A product as the catalog has it now.
pub fn product(conn: &mut AnyConnection, id: ProductId) -> QueryResult<Option<Product>> {
    products::table
        .find(id.get())
        .select(Product::as_select())
        .first(conn)
        .optional()
}

#[cfg(test)]
mod tests {
    use super::{guest_key, hash_of_key};

    #[test]
    fn a_guest_key_is_found_by_its_hash_after_the_id() {
        let hash = "ab".repeat(32);
        let key = guest_key(Some(42), hash.clone());
        assert_eq!(key, format!("{:016x}{hash}", 42));
        assert_eq!(hash_of_key(&key), hash);
        assert_eq!(hash_of_key(&hash), hash, "a key without an id is its hash");
        assert_eq!(hash_of_key("short"), "short");
    }
}
