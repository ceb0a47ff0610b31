//! Members: registration through an emailed link, login and logout, and the user. Passwords are
//! argon2id hashes (the `argon2` crate's defaults), made and checked on the blocking threads that
//! run database work, never on the async workers. Answers never tell whether an account exists.

pub mod login;
pub mod my_data;
pub mod my_data_form;
pub mod registration;
pub mod social;
pub mod user;

use db::AnyConnection;
use std::sync::OnceLock;

use argon2::password_hash::{rand_core::OsRng, PasswordHash, SaltString};
use argon2::{Argon2, PasswordHasher, PasswordVerifier};
use db::users::RegistrationRow;
use domain::account;
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use crate::content::GuestUser;
use framework::endpoint::{Args, Ctx, Endpoint, Json, NoBody, NoParams};
use framework::error::ApiError;
use framework::mail::Mail;
use framework::session::{hash as token_hash, new_token};

/// How long a registration link stays good.
pub const LINK_HOURS: i64 = 24;
/// What a used registration link says.
pub const LINK_USED: &str =
    "This link has been used: your account is ready. Log in with your email and password.";
/// What a failed login says, whatever failed.
pub const LOGIN_FAILED: &str = "These credentials do not match our records.";

use domain::calendar::unix_now as now;

framework::mail_templates!("account_exists", "no_account", "registration");

framework::export_const!(
    /// The password rule the server checks, as the forms state it.
    PASSWORD_RULE = domain::account::PASSWORD_RULE
);

/// An argon2id hash of a password.
pub fn hash_password(password: &str) -> Result<String, ApiError> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| ApiError::Internal(format!("hashing a password: {e}")))
}

/// Whether a password matches a stored hash. Without a stored hash a dummy one is checked, so an
/// unknown account takes as long as a wrong password.
pub fn password_matches(password: &str, stored: Option<&str>) -> bool {
    static DUMMY: OnceLock<String> = OnceLock::new();
    let dummy = DUMMY.get_or_init(|| hash_password("no such account 0").unwrap_or_default());
    let (hash, real) = match stored {
        Some(h) => (h, true),
        None => (dummy.as_str(), false),
    };
    let ok = PasswordHash::new(hash)
        .map(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .unwrap_or(false);
    ok && real
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct Message {
    pub success: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct MessageAnswer {
    pub data: Message,
}

/// `{"data": {"success": text}}`.
pub(crate) fn message(text: impl Into<String>) -> MessageAnswer {
    MessageAnswer {
        data: Message {
            success: text.into(),
        },
    }
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct Welcome {
    pub first_name: String,
    /// Whether the guest cart and the member's cart hold packaging families that cannot be
    /// mixed: both are kept until the member chooses (`POST /api/v1/cart/keep`).
    pub cart_conflict: bool,
    /// What of the guest cart did not fit the member's when they joined (a cart's limits: 999
    /// of a product, 50 products), or empty.
    pub cart_message: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct WelcomeAnswer {
    pub data: Welcome,
}

/// Starts a member's session in place of the presented one (no session fixation), and the
/// guest's cart joins the member's: answers whether the two carts hold different
/// families (`cart_conflict`: both are kept until the member chooses) and what did not fit.
fn log_in(ctx: &mut Ctx, user: domain::UserId) -> Result<crate::cart::merge::Merged, ApiError> {
    let guest = crate::cart::owner(ctx, false)?;
    ctx.end_session()?;
    ctx.start_session(Some(user.get()))?;
    crate::cart::merge::merge_at_login(ctx, guest, user)
}

/// A member as `GET /api/v1/user` gives it, with the policy texts.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct Member {
    pub id: domain::UserId,
    pub firstname: String,
    pub lastname: String,
    pub email: String,
    pub mobile: String,
    pub birth_date: String,
    pub policy_agreement_accepted: bool,
    pub policy_agreement_text: String,
    pub term_and_condition_text: String,
    pub about_us_text: String,
}

/// `GET /api/v1/user`: the member (200), or for guests a 401 with the policy texts.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
#[serde(untagged)]
pub enum UserAnswer {
    Member { data: Member },
    Guest { error: String, data: GuestUser },
}

/// `GET /user`'s answer for a member.
pub(crate) fn member_answer(ctx: &mut Ctx, u: db::users::UserRow) -> Result<UserAnswer, ApiError> {
    Ok(UserAnswer::Member {
        data: Member {
            id: u.id,
            firstname: u.first_name,
            lastname: u.last_name,
            email: u.email,
            mobile: u.mobile,
            birth_date: u.birth_date,
            policy_agreement_accepted: u.policy_agreement_accepted,
            policy_agreement_text: text(ctx.conn, "policy_agreement")?,
            term_and_condition_text: text(ctx.conn, "terms_and_conditions")?,
            about_us_text: text(ctx.conn, "about_us")?,
        },
    })
}

fn text(conn: &mut AnyConnection, key: &str) -> Result<String, ApiError> {
    Ok(db::content::site_text(conn, key)?
        .map(|t| t.body)
        .unwrap_or_default())
}

/// A new password checked against the password rules, as the `password` field's error;
/// `user_inputs` are the member's own details (names, email, mobile), easy to guess.
pub fn new_password(password: &str, user_inputs: &[&str]) -> Result<(), ApiError> {
    account::validate_password(password, user_inputs).map_err(|message| ApiError::Invalid {
        field: "password",
        message,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_argon2id_and_checked_in_constant_shape() {
        let h = hash_password("beer2026").unwrap();
        assert!(h.starts_with("$argon2id$"), "{h}");
        assert!(password_matches("beer2026", Some(&h)));
        assert!(!password_matches("beer2027", Some(&h)));
        assert!(
            !password_matches("no such account 0", None),
            "the dummy never logs anyone in"
        );
        assert!(!password_matches("beer2026", Some("not a hash")));
    }
}
