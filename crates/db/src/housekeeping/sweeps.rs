//! What each sweep finds due and how it goes: a page of keys at a time, each page starting after
//! the last one's (so a row kept on purpose is never read twice in one run), then those rows
//! deleted, or an order's contact blanked.

use diesel::prelude::*;

use super::{Kind, Retention};
use crate::schema::*;
use crate::AnyConnection;

/// A page of due rows' keys: a text key (a token's hash, a counter's name) or a number.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Keys {
    Text(Vec<String>),
    Ids(Vec<i64>),
}

impl Keys {
    pub fn len(&self) -> usize {
        match self {
            Keys::Text(k) => k.len(),
            Keys::Ids(k) => k.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Where the next page starts: at the first due row (a run's first page; staff sessions, whose
/// two ways of falling due no one index keeps in order), after the last row of the page before in
/// the order the rows fell due (its time, then its key: `DueId`, `DueKey`), after an order's id
/// (guest orders stay, blanked), or after a rate-limit window's key (walked in the keys' order,
/// live windows among them).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum After {
    Start,
    Id(i64),
    Key(String),
    DueId(i64, i64),
    DueKey(i64, String),
}

impl After {
    fn id(&self) -> i64 {
        match self {
            After::Id(i) => *i,
            _ => i64::MIN,
        }
    }

    /// After the start every key is greater than "" (a window's key begins with its action).
    fn key(&self) -> &str {
        match self {
            After::Key(k) => k,
            _ => "",
        }
    }

    /// The time and number of the last row of the page before (before every row at the start).
    fn due_id(&self) -> (i64, i64) {
        match self {
            After::DueId(at, id) => (*at, *id),
            _ => (i64::MIN, i64::MIN),
        }
    }

    /// The time and key of the last row of the page before ("" at the start: a token's hash is
    /// never empty).
    fn due_key(&self) -> (i64, &str) {
        match self {
            After::DueKey(at, key) => (*at, key),
            _ => (i64::MIN, ""),
        }
    }
}

const DAY: i64 = 86_400;

/// A page of due rows: their keys, and where the next page starts (`None`: this was the last).
/// Rows that fall due at a time of their own (an expiry, a last change, a day written) are read
/// in that time's order from its index (staff links, a few a day, have none: a page of them sorts
/// the table), each page from where the last one ended, so a page costs the same at the end of a
/// year's rows as at the start on both engines. Asking again for "the first due rows" would not:
/// on PostgreSQL the rows a page deleted stay in the table and its indexes until vacuum clears
/// them, and every later page would step over all of them again (a year's million sessions swept
/// at 56 µs a row in the whole bench, 13 alone). Rate-limit windows are walked in their keys'
/// order instead.
pub struct Page {
    pub keys: Keys,
    pub next: Option<After>,
}

/// Where the page after a page of `rows` starts: after its last row (`after`), when the page is
/// full; none when it is not (it was the last).
fn after_full<T>(rows: &[T], limit: i64, after: impl FnOnce(&T) -> After) -> Option<After> {
    (rows.len() as i64 >= limit)
        .then(|| rows.last().map(after))
        .flatten()
}

/// A page of a table's due rows in the order they fell due, after `after`'s row:
/// `due_after!(conn, limit, after; table.time, table.key: Ids|Text; filter)`. The time's index
/// finds where the page starts (`time >= at`); a row at that very time comes after only with a
/// greater key. The next page starts after the last row when this one is full. A time that may be
/// empty is marked `(nullable)`: the filter finds only rows with one.
macro_rules! due_after {
    ($conn:expr, $limit:expr, $after:expr; $t:ident . $at:ident (nullable), $t2:ident . $k:ident : Ids; $filter:expr) => {
        due_after!(@ids $conn, $limit, $after, $t, $at, $t::$at.assume_not_null(), $t2, $k, $filter)
    };
    ($conn:expr, $limit:expr, $after:expr; $t:ident . $at:ident, $t2:ident . $k:ident : Ids; $filter:expr) => {
        due_after!(@ids $conn, $limit, $after, $t, $at, $t::$at, $t2, $k, $filter)
    };
    ($conn:expr, $limit:expr, $after:expr; $t:ident . $at:ident, $t2:ident . $k:ident : Text; $filter:expr) => {{
        let (at, key) = $after.due_key();
        let rows: Vec<(i64, String)> = due_after!(@ $conn, $limit, $t, $at, $t::$at, $t2, $k, at, key, $filter);
        let next = after_full(&rows, $limit, |(at, key)| After::DueKey(*at, key.clone()));
        Page { keys: Keys::Text(rows.into_iter().map(|(_, key)| key).collect()), next }
    }};
    (@ids $conn:expr, $limit:expr, $after:expr, $t:ident, $at:ident, $time:expr, $t2:ident, $k:ident, $filter:expr) => {{
        let (at, id) = $after.due_id();
        let rows: Vec<(i64, i64)> = due_after!(@ $conn, $limit, $t, $at, $time, $t2, $k, at, id, $filter);
        let next = after_full(&rows, $limit, |(at, id)| After::DueId(*at, *id));
        Page { keys: Keys::Ids(rows.into_iter().map(|(_, id)| id).collect()), next }
    }};
    (@ $conn:expr, $limit:expr, $t:ident, $at:ident, $time:expr, $t2:ident, $k:ident, $from:expr, $after_key:expr, $filter:expr) => {
        $t::table
            .filter($filter)
            .filter($t::$at.ge($from))
            .filter($t::$at.gt($from).or($t2::$k.gt($after_key)))
            .order(($t::$at, $t2::$k))
            .select(($time, $t2::$k))
            .limit($limit)
            .load($conn)?
    };
}

/// The next page of `kind`'s rows due at `now`, after `after` (the last row of the page before:
/// its time and key, a guest order's id, a rate-limit window's key; staff sessions begin again):
/// at most `limit` keys.
pub fn due(
    conn: &mut AnyConnection,
    kind: Kind,
    now: i64,
    r: &Retention,
    after: &After,
    limit: i64,
) -> QueryResult<Page> {
    #[rustfmt::skip]
    let page = match kind {
        Kind::Sessions => due_after!(conn, limit, after; sessions.expires_at, sessions.id: Ids;
            sessions::expires_at.le(now)),
        Kind::Registrations => due_after!(conn, limit, after;
            registrations.expires_at, registrations.token_hash: Text;
            registrations::expires_at.le(now)),
        Kind::PasswordResets => due_after!(conn, limit, after;
            password_resets.expires_at, password_resets.token_hash: Text;
            password_resets::expires_at.le(now)),
        Kind::StaffLinks => due_after!(conn, limit, after;
            staff_links.expires_at, staff_links.token_hash: Text;
            staff_links::expires_at.le(now)),
        Kind::Newsletter => due_after!(conn, limit, after;
            newsletter_subscriptions.token_expires_at (nullable), newsletter_subscriptions.id: Ids;
            newsletter_subscriptions::confirmed_at.is_null()
                .and(newsletter_subscriptions::token_expires_at.le(now))),
        // A guest's cart is one with a guest key (the table's CHECK: a key or a member, never
        // both). Asked as `user_id IS NULL`, SQLite read the pages through the members' unique
        // index, every guest cart sorted for each page (20 ms a page of 24, 146 s for a year).
        Kind::GuestCarts => due_after!(conn, limit, after; carts.updated_at, carts.id: Ids;
            carts::guest_key.is_not_null()
                .and(carts::updated_at.le(now - r.guest_cart_days * DAY))),
        Kind::Mail => due_after!(conn, limit, after; mail_outbox.created_at, mail_outbox.id: Ids;
            mail_outbox::created_at.le(now - r.mail_days * DAY)),
        // Due by either of two times: the first due rows again (the page before is gone).
        Kind::StaffSessions => {
            let keys = staff_sessions_due(conn, now, limit)?;
            let next = (keys.len() as i64 >= limit).then_some(After::Start);
            Page { keys: Keys::Text(keys), next }
        }
        Kind::RateLimits => {
            let keys = windows_past(conn, now, after.key(), limit)?;
            let next = after_full(&keys, limit, |k| After::Key(k.clone()));
            Page { keys: Keys::Text(keys), next }
        }
        Kind::GuestOrderContacts => guest_orders_due(conn, now, r, after.id(), limit)?,
    };
    Ok(page)
}

/// How many of `kind`'s rows are due at `now` (a dry run's report): its pages walked as a run
/// walks them, without deleting; staff sessions, whose pages begin again, read at once.
pub fn count_due(
    conn: &mut AnyConnection,
    kind: Kind,
    now: i64,
    r: &Retention,
) -> QueryResult<u64> {
    if kind == Kind::StaffSessions {
        return Ok(staff_sessions_due(conn, now, i64::MAX)?.len() as u64);
    }
    let (mut count, mut after) = (0, After::Start);
    loop {
        let page = due(conn, kind, now, r, &after, 5_000)?;
        count += page.keys.len() as u64;
        match page.next {
            Some(next) => after = next,
            None => return Ok(count),
        }
    }
}

/// The staff sessions past their longest life or idle too long (at most `limit`).
fn staff_sessions_due(conn: &mut AnyConnection, now: i64, limit: i64) -> QueryResult<Vec<String>> {
    use domain::staff::{SESSION_IDLE_SECS, SESSION_MAX_SECS};
    staff_sessions::table
        .filter(
            staff_sessions::created_at
                .le(now - SESSION_MAX_SECS)
                .or(staff_sessions::last_seen_at.le(now - SESSION_IDLE_SECS)),
        )
        .select(staff_sessions::token_hash)
        .limit(limit)
        .load(conn)
}

/// The rate-limit windows begun longer than the longest window ago, in the order of their keys
/// after `after`: the table is kept as one tree of keys, so a page's deletes free neighbouring
/// pages of it (the windows' starts, in no order of the keys, have no index).
fn windows_past(
    conn: &mut AnyConnection,
    now: i64,
    after: &str,
    limit: i64,
) -> QueryResult<Vec<String>> {
    rate_limits::table
        .filter(rate_limits::key.gt(after))
        .filter(rate_limits::window_start.le(now - crate::limits::LONGEST_WINDOW))
        .order(rate_limits::key)
        .select(rate_limits::key)
        .limit(limit)
        .load(conn)
}

/// A guest's orders completed or cancelled more than the period ago whose contact is not yet
/// blanked. Placed before the period's start is what the index finds; the last status change
/// (the order's completion) before it is what counts, so a page may hold fewer than `limit`
/// while more are due after it: the next page starts after the last candidate read while a
/// page of candidates was full.
fn guest_orders_due(
    conn: &mut AnyConnection,
    now: i64,
    r: &Retention,
    after: i64,
    limit: i64,
) -> QueryResult<Page> {
    let cutoff = now - r.guest_order_days * DAY;
    let finished = [
        domain::ordering::Status::Completed.as_str(),
        domain::ordering::Status::Cancelled.as_str(),
    ];
    let candidates: Vec<i64> = orders::table
        .filter(orders::user_id.is_null())
        .filter(orders::status.eq_any(finished))
        .filter(orders::placed_at.le(cutoff))
        .filter(orders::email.ne("").or(orders::mobile.ne("")))
        .filter(orders::id.gt(after))
        .order(orders::id)
        .select(orders::id)
        .limit(limit)
        .load(conn)?;
    let changed_since: Vec<i64> = order_status_history::table
        .filter(order_status_history::order_id.eq_any(&candidates))
        .filter(order_status_history::at.gt(cutoff))
        .select(order_status_history::order_id)
        .distinct()
        .load(conn)?;
    let next = after_full(&candidates, limit, |id| After::Id(*id));
    let keys = candidates
        .into_iter()
        .filter(|id| !changed_since.contains(id))
        .collect();
    Ok(Page {
        keys: Keys::Ids(keys),
        next,
    })
}

/// Deletes (or, for orders, blanks) the rows of `keys` found due at `now`; answers how many. A
/// guest cart is deleted only while it is still due: on PostgreSQL an add may change it between
/// the page's read and its delete (the delete then waits for the add's row lock and reads the
/// cart again), and a cart a shopper has just used again is theirs to keep.
pub fn remove(
    conn: &mut AnyConnection,
    kind: Kind,
    keys: &Keys,
    now: i64,
    r: &Retention,
) -> QueryResult<usize> {
    let (text, ids): (&[String], &[i64]) = match keys {
        Keys::Text(k) => (k, &[]),
        Keys::Ids(k) => (&[], k),
    };
    match kind {
        Kind::Sessions => {
            diesel::delete(sessions::table.filter(sessions::id.eq_any(ids))).execute(conn)
        }
        Kind::StaffSessions => {
            diesel::delete(staff_sessions::table.filter(staff_sessions::token_hash.eq_any(text)))
                .execute(conn)
        }
        Kind::RateLimits => {
            diesel::delete(rate_limits::table.filter(rate_limits::key.eq_any(text))).execute(conn)
        }
        Kind::Registrations => {
            diesel::delete(registrations::table.filter(registrations::token_hash.eq_any(text)))
                .execute(conn)
        }
        Kind::PasswordResets => {
            diesel::delete(password_resets::table.filter(password_resets::token_hash.eq_any(text)))
                .execute(conn)
        }
        Kind::StaffLinks => {
            diesel::delete(staff_links::table.filter(staff_links::token_hash.eq_any(text)))
                .execute(conn)
        }
        Kind::Newsletter => diesel::delete(
            newsletter_subscriptions::table.filter(newsletter_subscriptions::id.eq_any(ids)),
        )
        .execute(conn),
        // A cart's items, empties and refills go with it (ON DELETE CASCADE).
        Kind::GuestCarts => diesel::delete(
            carts::table
                .filter(carts::id.eq_any(ids))
                .filter(carts::updated_at.le(now - r.guest_cart_days * DAY)),
        )
        .execute(conn),
        Kind::Mail => {
            diesel::delete(mail_outbox::table.filter(mail_outbox::id.eq_any(ids))).execute(conn)
        }
        Kind::GuestOrderContacts => crate::users::blank_order_contacts(conn, ids),
    }
}
