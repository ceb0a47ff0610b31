//! The staff's accounts, password links, sessions, second factors and the audit log of their
//! writes. Secrets are stored only as the SHA-256 of their token (links, sessions, recovery
//! codes) or as an argon2id hash (passwords). Each function takes a connection, so several
//! compose in one transaction.

use diesel::prelude::*;

use crate::schema::*;
use crate::staff::contains_pattern;
use crate::AnyConnection;

/// A member of staff as stored.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = staff)]
pub struct StaffRow {
    pub id: i64,
    pub email: String,
    pub name: String,
    pub role: String,
    pub password_hash: Option<String>,
    pub totp_secret: Option<String>,
    pub totp_pending: Option<String>,
    pub disabled_at: Option<i64>,
    pub created_at: i64,
    pub changed_at: i64,
}

/// Adds a member of staff (no password yet); answers the id.
pub fn add(
    conn: &mut AnyConnection,
    email: &str,
    name: &str,
    role: &str,
    now: i64,
) -> QueryResult<i64> {
    diesel::insert_into(staff::table)
        .values((
            staff::email.eq(email),
            staff::name.eq(name),
            staff::role.eq(role),
            staff::created_at.eq(now),
            staff::changed_at.eq(now),
        ))
        .execute(conn)?;
    staff::table
        .filter(staff::email.eq(email))
        .select(staff::id)
        .first(conn)
}

/// The member of staff with that email address (lower case).
pub fn by_email(conn: &mut AnyConnection, email: &str) -> QueryResult<Option<StaffRow>> {
    staff::table
        .filter(staff::email.eq(email))
        .select(StaffRow::as_select())
        .first(conn)
        .optional()
}

/// The member of staff of that id.
pub fn by_id(conn: &mut AnyConnection, id: i64) -> QueryResult<Option<StaffRow>> {
    staff::table
        .find(id)
        .select(StaffRow::as_select())
        .first(conn)
        .optional()
}

/// Every member of staff, by email.
pub fn list(conn: &mut AnyConnection) -> QueryResult<Vec<StaffRow>> {
    staff::table
        .order(staff::email.asc())
        .select(StaffRow::as_select())
        .load(conn)
}

/// Gives a member of staff a role; their sessions end.
pub fn set_role(conn: &mut AnyConnection, id: i64, role: &str, now: i64) -> QueryResult<usize> {
    let changed = diesel::update(staff::table.find(id))
        .set((staff::role.eq(role), staff::changed_at.eq(now)))
        .execute(conn)?;
    end_sessions_of(conn, id)?;
    Ok(changed)
}

/// Disables a member of staff (or enables one again, `None`); their sessions end.
pub fn set_disabled(
    conn: &mut AnyConnection,
    id: i64,
    disabled_at: Option<i64>,
    now: i64,
) -> QueryResult<usize> {
    let changed = diesel::update(staff::table.find(id))
        .set((
            staff::disabled_at.eq(disabled_at),
            staff::changed_at.eq(now),
        ))
        .execute(conn)?;
    end_sessions_of(conn, id)?;
    Ok(changed)
}

/// Stores a link to choose a password; earlier unused links of the member stop working.
pub fn create_link(
    conn: &mut AnyConnection,
    token_hash: &str,
    staff_id: i64,
    expires_at: i64,
) -> QueryResult<()> {
    diesel::delete(staff_links::table.filter(staff_links::staff_id.eq(staff_id))).execute(conn)?;
    diesel::insert_into(staff_links::table)
        .values((
            staff_links::token_hash.eq(token_hash),
            staff_links::staff_id.eq(staff_id),
            staff_links::expires_at.eq(expires_at),
        ))
        .execute(conn)
        .map(|_| ())
}

/// The member of staff whose unused, unexpired link this is.
pub fn open_link(
    conn: &mut AnyConnection,
    token_hash: &str,
    now: i64,
) -> QueryResult<Option<StaffRow>> {
    staff_links::table
        .inner_join(staff::table)
        .filter(staff_links::token_hash.eq(token_hash))
        .filter(staff_links::expires_at.gt(now))
        .filter(staff_links::used_at.is_null())
        .filter(staff::disabled_at.is_null())
        .select(StaffRow::as_select())
        .first(conn)
        .optional()
}

