//! A member's own account (issue 8, sections 5 and 6): the profile, the website policy, deleting
//! the account, changing the password, and resetting a forgotten one through an emailed link.

use db::queries::{self, Profile, UserRow};
use domain::account::{self, FieldErrors};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::accounts::{
    hash_password, member_answer, message, password_matches, MessageAnswer, UserAnswer,
};
use crate::endpoint::{Access, Ctx, Endpoint, Json, Method, NoBody, NoParams};
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

/// How long a reset link works.
pub const RESET_MINUTES: i64 = 60;

use domain::calendar::unix_now as now;

impl Ctx<'_> {
    /// The logged-in member, or 401.
    pub fn member(&mut self) -> Result<UserRow, ApiError> {
        let id = self
            .session()?
            .and_then(|s| s.user_id)
            .ok_or(ApiError::Unauthenticated)?;
        queries::user(self.conn, domain::UserId::from_db(id))?.ok_or(ApiError::Unauthenticated)
    }
}

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

/// `PUT /api/v1/user`: names, mobile and birth date, each checked.
pub struct UpdateUser;

impl Endpoint for UpdateUser {
    const NAME: &'static str = "updateUser";
    const METHOD: Method = Method::Put;
    const PATH: &'static str = "/api/v1/user";
    const SUMMARY: &'static str = "Updates the member's names, mobile and birth date.";
    const ACCESS: Access = Access::Write;
    const ERRORS: &'static [u16] = &[401, 422];
    type Path = NoParams;
    type Query = NoParams;
    type Body = Json<ProfileForm, true>;
    type Answer = UserAnswer;

    fn call(
        ctx: &mut Ctx,
        _: NoParams,
        _: NoParams,
        Json(f): Self::Body,
    ) -> Result<UserAnswer, ApiError> {
        let user = ctx.member()?;
        let mut errors = FieldErrors::new();
        let mut field = |name: &'static str, r: Result<String, String>| {
            r.map_err(|e| errors.entry(name).or_default().push(e)).ok()
        };
        let first = field(
            "first_name",
            account::validate_name(&f.first_name, "first name"),
        );
        let last = field(
            "last_name",
            account::validate_name(&f.last_name, "last name"),
        );
        let mobile = field("mobile", account::validate_mobile(&f.mobile));
        let today = domain::calendar::manila_now().date();
        let born = field(
            "birth_date",
            account::validate_birth_date(&f.birth_date, today).map(domain::calendar::iso_date),
        );
        let (Some(first), Some(last), Some(mobile), Some(born)) = (first, last, mobile, born)
        else {
            return Err(ApiError::Fields(errors));
        };
        let saved = queries::update_profile(
            ctx.conn,
            user.id,
            &Profile {
                first_name: &first,
                last_name: &last,
                mobile: &mobile,
                birth_date: &born,
            },
        )?;
        if !saved {
            return Err(ApiError::Invalid {
                field: "mobile",
                message: "This mobile number is already used by an account.".into(),
            });
        }
        let user = queries::user(ctx.conn, user.id)?.ok_or(ApiError::Unauthenticated)?;
        member_answer(ctx, user)
    }
}

/// `DELETE /api/v1/user`: deletes the account and its personal data and ends its sessions.
pub struct DeleteUser;

impl Endpoint for DeleteUser {
    const NAME: &'static str = "deleteUser";
    const METHOD: Method = Method::Delete;
    const PATH: &'static str = "/api/v1/user";
    const SUMMARY: &'static str = "Deletes the member's account and personal data.";
    const ACCESS: Access = Access::Write;
    const ERRORS: &'static [u16] = &[401];
    type Path = NoParams;
    type Query = NoParams;
    type Body = NoBody;
    type Answer = MessageAnswer;

