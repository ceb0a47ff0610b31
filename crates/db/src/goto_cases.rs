//! Go-to Cases: a member's named cases, each of one case type, kept to refill the cart
//! from later. Every function is scoped to its member: another member's case is not found. A
//! change runs in a write transaction that starts with [`hold_member`], so two changes by one
//! member (two tabs, a double click) run one after the other and the limits hold.

use diesel::prelude::*;

use crate::carts::Item;
use crate::models::Product;
use crate::schema::*;
use crate::AnyConnection;
use domain::{ProductId, UserId};

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = goto_cases)]
pub struct GotoCaseRow {
    pub id: i64,
    pub user_id: i64,
    pub name: String,
    pub packaging_id: i32,
    pub created_at: i64,
    pub updated_at: i64,
}

/// The key a name is unique by: "Friday", "FRIDAY" and "Ｆｒｉｄａｙ" are one name
/// ([`domain::naming::key`]).
pub fn name_key(name: &str) -> String {
    domain::naming::key(name)
}

/// Takes the member's row for a change of their Go-to Cases (first statement of the change's
/// transaction): concurrent changes by one member wait their turn.
pub fn hold_member(conn: &mut AnyConnection, user: UserId) -> QueryResult<()> {
    diesel::update(users::table.find(user.get()))
        .set(users::created_at.eq(users::created_at))
        .execute(conn)
        .map(|_| ())
}

/// The member's Go-to Cases, oldest first.
pub fn list(conn: &mut AnyConnection, user: UserId) -> QueryResult<Vec<GotoCaseRow>> {
    goto_cases::table
        .filter(goto_cases::user_id.eq(user.get()))
        .order(goto_cases::id)
        .select(GotoCaseRow::as_select())
        .load(conn)
}

/// One of the member's Go-to Cases (none when unknown or another member's).
pub fn find(conn: &mut AnyConnection, user: UserId, id: i64) -> QueryResult<Option<GotoCaseRow>> {
    goto_cases::table
        .filter(goto_cases::id.eq(id))
        .filter(goto_cases::user_id.eq(user.get()))
        .select(GotoCaseRow::as_select())
        .first(conn)
        .optional()
}

/// The member's Go-to Case of this name, whatever its case.
pub fn find_by_name(
    conn: &mut AnyConnection,
    user: UserId,
    name: &str,
) -> QueryResult<Option<GotoCaseRow>> {
    goto_cases::table
        .filter(goto_cases::user_id.eq(user.get()))
        .filter(goto_cases::name_key.eq(name_key(name)))
        .select(GotoCaseRow::as_select())
        .first(conn)
        .optional()
}

/// How many Go-to Cases the member has.
pub fn count(conn: &mut AnyConnection, user: UserId) -> QueryResult<i64> {
    goto_cases::table
        .filter(goto_cases::user_id.eq(user.get()))
        .count()
        .get_result(conn)
}

/// The items of the given cases with their products as the catalog has them now, each with its
/// case's id, in the order they were added.
pub fn items(conn: &mut AnyConnection, cases: &[i64]) -> QueryResult<Vec<(i64, Item)>> {
    let rows: Vec<(i64, Product, i32)> = goto_case_items::table
        .inner_join(products::table)
        .filter(goto_case_items::goto_case_id.eq_any(cases))
        .order((goto_case_items::added_at, goto_case_items::product_id))
        .select((
            goto_case_items::goto_case_id,
            Product::as_select(),
            goto_case_items::quantity,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(case, product, quantity)| (case, Item { product, quantity }))
        .collect())
}

/// Makes a Go-to Case; answers its id.
pub fn create(
    conn: &mut AnyConnection,
    user: UserId,
    name: &str,
    packaging: i32,
    now: i64,
) -> QueryResult<i64> {
    diesel::insert_into(goto_cases::table)
        .values((
            goto_cases::user_id.eq(user.get()),
            goto_cases::name.eq(name.trim()),
            goto_cases::name_key.eq(name_key(name)),
            goto_cases::packaging_id.eq(packaging),
            goto_cases::created_at.eq(now),
            goto_cases::updated_at.eq(now),
        ))
        .execute(conn)?;
    find_by_name(conn, user, name)?
        .map(|c| c.id)
        .ok_or(diesel::result::Error::NotFound)
}

/// Renames a Go-to Case (the unique index refuses a name the member already uses).
pub fn rename(conn: &mut AnyConnection, id: i64, name: &str, now: i64) -> QueryResult<()> {
    diesel::update(goto_cases::table.find(id))
        .set((
            goto_cases::name.eq(name.trim()),
            goto_cases::name_key.eq(name_key(name)),
            goto_cases::updated_at.eq(now),
        ))
        .execute(conn)
        .map(|_| ())
}

/// Counts a change of the case (its items).
pub fn touch(conn: &mut AnyConnection, id: i64, now: i64) -> QueryResult<()> {
    diesel::update(goto_cases::table.find(id))
        .set(goto_cases::updated_at.eq(now))
        .execute(conn)
        .map(|_| ())
}

/// Sets the units of a product in a case (adding it when new).
pub fn set_quantity(
    conn: &mut AnyConnection,
    case: i64,
    product: ProductId,
    quantity: i32,
    now: i64,
) -> QueryResult<()> {
    let changed = diesel::update(goto_case_items::table.find((case, product.get())))
        .set(goto_case_items::quantity.eq(quantity))
        .execute(conn)?;
    if changed == 0 {
        diesel::insert_into(goto_case_items::table)
            .values((
                goto_case_items::goto_case_id.eq(case),
                goto_case_items::product_id.eq(product.get()),
                goto_case_items::quantity.eq(quantity),
                goto_case_items::added_at.eq(now),
            ))
            .execute(conn)?;
    }
    Ok(())
}

/// Removes products from a case; answers how many were there.
pub fn remove(conn: &mut AnyConnection, case: i64, products: &[ProductId]) -> QueryResult<usize> {
    let ids: Vec<i32> = products.iter().map(|p| p.get()).collect();
    diesel::delete(
        goto_case_items::table
            .filter(goto_case_items::goto_case_id.eq(case))
            .filter(goto_case_items::product_id.eq_any(ids)),
    )
    .execute(conn)
}

/// Deletes one of the member's cases (with its items); answers whether it was there.
pub fn delete(conn: &mut AnyConnection, user: UserId, id: i64) -> QueryResult<bool> {
    diesel::delete(
        goto_cases::table
            .filter(goto_cases::id.eq(id))
            .filter(goto_cases::user_id.eq(user.get())),
    )
    .execute(conn)
    .map(|n| n > 0)
}
