//! The staff who fill the orders: accounts and sessions of their own, never a shopper's (a
//! shopper's session opens nothing here, and a staff session nothing of a shopper's). A member of
//! staff is added from the command line (`store staff add`) and chooses a password by the mailed
//! link (`password`); signing in takes the password (`login`), then a code of the second factor,
//! enrolled at the first sign-in (`second_factor`). A session lives in the `staff_session`
//! cookie (HttpOnly, SameSite=Strict, held to the cross-site rule) and ends 12 hours after it
//! began, after 30 minutes without use, or when its member's password, role or standing changes.
//! Every staff write goes into the audit log (`audit`), which managers read (`team`).

pub mod audit;
pub mod catalog;
pub mod dashboard;
pub mod erase_guest;
pub mod login;
pub mod maintenance;
pub mod orders;
pub mod password;
pub mod photos;
pub mod runs;
pub mod second_factor;
pub mod team;

use actix_web::cookie::{Cookie, SameSite};
use db::team::StaffRow;
use domain::staff::Role;
use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

use framework::endpoint::Ctx;
use framework::error::ApiError;
use framework::session::hash as token_hash;

use domain::calendar::unix_now as now;

/// The cookie a staff session rides in.
pub const COOKIE: &str = "staff_session";

/// The back office's pages and calls, which stay open while the maintenance switch is on
/// (`framework::ApiConfig::open_under_maintenance`): a manager who closed the store opens it
/// again. A server started with `MAINTENANCE=on` closes them too.
pub const OPEN_UNDER_MAINTENANCE: [&str; 2] = ["/staff/", "/api/v1/staff/"];

/// The staff calls' credential, as the OpenAPI document names it ([`framework::Endpoint::CREDENTIAL`]).
pub const CREDENTIAL: Option<(&str, &str)> = Some((
    COOKIE,
    "A staff session (POST /api/v1/staff/login, then POST /api/v1/staff/second-factor): an HttpOnly cookie, never a shopper's session.",
));

// The staff session speaks for its member as the shopper's session does: held to the
// cross-site rule.
inventory::submit! { framework::origin::CredentialCookie(COOKIE) }

framework::mail_templates!("staff_invite");

/// A session is marked used at most this often (its idle limit counts from the last mark).
const TOUCH_EVERY: i64 = 60;

/// A member of staff as the staff pages show them.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct StaffMember {
    pub id: i64,
    pub email: String,
    pub name: String,
    pub role: Role,
    /// They chose a password (their link was used).
    pub password_set: bool,
    /// Their second factor is enrolled.
    pub second_factor: bool,
    pub disabled: bool,
}

impl From<&StaffRow> for StaffMember {
    fn from(s: &StaffRow) -> Self {
        Self {
            id: s.id,
            email: s.email.clone(),
            name: s.name.clone(),
            role: Role::parse(&s.role).unwrap_or(Role::Rider),
            password_set: s.password_hash.is_some(),
            second_factor: s.totp_secret.is_some(),
            disabled: s.disabled_at.is_some(),
        }
    }
}

/// The request's staff session and its member.
#[derive(Clone)]
pub struct Signed {
    pub member: StaffRow,
    pub role: Role,
    pub token_hash: String,
    /// Both factors were given (else only the password: the session can only give the second).
    pub whole: bool,
}

/// The staff session a page's reads looked up, kept for its other calls.
#[derive(Clone, Default)]
struct Looked(Option<Option<Signed>>);

/// The request's staff session, when it holds (whole or not); marks it used. A page's calls
/// (only reads: [`Ctx::reading`]) look it up once.
pub fn session(ctx: &mut Ctx) -> Result<Option<Signed>, ApiError> {
    if ctx.reading() {
        if let Some(looked) = &ctx.memo::<Looked>().0 {
            return Ok(looked.clone());
        }
        let signed = look_up(ctx)?;
        ctx.memo::<Looked>().0 = Some(signed.clone());
        return Ok(signed);
    }
    look_up(ctx)
}

fn look_up(ctx: &mut Ctx) -> Result<Option<Signed>, ApiError> {
    let Some(token) = ctx.cookie(COOKIE).map(str::to_string) else {
        return Ok(None);
    };
    let hash = token_hash(&token);
    let Some((session, member)) = db::team::session(ctx.conn, &hash)? else {
        return Ok(None);
    };
    let now = now();
    let holds = domain::staff::session_holds(
        session.created_at,
        session.last_seen_at,
        member.changed_at,
        now,
    );
    let role = Role::parse(&member.role);
    let (true, None, Some(role)) = (holds, member.disabled_at, role) else {
        db::team::end_session(ctx.conn, &hash)?;
        return Ok(None);
    };
    if now - session.last_seen_at >= TOUCH_EVERY {
        db::team::touch(ctx.conn, &hash, now)?;
    }
    Ok(Some(Signed {
        member,
        role,
        token_hash: hash,
        whole: session.second_factor,
    }))
}

