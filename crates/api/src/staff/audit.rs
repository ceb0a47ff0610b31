//! The audit log: every staff write and sign-in, newest first, for managers to read and filter,
//! in the staff's words: an order by its number, a member of staff by their name, each linked to
//! its page (the subjects' names are looked up for the whole page at once, never row by row).

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use super::*;
use framework::endpoint::{Args, Endpoint, NoBody, NoParams};

framework::register!(StaffAudit);

/// Entries a page of the log shows.
pub const PAGE: i64 = 50;

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct AuditQuery {
    /// Entries older than this one (the next page: the last page's `next_before`).
    #[param(minimum = 1)]
    pub before: Option<i64>,
    /// One member of staff's writes, by their id (a link's).
    #[param(minimum = 1)]
    pub staff: Option<i64>,
    /// Whose writes: part of a name or email address (any case), of who wrote it as recorded or
    /// of their member of staff now.
    #[param(schema_with = framework::rules::search)]
    pub who: Option<String>,
    /// One kind of write (`staff.password`, `staff.role`, ...).
    #[param(schema_with = framework::rules::search)]
    pub action: Option<String>,
}

/// One staff write.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct AuditEntry {
    pub id: i64,
    /// Unix seconds.
    pub at: i64,
    /// Manila time, `YYYY-MM-DD HH:MM`.
    pub at_manila: String,
    /// The member of staff, none when it came from the command line.
    pub staff_id: Option<i64>,
    /// Who, as shown: a name and email, or `command line`.
    pub actor: String,
    pub action: String,
    /// Their name now, when they are a member of staff.
    pub actor_name: Option<String>,
    /// Their page (the staff's), when they are a member of staff.
    pub actor_href: Option<String>,
    /// What was written to, as recorded (`staff 4`, `order 1042`, `run 3, order 1042`).
    pub subject: String,
    /// The subject as the staff say it: `Order TB-001042`, a member's name, `Run 3`.
    pub subject_label: String,
    /// The subject's parts, each with its page when it has one (`subject_label` is their labels).
    pub subjects: Vec<AuditSubject>,
    /// The subject before and after, as JSON text.
    pub before: Option<String>,
    pub after: Option<String>,
}

/// One thing an entry's subject names.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct AuditSubject {
    /// As the staff say it: `Order TB-001042`, `Run 3`, a member's name.
    pub label: String,
    /// Its page in the back office (`/staff/orders/1042`, `/staff/runs/3`, `/staff/team`).
    pub href: Option<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct AuditPage {
    pub entries: Vec<AuditEntry>,
    /// The kinds of write the log holds, in order (what `action` may be).
    pub actions: Vec<String>,
    /// Where the next (older) page starts, when there is one.
    pub next_before: Option<i64>,
}

framework::declare!(
    /// `GET /api/v1/staff/audit`: the audit log, newest first, 50 a page (managers).
    pub struct StaffAudit = Get "/api/v1/staff/audit" as "staffAudit", Session, errors [401, 404],
    (NoParams, AuditQuery, NoBody) -> AuditPage,
    "The audit log of staff writes (managers only).");

impl Endpoint for StaffAudit {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (_, q, _, _): Args<Self>) -> Result<AuditPage, ApiError> {
        let signed = signed_in_as(ctx, &[Role::Manager])?;
        let filter = db::team::AuditFilter {
            before_id: positive("before", q.before)?,
            staff_id: positive("staff", q.staff)?,
            who: search_text("who", q.who)?,
            action: search_text("action", q.action)?,
            limit: PAGE + 1,
        };
        let mut rows = db::team::audit_page(ctx.conn, &filter)?;
        let more = rows.len() as i64 > PAGE;
        rows.truncate(PAGE as usize);
        // The page's members of staff (who wrote, and whom it was written to): one statement.
        let named: Vec<Vec<Named>> = rows.iter().map(|r| parts(&r.subject)).collect();
        let mut ids: Vec<i64> = rows.iter().filter_map(|r| r.staff_id).collect();
        ids.extend(named.iter().flatten().filter_map(|n| match n {
            Named::Staff(id) => Some(*id),
            _ => None,
        }));
        ids.sort_unstable();
        ids.dedup();
        let names: std::collections::HashMap<i64, String> =
            db::team::names(ctx.conn, &ids)?.into_iter().collect();
        let entries: Vec<AuditEntry> = rows
            .into_iter()
            .zip(named)
            .map(|(r, named)| {
                let subjects: Vec<AuditSubject> =
                    named.into_iter().map(|n| n.subject(&names)).collect();
                AuditEntry {
                    id: r.id,
                    at: r.at,
                    at_manila: domain::calendar::manila_minute(r.at),
                    staff_id: r.staff_id,
                    actor_name: r.staff_id.and_then(|id| names.get(&id).cloned()),
                    actor_href: r.staff_id.map(|_| TEAM.to_string()),
                    actor: r.actor,
                    action: r.action,
                    subject: r.subject,
                    subject_label: subjects
                        .iter()
                        .map(|s| s.label.as_str())
                        .collect::<Vec<_>>()
                        .join(", "),
                    subjects,
                    before: r.before_state,
                    after: r.after_state,
                }
            })
            .collect();
        // The kinds there are, kept until the log (the work) changes.
        let actions = super::kept(ctx, &signed, "audit actions", "", |ctx| {
            Ok(db::team::audit_actions(ctx.conn)?)
        })?;
        Ok(AuditPage {
            next_before: more.then(|| entries.last().map(|e| e.id)).flatten(),
            entries,
            actions,
        })
    }
}

