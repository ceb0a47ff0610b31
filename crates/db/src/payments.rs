//! Paying online: the Checkout Sessions an order awaiting payment was given, the payments the
//! gateway reported (each once, by its id), and the webhook events taken (each once). Each
//! function takes a connection, so several compose in one transaction.

use diesel::prelude::*;

use crate::schema::*;
use crate::AnyConnection;

/// A Checkout Session of an order: the gateway's id, which attempt of the order it is, the
/// address of its hosted page, and whether it is `open`, `paid` or `expired`.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = checkout_sessions)]
pub struct CheckoutSessionRow {
    pub id: String,
    pub order_id: i64,
    pub attempt: i32,
    pub url: String,
    pub created_at: i64,
    pub state: String,
}

/// A payment the gateway reported: `problem` empty when it was taken as its order's payment,
/// else why not (staff refund it).
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = payments)]
pub struct PaymentRow {
    pub id: String,
    pub order_id: i64,
    pub checkout_session_id: String,
    pub amount: i64,
    pub currency: String,
    pub method: String,
    pub paid_at: i64,
    pub received_at: i64,
    pub problem: String,
}

/// The order's newest Checkout Session, if it was given one.
pub fn newest_session(
    conn: &mut AnyConnection,
    order_id: i64,
) -> QueryResult<Option<CheckoutSessionRow>> {
    checkout_sessions::table
        .filter(checkout_sessions::order_id.eq(order_id))
        .order(checkout_sessions::attempt.desc())
        .select(CheckoutSessionRow::as_select())
        .first(conn)
        .optional()
}

/// The Checkout Session of that id.
pub fn session(conn: &mut AnyConnection, id: &str) -> QueryResult<Option<CheckoutSessionRow>> {
    checkout_sessions::table
        .find(id)
        .select(CheckoutSessionRow::as_select())
        .first(conn)
        .optional()
}

/// Keeps a session the gateway made; `false` when the order already has one of that attempt (a
/// retried creation answered with the same session: kept once).
pub fn add_session(conn: &mut AnyConnection, row: &CheckoutSessionRow) -> QueryResult<bool> {
    let q = diesel::insert_into(checkout_sessions::table)
        .values(row)
        .on_conflict_do_nothing();
    let inserted = match conn {
        AnyConnection::Postgresql(c) => q.execute(c)?,
        AnyConnection::Sqlite(c) => q.execute(c)?,
    };
    Ok(inserted == 1)
}

/// Sets a session's state (`paid`, `expired`).
pub fn set_session_state(conn: &mut AnyConnection, id: &str, state: &str) -> QueryResult<usize> {
    diesel::update(checkout_sessions::table.find(id))
        .set(checkout_sessions::state.eq(state))
        .execute(conn)
}

/// Takes a webhook event once: `false` when it was taken before (sent again, or replayed).
pub fn take_event(
    conn: &mut AnyConnection,
    id: &str,
    kind: &str,
    received_at: i64,
) -> QueryResult<bool> {
    let q = diesel::insert_into(payment_events::table)
        .values((
            payment_events::id.eq(id),
            payment_events::kind.eq(kind),
            payment_events::received_at.eq(received_at),
        ))
        .on_conflict_do_nothing();
    let inserted = match conn {
        AnyConnection::Postgresql(c) => q.execute(c)?,
        AnyConnection::Sqlite(c) => q.execute(c)?,
    };
    Ok(inserted == 1)
}

/// Records a payment once: `false` when a payment of that id was recorded before.
pub fn add_payment(conn: &mut AnyConnection, row: &PaymentRow) -> QueryResult<bool> {
    let q = diesel::insert_into(payments::table)
        .values(row)
        .on_conflict_do_nothing();
    let inserted = match conn {
        AnyConnection::Postgresql(c) => q.execute(c)?,
        AnyConnection::Sqlite(c) => q.execute(c)?,
    };
    Ok(inserted == 1)
}

/// The payments recorded for an order, oldest first.
pub fn of_order(conn: &mut AnyConnection, order_id: i64) -> QueryResult<Vec<PaymentRow>> {
    payments::table
        .filter(payments::order_id.eq(order_id))
        .order((payments::received_at, payments::id))
        .select(PaymentRow::as_select())
        .load(conn)
}

/// Sets how an order is paid, as its pages and the board show it (`Paid online (GCash)`).
pub fn set_payment_label(conn: &mut AnyConnection, order_id: i64, label: &str) -> QueryResult<()> {
    diesel::update(orders::table.find(order_id))
        .set(orders::payment.eq(label))
        .execute(conn)?;
    Ok(())
}

/// Orders still awaiting their payment that were placed before `cutoff` (Unix seconds), oldest
/// first, at most `limit`: the ones to expire.
pub fn unpaid_before(conn: &mut AnyConnection, cutoff: i64, limit: i64) -> QueryResult<Vec<i64>> {
    orders::table
        .filter(orders::status.eq("awaiting_payment"))
        .filter(orders::placed_at.lt(cutoff))
        .order(orders::placed_at)
        .limit(limit)
        .select(orders::id)
        .load(conn)
}

