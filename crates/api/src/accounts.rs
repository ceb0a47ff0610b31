//! Members: registration through an emailed link, login and logout, and the user (SPEC 3, 7;
//! issue 8). Passwords are argon2id hashes (the `argon2` crate's defaults), made and checked on
//! the blocking threads that run database work, never on the async workers. Answers never tell
//! whether an account exists.

use std::sync::OnceLock;

use argon2::password_hash::{rand_core::OsRng, PasswordHash, SaltString};
use argon2::{Argon2, PasswordHasher, PasswordVerifier};
use db::queries::{self, RegistrationRow};
use domain::account::{self, FieldErrors};
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::content::GuestUser;
use crate::endpoint::{Access, Ctx, Endpoint, Json, Method, NoBody, NoParams};
use crate::error::ApiError;
use crate::mail::Mail;
use crate::session::{hash as token_hash, new_token};

crate::register!(
    PreRegister,
    CheckRegistrationToken,
    Registration,
    Login,
    Logout,
    User
);

/// How long a registration link stays good.
pub const LINK_HOURS: i64 = 24;
/// What a failed login says, whatever failed.
pub const LOGIN_FAILED: &str = "These credentials do not match our records.";

use domain::calendar::unix_now as now;

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

/// The registration form (SPEC 3's fields).
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct RegistrationForm {
    #[serde(default)]
    pub first_name: String,
    #[serde(default)]
    pub last_name: String,
    #[serde(default)]
    pub email: String,
    /// `09` followed by 9 digits.
    #[serde(default)]
    pub mobile: String,
    /// `YYYY-MM-DD`; 18 or older today in Manila.
    #[serde(default)]
    pub birth_date: String,
    /// At least 8 characters, with a letter and a number.
    #[serde(default)]
    pub password: String,
    /// The terms and the privacy policy are accepted.
    #[serde(default)]
    pub accept_terms: bool,
}

/// A checked form: the member's details, or every field's errors.
fn check_form(f: &RegistrationForm) -> Result<RegistrationRow, ApiError> {
    let mut errors = FieldErrors::new();
    let mut field = |name: &'static str, r: Result<String, String>| match r {
        Ok(v) => Some(v),
        Err(e) => {
            errors.entry(name).or_default().push(e);
            None
        }
    };
    let first_name = field(
        "first_name",
        account::validate_name(&f.first_name, "first name"),
    );
    let last_name = field(
        "last_name",
        account::validate_name(&f.last_name, "last name"),
    );
    let email = field(
        "email",
        domain::email::validate_email(&f.email).map_err(str::to_string),
    );
    let mobile = field("mobile", account::validate_mobile(&f.mobile));
    let today = domain::calendar::manila_now().date();
    let birth_date = field(
        "birth_date",
        account::validate_birth_date(&f.birth_date, today).map(domain::calendar::iso_date),
    );
    let password = field(
        "password",
        account::validate_password(&f.password).map(|()| f.password.clone()),
    );
    let terms = field(
        "accept_terms",
        if f.accept_terms {
            Ok(String::new())
        } else {
            Err("Please accept the terms and conditions and the privacy policy.".into())
        },
    );
    match (
        first_name, last_name, email, mobile, birth_date, password, terms,
    ) {
        (
            Some(first_name),
            Some(last_name),
            Some(email),
            Some(mobile),
            Some(birth_date),
            Some(password),
            Some(_),
        ) => Ok(RegistrationRow {
            token_hash: String::new(),
            email,
            mobile,
            first_name,
            last_name,
            birth_date,
            password_hash: password,
            expires_at: 0,
            used_at: None,
        }),
        _ => Err(ApiError::Fields(errors)),
    }
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

/// `POST /api/v1/pre-register`: checks the form and emails a link that finishes the account. The
/// answer is the same whether or not the address already has an account (its owner gets a mail
/// that says so instead).
pub struct PreRegister;

impl Endpoint for PreRegister {
    const NAME: &'static str = "preRegister";
    const METHOD: Method = Method::Post;
    const PATH: &'static str = "/api/v1/pre-register";
    const SUMMARY: &'static str =
        "Checks the registration form and emails the link that finishes it.";
    const ACCESS: Access = Access::Write;
    const ERRORS: &'static [u16] = &[422, 429];
    type Path = NoParams;
    type Query = NoParams;
    type Body = Json<RegistrationForm, true>;
    type Answer = MessageAnswer;

