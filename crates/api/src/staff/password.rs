//! A member of staff chooses their password by the link mailed when they were added.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use super::*;
use framework::endpoint::{Args, Endpoint, Json, NoParams};
use framework::mail::Mail;

framework::register!(StaffPassword);

/// What a used, expired or unknown link says.
pub const LINK_GONE: &str =
    "This link does not work anymore (it was used, or it is older than 72 hours). Ask a manager for a new one.";

/// Mails `member` a link to choose a password (earlier links stop working), in the mail queue
/// of `conn`'s transaction; `base` is the store's public address.
pub fn invite(
    conn: &mut db::AnyConnection,
    base: &str,
    member: &db::team::StaffRow,
) -> Result<(), ApiError> {
    let token = framework::session::new_token();
    let hours = domain::staff::LINK_SECS / 3600;
    db::team::create_link(
        conn,
        &token_hash(&token),
        member.id,
        now() + domain::staff::LINK_SECS,
    )?;
    let mail = Mail::render(
        "staff_invite",
        &member.email,
        "Your staff account of the store",
        &serde_json::json!({
            "name": member.name,
            "role": member.role,
            "link": format!("{base}/staff/password?token={token}"),
            "hours": hours,
            "base": base,
        }),
    )?;
    framework::mail::enqueue(conn, &[mail])
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct StaffPasswordForm {
    /// The link's token.
    #[serde(default)]
    #[schema(required = true)]
    pub token: String,
    #[serde(default)]
    #[schema(required = true, schema_with = framework::rules::new_password)]
    pub password: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct PasswordChosen {
    pub message: String,
}

framework::declare!(
    /// `POST /api/v1/staff/password`: the password of the link's member of staff (once per
    /// link); their sessions end.
    pub struct StaffPassword = Post "/api/v1/staff/password" as "staffPassword", Write, errors [422, 429],
    (NoParams, NoParams, Json<StaffPasswordForm, true>) -> PasswordChosen,
    "Sets a member of staff's password from their mailed link.");

impl Endpoint for StaffPassword {
    fn call(ctx: &mut Ctx, (_, _, Json(f), _): Args<Self>) -> Result<PasswordChosen, ApiError> {
        ctx.limit_client(
            "staff password",
            framework::limits::RESET_PASSWORD,
            framework::limits::WINDOW,
        )?;
        let gone = || ApiError::Invalid {
            field: "token",
            message: LINK_GONE.into(),
        };
        let hash = token_hash(f.token.trim());
        let member = db::team::open_link(ctx.conn, &hash, now())?.ok_or_else(gone)?;
        crate::accounts::new_password(&f.password, &[&member.email, &member.name])?;
        let password_hash = crate::accounts::hash_password(&f.password)?;
        db::team::use_link(ctx.conn, &hash, &password_hash, now())?.ok_or_else(gone)?;
        entry(
            ctx.conn,
            Some(&member),
            "staff.password",
            &format!("staff {}", member.id),
            None,
            Some(serde_json::json!({"password_set": true})),
        )?;
        Ok(PasswordChosen {
            message: "Your password is set. Sign in with your email address and it.".into(),
        })
    }
}
