//! Logging in and out.

use super::*;

framework::register!(Login, Logout);

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct Credentials {
    /// The account's email address or mobile number.
    #[serde(default, alias = "email", alias = "mobile")]
    #[schema(required = true, min_length = 1, max_length = 254)]
    pub login: String,
    #[serde(default)]
    #[schema(required = true, min_length = 1)]
    pub password: String,
}

framework::declare!(
    /// `POST /api/v1/login`: email or mobile, and password; a new session in the `access-token`
    /// header.
    pub struct Login = Post "/api/v1/login" as "login", Write, errors [422, 429],
    (NoParams, NoParams, Json<Credentials, true>) -> WelcomeAnswer, "Logs a member in; the token comes in the access-token header.");

impl Endpoint for Login {
    fn call(ctx: &mut Ctx, (_, _, Json(c), _): Args<Self>) -> Result<WelcomeAnswer, ApiError> {
        ctx.limit_client("login", framework::limits::LOGIN, framework::limits::WINDOW)?;
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
        // Tries count per account (email and mobile are one) and client (`Ctx::sign_in_try`).
        let user = db::users::user_by_login(ctx.conn, &login)?;
        let account = user
            .as_ref()
            .map_or_else(|| format!("login {login}"), |u| format!("user {}", u.id));
        let try_ = ctx.sign_in_try(&format!("login failures:{account}"))?;
        if !password_matches(&c.password, user.as_ref().map(|u| u.password_hash.as_str())) {
            try_.failed(ctx)?;
            return Err(ApiError::Invalid {
                field: "login",
                message: LOGIN_FAILED.into(),
            });
        }
        let user = user.ok_or_else(|| ApiError::Internal("matched without a user".into()))?;
        try_.succeeded(ctx)?;
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

framework::declare!(
    /// `POST /api/v1/logout`: ends the presented session and clears its cookie.
    pub struct Logout = Post "/api/v1/logout" as "logout", Write, errors [],
    (NoParams, NoParams, NoBody) -> MessageAnswer, "Ends the session.");

impl Endpoint for Logout {
    fn call(ctx: &mut Ctx, (_, _, _, _): Args<Self>) -> Result<MessageAnswer, ApiError> {
        ctx.end_session()?;
        ctx.ended = true;
        Ok(message("You have been logged out."))
    }
}