    fn call(
        ctx: &mut Ctx,
        _: NoParams,
        _: NoParams,
        Json(form): Self::Body,
    ) -> Result<MessageAnswer, ApiError> {
        let client = ctx.client_key();
        ctx.limit("pre-register", &client, 5, 600)?;
        let mut row = check_form(&form)?;
        ctx.limit("pre-register address", &row.email, 3, 3600)?;
        let answer = message(format!(
            "We sent a link to {}. Open it within {LINK_HOURS} hours to finish creating your account.",
            row.email
        ));
        let base = ctx.config.public_url.to_string();
        if queries::email_taken(ctx.conn, &row.email)? {
            ctx.outgoing.push(Mail::render(
                "account_exists",
                &row.email,
                "You already have an account",
                &serde_json::json!({ "base": base }),
            )?);
            return Ok(answer);
        }
        let token = new_token();
        row.token_hash = token_hash(&token);
        row.password_hash = hash_password(&row.password_hash)?;
        row.expires_at = now() + LINK_HOURS * 3600;
        queries::create_registration(ctx.conn, &row)?;
        let link = format!("{base}/registration?token={token}");
        ctx.outgoing.push(Mail::render(
            "registration",
            &row.email,
            "Finish creating your account",
            &serde_json::json!({ "first_name": row.first_name, "link": link, "hours": LINK_HOURS }),
        )?);
        Ok(answer)
    }
}