/// Marks every open Checkout Session of an order expired.
pub fn expire_sessions(conn: &mut AnyConnection, order_id: i64) -> QueryResult<usize> {
    diesel::update(
        checkout_sessions::table
            .filter(checkout_sessions::order_id.eq(order_id))
            .filter(checkout_sessions::state.eq("open")),
    )
    .set(checkout_sessions::state.eq("expired"))
    .execute(conn)
}

/// What was paid online and taken as their orders' payment, of `order_ids`: (order, centavos).
pub fn taken_of(conn: &mut AnyConnection, order_ids: &[i64]) -> QueryResult<Vec<(i64, i64)>> {
    payments::table
        .filter(payments::order_id.eq_any(order_ids))
        .filter(payments::problem.eq(""))
        .select((payments::order_id, payments::amount))
        .load(conn)
}

/// The payments the store learnt of from `start` to before `end` (Unix seconds), oldest first.
pub fn received_between(
    conn: &mut AnyConnection,
    start: i64,
    end: i64,
) -> QueryResult<Vec<PaymentRow>> {
    payments::table
        .filter(payments::received_at.ge(start))
        .filter(payments::received_at.lt(end))
        .order((payments::received_at, payments::id))
        .select(PaymentRow::as_select())
        .load(conn)
}

/// Holds order `id`'s row until the caller's transaction ends (a write that changes nothing), so
/// that what is read of it next stays true: a payment decided against the order's status is not
/// undone by a cancellation or a switch to cash committed meanwhile (PostgreSQL's writers wait
/// here; SQLite's take turns anyway).
pub fn hold_order(conn: &mut AnyConnection, id: i64) -> QueryResult<usize> {
    diesel::update(orders::table.find(id))
        .set(orders::status.eq(orders::status))
        .execute(conn)
}

/// Checkout Sessions still open whose order no longer awaits its payment (cancelled by staff):
/// at most `limit`.
pub fn open_of_ended(conn: &mut AnyConnection, limit: i64) -> QueryResult<Vec<String>> {
    checkout_sessions::table
        .inner_join(orders::table)
        .filter(checkout_sessions::state.eq("open"))
        .filter(orders::status.ne("awaiting_payment"))
        .order(checkout_sessions::created_at)
        .limit(limit)
        .select(checkout_sessions::id)
        .load(conn)
}

/// A refund of a payment, asked for by a manager: `state` is `asking` (sent, PayMongo's answer
/// not yet kept), `pending` or `succeeded` (PayMongo's), or `failed` (`detail` says why; it may be
/// asked again, under the next `attempt`).
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable, Insertable)]
#[diesel(table_name = refunds)]
pub struct RefundRow {
    pub payment_id: String,
    pub order_id: i64,
    pub amount: i64,
    pub reason: String,
    pub notes: String,
    pub staff_id: Option<i64>,
    pub attempt: i32,
    pub gateway_id: String,
    pub state: String,
    pub detail: String,
    pub asked_at: i64,
    pub updated_at: i64,
}

/// The payment of that id.
pub fn payment(conn: &mut AnyConnection, id: &str) -> QueryResult<Option<PaymentRow>> {
    payments::table
        .find(id)
        .select(PaymentRow::as_select())
        .first(conn)
        .optional()
}

/// The refund of payment `payment_id`, if one was asked for.
pub fn refund_of(conn: &mut AnyConnection, payment_id: &str) -> QueryResult<Option<RefundRow>> {
    refunds::table
        .find(payment_id)
        .select(RefundRow::as_select())
        .first(conn)
        .optional()
}

/// The refunds asked for an order's payments, each with the name of who asked (none when their
/// member of staff is gone).
pub fn refunds_of_order(
    conn: &mut AnyConnection,
    order_id: i64,
) -> QueryResult<Vec<(RefundRow, Option<String>)>> {
    refunds::table
        .left_join(staff::table)
        .filter(refunds::order_id.eq(order_id))
        .order(refunds::asked_at)
        .select((RefundRow::as_select(), staff::name.nullable()))
        .load(conn)
}

/// Keeps a refund being asked for: a new one, or one asked before again under `row`'s attempt
/// (who asks, why, PayMongo's id and state as `row` says; when it was first asked stays).
pub fn put_refund(conn: &mut AnyConnection, row: &RefundRow) -> QueryResult<()> {
    let q = diesel::insert_into(refunds::table)
        .values(row)
        .on_conflict(refunds::payment_id)
        .do_update()
        .set((
            refunds::reason.eq(&row.reason),
            refunds::notes.eq(&row.notes),
            refunds::staff_id.eq(row.staff_id),
            refunds::attempt.eq(row.attempt),
            refunds::gateway_id.eq(&row.gateway_id),
            refunds::state.eq(&row.state),
            refunds::detail.eq(&row.detail),
            refunds::updated_at.eq(row.updated_at),
        ));
    match conn {
        AnyConnection::Postgresql(c) => q.execute(c)?,
        AnyConnection::Sqlite(c) => q.execute(c)?,
    };
    Ok(())
}

