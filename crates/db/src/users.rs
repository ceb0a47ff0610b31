//! Members: accounts, registrations waiting for their link, profiles, passwords and reset links. Each function takes a connection, so several compose in one
//! `conn.transaction(...)`.

use diesel::prelude::*;

use crate::schema::*;
use crate::AnyConnection;

/// A member as stored.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = users)]
pub struct UserRow {
    #[diesel(deserialize_as = i64)]
    pub id: domain::UserId,
    pub email: String,
    pub mobile: String,
    pub first_name: String,
    pub last_name: String,
    pub birth_date: String,
    pub password_hash: String,
    pub policy_agreement_accepted: bool,
    pub created_at: i64,
    /// Whether the member chose the password (not so for an account a social provider made).
    pub password_set: bool,
}

/// A registration waiting for its link, or a member's details to store.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = registrations)]
pub struct RegistrationRow {
    pub token_hash: String,
    pub email: String,
    pub mobile: String,
    pub first_name: String,
    pub last_name: String,
    pub birth_date: String,
    pub password_hash: String,
    pub expires_at: i64,
    pub used_at: Option<i64>,
}

pub fn user(conn: &mut AnyConnection, id: domain::UserId) -> QueryResult<Option<UserRow>> {
    users::table
        .find(id.get())
        .select(UserRow::as_select())
        .first(conn)
        .optional()
}

/// The member with this email address (lower-cased) or mobile number.
pub fn user_by_login(conn: &mut AnyConnection, login: &str) -> QueryResult<Option<UserRow>> {
    users::table
        .filter(users::email.eq(login).or(users::mobile.eq(login)))
        .select(UserRow::as_select())
        .first(conn)
        .optional()
}

pub fn email_taken(conn: &mut AnyConnection, email: &str) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        users::table.filter(users::email.eq(email)),
    ))
    .get_result(conn)
}

pub fn mobile_taken(conn: &mut AnyConnection, mobile: &str) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        users::table.filter(users::mobile.eq(mobile)),
    ))
    .get_result(conn)
}

/// Within a transaction, waits for any other transaction holding `key` (PostgreSQL: an advisory
/// lock until the transaction ends; SQLite lets one writer at a time anyway), so that "delete
/// the older, insert the newer" of two concurrent requests cannot leave both.
fn serialize_on(conn: &mut AnyConnection, key: &str) -> QueryResult<()> {
    if let AnyConnection::Postgresql(c) = conn {
        diesel::sql_query("SELECT pg_advisory_xact_lock(hashtext($1))::text AS locked")
            .bind::<diesel::sql_types::Text, _>(key)
            .execute(c)?;
    }
    Ok(())
}

/// Keeps a registration waiting for its link, in place of any other waiting one of the same
/// address (the newest link is the one that works).
pub fn create_registration(conn: &mut AnyConnection, r: &RegistrationRow) -> QueryResult<()> {
    crate::transaction(conn, |conn| {
        serialize_on(conn, &format!("registration {}", r.email))?;
        diesel::delete(
            registrations::table
                .filter(registrations::email.eq(&r.email))
                .filter(registrations::used_at.is_null()),
        )
        .execute(conn)?;
        insert_registration(conn, r)
    })
}

fn insert_registration(conn: &mut AnyConnection, r: &RegistrationRow) -> QueryResult<()> {
    diesel::insert_into(registrations::table)
        .values((
            registrations::token_hash.eq(&r.token_hash),
            registrations::email.eq(&r.email),
            registrations::mobile.eq(&r.mobile),
            registrations::first_name.eq(&r.first_name),
            registrations::last_name.eq(&r.last_name),
            registrations::birth_date.eq(&r.birth_date),
            registrations::password_hash.eq(&r.password_hash),
            registrations::expires_at.eq(r.expires_at),
        ))
        .execute(conn)
        .map(|_| ())
}

/// A registration whose link is unused and unexpired.
pub fn open_registration(
    conn: &mut AnyConnection,
    token_hash: &str,
    now: i64,
) -> QueryResult<Option<RegistrationRow>> {
    registrations::table
        .find(token_hash)
        .filter(registrations::expires_at.gt(now))
        .filter(registrations::used_at.is_null())
        .select(RegistrationRow::as_select())
        .first(conn)
        .optional()
}

