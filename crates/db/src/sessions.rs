//! Sessions, stored by the hash of their token. Each function takes a connection, so several compose in one
//! `conn.transaction(...)`.

use diesel::prelude::*;

use crate::schema::*;
use crate::AnyConnection;

/// A session as stored.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = sessions)]
pub struct SessionRow {
    pub token_hash: String,
    pub user_id: Option<i64>,
    pub created_at: i64,
    pub expires_at: i64,
}

/// Stores a new session.
pub fn create_session(
    conn: &mut AnyConnection,
    token_hash: &str,
    user_id: Option<i64>,
    now: i64,
    expires_at: i64,
) -> QueryResult<()> {
    diesel::insert_into(sessions::table)
        .values((
            sessions::token_hash.eq(token_hash),
            sessions::user_id.eq(user_id),
            sessions::created_at.eq(now),
            sessions::expires_at.eq(expires_at),
        ))
        .execute(conn)
        .map(|_| ())
}

/// The session of a token hash, if it has not expired.
pub fn live_session(
    conn: &mut AnyConnection,
    token_hash: &str,
    now: i64,
) -> QueryResult<Option<SessionRow>> {
    sessions::table
        .find(token_hash)
        .filter(sessions::expires_at.gt(now))
        .select(SessionRow::as_select())
        .first(conn)
        .optional()
}

/// Moves a session's expiry.
pub fn extend_session(
    conn: &mut AnyConnection,
    token_hash: &str,
    expires_at: i64,
) -> QueryResult<()> {
    diesel::update(sessions::table.find(token_hash))
        .set(sessions::expires_at.eq(expires_at))
        .execute(conn)
        .map(|_| ())
}

/// Forgets sessions that expired before `now`; answers how many.
pub fn purge_sessions(conn: &mut AnyConnection, now: i64) -> QueryResult<usize> {
    diesel::delete(sessions::table.filter(sessions::expires_at.le(now))).execute(conn)
}

/// Ends one session.
pub fn end_session(conn: &mut AnyConnection, token_hash: &str) -> QueryResult<()> {
    diesel::delete(sessions::table.find(token_hash))
        .execute(conn)
        .map(|_| ())
}

/// Ends every session of a member (password change, account deletion).
pub fn end_sessions_of(conn: &mut AnyConnection, user: domain::UserId) -> QueryResult<usize> {
    diesel::delete(sessions::table.filter(sessions::user_id.eq(user.get()))).execute(conn)
}
