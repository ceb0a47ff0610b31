//! Dated content and texts (holidays, notices, promos, site texts), settings, and the newsletter. Each function takes a connection, so several compose in one
//! `conn.transaction(...)`.

use diesel::prelude::*;

use crate::models::*;
use crate::schema::*;
use crate::AnyConnection;

pub fn is_holiday(conn: &mut AnyConnection, date: &str) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        holidays::table
            .filter(holidays::starts_on.le(date))
            .filter(holidays::ends_on.ge(date)),
    ))
    .get_result(conn)
}

/// The notice whose window holds the date, if any (the latest starting one).
pub fn notice_on(conn: &mut AnyConnection, date: &str) -> QueryResult<Option<Notice>> {
    notices::table
        .filter(notices::starts_on.le(date))
        .filter(notices::ends_on.ge(date))
        .order(notices::starts_on.desc())
        .select(Notice::as_select())
        .first(conn)
        .optional()
}

pub fn promos_on(conn: &mut AnyConnection, date: &str) -> QueryResult<Vec<Promo>> {
    promos::table
        .filter(promos::starts_on.le(date))
        .filter(promos::ends_on.ge(date))
        .order((promos::ends_on, promos::id))
        .select(Promo::as_select())
        .load(conn)
}

pub fn site_text(conn: &mut AnyConnection, key: &str) -> QueryResult<Option<SiteText>> {
    site_texts::table
        .find(key)
        .select(SiteText::as_select())
        .first(conn)
        .optional()
}

pub fn setting(conn: &mut AnyConnection, key: &str) -> QueryResult<Option<String>> {
    settings::table
        .find(key)
        .select(settings::value)
        .first(conn)
        .optional()
}

/// Where a newsletter signup stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signup {
    /// New, or still unconfirmed: the link's token was (re)placed and is to be mailed.
    Pending,
    /// The address already counts.
    Confirmed,
}

/// Records a signup awaiting confirmation with the hash of its link's token; an address that
/// already counts is left as it is.
pub fn subscribe(
    conn: &mut AnyConnection,
    email: &str,
    now: &str,
    token_hash: &str,
    expires_at: i64,
) -> QueryResult<Signup> {
    use newsletter_subscriptions::dsl as n;
    let signup = crate::transaction(conn, |conn| {
        let confirmed: Option<Option<String>> = n::newsletter_subscriptions
            .filter(n::email.eq(email))
            .select(n::confirmed_at)
            .first(conn)
            .optional()?;
        match confirmed {
            Some(Some(_)) => Ok(Signup::Confirmed),
            Some(None) => {
                diesel::update(n::newsletter_subscriptions.filter(n::email.eq(email)))
                    .set((
                        n::token_hash.eq(token_hash),
                        n::token_expires_at.eq(expires_at),
                    ))
                    .execute(conn)?;
                Ok(Signup::Pending)
            }
            None => {
                diesel::insert_into(n::newsletter_subscriptions)
                    .values((
                        n::email.eq(email),
                        n::created_at.eq(now),
                        n::token_hash.eq(token_hash),
                        n::token_expires_at.eq(expires_at),
                    ))
                    .execute(conn)?;
                Ok(Signup::Pending)
            }
        }
    });
    match signup {
        // Two signups of one new address at once: the unique index keeps one, which mails.
        Err(diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::UniqueViolation,
            _,
        )) => Ok(Signup::Confirmed),
        other => other,
    }
}

/// Confirms the signup of a link (unexpired); `false` for an unknown, used or expired link.
pub fn confirm_subscription(
    conn: &mut AnyConnection,
    token_hash: &str,
    now_unix: i64,
    now: &str,
) -> QueryResult<bool> {
    use newsletter_subscriptions::dsl as n;
    let changed = diesel::update(
        n::newsletter_subscriptions
            .filter(n::token_hash.eq(token_hash))
            .filter(n::token_expires_at.ge(now_unix))
            .filter(n::confirmed_at.is_null()),
    )
    .set((
        n::confirmed_at.eq(now),
        n::token_hash.eq(None::<String>),
        n::token_expires_at.eq(None::<i64>),
    ))
    .execute(conn)?;
    Ok(changed == 1)
}
