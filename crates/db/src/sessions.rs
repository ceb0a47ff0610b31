//! Sessions, found by the id their token carries and stored with the hash of the token. Each
//! function takes a connection, so several compose in one `conn.transaction(...)`.

use diesel::prelude::*;

use crate::schema::*;
use crate::AnyConnection;

/// A session as stored.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = sessions)]
pub struct SessionRow {
    pub id: i64,
    pub token_hash: String,
    pub user_id: Option<i64>,
    pub created_at: i64,
    pub expires_at: i64,
}

/// Random bits of a session id below its start in milliseconds.
pub const ID_RANDOM_BITS: u32 = 20;

/// A session's id: its start in Unix milliseconds and [`ID_RANDOM_BITS`] random bits, so ids
/// grow with time (the table and its indexes are written and swept in time order) and two
/// sessions started in the same millisecond on different app servers rarely meet (an insert
/// that meets one tries another id). Positive until the year 2248.
pub fn new_id(now_millis: i64, random: u32) -> i64 {
    (now_millis << ID_RANDOM_BITS) | i64::from(random & ((1 << ID_RANDOM_BITS) - 1))
}

/// Stores a new session; answers `false` when its id is taken (nothing is written: the caller
/// tries another), so a transaction it runs in is never aborted by the clash.
pub fn create_session(
    conn: &mut AnyConnection,
    id: i64,
    token_hash: &str,
    user_id: Option<i64>,
    now: i64,
    expires_at: i64,
) -> QueryResult<bool> {
    let q = diesel::insert_into(sessions::table)
        .values((
            sessions::id.eq(id),
            sessions::token_hash.eq(token_hash),
            sessions::user_id.eq(user_id),
            sessions::created_at.eq(now),
            sessions::expires_at.eq(expires_at),
        ))
        .on_conflict_do_nothing();
    let inserted = match conn {
        AnyConnection::Postgresql(c) => q.execute(c)?,
        AnyConnection::Sqlite(c) => q.execute(c)?,
    };
    Ok(inserted == 1)
}

/// The session of an id whose token hashes to `token_hash`, if it has not expired (an id with
/// another token is no session).
pub fn live_session(
    conn: &mut AnyConnection,
    id: i64,
    token_hash: &str,
    now: i64,
) -> QueryResult<Option<SessionRow>> {
    sessions::table
        .find(id)
        .filter(sessions::token_hash.eq(token_hash))
        .filter(sessions::expires_at.gt(now))
        .select(SessionRow::as_select())
        .first(conn)
        .optional()
}

/// Moves a session's expiry.
pub fn extend_session(conn: &mut AnyConnection, id: i64, expires_at: i64) -> QueryResult<()> {
    diesel::update(sessions::table.find(id))
        .set(sessions::expires_at.eq(expires_at))
        .execute(conn)
        .map(|_| ())
}

/// Ends one session: the one of `id` whose token hashes to `token_hash` (an id presented with
/// another token ends nothing).
pub fn end_session(conn: &mut AnyConnection, id: i64, token_hash: &str) -> QueryResult<()> {
    diesel::delete(
        sessions::table
            .find(id)
            .filter(sessions::token_hash.eq(token_hash)),
    )
    .execute(conn)
    .map(|_| ())
}

/// Ends every session of a member (password change, account deletion).
pub fn end_sessions_of(conn: &mut AnyConnection, user: domain::UserId) -> QueryResult<usize> {
    diesel::delete(sessions::table.filter(sessions::user_id.eq(user.get()))).execute(conn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_grow_with_time_whatever_their_random_bits() {
        let now = 1_795_000_000_000; // 2026-11-18 in milliseconds
        assert!(new_id(now, u32::MAX) < new_id(now + 1, 0));
        assert_eq!(new_id(now, 0) >> ID_RANDOM_BITS, now);
        assert_ne!(new_id(now, 1), new_id(now, 2));
        // 2248's first millisecond still fits.
        assert!(new_id(8_741_000_000_000, u32::MAX) > 0);
    }
}
