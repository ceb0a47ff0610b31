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
