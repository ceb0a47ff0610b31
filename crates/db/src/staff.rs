//! What the staff commands of the `store` binary do to the database, besides
//! the catalog file (`catalog_io`): the maintenance switch, the orders list and an order's
//! status, an online copy of a SQLite store, and whether the database is migrated. Each function
//! takes a connection, so several compose in one transaction.

use diesel::prelude::*;
use diesel_migrations::MigrationHarness;

use crate::orders::OrderRow;
use crate::schema::*;
use crate::{AnyConnection, DbError};

/// How many of this binary's migrations the database has not run.
pub fn pending_migrations(conn: &mut AnyConnection) -> Result<usize, DbError> {
    let pending = match conn {
        AnyConnection::Sqlite(c) => c
            .pending_migrations(crate::SQLITE_MIGRATIONS)
            .map(|v| v.len()),
        AnyConnection::Postgresql(c) => c
            .pending_migrations(crate::POSTGRES_MIGRATIONS)
            .map(|v| v.len()),
    };
    pending.map_err(|e| DbError::Migration(e.to_string()))
}

/// Writes a setting (`settings.key = value`), adding the row when there is none.
pub fn set_setting(conn: &mut AnyConnection, key: &str, value: &str) -> QueryResult<()> {
    let changed = diesel::update(settings::table.find(key))
        .set(settings::value.eq(value))
        .execute(conn)?;
    if changed == 0 {
        diesel::insert_into(settings::table)
            .values((settings::key.eq(key), settings::value.eq(value)))
            .execute(conn)?;
    }
    Ok(())
}

/// Switches maintenance on or off; answers whether it was the other way (the row changed). The
/// change is one conditional statement, so of two staff switching at once only one changes it
/// (PostgreSQL's second update waits for the first, then finds nothing to change).
pub fn switch_maintenance(conn: &mut AnyConnection, on: bool) -> QueryResult<bool> {
    let value = if on { "on" } else { "off" };
    let changed = diesel::update(
        settings::table
            .find("maintenance")
            .filter(settings::value.ne(value)),
    )
    .set(settings::value.eq(value))
    .execute(conn)?;
    if changed > 0 {
        return Ok(true);
    }
    let kept = crate::content::setting(conn, "maintenance")?;
    if kept.is_some() {
        return Ok(false);
    }
    // No row yet: off, as the watch reads it.
    if on {
        set_setting(conn, "maintenance", value)?;
    }
    Ok(on)
}

/// Whether the `settings.maintenance` row says the store is under maintenance (as
/// [`crate::Watch`] reads it).
pub fn maintenance(conn: &mut AnyConnection) -> QueryResult<bool> {
    Ok(crate::content::setting(conn, "maintenance")?
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("on")))
}

/// The orders placed at or after `since` (Unix seconds) with `status`, newest first: at most
/// `limit` of them, and how many match in all.
pub fn orders(
    conn: &mut AnyConnection,
    since: Option<i64>,
    status: Option<&str>,
    limit: i64,
) -> QueryResult<(Vec<OrderRow>, i64)> {
    let filtered = || {
        let mut q = orders::table.into_boxed();
        if let Some(since) = since {
            q = q.filter(orders::placed_at.ge(since));
        }
        if let Some(status) = status {
            q = q.filter(orders::status.eq(status.to_string()));
        }
        q
    };
    let total = filtered().count().get_result(conn)?;
    let rows = filtered()
        .order(orders::id.desc())
        .limit(limit)
        .select(OrderRow::as_select())
        .load(conn)?;
    Ok((rows, total))
}

/// Holds order `id` for a change of its status, as the first statement of the transaction:
/// a write that changes nothing, so that SQLite takes its write lock now (waiting its busy
/// timeout for another process's writer, where a transaction that read first would fail) and
/// PostgreSQL locks the row (staff moving one order take turns). Answers whether it exists.
pub fn hold_order(conn: &mut AnyConnection, id: i64) -> QueryResult<bool> {
    let held = diesel::update(orders::table.find(id))
        .set(orders::status.eq(orders::status))
        .execute(conn)?;
    Ok(held == 1)
}

/// Moves order `id` from status `from` to `to` at `at` (Unix seconds) and adds the step to its
/// history. Answers false, changing nothing, when the order is no longer at `from` (someone moved
/// it meanwhile): the update is conditional, so two staff moving one order cannot both win.
pub fn set_status(
    conn: &mut AnyConnection,
    id: i64,
    from: &str,
    to: &str,
    at: i64,
    note: &str,
) -> QueryResult<bool> {
    let moved = diesel::update(
        orders::table
            .filter(orders::id.eq(id))
            .filter(orders::status.eq(from)),
    )
    .set(orders::status.eq(to))
    .execute(conn)?;
    if moved == 0 {
        return Ok(false);
    }
    let last: Option<i32> = order_status_history::table
        .filter(order_status_history::order_id.eq(id))
        .select(diesel::dsl::max(order_status_history::seq))
        .first(conn)?;
    diesel::insert_into(order_status_history::table)
        .values((
            order_status_history::order_id.eq(id),
            order_status_history::seq.eq(last.unwrap_or(0) + 1),
            order_status_history::status.eq(to),
            order_status_history::at.eq(at),
            order_status_history::note.eq(note),
        ))
        .execute(conn)?;
    Ok(true)
}