/// The registration a link belongs to.
fn open_registration(ctx: &mut Ctx) -> Result<RegistrationRow, ApiError> {
    let gone = || ApiError::NotFound("This link is invalid or has expired.".into());
    let token = ctx
        .registration_token()
        .map(str::to_string)
        .ok_or_else(gone)?;
    queries::open_registration(ctx.conn, &token_hash(token.trim()), now())?.ok_or_else(gone)
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct PendingRegistration {
    pub email: String,
    pub first_name: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct PendingAnswer {
    pub data: PendingRegistration,
}

/// `GET /api/v1/check-registration-token` (header `registration-token`).
pub struct CheckRegistrationToken;

impl Endpoint for CheckRegistrationToken {
    const NAME: &'static str = "checkRegistrationToken";
    const METHOD: Method = Method::Get;
    const PATH: &'static str = "/api/v1/check-registration-token";
    const SUMMARY: &'static str = "Whose registration a link (header registration-token) finishes.";
    const ACCESS: Access = Access::Write;
    const ERRORS: &'static [u16] = &[404];
    type Path = NoParams;
    type Query = NoParams;
    type Body = NoBody;
    type Answer = PendingAnswer;

    fn call(ctx: &mut Ctx, _: NoParams, _: NoParams, _: NoBody) -> Result<PendingAnswer, ApiError> {
        let r = open_registration(ctx)?;
        Ok(PendingAnswer {
            data: PendingRegistration {
                email: r.email,
                first_name: r.first_name,
            },
        })
    }
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct Welcome {
    pub first_name: String,
    /// Whether the guest cart and the member's cart hold packaging families that cannot be
    /// mixed (always false until carts exist).
    pub cart_conflict: bool,
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct WelcomeAnswer {
    pub data: Welcome,
}

/// Starts a member's session in place of the presented one (no session fixation).
fn log_in(ctx: &mut Ctx, user: domain::UserId) -> Result<(), ApiError> {
    if let Some(old) = ctx.token() {
        queries::end_session(ctx.conn, &token_hash(&old))?;
    }
    ctx.start_session(Some(user.get()))?;
    Ok(())
}

/// What a social registration sends besides the provider's token (SPEC 7's `socialSource` and
/// `userAccessToken`): the details a provider does not vouch for. A link's registration sends
/// no body.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct SocialForm {
    /// `facebook` or `google`.
    #[serde(default, rename = "socialSource")]
    pub social_source: String,
    /// The provider's token; the same as the `fb-token` / `google-token` header.
    #[serde(default, rename = "userAccessToken")]
    pub user_access_token: String,
    /// `09` followed by 9 digits.
    #[serde(default)]
    pub mobile: String,
    /// `YYYY-MM-DD`; 18 or older today in Manila.
    #[serde(default)]
    pub birth_date: String,
    #[serde(default)]
    pub accept_terms: bool,
}

/// A member's details from what the provider vouched for and the form's own fields, checked as
/// the registration form is. The account gets a random password (the member can set one through
/// the reset link); the provider verified the email, so no link is mailed.
fn social_registration(
    identity: crate::social::Identity,
    f: SocialForm,
) -> Result<RegistrationRow, ApiError> {
    let source = f.social_source.trim().to_ascii_lowercase();
    if !source.is_empty() && source != identity.provider.name().to_ascii_lowercase() {
        return Err(ApiError::Invalid {
            field: "socialSource",
            message: format!(
                "socialSource must be {}.",
                identity.provider.name().to_ascii_lowercase()
            ),
        });
    }
    let clean = |s: &str| {
        s.chars()
            .filter(|c| !c.is_control())
            .take(60)
            .collect::<String>()
    };
    let form = RegistrationForm {
        first_name: clean(&identity.first_name),
        last_name: clean(&identity.last_name),
        email: identity.email,
        mobile: f.mobile,
        birth_date: f.birth_date,
        password: format!("{}a1", crate::session::new_token()),
        accept_terms: f.accept_terms,
    };
    let mut row = check_form(&form)?;
    row.password_hash = hash_password(&row.password_hash)?;
    Ok(row)
}

/// `POST /api/v1/registration` (header `registration-token`): creates the account the link was
/// sent for and logs it in; the token comes in the `access-token` header. With an `fb-token` or
/// `google-token` header instead, the provider's verified identity and the body's details make
/// the account.
pub struct Registration;

impl Endpoint for Registration {
    const NAME: &'static str = "registration";
    const METHOD: Method = Method::Post;
    const PATH: &'static str = "/api/v1/registration";
    const SUMMARY: &'static str = "Creates the account of a registration link and logs it in.";
    const ACCESS: Access = Access::Write;
    const ERRORS: &'static [u16] = &[404, 422, 429, 501, 502];
    const SOCIAL: bool = true;
    type Path = NoParams;
    type Query = NoParams;
    type Body = Json<SocialForm, false>;
    type Answer = WelcomeAnswer;

    fn call(
        ctx: &mut Ctx,
        _: NoParams,
        _: NoParams,
        Json(social): Self::Body,
    ) -> Result<WelcomeAnswer, ApiError> {
        let client = ctx.client_key();
        ctx.limit("registration", &client, 10, 600)?;
        let r = match ctx.social().cloned() {
            Some(identity) => social_registration(identity, social)?,
            None => open_registration(ctx)?,
        };
        let mut errors = FieldErrors::new();
        if queries::email_taken(ctx.conn, &r.email)? {
            errors
                .entry("email")
                .or_default()
                .push("This email address already has an account. Log in instead.".into());
        }
        if queries::mobile_taken(ctx.conn, &r.mobile)? {
            errors
                .entry("mobile")
                .or_default()
                .push("This mobile number is already used by an account.".into());
        }
        if !errors.is_empty() {
            return Err(ApiError::Fields(errors));
        }
        let created = if r.token_hash.is_empty() {
            queries::create_user(ctx.conn, &r, now()).map(Some)
        } else {
            queries::complete_registration(ctx.conn, &r, now())
        };
        let user = match created {
            Ok(Some(user)) => user,
            Ok(None) => {
                return Err(ApiError::NotFound(
                    "This link is invalid or has expired.".into(),
                ))
            }
            // The same details sent twice at once: one account, the other told so.
            Err(db::diesel::result::Error::DatabaseError(
                db::diesel::result::DatabaseErrorKind::UniqueViolation,
                _,
            )) => {
                return Err(ApiError::Invalid {
                    field: "email",
                    message: "This email address already has an account. Log in instead.".into(),
                })
            }
            Err(e) => return Err(e.into()),
        };
        log_in(ctx, user)?;
        Ok(WelcomeAnswer {
            data: Welcome {
                first_name: r.first_name,
                cart_conflict: false,
            },
        })
    }
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct Credentials {
    /// The account's email address or mobile number.
    #[serde(default, alias = "email", alias = "mobile")]
    pub login: String,
    #[serde(default)]
    pub password: String,
}

/// `POST /api/v1/login`: email or mobile, and password; a new session in the `access-token`
/// header.
pub struct Login;

impl Endpoint for Login {
    const NAME: &'static str = "login";
    const METHOD: Method = Method::Post;
    const PATH: &'static str = "/api/v1/login";
    const SUMMARY: &'static str = "Logs a member in; the token comes in the access-token header.";
    const ERRORS: &'static [u16] = &[422, 429];
    const ACCESS: Access = Access::Write;
    type Path = NoParams;
    type Query = NoParams;
    type Body = Json<Credentials, true>;
    type Answer = WelcomeAnswer;

    fn call(
        ctx: &mut Ctx,
        _: NoParams,
        _: NoParams,
        Json(c): Self::Body,
    ) -> Result<WelcomeAnswer, ApiError> {
        let client = ctx.client_key();
        ctx.limit("login", &client, 10, 600)?;
        let login = c.login.trim().to_ascii_lowercase();
        let login = account::validate_mobile(&login).unwrap_or(login);
        if login.is_empty() || c.password.is_empty() {
            return Err(ApiError::Invalid {
                field: "login",
                message: "Enter your email or mobile number and your password.".into(),
            });
        }
        ctx.limit("login account", &login, 5, 600)?;
        let user = queries::user_by_login(ctx.conn, &login)?;
        if !password_matches(&c.password, user.as_ref().map(|u| u.password_hash.as_str())) {
            return Err(ApiError::Invalid {
                field: "login",
                message: LOGIN_FAILED.into(),
            });
        }
        let user = user.ok_or_else(|| ApiError::Internal("matched without a user".into()))?;
        // Only failures count against the account.
        queries::rate_reset(ctx.conn, &format!("login account:{login}"))?;
        log_in(ctx, user.id)?;
        Ok(WelcomeAnswer {
            data: Welcome {
                first_name: user.first_name,
                cart_conflict: false,
            },
        })
    }
}

/// `POST /api/v1/logout`: ends the presented session and clears its cookie.
pub struct Logout;

impl Endpoint for Logout {
    const NAME: &'static str = "logout";
    const METHOD: Method = Method::Post;
    const PATH: &'static str = "/api/v1/logout";
    const SUMMARY: &'static str = "Ends the session.";
    const ACCESS: Access = Access::Write;
    type Path = NoParams;
    type Query = NoParams;
    type Body = NoBody;
    type Answer = MessageAnswer;

    fn call(ctx: &mut Ctx, _: NoParams, _: NoParams, _: NoBody) -> Result<MessageAnswer, ApiError> {
        if let Some(token) = ctx.token() {
            queries::end_session(ctx.conn, &token_hash(&token))?;
        }
        ctx.ended = true;
        Ok(message("You have been logged out."))
    }
}

/// A member as `GET /api/v1/user` gives it (SPEC 3), with the policy texts.
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
pub(crate) fn member_answer(ctx: &mut Ctx, u: queries::UserRow) -> Result<UserAnswer, ApiError> {
    Ok(UserAnswer::Member {
        data: Member {
            id: u.id,
            firstname: u.first_name,
            lastname: u.last_name,
            email: u.email,
            mobile: u.mobile,
            birth_date: u.birth_date,
            policy_agreement_accepted: u.policy_agreement_accepted,
            policy_agreement_text: text(ctx, "policy_agreement")?,
            term_and_condition_text: text(ctx, "terms_and_conditions")?,
            about_us_text: text(ctx, "about_us")?,
        },
    })
}

fn text(ctx: &mut Ctx, key: &str) -> Result<String, ApiError> {
    Ok(queries::site_text(ctx.conn, key)?
        .map(|t| t.body)
        .unwrap_or_default())
}

pub struct User;

impl Endpoint for User {
    const NAME: &'static str = "user";
    const METHOD: Method = Method::Get;
    const PATH: &'static str = "/api/v1/user";
    const SUMMARY: &'static str =
        "The member; guests get 401 with the policy texts (and a guest token).";
    const ALSO: &'static [u16] = &[401];
    const ACCESS: Access = Access::Session;
    type Path = NoParams;
    type Query = NoParams;
    type Body = NoBody;
    type Answer = UserAnswer;

    fn call(ctx: &mut Ctx, _: NoParams, _: NoParams, _: NoBody) -> Result<UserAnswer, ApiError> {
        let session = ctx.session()?;
        let member = match session.as_ref().and_then(|s| s.user_id) {
            Some(id) => queries::user(ctx.conn, domain::UserId::from_db(id))?,
            None => None,
        };
        if let Some(u) = member {
            return member_answer(ctx, u);
        }
        // SPEC 7: a 401 that carries a new token lets the client store it. A visitor without a
        // live session gets a guest one (within the same limit as POST /guest-token).
        if session.is_none() {
            match ctx.start_guest_session() {
                Ok(()) | Err(ApiError::TooMany(_)) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(UserAnswer::Guest {
            error: "Unauthenticated.".into(),
            data: GuestUser {
                policy_agreement_accepted: false,
                policy_agreement_text: text(ctx, "policy_agreement")?,
                term_and_condition_text: text(ctx, "terms_and_conditions")?,
                about_us_text: text(ctx, "about_us")?,
            },
        })
    }

    fn status(answer: &UserAnswer) -> u16 {
        match answer {
            UserAnswer::Member { .. } => 200,
            UserAnswer::Guest { .. } => 401,
        }
    }
}

/// What a page shows of a member: the first name in the header, and whether the policy was
/// accepted (then the policy modal never opens).
#[derive(Debug, Clone, Serialize, PartialEq, Eq, Hash)]
pub struct MemberView {
    #[serde(skip)]
    pub id: domain::UserId,
    pub firstname: String,
    pub policy_agreement_accepted: bool,
}

/// Who asks for a page.
#[derive(Debug, Clone, Default)]
pub struct Viewer {
    pub member: Option<MemberView>,
    /// The live session's token (the presented one, or one just started): the page's calls and
    /// its forms' CSRF token come from it.
    pub token: Option<String>,
    /// A token to send back (just started, or extended).
    pub issued: Option<crate::session::Issued>,
    /// A token was presented that is no longer live: its cookies are cleared.
    pub stale: bool,
}

/// The viewer of the presented session; with `start`, a visitor without a live session gets a
/// guest one (pages with forms need it for their CSRF token; past the guest-session limit the
/// page shows without one).
pub fn viewer(ctx: &mut Ctx, start: bool) -> Result<Viewer, ApiError> {
    let session = ctx.session()?;
    let member = match session.as_ref().and_then(|s| s.user_id) {
        Some(id) => queries::user(ctx.conn, domain::UserId::from_db(id))?.map(|u| MemberView {
            id: u.id,
            firstname: u.first_name,
            policy_agreement_accepted: u.policy_agreement_accepted,
        }),
        None => None,
    };
    let presented = ctx.token();
    let stale = presented.is_some() && session.is_none();
    let mut token = session.as_ref().and(presented);
    if session.is_none() && start {
        match ctx.start_guest_session() {
            Ok(()) => token = ctx.issued.as_ref().map(|i| i.token.clone()),
            Err(ApiError::TooMany(_)) => {}
            Err(e) => return Err(e),
        }
    }
    let issued = ctx.issued.take();
    Ok(Viewer {
        member,
        token,
        stale: stale && issued.is_none(),
        issued,
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

    #[test]
    fn every_bad_field_is_named() {
        let err = check_form(&RegistrationForm::default()).unwrap_err();
        let ApiError::Fields(errors) = err else {
            panic!("{err:?}")
        };
        let names: Vec<&str> = errors.keys().copied().collect();
        assert_eq!(
            names,
            [
                "accept_terms",
                "birth_date",
                "email",
                "first_name",
                "last_name",
                "mobile",
                "password"
            ]
        );
    }
}
