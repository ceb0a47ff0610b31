//! Rate limits, counted in the database so that app servers sharing it count together. Each function takes a connection, so several compose in one
//! `conn.transaction(...)`.

use diesel::prelude::*;

use crate::schema::*;
use crate::AnyConnection;

/// Counts one use of `key` in a window of `window` seconds starting at its first use; answers
/// `None` when the use is allowed (at most `limit` in a window), else the seconds until the
/// window ends. One statement, so app servers sharing the database count together.
pub fn rate_hit(
    conn: &mut AnyConnection,
    key: &str,
    now: i64,
    window: i64,
    limit: i32,
) -> QueryResult<Option<i64>> {
    let (hits, ends) = rate_count(conn, key, now, window)?;
    Ok((hits > limit).then(|| (ends - now).max(1)))
}

/// The longest window any limit counts over (the profile's day): a counter whose window began
/// longer ago than this is over whatever its limit, and housekeeping sweeps it.
pub const LONGEST_WINDOW: i64 = 86_400;

/// Counts one use of `key` in its window of `window` seconds (one statement, so concurrent uses
/// each get their own number); answers the uses in the window so far, this one included, and
/// when the window ends.
pub fn rate_count(
    conn: &mut AnyConnection,
    key: &str,
    now: i64,
    window: i64,
) -> QueryResult<(i32, i64)> {
    use diesel::sql_types::{BigInt, Integer, Text};
    assert!(
        window <= LONGEST_WINDOW,
        "a limit's window is at most LONGEST_WINDOW, or housekeeping would sweep it early"
    );

    #[derive(QueryableByName)]
    struct Row {
        #[diesel(sql_type = BigInt)]
        window_start: i64,
        #[diesel(sql_type = Integer)]
        hits: i32,
    }
    const UPSERT: &str = "INSERT INTO rate_limits (key, window_start, hits) VALUES ($1, $2, 1) \
        ON CONFLICT (key) DO UPDATE SET \
        hits = CASE WHEN rate_limits.window_start + $3 <= $2 THEN 1 ELSE rate_limits.hits + 1 END, \
        window_start = CASE WHEN rate_limits.window_start + $3 <= $2 THEN $2 ELSE rate_limits.window_start END \
        RETURNING window_start, hits";
    let row: Row = match conn {
        AnyConnection::Postgresql(c) => diesel::sql_query(UPSERT)
            .bind::<Text, _>(key)
            .bind::<BigInt, _>(now)
            .bind::<BigInt, _>(window)
            .get_result(c)?,
        AnyConnection::Sqlite(c) => diesel::sql_query(UPSERT.replace('$', "?"))
            .bind::<Text, _>(key)
            .bind::<BigInt, _>(now)
            .bind::<BigInt, _>(window)
            .get_result(c)?,
    };
    Ok((row.hits, row.window_start + window))
}

/// Forgets a rate-limit counter (a login that succeeded).
pub fn rate_reset(conn: &mut AnyConnection, key: &str) -> QueryResult<()> {
    diesel::delete(rate_limits::table.find(key))
        .execute(conn)
        .map(|_| ())
}

/// How long until `key`'s window ends when it already holds `limit` uses (`None` when another
/// use is allowed); counts nothing (failures are counted only once they happen).
pub fn rate_full(
    conn: &mut AnyConnection,
    key: &str,
    now: i64,
    window: i64,
    limit: i32,
) -> QueryResult<Option<i64>> {
    let row: Option<(i64, i32)> = rate_limits::table
        .find(key)
        .select((rate_limits::window_start, rate_limits::hits))
        .first(conn)
        .optional()?;
    Ok(row.and_then(|(start, hits)| {
        (start + window > now && hits >= limit).then(|| (start + window - now).max(1))
    }))
}
