//! Members: registration through an emailed link, login and logout, and the user (SPEC 3, 7;
//! issue 8). Passwords are argon2id hashes (the `argon2` crate's defaults), made and checked on
//! the blocking threads that run database work, never on the async workers. Answers never tell
//! whether an account exists.

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
use crate::endpoint::{Args, Ctx, Endpoint, Json, NoBody, NoParams};
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
/// What a used registration link says.
pub const LINK_USED: &str =
    "This link has been used: your account is ready. Log in with your email and password.";
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

/// The registration form (SPEC 3's fields but the password, which whoever holds the emailed link
/// chooses: issue 14).
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
    /// The terms and the privacy policy are accepted.
    #[serde(default)]
    pub accept_terms: bool,
}

/// A checked form: the member's details, or every field's errors.
fn check_form(f: &RegistrationForm) -> Result<RegistrationRow, ApiError> {
    let mut c = account::Checker::default();
    let today = domain::calendar::manila_now().date();
    let fields = [&f.first_name, &f.last_name, &f.mobile, &f.birth_date].map(String::as_str);
    let details = account::Details::check(&mut c, fields, today);
    let email = c.field(
        "email",
        domain::email::validate_email(&f.email).map_err(str::to_string),
    );
    if !f.accept_terms {
        c.add(
            "accept_terms",
            "Please accept the terms and conditions and the privacy policy.",
        );
    }
    let checked = details.zip(email).map(|(d, email)| RegistrationRow {
        token_hash: String::new(),
        email,
        mobile: d.mobile,
        first_name: d.first_name,
        last_name: d.last_name,
        birth_date: d.birth_date,
        password_hash: String::new(),
        expires_at: 0,
        used_at: None,
    });
    c.finish(checked).map_err(ApiError::Fields)
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

crate::declare!(
    /// `POST /api/v1/pre-register`: checks the details and emails a link that finishes the
    /// account; whoever opens the link chooses the password. The answer, and the work behind it,
    /// are the same whether or not the address already has an account (its owner gets a mail that
    /// says so instead). A new pre-registration replaces the address's pending one; an address
    /// gets at most 3 mails an hour, and past that the answer says a link was already sent.
    pub struct PreRegister = Post "/api/v1/pre-register" as "preRegister", Write, errors [422, 429],
    (NoParams, NoParams, Json<RegistrationForm, true>) -> MessageAnswer, "Checks the registration form and emails the link that finishes it.");

impl Endpoint for PreRegister {
    fn call(ctx: &mut Ctx, (_, _, Json(form), _): Args<Self>) -> Result<MessageAnswer, ApiError> {
        ctx.limit_client(
            "pre-register",
            crate::limits::PRE_REGISTER,
            crate::limits::WINDOW,
        )?;
        let mut row = check_form(&form)?;
        ctx.limit("pre-register address", &row.email, 3, 3600)
            .map_err(|e| match e {
                ApiError::TooMany(wait) => ApiError::LinkSent(wait),
                other => other,
            })?;
        let answer = message(format!(
            "We sent a link to {}. Open it within {LINK_HOURS} hours to finish creating your account.",
            row.email
        ));
        let base = ctx.config.public_url.to_string();
        // Nobody has confirmed this address yet: the mail carries nothing a stranger typed.
        if db::users::email_taken(ctx.conn, &row.email)? {
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
        row.expires_at = now() + LINK_HOURS * 3600;
        db::users::create_registration(ctx.conn, &row)?;
        let link = format!("{base}/registration?token={token}");
        ctx.outgoing.push(Mail::render(
            "registration",
            &row.email,
            "Finish creating your account",
            &serde_json::json!({ "link": link, "hours": LINK_HOURS }),
        )?);
        Ok(answer)
    }
}

/// The registration link's token, sent as a request header.
#[derive(Debug, Default, Deserialize, IntoParams)]
pub struct LinkHeaders {
    /// The `token` of the emailed `/registration?token=...` link.
    #[serde(rename = "registration-token")]
    #[param(rename = "registration-token", value_type = String, required = false)]
    pub registration_token: Option<String>,
}

/// What `POST /registration` reads of its headers: a link's token, or a social provider's
/// (verified before the call; the call gets the provider's identity in [`Ctx::social`]).
#[derive(Debug, Default, Deserialize, IntoParams)]
pub struct RegistrationHeaders {
    /// The `token` of the emailed `/registration?token=...` link.
    #[serde(rename = "registration-token")]
    #[param(rename = "registration-token", value_type = String, required = false)]
    pub registration_token: Option<String>,
    /// A Facebook user access token (social registration).
    #[serde(rename = "fb-token")]
    #[param(rename = "fb-token", value_type = String, required = false)]
    pub fb_token: Option<String>,
    /// A Google ID token (social registration).
    #[serde(rename = "google-token")]
    #[param(rename = "google-token", value_type = String, required = false)]
    pub google_token: Option<String>,
}

/// The registration a link belongs to.
fn open_registration(
    conn: &mut AnyConnection,
    link: Option<&str>,
) -> Result<RegistrationRow, ApiError> {
    let gone = || ApiError::NotFound("This link is invalid or has expired.".into());
    let token = link.ok_or_else(gone)?;
    let hash = token_hash(token.trim());
    match db::users::open_registration(conn, &hash, now())? {
        Some(r) => Ok(r),
        // A second click (or a form sent twice without JavaScript): the account is there.
        None if db::users::registration_used(conn, &hash)? => {
            Err(ApiError::NotFound(LINK_USED.into()))
        }
        None => Err(gone()),
    }
}

/// The details a registration link finishes the account with, shown to the link's holder before
/// choosing the password (whoever asked for the link typed them: the holder sees them first).
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct PendingRegistration {
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub mobile: String,
    pub birth_date: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct PendingAnswer {
    pub data: PendingRegistration,
}

/// The registration link's token as a query parameter (what the link's page loads with).
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LinkQuery {
    /// The `token` of the emailed `/registration?token=...` link (or the `registration-token`
    /// header).
    pub token: Option<String>,
}

crate::declare!(
    /// `GET /api/v1/check-registration-token` (header `registration-token`, or query `token`): the
    /// details a link finishes the account with. Never kept by a cache (not a shared answer).
    pub struct CheckRegistrationToken = Get "/api/v1/check-registration-token" as "checkRegistrationToken", Session, errors [404],
    (NoParams, LinkQuery, NoBody) -> PendingAnswer, "Whose registration a link (header registration-token or query token) finishes.",
    headers LinkHeaders);

impl Endpoint for CheckRegistrationToken {
    fn call(ctx: &mut Ctx, (_, q, _, h): Args<Self>) -> Result<PendingAnswer, ApiError> {
        let token = h.registration_token.or(q.token);
        let r = open_registration(ctx.conn, token.as_deref())?;
        Ok(PendingAnswer {
            data: PendingRegistration {
                email: r.email,
                first_name: r.first_name,
                last_name: r.last_name,
                mobile: r.mobile,
                birth_date: r.birth_date,
            },
        })
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
/// guest's cart joins the member's (issue 15): answers whether the two carts hold different
/// families (`cart_conflict`: both are kept until the member chooses) and what did not fit.
fn log_in(ctx: &mut Ctx, user: domain::UserId) -> Result<crate::cart::Merged, ApiError> {
    let guest = ctx.cart_owner(false)?;
    if let Some(old) = ctx.token() {
        db::sessions::end_session(ctx.conn, &token_hash(&old))?;
    }
    ctx.start_session(Some(user.get()))?;
    crate::cart::merge_at_login(ctx, guest, user)
}

/// What `POST /registration` takes: for a link's registration, the password its holder chooses;
/// for a social registration (SPEC 7's `socialSource` and `userAccessToken`), the details a
/// provider does not vouch for.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct SocialForm {
    /// A link's registration: the new account's password (see the password rule).
    #[serde(default)]
    pub password: String,
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
            .filter(|c| !domain::text::refused(*c))
            .take(60)
            .collect::<String>()
    };
    let form = RegistrationForm {
        first_name: clean(&identity.first_name),
        last_name: clean(&identity.last_name),
        email: identity.email,
        mobile: f.mobile,
        birth_date: f.birth_date,
        accept_terms: f.accept_terms,
    };
    let mut row = check_form(&form)?;
    row.password_hash = hash_password(&crate::session::new_token())?;
    Ok(row)
}

crate::declare!(
    /// `POST /api/v1/registration` (header `registration-token`, body `password`): creates the
    /// account the link was sent for, with the password its holder chose, and logs it in; the
    /// token comes in the `access-token` header. With an `fb-token` or
    /// `google-token` header instead, the provider's verified identity and the body's details make
    /// the account.
    pub struct Registration = Post "/api/v1/registration" as "registration", Write, errors [404, 422, 429, 502],
    (NoParams, NoParams, Json<SocialForm, false>) -> WelcomeAnswer, "Creates the account of a registration link and logs it in.", social true,
    headers RegistrationHeaders);

impl Endpoint for Registration {
    fn call(ctx: &mut Ctx, (_, _, Json(social), h): Args<Self>) -> Result<WelcomeAnswer, ApiError> {
        ctx.limit_client(
            "registration",
            crate::limits::REGISTRATION,
            crate::limits::WINDOW,
        )?;
        let r = match ctx.social().cloned() {
            Some(identity) => social_registration(identity, social)?,
            None => {
                // A link's registration takes the details given at pre-registration; the ones a
                // provider would not vouch for are not used, but given, they must be what the
                // document says they are (a wrong mobile is never silently dropped).
                if !social.mobile.is_empty() {
                    domain::account::validate_mobile(&social.mobile).map_err(|message| {
                        ApiError::Invalid {
                            field: "mobile",
                            message,
                        }
                    })?;
                }
                if !social.birth_date.is_empty() {
                    domain::account::validate_birth_date(&social.birth_date, time::Date::MAX)
                        .map_err(|message| ApiError::Invalid {
                            field: "birth_date",
                            message,
                        })?;
                }
                let mut r = open_registration(ctx.conn, h.registration_token.as_deref())?;
                let inputs = [&r.first_name, &r.last_name, &r.email, &r.mobile].map(String::as_str);
                crate::profile::new_password(&social.password, &inputs)?;
                r.password_hash = hash_password(&social.password)?;
                r
            }
        };
        let mut c = account::Checker::default();
        if db::users::email_taken(ctx.conn, &r.email)? {
            c.add(
                "email",
                "This email address already has an account. Log in instead.",
            );
        }
        if db::users::mobile_taken(ctx.conn, &r.mobile)? {
            c.add(
                "mobile",
                "This mobile number is already used by an account.",
            );
        }
        c.finish(Some(())).map_err(ApiError::Fields)?;
        let created = if r.token_hash.is_empty() {
            db::users::create_user(ctx.conn, &r, now()).map(Some)
        } else {
            db::users::complete_registration(ctx.conn, &r, now())
        };
        let user = match created {
            Ok(Some(user)) => user,
            Ok(None) => return Err(ApiError::NotFound(LINK_USED.into())),
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
        let merged = log_in(ctx, user)?;
        Ok(WelcomeAnswer {
            data: Welcome {
                first_name: r.first_name,
                cart_conflict: merged.conflict,
                cart_message: merged.message,
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

crate::declare!(
    /// `POST /api/v1/login`: email or mobile, and password; a new session in the `access-token`
    /// header.
    pub struct Login = Post "/api/v1/login" as "login", Write, errors [422, 429],
    (NoParams, NoParams, Json<Credentials, true>) -> WelcomeAnswer, "Logs a member in; the token comes in the access-token header.");

impl Endpoint for Login {
    fn call(ctx: &mut Ctx, (_, _, Json(c), _): Args<Self>) -> Result<WelcomeAnswer, ApiError> {
        ctx.limit_client("login", crate::limits::LOGIN, crate::limits::WINDOW)?;
        let login = c.login.trim().to_ascii_lowercase();
        let login = account::validate_mobile(&login).unwrap_or(login);
        if login.is_empty() || c.password.is_empty() {
            return Err(ApiError::Invalid {
                field: "login",
                message: "Enter your email or mobile number and your password.".into(),
            });
        }
        // No email or mobile number holds a control character (PostgreSQL cannot even compare a
        // NUL: the contract test's login with one was a 500): such a login matches no account,
        // and is answered as one that does not, without being looked up or counted.
        if login.chars().any(char::is_control) {
            return Err(ApiError::Invalid {
                field: "login",
                message: LOGIN_FAILED.into(),
            });
        }
        // Tries count per account (email and mobile are one) and client together, counted
        // before the password is checked (concurrent tries each get their number): the sixth in
        // ten minutes is refused, for that client only. A client that already failed on this
        // account also meets the account's wider limit, 50 failures an hour from all clients; a
        // client that has not (the owner at another address) is let through, so nobody can lock
        // the owner out. A success forgets the client's count.
        let user = db::users::user_by_login(ctx.conn, &login)?;
        let account = user
            .as_ref()
            .map_or_else(|| format!("login {login}"), |u| format!("user {}", u.id));
        let here = format!("login failures:{account} from {}", ctx.client_key());
        let everywhere = format!("login failures:{account}");
        let (tries, wait) = ctx.count_try(&here, 600)?;
        if tries > 5 {
            return Err(ApiError::TooMany(wait));
        }
        if tries > 1 {
            if let Some(wait) = ctx.failures(&everywhere, 50, 3600)? {
                return Err(ApiError::TooMany(wait));
            }
        }
        if !password_matches(&c.password, user.as_ref().map(|u| u.password_hash.as_str())) {
            ctx.fail(&everywhere, 3600)?;
            return Err(ApiError::Invalid {
                field: "login",
                message: LOGIN_FAILED.into(),
            });
        }
        let user = user.ok_or_else(|| ApiError::Internal("matched without a user".into()))?;
        db::limits::rate_reset(ctx.conn, &here)?;
        let merged = log_in(ctx, user.id)?;
        Ok(WelcomeAnswer {
            data: Welcome {
                first_name: user.first_name,
                cart_conflict: merged.conflict,
                cart_message: merged.message,
            },
        })
    }
}

crate::declare!(
    /// `POST /api/v1/logout`: ends the presented session and clears its cookie.
    pub struct Logout = Post "/api/v1/logout" as "logout", Write, errors [],
    (NoParams, NoParams, NoBody) -> MessageAnswer, "Ends the session.");

impl Endpoint for Logout {
    fn call(ctx: &mut Ctx, (_, _, _, _): Args<Self>) -> Result<MessageAnswer, ApiError> {
        if let Some(token) = ctx.token() {
            db::sessions::end_session(ctx.conn, &token_hash(&token))?;
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

crate::declare!(
    pub struct User = Get "/api/v1/user" as "user", Session, errors [],
    (NoParams, NoParams, NoBody) -> UserAnswer, "The member; guests get 401 with the policy texts (and a guest token).", also [401]);

impl Endpoint for User {
    fn call(ctx: &mut Ctx, (_, _, _, _): Args<Self>) -> Result<UserAnswer, ApiError> {
        let (session, member) = ctx.session_member()?;
        if let Some(u) = member {
            return member_answer(ctx, u);
        }
        // SPEC 7: a 401 that carries a new token lets the client store it. A visitor without a
        // live session gets a guest one (within the same limit as POST /guest-token).
        if session.is_none() {
            ctx.start_guest_if_allowed()?;
        }
        Ok(UserAnswer::Guest {
            error: "Unauthenticated.".into(),
            data: GuestUser {
                policy_agreement_accepted: false,
                policy_agreement_text: text(ctx.conn, "policy_agreement")?,
                term_and_condition_text: text(ctx.conn, "terms_and_conditions")?,
                about_us_text: text(ctx.conn, "about_us")?,
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
    let (session, member) = ctx.session_member()?;
    let member = member.map(|u| MemberView {
        id: u.id,
        firstname: u.first_name,
        policy_agreement_accepted: u.policy_agreement_accepted,
    });
    let presented = ctx.token();
    let stale = presented.is_some() && session.is_none();
    let mut token = session.as_ref().and(presented);
    if session.is_none() && start && ctx.start_guest_if_allowed()? {
        token = ctx.issued.as_ref().map(|i| i.token.clone());
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
            ]
        );
    }
}
