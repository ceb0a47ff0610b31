//! A member's own account: the profile, the website policy, deleting
//! the account, changing the password, and resetting a forgotten one through an emailed link.

use db::users::Profile;
use db::AnyConnection;
use domain::account::{self, Details};
use serde::Deserialize;
use utoipa::ToSchema;

use crate::accounts::{
    hash_password, member_answer, message, new_password, password_matches, MessageAnswer,
    UserAnswer,
};
use framework::endpoint::{Args, Ctx, Endpoint, Json, NoParams};
use framework::error::ApiError;
use framework::mail::Mail;
use framework::session::{hash as token_hash, new_token};

framework::register!(
    UpdateUser,
    DeleteUser,
    WebsitePolicy,
    ChangePassword,
    ResetLink,
    VerifyResetLink,
    ResetPassword,
);

/// The member's details a password must not be made of.
fn inputs(u: &db::users::UserRow) -> [&str; 4] {
    [&u.first_name, &u.last_name, &u.email, &u.mobile].map(String::as_str)
}

/// What the `current_password` field says when it is wrong.
const WRONG_PASSWORD: &str = "The current password is not correct.";

/// Confirms a member's sensitive change (deleting the account, a new mobile number, a new
/// password) by the current password, at most 5 wrong ones in 10 minutes a member. A member whose
/// account a social provider made has no password of their own: they are mailed a link to choose
/// one (the mailed link is their confirmation), and told so. The data download asks it too.
pub(crate) fn confirm_password(
    ctx: &mut Ctx,
    user: &db::users::UserRow,
    password: &str,
) -> Result<(), ApiError> {
    let key = format!("confirm password failures:user {}", user.id);
    let (tries, wait) = ctx.count_try(&key, 600)?;
    if tries > 5 {
        return Err(ApiError::TooMany(wait));
    }
    if !user.password_set {
        ctx.limit_mails("reset link address", &user.email)?;
        mail_reset_link(ctx, user)?;
        return Err(ApiError::Invalid {
            field: "current_password",
            message: format!(
                "Your account was made through a social login and has no password yet. We sent a link to {} to choose one; then confirm with it.",
                user.email
            ),
        });
    }
    if !password_matches(password, Some(&user.password_hash)) {
        return Err(ApiError::Invalid {
            field: "current_password",
            message: WRONG_PASSWORD.into(),
        });
    }
    db::limits::rate_reset(ctx.conn, &key)?;
    Ok(())
}

/// Mails a member a reset link (voiding every earlier one).
fn mail_reset_link(ctx: &mut Ctx, user: &db::users::UserRow) -> Result<(), ApiError> {
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
        &user.email,
        "Reset your password",
        &serde_json::json!({
            "first_name": user.first_name,
            "link": link,
            "minutes": RESET_MINUTES,
        }),
    )?);
    Ok(())
}

/// How long a reset link works.
pub const RESET_MINUTES: i64 = 60;

use domain::calendar::unix_now as now;

framework::mail_templates!("password_reset");

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ProfileForm {
    #[serde(default)]
    #[schema(required = true, schema_with = framework::rules::name)]
    pub first_name: String,
    #[serde(default)]
    #[schema(required = true, schema_with = framework::rules::name)]
    pub last_name: String,
    #[serde(default)]
    #[schema(required = true, schema_with = framework::rules::mobile)]
    pub mobile: String,
    /// `YYYY-MM-DD`; 18 or older.
    #[serde(default)]
    #[schema(required = true, schema_with = framework::rules::birth_date)]
    pub birth_date: String,
    /// Needed when the mobile number changes (it is a login name).
    #[serde(default)]
    pub current_password: String,
}

framework::declare!(
    /// `PUT /api/v1/user`: names, mobile and birth date, each checked; a new mobile number needs
    /// the current password. At most 10 changes an hour a member and 30 a client.
    pub struct UpdateUser = Put "/api/v1/user" as "updateUser", Write, errors [401, 422, 429],
    (NoParams, NoParams, Json<ProfileForm, true>) -> UserAnswer, "Updates the member's names, mobile and birth date.");