/// Uses a link: sets the password and ends every session of its member. Answers the member's
/// id, or `None` when the link was used meanwhile (a double click) or is not open.
pub fn use_link(
    conn: &mut AnyConnection,
    token_hash: &str,
    password_hash: &str,
    now: i64,
) -> QueryResult<Option<i64>> {
    crate::transaction(conn, |conn| {
        let Some(member) = open_link(conn, token_hash, now)? else {
            return Ok(None);
        };
        let used = diesel::update(
            staff_links::table
                .find(token_hash)
                .filter(staff_links::used_at.is_null()),
        )
        .set(staff_links::used_at.eq(now))
        .execute(conn)?;
        if used == 0 {
            return Ok(None);
        }
        diesel::update(staff::table.find(member.id))
            .set((
                staff::password_hash.eq(password_hash),
                staff::changed_at.eq(now),
            ))
            .execute(conn)?;
        end_sessions_of(conn, member.id)?;
        Ok(Some(member.id))
    })
}

/// A staff session as stored.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = staff_sessions)]
pub struct StaffSessionRow {
    pub token_hash: String,
    pub staff_id: i64,
    pub second_factor: bool,
    pub created_at: i64,
    pub last_seen_at: i64,
}

/// Starts a session after the password (its second factor not yet given).
pub fn start_session(
    conn: &mut AnyConnection,
    token_hash: &str,
    staff_id: i64,
    now: i64,
) -> QueryResult<()> {
    diesel::insert_into(staff_sessions::table)
        .values((
            staff_sessions::token_hash.eq(token_hash),
            staff_sessions::staff_id.eq(staff_id),
            staff_sessions::created_at.eq(now),
            staff_sessions::last_seen_at.eq(now),
        ))
        .execute(conn)
        .map(|_| ())
}

/// A session and its member, whatever their state (the caller judges).
pub fn session(
    conn: &mut AnyConnection,
    token_hash: &str,
) -> QueryResult<Option<(StaffSessionRow, StaffRow)>> {
    staff_sessions::table
        .inner_join(staff::table)
        .filter(staff_sessions::token_hash.eq(token_hash))
        .select((StaffSessionRow::as_select(), StaffRow::as_select()))
        .first(conn)
        .optional()
}

/// Marks a session used now.
pub fn touch(conn: &mut AnyConnection, token_hash: &str, now: i64) -> QueryResult<()> {
    diesel::update(staff_sessions::table.find(token_hash))
        .set(staff_sessions::last_seen_at.eq(now))
        .execute(conn)
        .map(|_| ())
}

/// The session's second factor is given: it is whole.
pub fn second_factor_given(
    conn: &mut AnyConnection,
    token_hash: &str,
    now: i64,
) -> QueryResult<()> {
    diesel::update(staff_sessions::table.find(token_hash))
        .set((
            staff_sessions::second_factor.eq(true),
            staff_sessions::last_seen_at.eq(now),
        ))
        .execute(conn)
        .map(|_| ())
}

/// Takes step `step` of the member's app codes: true when it is later than every step taken
/// before, in one statement that every app server shares (two sign-ins with one code: one wins).
pub fn take_code_step(conn: &mut AnyConnection, id: i64, step: i64) -> QueryResult<bool> {
    let later = staff::totp_last_step
        .is_null()
        .or(staff::totp_last_step.lt(step));
    diesel::update(staff::table.find(id).filter(later))
        .set(staff::totp_last_step.eq(step))
        .execute(conn)
        .map(|n| n == 1)
}

/// Ends one session.
pub fn end_session(conn: &mut AnyConnection, token_hash: &str) -> QueryResult<()> {
    diesel::delete(staff_sessions::table.find(token_hash))
        .execute(conn)
        .map(|_| ())
}

/// Ends every session of a member of staff.
pub fn end_sessions_of(conn: &mut AnyConnection, staff_id: i64) -> QueryResult<usize> {
    diesel::delete(staff_sessions::table.filter(staff_sessions::staff_id.eq(staff_id)))
        .execute(conn)
}

/// Keeps a second factor shown and not yet confirmed (its secret and recovery codes, as JSON).
pub fn set_pending(conn: &mut AnyConnection, id: i64, pending: &str) -> QueryResult<()> {
    diesel::update(staff::table.find(id))
        .set(staff::totp_pending.eq(pending))
        .execute(conn)
        .map(|_| ())
}

/// Confirms a second factor: its secret, and its recovery codes' hashes (replacing any).
pub fn confirm_second_factor(
    conn: &mut AnyConnection,
    id: i64,
    secret: &str,
    code_hashes: &[String],
) -> QueryResult<()> {
    crate::transaction(conn, |conn| {
        diesel::update(staff::table.find(id))
            .set((
                staff::totp_secret.eq(secret),
                staff::totp_pending.eq(None::<String>),
            ))
            .execute(conn)?;
        diesel::delete(staff_recovery_codes::table.filter(staff_recovery_codes::staff_id.eq(id)))
            .execute(conn)?;
        for hash in code_hashes {
            diesel::insert_into(staff_recovery_codes::table)
                .values((
                    staff_recovery_codes::staff_id.eq(id),
                    staff_recovery_codes::code_hash.eq(hash),
                ))
                .execute(conn)?;
        }
        Ok(())
    })
}