/// Copies a SQLite database, while it serves, into a new file at `path` (`VACUUM INTO`: one read
/// transaction, so the copy is consistent and writers are not held up). SQLite refuses a path
/// that already holds a file. Not for PostgreSQL (`pg_dump` is its tool): answers `None` there.
pub fn backup_sqlite(conn: &mut AnyConnection, path: &str) -> Option<QueryResult<()>> {
    match conn {
        AnyConnection::Sqlite(c) => Some(
            diesel::sql_query("VACUUM INTO ?")
                .bind::<diesel::sql_types::Text, _>(path)
                .execute(c)
                .map(|_| ()),
        ),
        AnyConnection::Postgresql(_) => None,
    }
}

/// What a SQLite file holds, checked: `PRAGMA integrity_check` says "ok", and how many orders
/// and products it has.
pub fn check_sqlite_copy(path: &str) -> Result<(i64, i64), String> {
    #[derive(QueryableByName)]
    struct Check {
        #[diesel(sql_type = diesel::sql_types::Text)]
        integrity_check: String,
    }
    let mut c = diesel::SqliteConnection::establish(path).map_err(|e| e.to_string())?;
    let checks: Vec<Check> = diesel::sql_query("PRAGMA integrity_check")
        .load(&mut c)
        .map_err(|e| e.to_string())?;
    let words: Vec<String> = checks.into_iter().map(|c| c.integrity_check).collect();
    if words != ["ok"] {
        return Err(format!("integrity check: {}", words.join("; ")));
    }
    let orders: i64 = orders::table
        .count()
        .get_result(&mut c)
        .map_err(|e| e.to_string())?;
    let products: i64 = products::table
        .count()
        .get_result(&mut c)
        .map_err(|e| e.to_string())?;
    Ok((orders, products))
}

diesel::define_sql_function!(fn lower(x: diesel::sql_types::Text) -> diesel::sql_types::Text);

/// Which orders the staff's board shows: each filter left out is no filter. `text` is part of a
/// contact's name or mobile number (any case), `number` an order's id (from `TB-000042`).
#[derive(Debug, Clone, Default)]
pub struct BoardFilter {
    pub status: Option<String>,
    /// Placed at or after (Unix seconds).
    pub from: Option<i64>,
    /// Placed before (Unix seconds).
    pub until: Option<i64>,
    pub fulfillment: Option<i32>,
    /// Paid online (`true`: awaiting payment or paid), or in cash (`false`).
    pub online: Option<bool>,
    pub city: Option<i64>,
    pub barangay: Option<i64>,
    pub text: Option<String>,
    pub number: Option<i64>,
    /// Orders older than this id (the next page: keyset paging, newest first).
    pub before_id: Option<i64>,
    pub limit: i64,
}

/// `text` as a LIKE pattern (escaped by `\`) that matches it anywhere in lower case, its
/// wildcards taken literally: the board's text and the audit log's `who`.
pub(crate) fn contains_pattern(text: &str) -> String {
    let escaped: String = text
        .chars()
        .flat_map(|c| match c {
            '\\' | '%' | '_' => vec!['\\', c],
            c => vec![c],
        })
        .collect();
    format!("%{}%", escaped.to_lowercase())
}

