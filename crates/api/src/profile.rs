//! A member's own account (issue 8, sections 5 and 6): the profile, the website policy, deleting
//! the account, changing the password, and resetting a forgotten one through an emailed link.

use db::users::Profile;
use db::AnyConnection;
use domain::account::{self, Details};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::accounts::{
    hash_password, member_answer, message, password_matches, MessageAnswer, UserAnswer,
};
use crate::endpoint::{Args, Ctx, Endpoint, Json, NoBody, NoParams};
use crate::error::ApiError;
use crate::mail::Mail;
use crate::session::{hash as token_hash, new_token};

crate::register!(
    UpdateUser,
    DeleteUser,
    WebsitePolicy,
    ChangePassword,
    ResetLink,
    VerifyResetLink,
    ResetPassword,
);

/// A new password checked against the rules (SPEC 3), as the `password` field's error.
fn new_password(password: &str) -> Result<(), ApiError> {
    account::validate_password(password).map_err(|message| ApiError::Invalid {
        field: "password",
        message,
    })
}

/// How long a reset link works.
pub const RESET_MINUTES: i64 = 60;

use domain::calendar::unix_now as now;

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ProfileForm {
    #[serde(default)]
    pub first_name: String,
    #[serde(default)]
    pub last_name: String,
    #[serde(default)]
    pub mobile: String,
    /// `YYYY-MM-DD`; 18 or older.
    #[serde(default)]
    pub birth_date: String,
}

crate::declare!(
    /// `PUT /api/v1/user`: names, mobile and birth date, each checked.
    pub struct UpdateUser = Put "/api/v1/user" as "updateUser", Write, errors [401, 422],
    (NoParams, NoParams, Json<ProfileForm, true>) -> UserAnswer, "Updates the member's names, mobile and birth date.");

impl Endpoint for UpdateUser {
    fn call(ctx: &mut Ctx, (_, _, Json(f), _): Args<Self>) -> Result<UserAnswer, ApiError> {
        let user = ctx.member()?;
        let mut c = account::Checker::default();
        let fields = [&f.first_name, &f.last_name, &f.mobile, &f.birth_date].map(String::as_str);
        let today = domain::calendar::manila_now().date();
        let d = Details::check(&mut c, fields, today);
        let d = c.finish(d).map_err(ApiError::Fields)?;
        let saved = db::users::update_profile(
            ctx.conn,
            user.id,
            &Profile {
                first_name: &d.first_name,
                last_name: &d.last_name,
                mobile: &d.mobile,
                birth_date: &d.birth_date,
            },
        )?;
        if !saved {
            return Err(ApiError::Invalid {
                field: "mobile",
                message: "This mobile number is already used by an account.".into(),
            });
        }
        let user = db::users::user(ctx.conn, user.id)?.ok_or(ApiError::Unauthenticated)?;
        member_answer(ctx, user)
    }
}

crate::declare!(
    /// `DELETE /api/v1/user`: deletes the account and its personal data and ends its sessions.
    pub struct DeleteUser = Delete "/api/v1/user" as "deleteUser", Write, errors [401],
    (NoParams, NoParams, NoBody) -> MessageAnswer, "Deletes the member's account and personal data.");