/// The order of the payment `payment_id`'s refund, if one was asked for.
pub fn refund_order(conn: &mut AnyConnection, payment_id: &str) -> QueryResult<Option<i64>> {
    refunds::table
        .find(payment_id)
        .select(refunds::order_id)
        .first(conn)
        .optional()
}

/// The payments owed back, whatever day they came: those never taken as their order's, and
/// those of orders cancelled since; with their refunds, if asked for.
pub fn owed_back(conn: &mut AnyConnection) -> QueryResult<Vec<(PaymentRow, Option<RefundRow>)>> {
    payments::table
        .inner_join(orders::table)
        .left_join(refunds::table.on(refunds::payment_id.eq(payments::id)))
        .filter(payments::problem.ne("").or(orders::status.eq("cancelled")))
        .order((payments::received_at, payments::id))
        .select((PaymentRow::as_select(), Option::<RefundRow>::as_select()))
        .load(conn)
}

/// Refunds asked for and not yet known done (`asking`, or `pending` at PayMongo), last moved
/// before `before` (Unix seconds), at most `limit`, oldest first: the ones to read back.
pub fn refunds_to_read_back(
    conn: &mut AnyConnection,
    before: i64,
    limit: i64,
) -> QueryResult<Vec<RefundRow>> {
    refunds::table
        .filter(refunds::state.eq_any(["asking", "pending"]))
        .filter(refunds::updated_at.lt(before))
        .order(refunds::updated_at)
        .limit(limit)
        .select(RefundRow::as_select())
        .load(conn)
}

/// Keeps what PayMongo answered of the refund of `payment_id` asked under `attempt`: its id,
/// state and why (a failure's). An answer to an older attempt, or to a refund PayMongo's webhook
/// moved on meanwhile, changes nothing: `false`.
pub fn answer_refund(
    conn: &mut AnyConnection,
    payment_id: &str,
    attempt: i32,
    gateway_id: &str,
    state: &str,
    detail: &str,
    now: i64,
) -> QueryResult<bool> {
    let changed = diesel::update(
        refunds::table
            .find(payment_id)
            .filter(refunds::attempt.eq(attempt))
            .filter(refunds::state.eq("asking")),
    )
    .set((
        refunds::gateway_id.eq(gateway_id),
        refunds::state.eq(state),
        refunds::detail.eq(detail),
        refunds::updated_at.eq(now),
    ))
    .execute(conn)?;
    Ok(changed == 1)
}

/// Moves the refund of `payment_id` that PayMongo knows as `gateway_id` to `state` (its
/// webhook's news, or what it answered when read back), also when the refund call's own answer
/// is not kept yet; a refund that succeeded stays so, and one that failed moves only on news of
/// that same refund (an older event arriving late): `false` when nothing moved.
pub fn refund_moved(
    conn: &mut AnyConnection,
    payment_id: &str,
    gateway_id: &str,
    state: &str,
    now: i64,
) -> QueryResult<bool> {
    if gateway_id.is_empty() {
        return Ok(false);
    }
    let changed = diesel::update(
        refunds::table
            .find(payment_id)
            .filter(
                refunds::gateway_id
                    .eq(gateway_id)
                    .or(refunds::gateway_id.eq("")),
            )
            .filter(refunds::state.eq_any(["asking", "pending"])),
    )
    .set((
        refunds::gateway_id.eq(gateway_id),
        refunds::state.eq(state),
        refunds::updated_at.eq(now),
    ))
    .execute(conn)?;
    Ok(changed > 0)
}

/// Notes that refund `payment_id` was looked at `now` (it waits its turn again).
pub fn touch_refund(conn: &mut AnyConnection, payment_id: &str, now: i64) -> QueryResult<usize> {
    diesel::update(refunds::table.find(payment_id))
        .set(refunds::updated_at.eq(now))
        .execute(conn)
}

/// The refunds first asked from `start` to before `end` (Unix seconds), oldest first, each with
/// the name of who asked (none when their member of staff is gone) and whether its payment was
/// taken as its order's.
pub fn refunds_between(
    conn: &mut AnyConnection,
    start: i64,
    end: i64,
) -> QueryResult<Vec<(RefundRow, Option<String>, bool)>> {
    let rows: Vec<(RefundRow, Option<String>, String)> = refunds::table
        .inner_join(payments::table)
        .left_join(staff::table)
        .filter(refunds::asked_at.ge(start))
        .filter(refunds::asked_at.lt(end))
        .order((refunds::asked_at, refunds::payment_id))
        .select((
            RefundRow::as_select(),
            staff::name.nullable(),
            payments::problem,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(r, by, problem)| (r, by, problem.is_empty()))
        .collect())
}

/// The refunds of `payment_ids`.
pub fn refunds_of(conn: &mut AnyConnection, payment_ids: &[String]) -> QueryResult<Vec<RefundRow>> {
    refunds::table
        .filter(refunds::payment_id.eq_any(payment_ids))
        .select(RefundRow::as_select())
        .load(conn)
}