/// A page of the board: the filter's orders, newest first.
pub fn board(conn: &mut AnyConnection, f: &BoardFilter) -> QueryResult<Vec<OrderRow>> {
    let mut q = orders::table
        .select(OrderRow::as_select())
        .order(orders::id.desc())
        .limit(f.limit)
        .into_boxed();
    if let Some(status) = &f.status {
        q = q.filter(orders::status.eq(status.clone()));
    }
    if let Some(from) = f.from {
        q = q.filter(orders::placed_at.ge(from));
    }
    if let Some(until) = f.until {
        q = q.filter(orders::placed_at.lt(until));
    }
    // How an order is paid, as its label says: `Pay online`, `Paid online (GCash)`.
    match f.online {
        Some(true) => q = q.filter(orders::payment.like("%online%")),
        Some(false) => q = q.filter(orders::payment.not_like("%online%")),
        None => {}
    }
    if let Some(fulfillment) = f.fulfillment {
        q = q.filter(orders::fulfillment_type_id.eq(fulfillment));
    }
    if let Some(barangay) = f.barangay {
        q = q.filter(orders::barangay_id.eq(barangay));
    }
    if let Some(city) = f.city {
        let in_city = barangays::table
            .filter(barangays::city_id.eq(city))
            .select(barangays::id);
        q = q.filter(orders::barangay_id.eq_any(in_city));
    }
    if let Some(before) = f.before_id {
        q = q.filter(orders::id.lt(before));
    }
    match (&f.text, f.number) {
        (Some(text), number) => {
            let pattern = contains_pattern(text);
            q = q.filter(
                lower(orders::contact_name)
                    .like(pattern.clone())
                    .escape('\\')
                    .or(orders::mobile.like(pattern).escape('\\'))
                    .or(orders::id.eq(number.unwrap_or(0))),
            );
        }
        (None, Some(number)) => q = q.filter(orders::id.eq(number)),
        (None, None) => {}
    }
    q.load(conn)
}

/// How many orders have each status (every order of the store; a status no order has is left
/// out), as the orders' triggers keep them in `status_counts` (migration 18): one row a status,
/// where counting the orders read every cancelled order's index entry on each read of the board.
pub fn status_counts(conn: &mut AnyConnection) -> QueryResult<Vec<(String, i64)>> {
    use crate::schema::status_counts;
    status_counts::table
        .filter(status_counts::total.gt(0))
        .select((status_counts::status, status_counts::total))
        .load(conn)
}

/// The tables whose every write moves the work version (the triggers of migrations 19, 34 and
/// 35): what the staff's pages show besides the catalog and the places (the data version's).
pub const WORK_TABLES: [&str; 13] = [
    "audit_log",
    "order_charges",
    "order_containers",
    "order_items",
    "order_notes",
    "order_status_history",
    "orders",
    "payments",
    "refunds",
    "run_stops",
    "runs",
    "settings",
    "staff",
];

/// The work version and the data version (migrations 19 and 3), read now: what the staff's
/// reads are kept under. Any write to what a staff page shows, committed by any app server,
/// moves one of them; read before the data, so what is kept under them is at least as new.
pub fn versions(conn: &mut AnyConnection) -> QueryResult<(i64, i64)> {
    let work = work_version::table
        .find(1)
        .select(work_version::version)
        .first(conn)?;
    Ok((work, crate::catalog_io::data_version(conn)?))
}

/// A staff note on an order, with its writer's name.
#[derive(Debug, Clone, PartialEq, Eq, Queryable)]
pub struct OrderNote {
    pub id: i64,
    pub at: i64,
    pub body: String,
    pub staff_name: String,
}

/// Adds a staff note to an order.
pub fn add_note(
    conn: &mut AnyConnection,
    order_id: i64,
    staff_id: i64,
    body: &str,
    at: i64,
) -> QueryResult<()> {
    diesel::insert_into(order_notes::table)
        .values((
            order_notes::order_id.eq(order_id),
            order_notes::staff_id.eq(staff_id),
            order_notes::at.eq(at),
            order_notes::body.eq(body),
        ))
        .execute(conn)
        .map(|_| ())
}

/// An order's staff notes, oldest first.
pub fn notes(conn: &mut AnyConnection, order_id: i64) -> QueryResult<Vec<OrderNote>> {
    order_notes::table
        .inner_join(staff::table)
        .filter(order_notes::order_id.eq(order_id))
        .order(order_notes::id.asc())
        .select((
            order_notes::id,
            order_notes::at,
            order_notes::body,
            staff::name,
        ))
        .load(conn)
}

/// The status of order `id` (`None`: no such order).
pub fn status_of(conn: &mut AnyConnection, id: i64) -> QueryResult<Option<String>> {
    orders::table
        .find(id)
        .select(orders::status)
        .first(conn)
        .optional()
}

/// The orders placed at or after `since` (Unix seconds): when, their status and total.
pub fn orders_since(conn: &mut AnyConnection, since: i64) -> QueryResult<Vec<(i64, String, i64)>> {
    orders::table
        .filter(orders::placed_at.ge(since))
        .select((orders::placed_at, orders::status, orders::total))
        .load(conn)
}

/// The lines of the orders placed at or after `since` that were not cancelled: product, units
/// and amount.
pub fn items_since(conn: &mut AnyConnection, since: i64) -> QueryResult<Vec<(String, i32, i64)>> {
    order_items::table
        .inner_join(orders::table)
        .filter(orders::placed_at.ge(since))
        .filter(orders::status.ne("cancelled"))
        .select((
            order_items::product_name,
            order_items::quantity,
            order_items::amount,
        ))
        .load(conn)
}
