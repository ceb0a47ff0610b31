//! The staff as a manager keeps them: the list, adding a member (mailed a link to choose a
//! password), giving a role, disabling and enabling, a new link. The command line's `store staff`
//! does the same through these functions; every change is in the audit log.

use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

use super::*;
use framework::endpoint::{Args, Endpoint, Json, NoBody, NoParams, Results};

framework::register!(StaffTeam, StaffAdd, StaffChange);

framework::declare!(
    /// `GET /api/v1/staff/team`: every member of staff, by email (managers).
    pub struct StaffTeam = Get "/api/v1/staff/team" as "staffTeam", Session, errors [401, 404],
    (NoParams, NoParams, NoBody) -> Results<StaffMember>,
    "The store's staff (managers only).");

impl Endpoint for StaffTeam {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, _: Args<Self>) -> Result<Results<StaffMember>, ApiError> {
        signed_in_as(ctx, &[Role::Manager])?;
        let all = db::team::list(ctx.conn)?;
        Ok(all.iter().map(StaffMember::from).collect::<Vec<_>>().into())
    }
}

/// The audit log's picture of a member of staff.
fn picture(m: &db::team::StaffRow) -> serde_json::Value {
    serde_json::json!({
        "email": m.email, "name": m.name, "role": m.role, "disabled": m.disabled_at.is_some(),
    })
}

/// A member of staff to add: their `email`, their `name` (may be empty: the email's name then)
/// and their `role`.
#[derive(Debug, Clone, Copy)]
pub struct NewMember<'a> {
    pub email: &'a str,
    pub name: &'a str,
    pub role: Role,
}

/// Adds a member of staff and mails them a link to choose a password, recorded for `by` (none:
/// the command line), in `conn`'s transaction. `name` may be empty (the email's name then).
pub fn add_member(
    conn: &mut db::AnyConnection,
    by: Option<&db::team::StaffRow>,
    base: &str,
    new: NewMember<'_>,
) -> Result<db::team::StaffRow, ApiError> {
    let NewMember { email, name, role } = new;
    let email = domain::email::validate_email(email).map_err(|m| ApiError::Invalid {
        field: "email",
        message: m.into(),
    })?;
    let name = name.trim();
    let name = if name.is_empty() {
        email.split('@').next().unwrap_or_default().to_string()
    } else {
        domain::account::validate_name(name, "name").map_err(|message| ApiError::Invalid {
            field: "name",
            message,
        })?
    };
    if db::team::by_email(conn, &email)?.is_some() {
        return Err(ApiError::Invalid {
            field: "email",
            message: format!("{email} is already on the staff."),
        });
    }
    let id = db::team::add(conn, &email, &name, role.as_str(), now())?;
    let member = db::team::by_id(conn, id)?
        .ok_or_else(|| ApiError::Internal("the new member of staff vanished".into()))?;
    password::invite(conn, base, &member)?;
    entry(
        conn,
        by,
        "staff.add",
        &format!("staff {id}"),
        None,
        Some(picture(&member)),
    )?;
    Ok(member)
}

/// A change of a member of staff.
#[derive(Debug, Clone, Copy, Default)]
pub struct Change {
    pub role: Option<Role>,
    pub disabled: Option<bool>,
    /// Mail a new link to choose a password (earlier ones stop working).
    pub invite: bool,
}