impl Endpoint for DeleteUser {
    fn call(ctx: &mut Ctx, (_, _, _, _): Args<Self>) -> Result<MessageAnswer, ApiError> {
        let user = ctx.member()?;
        db::users::delete_user(ctx.conn, &user)?;
        ctx.issued = None;
        ctx.ended = true;
        Ok(message("Your account has been deleted."))
    }
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct PolicyForm {
    #[serde(default)]
    pub policy_agreement_accepted: bool,
}

crate::declare!(
    /// `PUT /api/v1/user/website-policy`: the member accepted (or withdrew from) the policy; a
    /// member who accepted never sees the policy modal again, on any device.
    pub struct WebsitePolicy = Put "/api/v1/user/website-policy" as "websitePolicy", Write, errors [401],
    (NoParams, NoParams, Json<PolicyForm, true>) -> UserAnswer, "Records the member's acceptance of the website policy.");

impl Endpoint for WebsitePolicy {
    fn call(ctx: &mut Ctx, (_, _, Json(f), _): Args<Self>) -> Result<UserAnswer, ApiError> {
        let user = ctx.member()?;
        db::users::set_policy_accepted(ctx.conn, user.id, f.policy_agreement_accepted)?;
        let user = db::users::user(ctx.conn, user.id)?.ok_or(ApiError::Unauthenticated)?;
        member_answer(ctx, user)
    }
}

/// Records a member's acceptance of the policy (the no-JS consent form of a logged-in member).
pub fn accept_policy(conn: &mut AnyConnection, user: domain::UserId) -> Result<(), ApiError> {
    Ok(db::users::set_policy_accepted(conn, user, true)?)
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct PasswordChange {
    #[serde(default)]
    pub current_password: String,
    #[serde(default)]
    pub password: String,
}

crate::declare!(
    /// `POST /api/v1/user/change-password`: needs the current password; every session of the
    /// member ends, and this one goes on with a new token.
    pub struct ChangePassword = Post "/api/v1/user/change-password" as "changePassword", Write, errors [401, 422, 429],
    (NoParams, NoParams, Json<PasswordChange, true>) -> MessageAnswer, "Changes the member's password; other sessions end.");

impl Endpoint for ChangePassword {
    fn call(ctx: &mut Ctx, (_, _, Json(f), _): Args<Self>) -> Result<MessageAnswer, ApiError> {
        let user = ctx.member()?;
        ctx.limit("change password", &user.email, 5, 600)?;
        if !password_matches(&f.current_password, Some(&user.password_hash)) {
            return Err(ApiError::Invalid {
                field: "current_password",
                message: "The current password is not correct.".into(),
            });
        }
        new_password(&f.password)?;
        db::users::set_password(ctx.conn, user.id, &hash_password(&f.password)?)?;
        db::sessions::end_sessions_of(ctx.conn, user.id)?;
        ctx.start_session(Some(user.id.get()))?;
        Ok(message("Your password has been changed."))
    }
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ResetRequest {
    #[serde(default)]
    pub email: String,
}

crate::declare!(
    /// `POST /api/v1/reset/password/get-link`: mails a reset link when the address has an account;
    /// the answer is the same either way.
    pub struct ResetLink = Post "/api/v1/reset/password/get-link" as "resetLink", Write, errors [422, 429],
    (NoParams, NoParams, Json<ResetRequest, true>) -> MessageAnswer, "Mails a password reset link (the same answer for any address).");

impl Endpoint for ResetLink {
    fn call(ctx: &mut Ctx, (_, _, Json(f), _): Args<Self>) -> Result<MessageAnswer, ApiError> {
        ctx.limit_client("reset link", 5, 600)?;
        let email = domain::email::validate_email(&f.email).map_err(|m| ApiError::Invalid {
            field: "email",
            message: m.into(),
        })?;
        ctx.limit("reset link address", &email, 3, 3600)?;
        if let Some(user) = db::users::user_by_login(ctx.conn, &email)? {
            let token = new_token();
            db::users::create_password_reset(
                ctx.conn,
                &token_hash(&token),
                user.id,
                now() + RESET_MINUTES * 60,
            )?;
            let link = format!("{}/reset-password?suid={token}", ctx.config.public_url);
            ctx.outgoing.push(Mail::render(
                "password_reset",
                user.email,
                "Reset your password",
                &serde_json::json!({
                    "first_name": user.first_name,
                    "link": link,
                    "minutes": RESET_MINUTES,
                }),
            )?);
        }
        Ok(message(
            "If this address has an account, we sent it a link to reset the password.",
        ))
    }
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ResetLinkBody {
    /// The link's token.
    #[serde(default)]
    pub suid: String,
}

fn open_reset(conn: &mut AnyConnection, suid: &str) -> Result<domain::UserId, ApiError> {
    db::users::open_password_reset(conn, &token_hash(suid.trim()), now())?
        .ok_or_else(|| ApiError::NotFound("This link is invalid or has expired.".into()))
}

crate::declare!(
    /// `POST /api/v1/reset/password/verify-link`: whether a reset link still works.
    pub struct VerifyResetLink = Post "/api/v1/reset/password/verify-link" as "verifyResetLink", Write, errors [404],
    (NoParams, NoParams, Json<ResetLinkBody, true>) -> MessageAnswer, "Whether a password reset link still works.");

impl Endpoint for VerifyResetLink {
    fn call(ctx: &mut Ctx, (_, _, Json(f), _): Args<Self>) -> Result<MessageAnswer, ApiError> {
        open_reset(ctx.conn, &f.suid)?;
        Ok(message("Choose a new password."))
    }
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct NewPassword {
    #[serde(default)]
    pub suid: String,
    #[serde(default)]
    pub password: String,
}

crate::declare!(
    /// `POST /api/v1/reset/password`: sets the password through a link, once; every session of the
    /// member ends.
    pub struct ResetPassword = Post "/api/v1/reset/password" as "resetPassword", Write, errors [404, 422, 429],
    (NoParams, NoParams, Json<NewPassword, true>) -> MessageAnswer, "Sets a new password through a reset link; all sessions end.");

impl Endpoint for ResetPassword {
    fn call(ctx: &mut Ctx, (_, _, Json(f), _): Args<Self>) -> Result<MessageAnswer, ApiError> {
        ctx.limit_client("reset password", 10, 600)?;
        let user = open_reset(ctx.conn, &f.suid)?;
        new_password(&f.password)?;
        let hash = hash_password(&f.password)?;
        if !db::users::use_password_reset(ctx.conn, &token_hash(f.suid.trim()), user, &hash, now())?
        {
            return Err(ApiError::NotFound(
                "This link is invalid or has expired.".into(),
            ));
        }
        Ok(message(
            "Your password has been reset. Log in with the new one.",
        ))
    }
}