impl Endpoint for UpdateUser {
    fn call(ctx: &mut Ctx, (_, _, Json(f), _): Args<Self>) -> Result<UserAnswer, ApiError> {
        let user = ctx.member()?;
        // A taken mobile number is refused, so answers tell whether a number has an account:
        // they are few.
        ctx.limit_client("profile", framework::limits::PROFILE, 3600)?;
        ctx.limit("profile", &format!("user {}", user.id), 10, 3600)?;
        let mut c = account::Checker::default();
        let fields = [&f.first_name, &f.last_name, &f.mobile, &f.birth_date].map(String::as_str);
        let today = domain::calendar::manila_now().date();
        let d = Details::check(&mut c, fields, today);
        let d = c.finish(d).map_err(ApiError::Fields)?;
        if d.mobile != user.mobile {
            confirm_password(ctx, &user, &f.current_password)?;
        }
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

/// What deleting the account takes.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct DeleteForm {
    /// The member's current password.
    #[serde(default)]
    #[schema(required = true)]
    pub current_password: String,
}

framework::declare!(
    /// `DELETE /api/v1/user` (body `current_password`): deletes the account and its personal data
    /// and ends its sessions.
    pub struct DeleteUser = Delete "/api/v1/user" as "deleteUser", Write, errors [401, 422, 429],
    (NoParams, NoParams, Json<DeleteForm, true>) -> MessageAnswer, "Deletes the member's account and personal data (with the current password).");

impl Endpoint for DeleteUser {
    fn call(ctx: &mut Ctx, (_, _, Json(f), _): Args<Self>) -> Result<MessageAnswer, ApiError> {
        let user = ctx.member()?;
        confirm_password(ctx, &user, &f.current_password)?;
        db::users::delete_user(ctx.conn, &user)?;
        ctx.issued = None;
        ctx.ended = true;
        Ok(message("Your account has been deleted."))
    }
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct PolicyForm {
    /// Required: whether the member accepts the policy (false withdraws).
    #[serde(default)]
    #[schema(required = true, nullable = false)]
    pub policy_agreement_accepted: Option<bool>,
}

framework::declare!(
    /// `PUT /api/v1/user/website-policy`: the member accepted (or withdrew from) the policy; a
    /// member who accepted never sees the policy modal again, on any device.
    pub struct WebsitePolicy = Put "/api/v1/user/website-policy" as "websitePolicy", Write, errors [401, 422],
    (NoParams, NoParams, Json<PolicyForm, true>) -> UserAnswer, "Records the member's acceptance of the website policy.");

impl Endpoint for WebsitePolicy {
    fn call(ctx: &mut Ctx, (_, _, Json(f), _): Args<Self>) -> Result<UserAnswer, ApiError> {
        let user = ctx.member()?;
        let accepted = f
            .policy_agreement_accepted
            .ok_or_else(|| ApiError::Invalid {
                field: "policy_agreement_accepted",
                message: "Say whether you accept the policy.".into(),
            })?;
        db::users::set_policy_accepted(ctx.conn, user.id, accepted)?;
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
    #[schema(required = true)]
    pub current_password: String,
    #[serde(default)]
    #[schema(required = true, schema_with = framework::rules::new_password)]
    pub password: String,
}

framework::declare!(
    /// `POST /api/v1/user/change-password`: needs the current password; every session of the
    /// member ends, and this one goes on with a new token.
    pub struct ChangePassword = Post "/api/v1/user/change-password" as "changePassword", Write, errors [401, 422, 429],
    (NoParams, NoParams, Json<PasswordChange, true>) -> MessageAnswer, "Changes the member's password; other sessions end.");

impl Endpoint for ChangePassword {
    fn call(ctx: &mut Ctx, (_, _, Json(f), _): Args<Self>) -> Result<MessageAnswer, ApiError> {
        let user = ctx.member()?;
        confirm_password(ctx, &user, &f.current_password)?;
        new_password(&f.password, &inputs(&user))?;
        if f.password == f.current_password {
            return Err(ApiError::Invalid {
                field: "password",
                message: "The new password must differ from the current one.".into(),
            });
        }
        db::users::set_password(ctx.conn, user.id, &hash_password(&f.password)?)?;
        db::sessions::end_sessions_of(ctx.conn, user.id)?;
        ctx.start_session(Some(user.id.get()))?;
        Ok(message("Your password has been changed."))
    }
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ResetRequest {
    #[serde(default)]
    #[schema(required = true, schema_with = framework::rules::email)]
    pub email: String,
}

framework::declare!(
    /// `POST /api/v1/reset/password/get-link`: mails a reset link when the address has an account
    /// (voiding the earlier ones), else a note that it has none; the answer is the same either
    /// way.
    pub struct ResetLink = Post "/api/v1/reset/password/get-link" as "resetLink", Write, errors [422, 429],
    (NoParams, NoParams, Json<ResetRequest, true>) -> MessageAnswer, "Mails a password reset link (the same answer for any address).");

impl Endpoint for ResetLink {
    fn call(ctx: &mut Ctx, (_, _, Json(f), _): Args<Self>) -> Result<MessageAnswer, ApiError> {
        ctx.limit_client(
            "reset link",
            framework::limits::RESET_LINK,
            framework::limits::WINDOW,
        )?;
        let email = domain::email::validate_email(&f.email).map_err(|m| ApiError::Invalid {
            field: "email",
            message: m.into(),
        })?;
        ctx.limit_mails("reset link address", &email)?;
        // Either way one message is queued (and mailing happens off the request): the answer and
        // its time are the same whether or not the address has an account.
        // The note to an address without an account goes at most once a day (the store must
        // not become a way to mail strangers); the count is kept either way.
        match db::users::user_by_login(ctx.conn, &email)? {
            Some(user) => mail_reset_link(ctx, &user)?,
            None => {
                let key = format!("no account note:{email}");
                let now = now();
                if db::limits::rate_hit(ctx.conn, &key, now, 86_400, 1)?.is_none() {
                    ctx.outgoing.push(Mail::render(
                        "no_account",
                        &email,
                        "No account uses this address",
                        &serde_json::json!({ "base": ctx.config.public_url.to_string() }),
                    )?);
                }
            }
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
    #[schema(required = true)]
    pub suid: String,
}

fn open_reset(conn: &mut AnyConnection, suid: &str) -> Result<domain::UserId, ApiError> {
    db::users::open_password_reset(conn, &token_hash(suid.trim()), now())?
        .ok_or_else(|| ApiError::NotFound("This link is invalid or has expired.".into()))
}

framework::declare!(
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
    #[schema(required = true)]
    pub suid: String,
    #[serde(default)]
    #[schema(required = true, schema_with = framework::rules::new_password)]
    pub password: String,
}

framework::declare!(
    /// `POST /api/v1/reset/password`: sets the password through a link, once; every session of the
    /// member ends and every other reset link is void.
    pub struct ResetPassword = Post "/api/v1/reset/password" as "resetPassword", Write, errors [404, 422, 429],
    (NoParams, NoParams, Json<NewPassword, true>) -> MessageAnswer, "Sets a new password through a reset link; all sessions end.");

impl Endpoint for ResetPassword {
    fn call(ctx: &mut Ctx, (_, _, Json(f), _): Args<Self>) -> Result<MessageAnswer, ApiError> {
        ctx.limit_client(
            "reset password",
            framework::limits::RESET_PASSWORD,
            framework::limits::WINDOW,
        )?;
        let user = open_reset(ctx.conn, &f.suid)?;
        let member = db::users::user(ctx.conn, user)?
            .ok_or_else(|| ApiError::NotFound("This link is invalid or has expired.".into()))?;
        new_password(&f.password, &inputs(&member))?;
        if member.password_set && password_matches(&f.password, Some(&member.password_hash)) {
            return Err(ApiError::Invalid {
                field: "password",
                message: "The new password must differ from the current one.".into(),
            });
        }
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