/// Changes member `id` as `change` says, recorded for `by` (none: the command line); their
/// sessions end on a role or standing change. A manager cannot change their own role or
/// standing (nobody locks the store out of its back office by a slip).
pub fn change_member(
    conn: &mut db::AnyConnection,
    by: Option<&db::team::StaffRow>,
    base: &str,
    id: i64,
    change: Change,
) -> Result<db::team::StaffRow, ApiError> {
    let before = db::team::by_id(conn, id)?
        .ok_or_else(|| ApiError::NotFound("No such member of staff.".into()))?;
    let own = by.is_some_and(|b| b.id == id);
    if own && (change.role.is_some() || change.disabled.is_some()) {
        return Err(ApiError::Invalid {
            field: "role",
            message: "Your own role and standing are changed by another manager.".into(),
        });
    }
    let now = now();
    if let Some(role) = change.role.filter(|r| r.as_str() != before.role) {
        db::team::set_role(conn, id, role.as_str(), now)?;
    }
    if let Some(disabled) = change
        .disabled
        .filter(|d| *d != before.disabled_at.is_some())
    {
        db::team::set_disabled(conn, id, disabled.then_some(now), now)?;
    }
    let after = db::team::by_id(conn, id)?
        .ok_or_else(|| ApiError::NotFound("No such member of staff.".into()))?;
    let subject = format!("staff {id}");
    if after != before {
        let action = match (change.role, change.disabled) {
            (Some(_), _) => "staff.role",
            (None, Some(true)) => "staff.disable",
            _ => "staff.enable",
        };
        entry(
            conn,
            by,
            action,
            &subject,
            Some(picture(&before)),
            Some(picture(&after)),
        )?;
    }
    if change.invite {
        password::invite(conn, base, &after)?;
        entry(
            conn,
            by,
            "staff.invite",
            &subject,
            None,
            Some(picture(&after)),
        )?;
    }
    Ok(after)
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct AddForm {
    #[serde(default)]
    #[schema(required = true, schema_with = framework::rules::email)]
    pub email: String,
    /// As the staff pages and the audit log show them (left empty: the email's name).
    #[serde(default)]
    #[schema(schema_with = name_or_nothing)]
    pub name: String,
    #[serde(default)]
    #[schema(required = true, nullable = false, inline)]
    pub role: Option<Role>,
}

/// A name ([`framework::rules::name`]), or nothing (the email's name is taken).
fn name_or_nothing() -> utoipa::openapi::schema::ObjectBuilder {
    framework::rules::name()
        .pattern(Some(format!("^$|{}", framework::rules::NAME)))
        .description(Some(
            "As the staff pages and the audit log show them (left empty: the email's name).",
        ))
}

framework::declare!(
    /// `POST /api/v1/staff/team`: adds a member of staff and mails them a link to choose a
    /// password (managers).
    pub struct StaffAdd = Post "/api/v1/staff/team" as "staffAdd", Write, errors [401, 404, 422],
    (NoParams, NoParams, Json<AddForm, true>) -> StaffMember,
    "Adds a member of staff (managers only); they are mailed a link to choose a password.",
    status 201);

impl Endpoint for StaffAdd {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (_, _, Json(f), _): Args<Self>) -> Result<StaffMember, ApiError> {
        let signed = signed_in_as(ctx, &[Role::Manager])?;
        let role = f.role.ok_or_else(|| ApiError::Invalid {
            field: "role",
            message: "Choose a role.".into(),
        })?;
        let base = ctx.config.public_url.to_string();
        let by = signed.member;
        let added = db::transaction(ctx.conn, |conn| {
            let new = NewMember {
                email: &f.email,
                name: &f.name,
                role,
            };
            add_member(conn, Some(&by), &base, new)
        })?;
        ctx.mailed = true;
        Ok((&added).into())
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct StaffPath {
    #[serde(rename = "staffId")]
    #[param(rename = "staffId", minimum = 1)]
    pub staff_id: i64,
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ChangeForm {
    /// A new role (their sessions end).
    #[serde(default)]
    #[schema(inline)]
    pub role: Option<Role>,
    /// Disabled (they cannot sign in; their sessions end) or enabled again.
    #[serde(default)]
    pub disabled: Option<bool>,
    /// Mail them a new link to choose a password.
    #[serde(default)]
    pub invite: Option<bool>,
}

framework::declare!(
    /// `POST /api/v1/staff/team/{staffId}`: gives a member of staff a role, disables or enables
    /// them, or mails a new link (managers; not their own role or standing).
    pub struct StaffChange = Post "/api/v1/staff/team/{staffId}" as "staffChange", Write, errors [401, 404, 422],
    (StaffPath, NoParams, Json<ChangeForm, true>) -> StaffMember,
    "Changes a member of staff (managers only).");

impl Endpoint for StaffChange {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (p, _, Json(f), _): Args<Self>) -> Result<StaffMember, ApiError> {
        let signed = signed_in_as(ctx, &[Role::Manager])?;
        let change = Change {
            role: f.role,
            disabled: f.disabled,
            invite: f.invite == Some(true),
        };
        let base = ctx.config.public_url.to_string();
        let by = signed.member;
        let after = db::transaction(ctx.conn, |conn| {
            change_member(conn, Some(&by), &base, p.staff_id, change)
        })?;
        ctx.mailed = change.invite;
        Ok((&after).into())
    }
}