/// Whether a registration link was used (its account made).
pub fn registration_used(conn: &mut AnyConnection, token_hash: &str) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        registrations::table
            .find(token_hash)
            .filter(registrations::used_at.is_not_null()),
    ))
    .get_result(conn)
}

/// Creates the member of a registration and marks its link used, in one transaction; answers
/// the member's id, or `None` when the link was used meanwhile (a double click).
pub fn complete_registration(
    conn: &mut AnyConnection,
    r: &RegistrationRow,
    now: i64,
) -> QueryResult<Option<domain::UserId>> {
    crate::transaction(conn, |conn| {
        let used = diesel::update(
            registrations::table
                .find(&r.token_hash)
                .filter(registrations::used_at.is_null()),
        )
        .set(registrations::used_at.eq(now))
        .execute(conn)?;
        if used == 0 {
            return Ok(None);
        }
        insert_user(conn, r, true, now).map(Some)
    })
}

/// Creates an account from checked details and a password the member did not choose (a social
/// registration: no link to mark used).
pub fn create_user(
    conn: &mut AnyConnection,
    r: &RegistrationRow,
    now: i64,
) -> QueryResult<domain::UserId> {
    crate::transaction(conn, |conn| insert_user(conn, r, false, now))
}

/// Inserts a member; `password_set` says whether they chose the password.
fn insert_user(
    conn: &mut AnyConnection,
    r: &RegistrationRow,
    password_set: bool,
    now: i64,
) -> QueryResult<domain::UserId> {
    diesel::insert_into(users::table)
        .values((
            users::email.eq(&r.email),
            users::mobile.eq(&r.mobile),
            users::first_name.eq(&r.first_name),
            users::last_name.eq(&r.last_name),
            users::birth_date.eq(&r.birth_date),
            users::password_hash.eq(&r.password_hash),
            users::password_set.eq(password_set),
            users::created_at.eq(now),
        ))
        .execute(conn)?;
    let id: i64 = users::table
        .filter(users::email.eq(&r.email))
        .select(users::id)
        .first(conn)?;
    Ok(domain::UserId::from_db(id))
}

/// A member's editable details.
pub struct Profile<'a> {
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub mobile: &'a str,
    pub birth_date: &'a str,
}

/// Updates a member's details; `false` when the mobile number belongs to another member.
pub fn update_profile(
    conn: &mut AnyConnection,
    user: domain::UserId,
    p: &Profile,
) -> QueryResult<bool> {
    let taken: bool = diesel::select(diesel::dsl::exists(
        users::table
            .filter(users::mobile.eq(p.mobile))
            .filter(users::id.ne(user.get())),
    ))
    .get_result(conn)?;
    if taken {
        return Ok(false);
    }
    diesel::update(users::table.find(user.get()))
        .set((
            users::first_name.eq(p.first_name),
            users::last_name.eq(p.last_name),
            users::mobile.eq(p.mobile),
            users::birth_date.eq(p.birth_date),
        ))
        .execute(conn)?;
    Ok(true)
}

pub fn set_policy_accepted(
    conn: &mut AnyConnection,
    user: domain::UserId,
    accepted: bool,
) -> QueryResult<()> {
    diesel::update(users::table.find(user.get()))
        .set(users::policy_agreement_accepted.eq(accepted))
        .execute(conn)
        .map(|_| ())
}

/// Sets a password the member chose, and voids every reset link of the member.
pub fn set_password(
    conn: &mut AnyConnection,
    user: domain::UserId,
    password_hash: &str,
) -> QueryResult<()> {
    crate::transaction(conn, |conn| {
        diesel::update(users::table.find(user.get()))
            .set((
                users::password_hash.eq(password_hash),
                users::password_set.eq(true),
            ))
            .execute(conn)?;
        void_password_resets(conn, user)
    })
}

/// Voids every reset link of a member.
pub fn void_password_resets(conn: &mut AnyConnection, user: domain::UserId) -> QueryResult<()> {
    diesel::delete(password_resets::table.filter(password_resets::user_id.eq(user.get())))
        .execute(conn)
        .map(|_| ())
}

