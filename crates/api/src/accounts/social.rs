//! Social registration (`POST /registration` with an `fb-token` or `google-token`
//! header). A provider's token is taken only once the provider itself vouches for it, for this
//! store's app: Google's `tokeninfo` for an ID token issued to `GOOGLE_CLIENT_ID` with a verified
//! email; Facebook's `debug_token` (with the app's own access token) for a user token of
//! `FACEBOOK_APP_ID`, then the user's email from `/me`. Without a provider's settings the call
//! answers 422 on `userAccessToken` (the store does not offer it; a 5xx would blame the server for
//! the shopper's choice), as it does an unverifiable token. The provider is asked on a blocking
//! thread of its own, before the call takes a database connection, within [`TIMEOUT`].

use std::time::Duration;

use serde::Deserialize;

use framework::error::ApiError;

/// How long a provider may take to answer.
pub const TIMEOUT: Duration = Duration::from_secs(5);

/// The providers' settings (none by default).
#[derive(Debug, Clone, Default)]
pub struct SocialConfig {
    pub google_client_id: Option<String>,
    /// Google's OAuth2 API (`https://oauth2.googleapis.com`; tests point it elsewhere).
    pub google_url: String,
    /// Facebook's app id and app secret.
    pub facebook_app: Option<(String, String)>,
    /// Facebook's Graph API (`https://graph.facebook.com`).
    pub facebook_url: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Provider {
    Facebook,
    Google,
}

impl Provider {
    /// The provider whose token header a request carries, and the token.
    pub fn of_request(req: &actix_web::HttpRequest) -> Option<(Self, String)> {
        [("fb-token", Self::Facebook), ("google-token", Self::Google)]
            .into_iter()
            .find_map(|(header, provider)| {
                let v = req.headers().get(header)?;
                Some((provider, v.to_str().unwrap_or("").trim().to_string()))
            })
    }

    pub fn name(self) -> &'static str {
        match self {
            Self::Facebook => "Facebook",
            Self::Google => "Google",
        }
    }
}

/// The work a call taking a provider's token asks before it runs ([`framework::Endpoint::prepare`]):
/// the identity behind the request's `fb-token` or `google-token`, verified, for
/// [`framework::Ctx::prepared`]. A request without either header asks nothing.
pub fn prepare(
    req: &actix_web::HttpRequest,
    config: &framework::ApiConfig,
) -> Option<framework::endpoint::Prepare> {
    let (provider, token) = Provider::of_request(req)?;
    let cfg = config
        .settings
        .get::<SocialConfig>()
        .cloned()
        .unwrap_or_default();
    Some(Box::new(move || {
        let identity = verify(&cfg, provider, &token)?;
        let mut prepared = http::Extensions::new();
        prepared.insert(identity);
        Ok(prepared)
    }))
}

/// Who the provider says the token belongs to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    pub provider: Provider,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
}

fn unverified(p: Provider) -> ApiError {
    ApiError::Invalid {
        field: "userAccessToken",
        message: format!(
            "We could not verify your {} sign-in. Please sign in with {} again.",
            p.name(),
            p.name()
        ),
    }
}

fn unreachable(p: Provider) -> ApiError {
    ApiError::Upstream(format!(
        "We could not reach {} just now. Please try again in a moment.",
        p.name()
    ))
}

/// Asks the provider about `token` (blocking; run it off the async workers).
pub fn verify(cfg: &SocialConfig, provider: Provider, token: &str) -> Result<Identity, ApiError> {
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .timeout_global(Some(TIMEOUT))
        .http_status_as_error(false)
        .build()
        .into();
    match provider {
        Provider::Google => verify_google(cfg, &agent, token),
        Provider::Facebook => verify_facebook(cfg, &agent, token),
    }
}

/// The store does not offer this provider: the shopper's choice, not the server's failure.
fn not_offered(provider: Provider) -> ApiError {
    ApiError::Invalid {
        field: "userAccessToken",
        message: format!(
            "Signing up with {} is not available. Create your account with your email address instead.",
            provider.name()
        ),
    }
}

/// A token is opaque text of a sensible size; anything else was never a provider's.
fn plausible(token: &str) -> bool {
    !token.is_empty() && token.len() <= 4096 && token.bytes().all(|b| b.is_ascii_graphic())
}