/// Uses a recovery code once: true when it was the member's and unused.
pub fn use_recovery_code(
    conn: &mut AnyConnection,
    id: i64,
    code_hash: &str,
    now: i64,
) -> QueryResult<bool> {
    diesel::update(
        staff_recovery_codes::table
            .find((id, code_hash))
            .filter(staff_recovery_codes::used_at.is_null()),
    )
    .set(staff_recovery_codes::used_at.eq(now))
    .execute(conn)
    .map(|n| n == 1)
}

/// How many of a member's recovery codes are unused.
pub fn recovery_codes_left(conn: &mut AnyConnection, id: i64) -> QueryResult<i64> {
    staff_recovery_codes::table
        .filter(staff_recovery_codes::staff_id.eq(id))
        .filter(staff_recovery_codes::used_at.is_null())
        .count()
        .get_result(conn)
}

/// One write of the audit log.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = audit_log)]
pub struct AuditRow {
    pub id: i64,
    pub at: i64,
    pub staff_id: Option<i64>,
    pub actor: String,
    pub action: String,
    pub subject: String,
    pub before_state: Option<String>,
    pub after_state: Option<String>,
}

/// What a staff write records: who (`staff_id`, none from the command line, and how they are
/// shown), what, and the subject before and after (JSON).
#[derive(Debug, Clone, Default)]
pub struct Audit<'a> {
    pub staff_id: Option<i64>,
    pub actor: &'a str,
    pub action: &'a str,
    pub subject: &'a str,
    pub before: Option<String>,
    pub after: Option<String>,
}

/// Records a staff write.
pub fn audit(conn: &mut AnyConnection, a: &Audit<'_>, now: i64) -> QueryResult<()> {
    diesel::insert_into(audit_log::table)
        .values((
            audit_log::at.eq(now),
            audit_log::staff_id.eq(a.staff_id),
            audit_log::actor.eq(a.actor),
            audit_log::action.eq(a.action),
            audit_log::subject.eq(a.subject),
            audit_log::before_state.eq(&a.before),
            audit_log::after_state.eq(&a.after),
        ))
        .execute(conn)
        .map(|_| ())
}

/// Which writes of the audit log to read: newest first, before an id (the page before), by one
/// member of staff, by a person named (`who`: part of the name or email shown as who wrote it, or
/// of their member's name or email now, any case), of one action.
#[derive(Debug, Clone, Default)]
pub struct AuditFilter {
    pub before_id: Option<i64>,
    pub staff_id: Option<i64>,
    pub who: Option<String>,
    pub action: Option<String>,
    pub limit: i64,
}

diesel::define_sql_function!(fn lower(x: diesel::sql_types::Text) -> diesel::sql_types::Text);

/// A page of the audit log.
pub fn audit_page(conn: &mut AnyConnection, f: &AuditFilter) -> QueryResult<Vec<AuditRow>> {
    let mut q = audit_log::table
        .select(AuditRow::as_select())
        .order(audit_log::id.desc())
        .limit(f.limit)
        .into_boxed();
    if let Some(before) = f.before_id {
        q = q.filter(audit_log::id.lt(before));
    }
    if let Some(staff) = f.staff_id {
        q = q.filter(audit_log::staff_id.eq(staff));
    }
    if let Some(who) = &f.who {
        let pattern = contains_pattern(who);
        // Who wrote it as recorded (a name and email then, an email typed at a failed sign-in),
        // or a member whose name or email matches now: in one statement, on both engines.
        let members = staff::table
            .filter(
                lower(staff::name)
                    .like(pattern.clone())
                    .escape('\\')
                    .or(lower(staff::email).like(pattern.clone()).escape('\\')),
            )
            .select(staff::id.nullable());
        q = q.filter(
            lower(audit_log::actor)
                .like(pattern)
                .escape('\\')
                .or(audit_log::staff_id.eq_any(members)),
        );
    }
    if let Some(action) = &f.action {
        q = q.filter(audit_log::action.eq(action));
    }
    q.load(conn)
}

/// The kinds of write the log holds, in order (`audit_log_by_action` reads them).
pub fn audit_actions(conn: &mut AnyConnection) -> QueryResult<Vec<String>> {
    audit_log::table
        .select(audit_log::action)
        .distinct()
        .order(audit_log::action.asc())
        .load(conn)
}

/// The names of the members of staff of `ids` (those that are), in one statement.
pub fn names(conn: &mut AnyConnection, ids: &[i64]) -> QueryResult<Vec<(i64, String)>> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    staff::table
        .filter(staff::id.eq_any(ids))
        .select((staff::id, staff::name))
        .load(conn)
}