    fn call(ctx: &mut Ctx, _: NoParams, _: NoParams, _: NoBody) -> Result<MessageAnswer, ApiError> {
        let user = ctx.member()?;
        queries::delete_user(ctx.conn, &user)?;
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

/// `PUT /api/v1/user/website-policy`: the member accepted (or withdrew from) the policy; a
/// member who accepted never sees the policy modal again, on any device.
pub struct WebsitePolicy;

impl Endpoint for WebsitePolicy {
    const NAME: &'static str = "websitePolicy";
    const METHOD: Method = Method::Put;
    const PATH: &'static str = "/api/v1/user/website-policy";
    const SUMMARY: &'static str = "Records the member's acceptance of the website policy.";
    const ACCESS: Access = Access::Write;
    const ERRORS: &'static [u16] = &[401];
    type Path = NoParams;
    type Query = NoParams;
    type Body = Json<PolicyForm, true>;
    type Answer = UserAnswer;

    fn call(
        ctx: &mut Ctx,
        _: NoParams,
        _: NoParams,
        Json(f): Self::Body,
    ) -> Result<UserAnswer, ApiError> {
        let user = ctx.member()?;
        queries::set_policy_accepted(ctx.conn, user.id, f.policy_agreement_accepted)?;
        let user = queries::user(ctx.conn, user.id)?.ok_or(ApiError::Unauthenticated)?;
        member_answer(ctx, user)
    }
}

/// Records a member's acceptance of the policy (the no-JS consent form of a logged-in member).
pub fn accept_policy(ctx: &mut Ctx, user: domain::UserId) -> Result<(), ApiError> {
    Ok(queries::set_policy_accepted(ctx.conn, user, true)?)
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct PasswordChange {
    #[serde(default)]
    pub current_password: String,
    #[serde(default)]
    pub password: String,
}

/// `POST /api/v1/user/change-password`: needs the current password; every session of the
/// member ends, and this one goes on with a new token.
pub struct ChangePassword;

impl Endpoint for ChangePassword {
    const NAME: &'static str = "changePassword";
    const METHOD: Method = Method::Post;
    const PATH: &'static str = "/api/v1/user/change-password";
    const SUMMARY: &'static str = "Changes the member's password; other sessions end.";
    const ERRORS: &'static [u16] = &[401, 422, 429];
    const ACCESS: Access = Access::Write;
    type Path = NoParams;
    type Query = NoParams;
    type Body = Json<PasswordChange, true>;
    type Answer = MessageAnswer;

    fn call(
        ctx: &mut Ctx,
        _: NoParams,
        _: NoParams,
        Json(f): Self::Body,
    ) -> Result<MessageAnswer, ApiError> {
        let user = ctx.member()?;
        ctx.limit("change password", &user.email, 5, 600)?;
        if !password_matches(&f.current_password, Some(&user.password_hash)) {
            return Err(ApiError::Invalid {
                field: "current_password",
                message: "The current password is not correct.".into(),
            });
        }
        account::validate_password(&f.password).map_err(|message| ApiError::Invalid {
            field: "password",
            message,
        })?;
        queries::set_password(ctx.conn, user.id, &hash_password(&f.password)?)?;
        queries::end_sessions_of(ctx.conn, user.id)?;
        ctx.start_session(Some(user.id.get()))?;
        Ok(message("Your password has been changed."))
    }
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ResetRequest {
    #[serde(default)]
    pub email: String,
}

/// `POST /api/v1/reset/password/get-link`: mails a reset link when the address has an account;
/// the answer is the same either way.
pub struct ResetLink;

impl Endpoint for ResetLink {
    const NAME: &'static str = "resetLink";
    const METHOD: Method = Method::Post;
    const PATH: &'static str = "/api/v1/reset/password/get-link";
    const SUMMARY: &'static str = "Mails a password reset link (the same answer for any address).";
    const ACCESS: Access = Access::Write;
    const ERRORS: &'static [u16] = &[422, 429];
    type Path = NoParams;
    type Query = NoParams;
    type Body = Json<ResetRequest, true>;
    type Answer = MessageAnswer;

    fn call(
        ctx: &mut Ctx,
        _: NoParams,
        _: NoParams,
        Json(f): Self::Body,
    ) -> Result<MessageAnswer, ApiError> {
        let client = ctx.client_key();
        ctx.limit("reset link", &client, 5, 600)?;
        let email = domain::email::validate_email(&f.email).map_err(|m| ApiError::Invalid {
            field: "email",
            message: m.into(),
        })?;
        ctx.limit("reset link address", &email, 3, 3600)?;
        if let Some(user) = queries::user_by_login(ctx.conn, &email)? {
            let token = new_token();
            queries::create_password_reset(
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

fn open_reset(ctx: &mut Ctx, suid: &str) -> Result<domain::UserId, ApiError> {
    queries::open_password_reset(ctx.conn, &token_hash(suid.trim()), now())?
        .ok_or_else(|| ApiError::NotFound("This link is invalid or has expired.".into()))
}

/// `POST /api/v1/reset/password/verify-link`: whether a reset link still works.
pub struct VerifyResetLink;

impl Endpoint for VerifyResetLink {
    const NAME: &'static str = "verifyResetLink";
    const METHOD: Method = Method::Post;
    const PATH: &'static str = "/api/v1/reset/password/verify-link";
    const SUMMARY: &'static str = "Whether a password reset link still works.";
    const ACCESS: Access = Access::Write;
    const ERRORS: &'static [u16] = &[404];
    type Path = NoParams;
    type Query = NoParams;
    type Body = Json<ResetLinkBody, true>;
    type Answer = MessageAnswer;

    fn call(
        ctx: &mut Ctx,
        _: NoParams,
        _: NoParams,
        Json(f): Self::Body,
    ) -> Result<MessageAnswer, ApiError> {
        open_reset(ctx, &f.suid)?;
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

/// `POST /api/v1/reset/password`: sets the password through a link, once; every session of the
/// member ends.
pub struct ResetPassword;

impl Endpoint for ResetPassword {
    const NAME: &'static str = "resetPassword";
    const METHOD: Method = Method::Post;
    const PATH: &'static str = "/api/v1/reset/password";
    const SUMMARY: &'static str = "Sets a new password through a reset link; all sessions end.";
    const ERRORS: &'static [u16] = &[404, 422, 429];
    const ACCESS: Access = Access::Write;
    type Path = NoParams;
    type Query = NoParams;
    type Body = Json<NewPassword, true>;
    type Answer = MessageAnswer;

    fn call(
        ctx: &mut Ctx,
        _: NoParams,
        _: NoParams,
        Json(f): Self::Body,
    ) -> Result<MessageAnswer, ApiError> {
        let client = ctx.client_key();
        ctx.limit("reset password", &client, 10, 600)?;
        let user = open_reset(ctx, &f.suid)?;
        account::validate_password(&f.password).map_err(|message| ApiError::Invalid {
            field: "password",
            message,
        })?;
        let hash = hash_password(&f.password)?;
        if !queries::use_password_reset(ctx.conn, &token_hash(f.suid.trim()), user, &hash, now())? {
            return Err(ApiError::NotFound(
                "This link is invalid or has expired.".into(),
            ));
        }
        Ok(message(
            "Your password has been reset. Log in with the new one.",
        ))
    }
}
