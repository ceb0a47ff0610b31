//! The holidays (the home page's notice shows no city picker on them) and the notices (the home
//! page shows the one whose days hold today)
//! as the staff keep them. Each function takes a connection, so the staff's call composes them
//! in its transaction; the tables' triggers move the data version, so every app server shows a
//! change within a second.

use diesel::prelude::*;

use crate::models::{Holiday, Notice};
use crate::schema::{holidays, notices};
use crate::AnyConnection;

/// Every holiday, by first day.
pub fn holidays(conn: &mut AnyConnection) -> QueryResult<Vec<Holiday>> {
    holidays::table
        .order((holidays::starts_on, holidays::id))
        .select(Holiday::as_select())
        .load(conn)
}

/// Every notice, by first day.
pub fn notices(conn: &mut AnyConnection) -> QueryResult<Vec<Notice>> {
    notices::table
        .order((notices::starts_on, notices::id))
        .select(Notice::as_select())
        .load(conn)
}

/// Holiday `id`, held for a change (PostgreSQL locks its row; SQLite's write lock is taken).
pub fn holiday(conn: &mut AnyConnection, id: i32) -> QueryResult<Option<Holiday>> {
    diesel::update(holidays::table.find(id))
        .set(holidays::name.eq(holidays::name))
        .execute(conn)?;
    holidays::table
        .find(id)
        .select(Holiday::as_select())
        .first(conn)
        .optional()
}

/// Notice `id`, held for a change (as [`holiday`]).
pub fn notice(conn: &mut AnyConnection, id: i32) -> QueryResult<Option<Notice>> {
    diesel::update(notices::table.find(id))
        .set(notices::title.eq(notices::title))
        .execute(conn)?;
    notices::table
        .find(id)
        .select(Notice::as_select())
        .first(conn)
        .optional()
}

/// Writes holiday `id` (none: a new one); answers its id.
pub fn put_holiday(
    conn: &mut AnyConnection,
    id: Option<i32>,
    name: &str,
    starts_on: &str,
    ends_on: &str,
) -> QueryResult<i32> {
    let values = (
        holidays::name.eq(name),
        holidays::starts_on.eq(starts_on),
        holidays::ends_on.eq(ends_on),
    );
    match id {
        Some(id) => diesel::update(holidays::table.find(id))
            .set(values)
            .execute(conn)
            .map(|_| id),
        None => {
            let id = next_id(conn, Table::Holidays)?;
            diesel::insert_into(holidays::table)
                .values((holidays::id.eq(id), values))
                .execute(conn)
                .map(|_| id)
        }
    }
}

/// Writes notice `id` (none: a new one); answers its id.
pub fn put_notice(
    conn: &mut AnyConnection,
    id: Option<i32>,
    title: &str,
    body: &str,
    starts_on: &str,
    ends_on: &str,
) -> QueryResult<i32> {
    let values = (
        notices::title.eq(title),
        notices::body.eq(body),
        notices::starts_on.eq(starts_on),
        notices::ends_on.eq(ends_on),
    );
    match id {
        Some(id) => diesel::update(notices::table.find(id))
            .set(values)
            .execute(conn)
            .map(|_| id),
        None => {
            let id = next_id(conn, Table::Notices)?;
            diesel::insert_into(notices::table)
                .values((notices::id.eq(id), values))
                .execute(conn)
                .map(|_| id)
        }
    }
}

enum Table {
    Holidays,
    Notices,
}

/// The id of a new row (the tables have no sequence: the seed and the import give ids). The data
/// version's row is held first, as an import does, so two staff adding at once take turns (on
/// PostgreSQL; SQLite's writers already do) and never draw the same id.
fn next_id(conn: &mut AnyConnection, table: Table) -> QueryResult<i32> {
    use crate::schema::data_version;
    diesel::update(data_version::table.find(1))
        .set(data_version::version.eq(data_version::version))
        .execute(conn)?;
    let most: Option<i32> = match table {
        Table::Holidays => holidays::table
            .select(diesel::dsl::max(holidays::id))
            .first(conn)?,
        Table::Notices => notices::table
            .select(diesel::dsl::max(notices::id))
            .first(conn)?,
    };
    Ok(most.unwrap_or(0) + 1)
}

/// Removes holiday `id`; answers whether there was one.
pub fn remove_holiday(conn: &mut AnyConnection, id: i32) -> QueryResult<bool> {
    Ok(diesel::delete(holidays::table.find(id)).execute(conn)? > 0)
}

/// Removes notice `id`; answers whether there was one.
pub fn remove_notice(conn: &mut AnyConnection, id: i32) -> QueryResult<bool> {
    Ok(diesel::delete(notices::table.find(id)).execute(conn)? > 0)
}
