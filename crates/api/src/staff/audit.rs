//! The audit log: every staff write, newest first, for managers to read and filter.

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
    /// One member of staff's writes.
    #[param(minimum = 1)]
    pub staff: Option<i64>,
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
    /// What was written to (`staff 4`, `order 1042`).
    pub subject: String,
    /// The subject before and after, as JSON text.
    pub before: Option<String>,
    pub after: Option<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct AuditPage {
    pub entries: Vec<AuditEntry>,
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
        signed_in_as(ctx, &[Role::Manager])?;
        let filter = db::team::AuditFilter {
            before_id: positive("before", q.before)?,
            staff_id: positive("staff", q.staff)?,
            action: search_text("action", q.action)?,
            limit: PAGE + 1,
        };
        let mut rows = db::team::audit_page(ctx.conn, &filter)?;
        let more = rows.len() as i64 > PAGE;
        rows.truncate(PAGE as usize);
        let entries: Vec<AuditEntry> = rows
            .into_iter()
            .map(|r| AuditEntry {
                id: r.id,
                at: r.at,
                at_manila: domain::calendar::manila_minute(r.at),
                staff_id: r.staff_id,
                actor: r.actor,
                action: r.action,
                subject: r.subject,
                before: r.before_state,
                after: r.after_state,
            })
            .collect();
        Ok(AuditPage {
            next_before: more.then(|| entries.last().map(|e| e.id)).flatten(),
            entries,
        })
    }
}
