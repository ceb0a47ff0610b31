//! What the store holds about a person, and erasing it on request (the Data Privacy Act's data
//! subjects): a member's live sessions and newsletter state for their data download, a guest's
//! orders found by email or mobile, and erasing a guest's personal data. An order erased is
//! kept for the books with its personal fields blanked by the same function that blanks a
//! deleted member's orders ([`crate::users::blank_order_contacts`]). Each function takes a
//! connection, so several compose in one `conn.transaction(...)`.

use diesel::prelude::*;

use crate::schema::*;
use crate::AnyConnection;

/// A member's live session, as their data download shows it (never its token or hash).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionTimes {
    /// Unix seconds.
    pub created_at: i64,
    pub expires_at: i64,
    /// It is the session of `current` (the request's own).
    pub current: bool,
}

/// A member's sessions that have not expired, oldest first; `current` is the hash of the
/// request's own token.
pub fn sessions_of(
    conn: &mut AnyConnection,
    user: domain::UserId,
    now: i64,
    current: Option<&str>,
) -> QueryResult<Vec<SessionTimes>> {
    let rows: Vec<(String, i64, i64)> = sessions::table
        .filter(sessions::user_id.eq(user.get()))
        .filter(sessions::expires_at.gt(now))
        .order((sessions::created_at, sessions::expires_at))
        .select((
            sessions::token_hash,
            sessions::created_at,
            sessions::expires_at,
        ))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(hash, created_at, expires_at)| SessionTimes {
            created_at,
            expires_at,
            current: current == Some(hash.as_str()),
        })
        .collect())
}

/// An address's newsletter signup: when it was made (`YYYY-MM-DD...` as stored) and when it was
/// confirmed (none: waiting for its link).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Subscription {
    pub created_at: String,
    pub confirmed_at: Option<String>,
}

/// The newsletter signup of an address (lower-cased), if any.
pub fn subscription(conn: &mut AnyConnection, email: &str) -> QueryResult<Option<Subscription>> {
    newsletter_subscriptions::table
        .filter(newsletter_subscriptions::email.eq(email))
        .select((
            newsletter_subscriptions::created_at,
            newsletter_subscriptions::confirmed_at,
        ))
        .first::<(String, Option<String>)>(conn)
        .optional()
        .map(|s| {
            s.map(|(created_at, confirmed_at)| Subscription {
                created_at,
                confirmed_at,
            })
        })
}

/// Whom a guest's erasure is for: their email address (lower-cased) or mobile number
/// (`09...`), or both (an order matching either is theirs).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Guest {
    pub email: Option<String>,
    pub mobile: Option<String>,
}

/// A guest's order found for erasure: what the confirmation shows of it (nothing personal).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuestOrder {
    pub id: i64,
    pub status: String,
    /// Unix seconds.
    pub placed_at: i64,
    pub total: i64,
}

/// The ids of the guest orders (no member's) whose contact has the guest's email or mobile,
/// oldest first. Orders already erased have neither, so they are not found again.
fn matching(conn: &mut AnyConnection, guest: &Guest) -> QueryResult<Vec<GuestOrder>> {
    let mut q = orders::table
        .filter(orders::user_id.is_null())
        .select((orders::id, orders::status, orders::placed_at, orders::total))
        .order(orders::id)
        .into_boxed();
    q = match (guest.email.as_deref(), guest.mobile.as_deref()) {
        (Some(e), Some(m)) => q.filter(orders::email.eq(e).or(orders::mobile.eq(m))),
        (Some(e), None) => q.filter(orders::email.eq(e)),
        (None, Some(m)) => q.filter(orders::mobile.eq(m)),
        (None, None) => return Ok(Vec::new()),
    };
    let rows: Vec<(i64, String, i64, i64)> = q.load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(id, status, placed_at, total)| GuestOrder {
            id,
            status,
            placed_at,
            total,
        })
        .collect())
}

/// What a guest's erasure finds (or found): their orders, and the newsletter addresses signed up
/// among the guest's email and the emails of those orders.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Found {
    pub orders: Vec<GuestOrder>,
    pub newsletter: Vec<String>,
}

/// What erasing a guest would take, changing nothing.
pub fn find_guest(conn: &mut AnyConnection, guest: &Guest) -> QueryResult<Found> {
    let orders = matching(conn, guest)?;
    let ids: Vec<i64> = orders.iter().map(|o| o.id).collect();
    let mut emails: Vec<String> = orders::table
        .filter(orders::id.eq_any(&ids))
        .filter(orders::email.ne(""))
        .select(orders::email)
        .distinct()
        .load(conn)?;
    emails.extend(guest.email.iter().cloned());
    emails.sort_unstable();
    emails.dedup();
    let newsletter = newsletter_subscriptions::table
        .filter(newsletter_subscriptions::email.eq_any(&emails))
        .select(newsletter_subscriptions::email)
        .order(newsletter_subscriptions::email)
        .load(conn)?;
    Ok(Found { orders, newsletter })
}

/// Erases a guest's personal data in one transaction: their orders' personal fields are blanked
/// ([`crate::users::blank_order_contacts`]; the rows stay for the books) and their newsletter
/// signups removed. Answers what was erased. Call it inside the transaction that records it.
pub fn erase_guest(conn: &mut AnyConnection, guest: &Guest) -> QueryResult<Found> {
    crate::transaction(conn, |conn| {
        let found = find_guest(conn, guest)?;
        let ids: Vec<i64> = found.orders.iter().map(|o| o.id).collect();
        crate::users::blank_order_contacts(conn, &ids)?;
        if !found.newsletter.is_empty() {
            diesel::delete(
                newsletter_subscriptions::table
                    .filter(newsletter_subscriptions::email.eq_any(&found.newsletter)),
            )
            .execute(conn)?;
        }
        Ok(found)
    })
}
