//! Orders: written in one transaction with the cart they empty, keyed by the cart
//! revision they were placed from so that one revision makes one order; their own copy of names,
//! prices, deposits and fee; status with its history; and when checkout takes orders. Each
//! function takes a connection, so several compose in one `conn.transaction(...)`.

use diesel::prelude::*;

use crate::schema::*;
use crate::AnyConnection;

/// When checkout takes orders: the operating hours ('HH:MM', Manila) and the blackout windows
/// ('YYYY-MM-DD HH:MM', both minutes included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckoutWindow {
    pub opens: String,
    pub closes: String,
    pub blackouts: Vec<(String, String)>,
}

pub fn checkout_window(conn: &mut AnyConnection) -> QueryResult<CheckoutWindow> {
    let hours: Vec<(String, String)> = settings::table
        .filter(settings::key.eq_any(["checkout_opens", "checkout_closes"]))
        .select((settings::key, settings::value))
        .load(conn)?;
    let get = |k: &str, d: &str| {
        hours
            .iter()
            .find(|(key, _)| key == k)
            .map_or_else(|| d.to_string(), |(_, v)| v.clone())
    };
    Ok(CheckoutWindow {
        opens: get("checkout_opens", "08:00"),
        closes: get("checkout_closes", "22:00"),
        blackouts: checkout_blackouts::table
            .order(checkout_blackouts::id)
            .select((checkout_blackouts::starts_at, checkout_blackouts::ends_at))
            .load(conn)?,
    })
}

/// An order as it is written and read.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = orders)]
pub struct OrderRow {
    #[diesel(skip_insertion)]
    pub id: i64,
    pub user_id: Option<i64>,
    pub access_hash: String,
    pub idempotency_key: String,
    pub status: String,
    pub fulfillment_type_id: i32,
    pub fulfillment_name: String,
    pub payment: String,
    pub contact_name: String,
    pub mobile: String,
    pub email: String,
    pub address: String,
    pub barangay_id: i64,
    pub street_id: Option<i32>,
    pub place: String,
    pub notes: String,
    pub items_total: i64,
    pub deposits_total: i64,
    pub delivery_fee: i64,
    pub total: i64,
    pub placed_at: i64,
    /// Whether its confirmation was mailed (a guest's is held past 3 an address an hour).
    pub confirmation_mailed: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = order_items)]
pub struct OrderItemRow {
    pub order_id: i64,
    pub line: i32,
    pub product_id: i32,
    pub product_name: String,
    pub sku: String,
    pub case_name: String,
    pub unit_price: i64,
    pub price_per_case: i64,
    pub unit_per_case: i32,
    pub quantity: i32,
    pub amount: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = order_charges)]
pub struct OrderChargeRow {
    pub order_id: i64,
    pub line: i32,
    pub name: String,
    pub amount: i64,
}

/// An order with its lines, charges and status history (oldest first: status, Unix seconds).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FullOrder {
    pub order: OrderRow,
    pub items: Vec<OrderItemRow>,
    pub charges: Vec<OrderChargeRow>,
    /// Each step: its status, when (Unix seconds), and why when it was given (a cancellation's).
    pub history: Vec<(String, i64, String)>,
}

/// The order placed under an idempotency key, if any.
pub fn by_idempotency_key(conn: &mut AnyConnection, key: &str) -> QueryResult<Option<OrderRow>> {
    orders::table
        .filter(orders::idempotency_key.eq(key))
        .select(OrderRow::as_select())
        .first(conn)
        .optional()
}

/// Writes an order with its items, charges and first status; answers its id. The caller holds
/// the transaction (with the cart it empties).
pub fn insert(
    conn: &mut AnyConnection,
    order: &OrderRow,
    items: &[OrderItemRow],
    charges: &[OrderChargeRow],
) -> QueryResult<i64> {
    diesel::insert_into(orders::table)
        .values(order)
        .execute(conn)?;
    let id: i64 = orders::table
        .filter(orders::idempotency_key.eq(&order.idempotency_key))
        .select(orders::id)
        .first(conn)?;
    for item in items {
        let mut item = item.clone();
        item.order_id = id;
        diesel::insert_into(order_items::table)
            .values(&item)
            .execute(conn)?;
    }
    for charge in charges {
        let mut charge = charge.clone();
        charge.order_id = id;
        diesel::insert_into(order_charges::table)
            .values(&charge)
            .execute(conn)?;
    }
    diesel::insert_into(order_status_history::table)
        .values((
            order_status_history::order_id.eq(id),
            order_status_history::seq.eq(1),
            order_status_history::status.eq(&order.status),
            order_status_history::at.eq(order.placed_at),
        ))
        .execute(conn)?;
    Ok(id)
}

/// One order with everything it keeps.
pub fn full(conn: &mut AnyConnection, id: i64) -> QueryResult<Option<FullOrder>> {
    let Some(order) = orders::table
        .find(id)
        .select(OrderRow::as_select())
        .first(conn)
        .optional()?
    else {
        return Ok(None);
    };
    let items = order_items::table
        .filter(order_items::order_id.eq(id))
        .order(order_items::line)
        .select(OrderItemRow::as_select())
        .load(conn)?;
    let charges = order_charges::table
        .filter(order_charges::order_id.eq(id))
        .order(order_charges::line)
        .select(OrderChargeRow::as_select())
        .load(conn)?;
    let history = order_status_history::table
        .filter(order_status_history::order_id.eq(id))
        .order(order_status_history::seq)
        .select((
            order_status_history::status,
            order_status_history::at,
            order_status_history::note,
        ))
        .load(conn)?;
    Ok(Some(FullOrder {
        order,
        items,
        charges,
        history,
    }))
}

/// A member's orders, newest first: `limit` of them after skipping `offset`; and how many there
/// are in all.
pub fn of_member(
    conn: &mut AnyConnection,
    user: domain::UserId,
    offset: i64,
    limit: i64,
) -> QueryResult<(Vec<OrderRow>, i64)> {
    let total = orders::table
        .filter(orders::user_id.eq(user.get()))
        .count()
        .get_result(conn)?;
    let rows = orders::table
        .filter(orders::user_id.eq(user.get()))
        .order(orders::id.desc())
        .offset(offset)
        .limit(limit)
        .select(OrderRow::as_select())
        .load(conn)?;
    Ok((rows, total))
}