/// The staff's page, where a member of staff is (there is no page of one member).
const TEAM: &str = "/staff/team";

/// One thing a subject names, as the writes record it: `order 1042`, `run 3`, `staff 4`,
/// `product 21 (SKU)`, `banner 2 (title)`; a subject of several is written `run 3, order 1042`.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Named {
    Order(i64),
    Run(i64),
    Staff(i64),
    Product(i64, String),
    Banner(i64, String),
    /// Anything else, shown as written.
    Other(String),
}

/// What `subject` names: its parts when each is one of [`Named`]'s, else the whole as written.
fn parts(subject: &str) -> Vec<Named> {
    let each: Option<Vec<Named>> = subject.split(", ").map(part).collect();
    each.unwrap_or_else(|| vec![Named::Other(subject.to_string())])
}

fn part(p: &str) -> Option<Named> {
    let (kind, rest) = p.split_once(' ')?;
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let id: i64 = rest[..digits].parse().ok().filter(|n| *n > 0)?;
    let tail = &rest[digits..];
    let plain = tail.is_empty();
    let aside = tail
        .strip_prefix(" (")
        .and_then(|t| t.strip_suffix(')'))
        .map(str::to_string);
    Some(match kind {
        "order" if plain => Named::Order(id),
        "run" if plain => Named::Run(id),
        "staff" if plain => Named::Staff(id),
        "product" if plain || aside.is_some() => Named::Product(id, aside.unwrap_or_default()),
        "banner" if plain || aside.is_some() => Named::Banner(id, aside.unwrap_or_default()),
        _ => return None,
    })
}

impl Named {
    fn subject(self, names: &std::collections::HashMap<i64, String>) -> AuditSubject {
        let (label, href) = match self {
            Self::Order(id) => (
                format!("Order {}", crate::orders::number(id)),
                Some(format!("/staff/orders/{id}")),
            ),
            Self::Run(id) => (format!("Run {id}"), Some(format!("/staff/runs/{id}"))),
            Self::Staff(id) => (
                names
                    .get(&id)
                    .cloned()
                    .unwrap_or_else(|| format!("staff {id}")),
                Some(TEAM.to_string()),
            ),
            Self::Product(id, sku) => (
                if sku.is_empty() {
                    format!("Product {id}")
                } else {
                    format!("Product {sku}")
                },
                Some(format!("/staff/catalog/products/{id}")),
            ),
            Self::Banner(id, title) => (
                if title.is_empty() {
                    format!("Banner {id}")
                } else {
                    format!("Banner {title}")
                },
                Some("/staff/catalog/banners".to_string()),
            ),
            Self::Other(text) => (text, None),
        };
        AuditSubject { label, href }
    }
}

/// The kinds of a sign-in's entries (besides `staff.second_factor`, the enrolment).
pub mod sign_in {
    /// The password was right: half a session, the second factor next.
    pub const PASSWORD: &str = "staff.sign_in.password";
    /// Both factors were given: the session is whole (`with`: how).
    pub const WHOLE: &str = "staff.sign_in";
    /// A wrong password, an email of no account, a disabled account, no password chosen yet.
    pub const FAILED: &str = "staff.sign_in.failed";
    /// A try refused after too many failures (once per account and client in its ten minutes).
    pub const LOCKED: &str = "staff.sign_in.locked";
    /// A wrong code of the second factor, or an app's code given again.
    pub const WRONG_CODE: &str = "staff.code.wrong";
    /// A recovery code used up (instead of the app's code).
    pub const RECOVERY_CODE: &str = "staff.recovery_code";
    /// The session ended by Sign Out.
    pub const SIGN_OUT: &str = "staff.sign_out";
}