/// Google's `tokeninfo` on an ID token: issued by Google to `GOOGLE_CLIENT_ID`, not expired,
/// for a verified email.
fn verify_google(
    cfg: &SocialConfig,
    agent: &ureq::Agent,
    token: &str,
) -> Result<Identity, ApiError> {
    let provider = Provider::Google;
    let client_id = cfg
        .google_client_id
        .as_deref()
        .ok_or_else(|| not_offered(provider))?;
    if !plausible(token) {
        return Err(unverified(provider));
    }
    let info: GoogleTokenInfo = get_json(
        agent,
        &format!("{}/tokeninfo", cfg.google_url),
        &[("id_token", token)],
        provider,
    )?;
    let issuer_ok = matches!(
        info.iss.as_deref(),
        Some("accounts.google.com" | "https://accounts.google.com")
    );
    let text = |v: &Option<serde_json::Value>| match v {
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
        None => String::new(),
    };
    let fresh = text(&info.exp)
        .parse::<i64>()
        .is_ok_and(|e| e > domain::calendar::unix_now());
    let verified = text(&info.email_verified) == "true";
    match (info.aud.as_deref(), info.email) {
        (Some(aud), Some(email)) if aud == client_id && issuer_ok && fresh && verified => {
            Ok(Identity {
                provider,
                email,
                first_name: info.given_name.unwrap_or_default(),
                last_name: info.family_name.unwrap_or_default(),
            })
        }
        _ => Err(unverified(provider)),
    }
}

/// Facebook's `debug_token` (with the app's own access token) on a user token of
/// `FACEBOOK_APP_ID`, then the user's email from `/me`.
fn verify_facebook(
    cfg: &SocialConfig,
    agent: &ureq::Agent,
    token: &str,
) -> Result<Identity, ApiError> {
    let provider = Provider::Facebook;
    let (app_id, secret) = cfg
        .facebook_app
        .as_ref()
        .ok_or_else(|| not_offered(provider))?;
    if !plausible(token) {
        return Err(unverified(provider));
    }
    let app_token = format!("{app_id}|{secret}");
    let debug: FacebookDebug = get_json(
        agent,
        &format!("{}/debug_token", cfg.facebook_url),
        &[("input_token", token), ("access_token", &app_token)],
        provider,
    )?;
    let d = debug.data.ok_or_else(|| unverified(provider))?;
    if !(d.is_valid && d.app_id.as_deref() == Some(app_id.as_str())) {
        return Err(unverified(provider));
    }
    let me: FacebookMe = get_json(
        agent,
        &format!("{}/me", cfg.facebook_url),
        &[
            ("fields", "email,first_name,last_name"),
            ("access_token", token),
        ],
        provider,
    )?;
    match (me.id, d.user_id, me.email) {
        (Some(a), Some(b), Some(email)) if a == b => Ok(Identity {
            provider,
            email,
            first_name: me.first_name.unwrap_or_default(),
            last_name: me.last_name.unwrap_or_default(),
        }),
        // No email (the member did not share it): nothing to make an account of.
        _ => Err(unverified(provider)),
    }
}

fn get_json<T: serde::de::DeserializeOwned>(
    agent: &ureq::Agent,
    url: &str,
    query: &[(&str, &str)],
    provider: Provider,
) -> Result<T, ApiError> {
    let mut req = agent.get(url);
    for (k, v) in query {
        req = req.query(*k, *v);
    }
    let mut res = req.call().map_err(|e| {
        log::warn!("{} verification: {e}", provider.name());
        unreachable(provider)
    })?;
    let status = res.status().as_u16();
    if status >= 500 {
        log::warn!("{} verification: status {status}", provider.name());
        return Err(unreachable(provider));
    }
    if status != 200 {
        // The provider refuses the token (400, 401, ...).
        return Err(unverified(provider));
    }
    res.body_mut()
        .with_config()
        .limit(64 * 1024)
        .read_json()
        .map_err(|_| unverified(provider))
}

#[derive(Debug, Deserialize)]
struct GoogleTokenInfo {
    aud: Option<String>,
    iss: Option<String>,
    /// Seconds since 1970 (tokeninfo sends numbers as text).
    exp: Option<serde_json::Value>,
    email: Option<String>,
    email_verified: Option<serde_json::Value>,
    given_name: Option<String>,
    family_name: Option<String>,
}

#[derive(Debug, Deserialize)]
struct FacebookDebug {
    data: Option<FacebookDebugData>,
}

#[derive(Debug, Deserialize)]
struct FacebookDebugData {
    #[serde(default)]
    is_valid: bool,
    app_id: Option<String>,
    user_id: Option<String>,
}

#[derive(Debug, Deserialize)]
struct FacebookMe {
    id: Option<String>,
    email: Option<String>,
    first_name: Option<String>,
    last_name: Option<String>,
}