/// Deletes a member and everything personal: sessions, reset links, pending registrations of
/// the address, its newsletter signup, rate-limit counters named by it.
pub fn delete_user(conn: &mut AnyConnection, user: &UserRow) -> QueryResult<()> {
    crate::transaction(conn, |conn| {
        diesel::delete(sessions::table.filter(sessions::user_id.eq(user.id.get())))
            .execute(conn)?;
        diesel::delete(password_resets::table.filter(password_resets::user_id.eq(user.id.get())))
            .execute(conn)?;
        diesel::delete(registrations::table.filter(registrations::email.eq(&user.email)))
            .execute(conn)?;
        // Signups are kept lower-cased, as a guest's erasure finds them.
        diesel::delete(
            newsletter_subscriptions::table
                .filter(newsletter_subscriptions::email.eq(user.email.to_lowercase())),
        )
        .execute(conn)?;
        diesel::delete(
            rate_limits::table.filter(
                rate_limits::key
                    .like(format!("%:{}", user.email))
                    .or(rate_limits::key.like(format!("%:{}", user.mobile)))
                    .or(rate_limits::key.like(format!("%:user {}", user.id)))
                    .or(rate_limits::key.like(format!("%:user {} from %", user.id))),
            ),
        )
        .execute(conn)?;
        // Orders stay for the store's records, without the member's name, mobile and address
        // (the delete page says so); the cart goes with the account (ON DELETE CASCADE).
        let theirs: Vec<i64> = orders::table
            .filter(orders::user_id.eq(user.id.get()))
            .select(orders::id)
            .load(conn)?;
        blank_order_contacts(conn, &theirs)?;
        diesel::delete(users::table.find(user.id.get())).execute(conn)?;
        Ok(())
    })
}

/// Blanks the personal fields of orders `ids` (the contact's name, mobile, email, the address and
/// the shopper's notes): the orders stay for the store's books, no longer anyone's. What a
/// deleted account, an erased guest and an expired retention period do to orders; answers how
/// many were blanked.
pub fn blank_order_contacts(conn: &mut AnyConnection, ids: &[i64]) -> QueryResult<usize> {
    let mut blanked = 0;
    // In slices: a statement's parameters are bounded (SQLite's 32,766).
    for slice in ids.chunks(1_000) {
        blanked += diesel::update(orders::table.filter(orders::id.eq_any(slice)))
            .set((
                orders::contact_name.eq(""),
                orders::mobile.eq(""),
                orders::email.eq(""),
                orders::address.eq(""),
                orders::notes.eq(""),
            ))
            .execute(conn)?;
        // What staff typed about the shopper when refunding them.
        diesel::update(refunds::table.filter(refunds::order_id.eq_any(slice)))
            .set(refunds::notes.eq(""))
            .execute(conn)?;
    }
    Ok(blanked)
}

/// Makes a reset link in place of every earlier one of the member (only the newest works).
pub fn create_password_reset(
    conn: &mut AnyConnection,
    token_hash: &str,
    user: domain::UserId,
    expires_at: i64,
) -> QueryResult<()> {
    crate::transaction(conn, |conn| {
        serialize_on(conn, &format!("reset {user}"))?;
        void_password_resets(conn, user)?;
        diesel::insert_into(password_resets::table)
            .values((
                password_resets::token_hash.eq(token_hash),
                password_resets::user_id.eq(user.get()),
                password_resets::expires_at.eq(expires_at),
            ))
            .execute(conn)
            .map(|_| ())
    })
}

/// The member of an unused, unexpired reset link.
pub fn open_password_reset(
    conn: &mut AnyConnection,
    token_hash: &str,
    now: i64,
) -> QueryResult<Option<domain::UserId>> {
    password_resets::table
        .find(token_hash)
        .filter(password_resets::expires_at.gt(now))
        .filter(password_resets::used_at.is_null())
        .select(password_resets::user_id)
        .first::<i64>(conn)
        .optional()
        .map(|id| id.map(domain::UserId::from_db))
}

/// Uses a reset link: sets the password, voids every reset link of the member and ends every
/// session of the member, in one transaction; `false` when the link was used meanwhile.
pub fn use_password_reset(
    conn: &mut AnyConnection,
    token_hash: &str,
    user: domain::UserId,
    password_hash: &str,
    now: i64,
) -> QueryResult<bool> {
    crate::transaction(conn, |conn| {
        let used = diesel::update(
            password_resets::table
                .find(token_hash)
                .filter(password_resets::used_at.is_null()),
        )
        .set(password_resets::used_at.eq(now))
        .execute(conn)?;
        if used == 0 {
            return Ok(false);
        }
        set_password(conn, user, password_hash)?;
        crate::sessions::end_sessions_of(conn, user)?;
        Ok(true)
    })
}