/// Failed and refused sign-ins a client may leave in the log in ten minutes (its tries are
/// limited anyway: five per account, `framework::limits::LOGIN` in all); past them its tries are
/// still refused, only not recorded, so nobody fills the log.
pub const FAILURES_RECORDED: i32 = 30;

/// The longest email a failed sign-in records of what was typed (characters; more is cut).
pub const EMAIL_RECORDED: usize = 80;

/// An email as typed at a failed sign-in, fit to record: at most [`EMAIL_RECORDED`]
/// characters, control characters as `?`; what is no email address at all (a password typed in
/// the wrong field) is recorded as [`NOT_AN_EMAIL`], never as typed.
pub fn typed(email: &str) -> String {
    // A password typed into the email field is no email address: it is never kept.
    if domain::email::validate_email(email).is_err() {
        return NOT_AN_EMAIL.into();
    }
    let mut out: String = email
        .chars()
        .take(EMAIL_RECORDED)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect();
    if email.chars().count() > EMAIL_RECORDED {
        out.push('…');
    }
    out
}

/// What a failed sign-in records of a typed email that is no email address (a password typed in
/// the wrong field, as likely as not).
pub const NOT_AN_EMAIL: &str = "(not an email address)";

/// Whether this client may record one more failed or refused sign-in now
/// ([`FAILURES_RECORDED`]); `once`, when given, is a key recorded once in ten minutes (a
/// lockout is recorded at its first refused try, not at each).
pub(crate) fn may_record_failure(ctx: &mut Ctx, once: Option<&str>) -> Result<bool, ApiError> {
    let within = |r: Result<(), ApiError>| match r {
        Ok(()) => Ok(true),
        Err(ApiError::TooMany(_)) => Ok(false),
        Err(e) => Err(e),
    };
    if let Some(key) = once {
        if !within(ctx.limit("staff audit once", key, 1, 600))? {
            return Ok(false);
        }
    }
    let client = ctx.client_key();
    within(ctx.limit("staff audit failures", &client, FAILURES_RECORDED, 600))
}

/// Records a sign-in's event of `member`'s account (subject `staff {id}`, who: the member), or
/// of an email that is no account's (who: the email as typed, [`typed`]). Written at once, out of
/// any transaction: a failure's entry stays although the call fails.
pub(crate) fn sign_in_event(
    ctx: &mut Ctx,
    member: Option<&StaffRow>,
    email: &str,
    action: &str,
    after: serde_json::Value,
) -> Result<(), ApiError> {
    match member {
        Some(m) => entry(
            ctx.conn,
            Some(m),
            action,
            &format!("staff {}", m.id),
            None,
            Some(after),
        )?,
        None => {
            let who = typed(email);
            db::team::audit(
                ctx.conn,
                &db::team::Audit {
                    staff_id: None,
                    actor: &who,
                    action,
                    subject: "no staff account",
                    before: None,
                    after: Some(after.to_string()),
                },
                now(),
            )?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subjects_are_read_in_the_staffs_words() {
        assert_eq!(parts("order 42"), [Named::Order(42)]);
        assert_eq!(parts("run 3, order 42"), [Named::Run(3), Named::Order(42)]);
        assert_eq!(parts("staff 4"), [Named::Staff(4)]);
        assert_eq!(
            parts("product 21 (KEG-30)"),
            [Named::Product(21, "KEG-30".into())]
        );
        for other in [
            "guest data",
            "catalog file x.json",
            "order x",
            "order 0",
            "staff 4 x",
        ] {
            assert_eq!(parts(other), [Named::Other(other.into())], "{other}");
        }
        let names = [(4, "Ana Cruz".to_string())].into_iter().collect();
        let s = |n: Named| n.subject(&names);
        assert_eq!(s(Named::Order(42)).label, "Order TB-000042");
        assert_eq!(s(Named::Order(42)).href.unwrap(), "/staff/orders/42");
        assert_eq!(s(Named::Staff(4)).label, "Ana Cruz");
        assert_eq!(s(Named::Staff(5)).label, "staff 5");
        assert_eq!(s(Named::Run(3)).href.unwrap(), "/staff/runs/3");
    }

    #[test]
    fn an_email_typed_is_recorded_cut_and_plain() {
        assert_eq!(typed("ana@tala.example"), "ana@tala.example");
        let long = format!("{}@{}.example", "a".repeat(60), "b".repeat(60));
        assert_eq!(typed(&long).chars().count(), EMAIL_RECORDED + 1);
        // A password typed into the email field, or anything else that is no address.
        for not in ["guessed-Secret-1", "a\nb@tala.example", &"a".repeat(200)] {
            assert_eq!(typed(not), NOT_AN_EMAIL, "{not}");
        }
    }
}