/// The signed-in member of staff (both factors given) whose role is one of `roles`: a visitor
/// without a whole staff session is a 401; a role that may not is answered as a thing that does
/// not exist (404), so nobody learns what lies beyond their role.
pub fn signed_in_as(ctx: &mut Ctx, roles: &[Role]) -> Result<Signed, ApiError> {
    let signed = session(ctx)?
        .filter(|s| s.whole)
        .ok_or(ApiError::Unauthenticated)?;
    if !roles.contains(&signed.role) {
        return Err(ApiError::NotFound("No such page.".into()));
    }
    Ok(signed)
}

/// The work and data versions a page's reads go by, read once for all its calls.
#[derive(Clone, Default)]
struct Versions(Option<(i64, i64)>);

/// What call `call` with arguments `args` answers `signed`, kept across requests (a dispatcher's
/// board reloaded, a rider's run sheet) until the work (orders, runs, staff, audit log,
/// settings: `db::staff::versions`) or the catalog changes, on any app server, or the Manila day
/// turns. What a call shows may depend on its member's role and, for a rider, on who they are:
/// both are in the key. Read after the session (so only a session that holds is answered).
pub(crate) fn kept<T, F>(
    ctx: &mut Ctx,
    signed: &Signed,
    call: &str,
    args: &str,
    make: F,
) -> Result<T, ApiError>
where
    T: Clone + Serialize + Send + Sync + 'static,
    F: FnOnce(&mut Ctx) -> Result<T, ApiError>,
{
    // A page's calls (only reads) go by the versions its first call read: what a later call reads
    // is at least as new.
    let versions = match ctx.memo::<Versions>().0.filter(|_| ctx.reading()) {
        Some(v) => v,
        None => {
            let v = db::staff::versions(ctx.conn)?;
            ctx.memo::<Versions>().0 = Some(v);
            v
        }
    };
    let today = domain::calendar::iso_date(domain::calendar::manila_now().date());
    let key = framework::cache::key(&[
        b"staff",
        call.as_bytes(),
        args.as_bytes(),
        &signed.member.id.to_le_bytes(),
        signed.role.as_str().as_bytes(),
        &versions.0.to_le_bytes(),
        &versions.1.to_le_bytes(),
        today.as_bytes(),
    ]);
    ctx.kept(key, make)
}

/// A query's id `name`: positive, or a 400 naming it.
pub(crate) fn positive(name: &str, id: Option<i64>) -> Result<Option<i64>, ApiError> {
    match id {
        Some(n) if n < 1 => Err(ApiError::BadRequest(format!(
            "{name} {}",
            domain::ids::NOT_AN_ID
        ))),
        _ => Ok(id),
    }
}

/// A query's search text `name`: a line of at most 60 characters as the document says
/// (PostgreSQL could not even compare a NUL), or a 400 naming it; trimmed, none when empty.
pub(crate) fn search_text(name: &str, text: Option<String>) -> Result<Option<String>, ApiError> {
    if text
        .as_deref()
        .is_some_and(|t| t.chars().count() > 60 || t.chars().any(char::is_control))
    {
        return Err(ApiError::BadRequest(format!(
            "{name} is at most 60 characters, without control characters."
        )));
    }
    Ok(text.map(|t| t.trim().to_string()).filter(|t| !t.is_empty()))
}

/// The session cookie that holds `token` (or that clears it, `None`).
fn session_cookie(ctx: &Ctx, token: Option<String>) -> Cookie<'static> {
    let clear = token.is_none();
    let mut c = Cookie::build(COOKIE, token.unwrap_or_default())
        .path("/")
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(ctx.config.secure_cookies)
        .finish();
    if clear {
        c.make_removal();
    }
    c
}

/// Who a member of staff is in the audit log.
pub fn actor(member: &StaffRow) -> String {
    format!("{} ({})", member.name, member.email)
}

/// Records a staff write of `by` (none: the command line) in the audit log, in the caller's
/// transaction.
pub fn entry(
    conn: &mut db::AnyConnection,
    by: Option<&StaffRow>,
    action: &str,
    subject: &str,
    before: Option<serde_json::Value>,
    after: Option<serde_json::Value>,
) -> db::diesel::QueryResult<()> {
    let actor = by.map_or_else(|| "command line".to_string(), actor);
    let entry = db::team::Audit {
        staff_id: by.map(|m| m.id),
        actor: &actor,
        action,
        subject,
        before: before.map(|v| v.to_string()),
        after: after.map(|v| v.to_string()),
    };
    db::team::audit(conn, &entry, now())
}
