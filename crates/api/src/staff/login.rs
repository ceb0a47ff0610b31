//! Signing in with the password (the first factor) and signing out, each in the audit log
//! (`audit::sign_in`): a sign-in, a failed one (the email typed, never the password), a lockout.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use super::audit::{may_record_failure, sign_in, sign_in_event, typed};
use super::*;
use crate::accounts::password_matches;
use framework::endpoint::{Args, Endpoint, Json, NoBody, NoParams};

framework::register!(StaffLogin, StaffLogout);

/// What a failed sign-in says, whatever failed (no account, a wrong password, a disabled
/// account, a password not chosen yet).
pub const SIGN_IN_FAILED: &str = "These credentials do not match our records.";

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct StaffCredentials {
    /// The staff account's email address.
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 254)]
    pub email: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub password: String,
}

/// What comes after the password.
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq, ToSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum NextStep {
    /// Set up the second factor (the first sign-in).
    Enroll,
    /// Give a code of the second factor.
    Code,
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct StaffStep {
    pub next: NextStep,
}

framework::declare!(
    /// `POST /api/v1/staff/login`: the password of a staff account; a session that can only give
    /// the second factor, in the `staff_session` cookie.
    pub struct StaffLogin = Post "/api/v1/staff/login" as "staffLogin", Write, errors [422, 429],
    (NoParams, NoParams, Json<StaffCredentials, true>) -> StaffStep,
    "Signs a member of staff in with their password; the second factor comes next.");

impl Endpoint for StaffLogin {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (_, _, Json(c), _): Args<Self>) -> Result<StaffStep, ApiError> {
        ctx.limit_client(
            "staff login",
            framework::limits::LOGIN,
            framework::limits::WINDOW,
        )?;
        let email = c.email.trim().to_ascii_lowercase();
        let failed = || ApiError::Invalid {
            field: "email",
            message: SIGN_IN_FAILED.into(),
        };
        if email.is_empty() || c.password.is_empty() {
            return Err(ApiError::Invalid {
                field: "email",
                message: "Enter your email address and your password.".into(),
            });
        }
        if email.chars().any(char::is_control) || email.len() > domain::email::MAX {
            if may_record_failure(ctx, None)? {
                let after = serde_json::json!({"email": typed(&email), "why": "not an email"});
                sign_in_event(ctx, None, &email, sign_in::FAILED, after)?;
            }
            return Err(failed());
        }
        // As the shoppers' login: tries count per account and client (`Ctx::sign_in_try`).
        let member = db::team::by_email(ctx.conn, &email)?;
        let account = member
            .as_ref()
            .map_or_else(|| format!("email {email}"), |m| format!("staff {}", m.id));
        // Each entry is written at once (no transaction holds the call), so a failure's stays
        // with the failure; failures are recorded within the client's limit
        // (`audit::may_record_failure`), a lockout once in its ten minutes.
        let try_ = match ctx.sign_in_try(&format!("staff login failures:{account}")) {
            Ok(t) => t,
            Err(ApiError::TooMany(wait)) => {
                let once = format!("locked {account} from {}", ctx.client_key());
                if may_record_failure(ctx, Some(&once))? {
                    let after = serde_json::json!({
                        "email": typed(&email),
                        "why": "too many failed sign-ins",
                        "retry_after": wait,
                    });
                    sign_in_event(ctx, member.as_ref(), &email, sign_in::LOCKED, after)?;
                }
                return Err(ApiError::TooMany(wait));
            }
            Err(e) => return Err(e),
        };
        let stored = member
            .as_ref()
            .filter(|m| m.disabled_at.is_none())
            .and_then(|m| m.password_hash.as_deref());
        if !password_matches(&c.password, stored) {
            try_.failed(ctx)?;
            if may_record_failure(ctx, None)? {
                let why = match &member {
                    None => "no such account",
                    Some(m) if m.disabled_at.is_some() => "disabled",
                    Some(m) if m.password_hash.is_none() => "no password chosen yet",
                    Some(_) => "wrong password",
                };
                let after = serde_json::json!({"email": typed(&email), "why": why});
                sign_in_event(ctx, member.as_ref(), &email, sign_in::FAILED, after)?;
            }
            return Err(failed());
        }
        let member = member.ok_or_else(|| ApiError::Internal("matched without staff".into()))?;
        try_.succeeded(ctx)?;
        // A session the request brought ends: a sign-in always begins a new one.
        if let Some(old) = ctx.cookie(COOKIE).map(token_hash) {
            db::team::end_session(ctx.conn, &old)?;
        }
        let token = framework::session::new_token();
        db::team::start_session(ctx.conn, &token_hash(&token), member.id, now())?;
        let cookie = session_cookie(ctx, Some(token));
        ctx.send_cookie(cookie);
        let next = if member.totp_secret.is_some() {
            NextStep::Code
        } else {
            NextStep::Enroll
        };
        let after = serde_json::json!({"next": next});
        sign_in_event(ctx, Some(&member), &email, sign_in::PASSWORD, after)?;
        Ok(StaffStep { next })
    }
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct SignedOut {
    pub message: String,
}

framework::declare!(
    /// `POST /api/v1/staff/logout`: ends the staff session and clears its cookie.
    pub struct StaffLogout = Post "/api/v1/staff/logout" as "staffLogout", Write, errors [],
    (NoParams, NoParams, NoBody) -> SignedOut, "Ends the staff session.");

impl Endpoint for StaffLogout {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, _: Args<Self>) -> Result<SignedOut, ApiError> {
        // A session that holds (whole or half) is recorded as its member's sign-out.
        if let Some(signed) = session(ctx)? {
            let after = serde_json::json!({"whole": signed.whole});
            sign_in_event(ctx, Some(&signed.member), "", sign_in::SIGN_OUT, after)?;
        }
        if let Some(old) = ctx.cookie(COOKIE).map(token_hash) {
            db::team::end_session(ctx.conn, &old)?;
        }
        let cookie = session_cookie(ctx, None);
        ctx.send_cookie(cookie);
        Ok(SignedOut {
            message: "You have signed out.".into(),
        })
    }
}
