//! What an API call is: a typed function with typed path, query and body, and the one registry
//! ([`crate::registry::endpoints`]) that every other list derives from: the actix routes, the
//! in-process loaders of the pages ([`fetch`]), the OpenAPI document and the TypeScript contract.

use std::borrow::Cow;
use std::marker::PhantomData;

use actix_web::http::{header, StatusCode};
use actix_web::{guard, web, HttpRequest, HttpResponse};
use db::AnyConnection;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::openapi::{RefOr, Schema};

use crate::error::ApiError;
use crate::{ApiConfig, ApiState};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Get,
    Post,
    Put,
    Delete,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Get => "GET",
            Self::Post => "POST",
            Self::Put => "PUT",
            Self::Delete => "DELETE",
        }
    }
}

/// Who makes a call, as every call may need it: built once per request
/// ([`Caller::of_api`] for the JSON API, [`Caller::of_page`] for pages and their forms).
#[derive(Debug, Clone, Default)]
pub struct Caller {
    /// The client's network address, where known (rate limits).
    pub client: Option<std::net::IpAddr>,
    /// The session token the request presented (cookie or `Authorization: Bearer`).
    pub token: Option<String>,
    /// The request's cookies, by name (a feature reads its own: the guest's cart cookie).
    pub cookies: Vec<(String, String)>,
    /// What the call's [`Endpoint::prepare`] made before the call (a social provider's word on
    /// the token the request brought), by type.
    pub prepared: http::Extensions,
    /// The token came as `Authorization: Bearer` (a client that may keep no cookies).
    pub bearer: bool,
}

impl Caller {
    /// An API request: the token from `Authorization: Bearer` or the cookie.
    pub fn of_api(req: &HttpRequest) -> Self {
        let bearer = crate::origin::bearer(req).is_some();
        Self {
            client: crate::origin::client_ip(req),
            token: presented_token(req),
            cookies: cookies_of(req),
            prepared: http::Extensions::new(),
            bearer,
        }
    }

    /// A page or a form post: browsers present the session by its cookie only.
    pub fn of_page(req: &HttpRequest) -> Self {
        Self {
            client: crate::origin::client_ip(req),
            token: cookie_token(req),
            cookies: cookies_of(req),
            ..Self::default()
        }
    }
}

/// A request's cookies as name-value pairs (none when the header does not parse).
pub fn cookies_of(req: &HttpRequest) -> Vec<(String, String)> {
    req.cookies()
        .map(|list| {
            list.iter()
                .map(|c| (c.name().to_string(), c.value().to_string()))
                .collect()
        })
        .unwrap_or_default()
}

/// What an endpoint runs with: one connection, the configuration, who calls, and what this
/// request has already looked up (a page asks for a barangay's place once, however many calls
/// need it).
pub struct Ctx<'a> {
    pub conn: &'a mut AnyConnection,
    pub config: &'a ApiConfig,
    caller: Caller,
    /// Whether the call asked for the session ([`Ctx::token`]): a [`Access::Public`] call must
    /// not, its answer is shared.
    session_read: bool,
    /// A token to send back (new, or extended): `access-token` header and cookie.
    pub issued: Option<crate::session::Issued>,
    /// Mail to send once the call's database work is done.
    pub outgoing: Vec<crate::mail::Mail>,
    /// The presented session was ended (logout): the cookie is cleared.
    pub ended: bool,
    /// The call put mail in the queue itself (inside its own transaction): wake the sender.
    pub mailed: bool,
    /// Cookies to send with the answer ([`Ctx::send_cookie`]), one per name.
    cookies_out: Vec<actix_web::cookie::Cookie<'static>>,
    /// What the call's features keep for its length, by type ([`Ctx::memo`]): a page asks for a
    /// barangay's place once, however many calls need it.
    memo: http::Extensions,
}

impl<'a> Ctx<'a> {
    pub fn new(conn: &'a mut AnyConnection, config: &'a ApiConfig, caller: Caller) -> Self {
        Self {
            conn,
            config,
            caller,
            session_read: false,
            issued: None,
            outgoing: Vec::new(),
            ended: false,
            mailed: false,
            cookies_out: Vec::new(),
            memo: http::Extensions::new(),
        }
    }

    /// The session token the request presented. Asking is recorded: a call declared
    /// [`Access::Public`] that asks fails (its answer would be shared between sessions).
    pub fn token(&mut self) -> Option<String> {
        self.session_read = true;
        self.caller.token.clone()
    }

    /// Replaces the session token the request presented (a session just started).
    pub fn set_token(&mut self, token: Option<String>) {
        self.caller.token = token;
    }

    /// Whether the call asked for the session.
    pub fn read_session(&self) -> bool {
        self.session_read
    }

    /// The request's cookie of that name.
    pub fn cookie(&self, name: &str) -> Option<&str> {
        self.caller
            .cookies
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Whether the session token came as a bearer token (a client that may keep no cookies).
    pub fn bearer(&self) -> bool {
        self.caller.bearer
    }

    /// Sends a cookie with the answer (replacing one of the same name the call sent before).
    pub fn send_cookie(&mut self, cookie: actix_web::cookie::Cookie<'static>) {
        match self
            .cookies_out
            .iter_mut()
            .find(|c| c.name() == cookie.name())
        {
            Some(sent) => *sent = cookie,
            None => self.cookies_out.push(cookie),
        }
    }

    /// The value of a cookie the call is sending.
    pub fn sent_cookie(&self, name: &str) -> Option<&str> {
        self.cookies_out
            .iter()
            .find(|c| c.name() == name)
            .map(|c| c.value())
    }

    /// The cookies to send with the answer (what a page's form post or an API answer adds).
    pub fn take_cookies(&mut self) -> Vec<actix_web::cookie::Cookie<'static>> {
        std::mem::take(&mut self.cookies_out)
    }

    /// What the call's [`Endpoint::prepare`] made, of type `T`.
    pub fn prepared<T: Clone + Send + Sync + 'static>(&self) -> Option<&T> {
        self.caller.prepared.get::<T>()
    }

    /// The client's network address, where known.
    pub fn client(&self) -> Option<std::net::IpAddr> {
        self.caller.client
    }

    /// The call's memo of type `T` (made empty at first use): what a feature looks up once per
    /// request.
    pub fn memo<T: Clone + Default + Send + Sync + 'static>(&mut self) -> &mut T {
        self.memo.get_or_insert_default::<T>()
    }

    /// Counts one use of `action` by this client (or of a subject, such as an address) against a
    /// limit of `limit` uses in `window` seconds; past it, a 429 with Retry-After.
    pub fn limit(
        &mut self,
        action: &str,
        who: &str,
        limit: i32,
        window: i64,
    ) -> Result<(), ApiError> {
        let now = domain::calendar::unix_now();
        let key = format!("{action}:{who}");
        match db::limits::rate_hit(self.conn, &key, now, window, limit)? {
            None => Ok(()),
            Some(wait) => Err(ApiError::TooMany(wait)),
        }
    }

    /// Counts this try against `key` (window `window` seconds) before the outcome is known, so
    /// concurrent tries cannot all pass a check made before any is counted: the tries in the
    /// window so far, this one included, and the seconds until the window ends. A try that
    /// succeeds forgets them (`db::limits::rate_reset`).
    pub fn count_try(&mut self, key: &str, window: i64) -> Result<(i32, i64), ApiError> {
        let now = domain::calendar::unix_now();
        let (tries, ends) = db::limits::rate_count(self.conn, key, now, window)?;
        Ok((tries, (ends - now).max(1)))
    }

    /// Whether `key` already holds `limit` failures in its window of `window` seconds: the
    /// seconds to wait, or `None` (nothing is counted; see [`Self::fail`]).
    pub fn failures(
        &mut self,
        key: &str,
        limit: i32,
        window: i64,
    ) -> Result<Option<i64>, ApiError> {
        let now = domain::calendar::unix_now();
        Ok(db::limits::rate_full(self.conn, key, now, window, limit)?)
    }

    /// Counts one failure against `key` (see [`Self::failures`]).
    pub fn fail(&mut self, key: &str, window: i64) -> Result<(), ApiError> {
        self.count_try(key, window).map(|_| ())
    }

    /// Counts one use of `action` by this request's client (see [`Self::limit`]).
    pub fn limit_client(&mut self, action: &str, limit: i32, window: i64) -> Result<(), ApiError> {
        let client = self.client_key();
        self.limit(action, &client, limit, window)
    }

    /// The client as a rate-limit subject ([`client_subject`]).
    pub fn client_key(&self) -> String {
        self.caller
            .client
            .map_or_else(|| "unknown".to_string(), client_subject)
    }
}

/// Who an answer is for, and so whether it may be kept. Every endpoint says; nothing is kept
/// unless it says [`Access::Public`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// A read whose answer is the same for every caller who sends the same request: kept in the
    /// shared cache and loaded by any page in process. The call never sees the session: asking
    /// for it ([`Ctx::token`]) fails the call.
    Public,
    /// A read of the session's own (the member, their addresses): loaded by that session's
    /// pages, never kept.
    Session,
    /// Changes something: never kept, never run by a page.
    Write,
}

/// What an API call is, declared with [`declare!`](crate::declare) beside the struct that names
/// it: name, method, path, who its answer is for, summary, failure statuses, and its typed path,
/// query, body and answer.
pub trait Declared: 'static {
    /// The call's name in the UI's contract and its OpenAPI `operationId`.
    const NAME: &'static str;
    const METHOD: Method;
    /// Path template; `{name}` is one path segment, named as the `Path` type's field.
    const PATH: &'static str;
    const SUMMARY: &'static str;
    /// The status of a successful answer.
    const STATUS: u16 = 200;
    /// Who the answer is for (no default: a call that forgets cannot be kept or shared). SPEC
    /// gives some reads as POST; they are reads all the same.
    const ACCESS: Access;
    /// Failure statuses besides 400, 413, 414 and 503, which every call may answer (and 403 and 415,
    /// which every write may).
    const ERRORS: &'static [u16] = &[];
    /// Other statuses answered with the answer type (a guest's 401 on `GET /user`).
    const ALSO: &'static [u16] = &[];
    type Path: DeserializeOwned + utoipa::IntoParams + Send + 'static;
    type Query: DeserializeOwned + utoipa::IntoParams + Send + 'static;
    type Body: Body;
    /// The request headers the call reads (the registration link's `registration-token`),
    /// parsed and documented as its path and query are.
    type Headers: DeserializeOwned + utoipa::IntoParams + Send + 'static;
    type Answer: Serialize + utoipa::ToSchema + ts_rs::TS + Send + 'static;
}

/// A call's typed path, query, body and headers, as its function takes them.
pub type Args<E> = (
    <E as Declared>::Path,
    <E as Declared>::Query,
    <E as Declared>::Body,
    <E as Declared>::Headers,
);

/// One API call: its declaration and the function it runs. Implemented by a unit struct per
/// call, next to the function.
pub trait Endpoint: Declared {
    fn call(ctx: &mut Ctx, args: Args<Self>) -> Result<Self::Answer, ApiError>;

    /// The status of an answer (`STATUS` unless the answer says otherwise).
    fn status(_answer: &Self::Answer) -> u16 {
        Self::STATUS
    }

    /// Work the call needs before its database work, made from the request: it runs on the
    /// blocking pool holding no connection (asking a social provider about the token the
    /// request brought), and what it answers reaches the call as [`Ctx::prepared`]; its error
    /// is the call's answer. None by default.
    fn prepare(_req: &HttpRequest, _config: &ApiConfig) -> Option<Prepare> {
        None
    }
}

/// Work a call needs before its database work ([`Endpoint::prepare`]).
pub type Prepare = Box<dyn FnOnce() -> Result<http::Extensions, ApiError> + Send>;

/// Declares a call in one place:
///
/// ```ignore
/// declare!(
///     /// `POST /api/v1/login`: ...
///     pub struct Login = Post "/api/v1/login" as "login", Write, errors [422, 429],
///     (NoParams, NoParams, Json<Credentials, true>) -> WelcomeAnswer, "Logs a member in.");
/// ```
///
/// Optional `, status 201`, `, also [401]`, `, headers LinkHeaders` after the
/// summary, in that order.
#[macro_export]
macro_rules! declare {
    ($(#[$doc:meta])* $vis:vis struct $ty:ident = $method:ident $path:literal as $name:literal,
        $access:ident, errors [$($err:literal),*], ($p:ty, $q:ty, $b:ty) -> $answer:ty, $summary:literal
        $(, status $status:literal)? $(, also [$($also:literal),*])?
        $(, headers $headers:ty)?) => {
        $(#[$doc])*
        $vis struct $ty;

        impl $crate::endpoint::Declared for $ty {
            const NAME: &'static str = $name;
            const METHOD: $crate::endpoint::Method = $crate::endpoint::Method::$method;
            const PATH: &'static str = $path;
            const SUMMARY: &'static str = $summary;
            const ACCESS: $crate::endpoint::Access = $crate::endpoint::Access::$access;
            const ERRORS: &'static [u16] = &[$($err),*];
            $(const STATUS: u16 = $status;)?
            $(const ALSO: &'static [u16] = &[$($also),*];)?
            type Path = $p;
            type Query = $q;
            type Body = $b;
            type Headers = $crate::declare!(@or $crate::endpoint::NoParams $(, $headers)?);
            type Answer = $answer;
        }
    };
    (@or $default:ty) => { $default };
    (@or $default:ty, $given:ty) => { $given };
}

/// No path or query parameters.
#[derive(Debug, Default, Deserialize, utoipa::IntoParams)]
pub struct NoParams {}

/// A request body, parsed from the raw bytes.
pub trait Body: Sized + Send + 'static {
    fn parse(bytes: &[u8]) -> Result<Self, ApiError>;
    /// The body from a page form's fields (a post without JavaScript): the same type and rules
    /// as JSON, read as query parameters are (the last of repeated names wins, empty is absent).
    fn from_fields<'a>(
        fields: impl Iterator<Item = (Cow<'a, str>, Cow<'a, str>)>,
    ) -> Result<Self, ApiError>;
    /// The body's schema, its components, and whether it is required.
    fn doc(components: &mut Vec<(String, RefOr<Schema>)>) -> Option<(RefOr<Schema>, bool)>;
}

/// The call takes no body; whatever is sent is ignored.
pub struct NoBody;

impl Body for NoBody {
    fn parse(_: &[u8]) -> Result<Self, ApiError> {
        Ok(Self)
    }

    fn from_fields<'a>(
        _: impl Iterator<Item = (Cow<'a, str>, Cow<'a, str>)>,
    ) -> Result<Self, ApiError> {
        Ok(Self)
    }

    fn doc(_: &mut Vec<(String, RefOr<Schema>)>) -> Option<(RefOr<Schema>, bool)> {
        None
    }
}

/// A JSON body, always an object; `REQUIRED = false` lets an empty body stand for the default.
pub struct Json<T, const REQUIRED: bool>(pub T);

impl<T, const REQUIRED: bool> Body for Json<T, REQUIRED>
where
    T: DeserializeOwned + Default + utoipa::ToSchema + Send + 'static,
{
    fn parse(bytes: &[u8]) -> Result<Self, ApiError> {
        let text = bytes.trim_ascii();
        if !REQUIRED && text.is_empty() {
            return Ok(Self(T::default()));
        }
        // Every body is a JSON object (serde would also read a struct from an array).
        if text.first() != Some(&b'{') {
            let json = serde_json::from_slice::<serde::de::IgnoredAny>(text).is_ok();
            return Err(ApiError::BadRequest(if json {
                "The request body must be a JSON object.".into()
            } else {
                "The request body is not valid JSON.".into()
            }));
        }
        let de = &mut serde_json::Deserializer::from_slice(text);
        serde_path_to_error::deserialize(de)
            .map(Self)
            .or_else(|e| {
                // JSON has one kind of number: 2.0 is the whole number 2 (as JSON Schema's
                // `integer` says), so a body whose only fault is such numbers is read again.
                let Ok(mut value) = serde_json::from_slice::<serde_json::Value>(text) else {
                    return Err(e);
                };
                if !whole_floats_to_integers(&mut value) {
                    return Err(e);
                }
                serde_path_to_error::deserialize(value)
                    .map(Self)
                    .map_err(|_| e)
            })
            .map_err(|e| {
                let path = e.path().to_string();
                match e.inner().classify() {
                    // A value of the wrong kind in a field: name the field.
                    serde_json::error::Category::Data if path != "." => {
                        ApiError::BadRequest(format!("{path} {}", field_message(e.inner())))
                    }
                    _ => ApiError::BadRequest("The request body is not valid JSON.".into()),
                }
            })
    }

    fn from_fields<'a>(
        fields: impl Iterator<Item = (Cow<'a, str>, Cow<'a, str>)>,
    ) -> Result<Self, ApiError> {
        from_pairs(fields).map(Self)
    }

    fn doc(components: &mut Vec<(String, RefOr<Schema>)>) -> Option<(RefOr<Schema>, bool)> {
        T::schemas(components);
        components.push((T::name().into_owned(), T::schema()));
        Some((
            RefOr::Ref(utoipa::openapi::Ref::from_schema_name(T::name())),
            REQUIRED,
        ))
    }
}

/// Turns numbers such as `2.0` and `1e3` into the integers they are; true when one changed.
fn whole_floats_to_integers(value: &mut serde_json::Value) -> bool {
    match value {
        serde_json::Value::Number(n) if !n.is_i64() && !n.is_u64() => match n.as_f64() {
            Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => {
                *value = serde_json::Value::from(f as i64);
                true
            }
            _ => false,
        },
        serde_json::Value::Array(items) => items
            .iter_mut()
            .fold(false, |changed, v| whole_floats_to_integers(v) | changed),
        serde_json::Value::Object(fields) => fields
            .values_mut()
            .fold(false, |changed, v| whole_floats_to_integers(v) | changed),
        _ => false,
    }
}

/// A field that may be left out but is never `null` (`#[serde(default, deserialize_with =
/// "crate::endpoint::not_null")]`): a `null` is a 400 naming the field, as the document says.
pub fn not_null<'de, D, T>(d: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: serde::Deserialize<'de>,
{
    T::deserialize(d).map(Some)
}

/// A serde error on one field as the shopper should read it.
fn field_message(e: &impl std::fmt::Display) -> String {
    let text = e.to_string();
    if text == domain::ids::NOT_AN_ID {
        text
    } else {
        "is not valid.".into()
    }
}

/// Path or query parameters into their typed struct: the last of repeated names wins, an empty
/// value counts as absent, and an error names the parameter.
pub fn from_pairs<'a, T: DeserializeOwned>(
    pairs: impl Iterator<Item = (Cow<'a, str>, Cow<'a, str>)>,
) -> Result<T, ApiError> {
    read_pairs(pairs, false)
}

/// A call's query into its typed struct, as [`query_fault`] lets it through: every value as
/// given, blanks included (`?testdate=%20` is a testdate of one space, refused as one).
pub fn from_query_strict<T: DeserializeOwned>(query: &str) -> Result<T, ApiError> {
    read_pairs(form_urlencoded::parse(query.as_bytes()), true)
}

fn read_pairs<'a, T: DeserializeOwned>(
    pairs: impl Iterator<Item = (Cow<'a, str>, Cow<'a, str>)>,
    keep_blank: bool,
) -> Result<T, ApiError> {
    let mut last: Vec<(Cow<str>, Cow<str>)> = Vec::new();
    for (k, v) in pairs {
        last.retain(|(name, _)| *name != k);
        if keep_blank || !v.trim().is_empty() {
            last.push((k, v));
        }
    }
    let encoded = form_urlencoded::Serializer::new(String::new())
        .extend_pairs(last)
        .finish();
    let de = serde_urlencoded::Deserializer::new(form_urlencoded::parse(encoded.as_bytes()));
    serde_path_to_error::deserialize(de).map_err(|e| {
        let inner = e.inner().to_string();
        match inner
            .strip_prefix("missing field `")
            .and_then(|r| r.strip_suffix('`'))
        {
            Some(field) => ApiError::BadRequest(format!("{field} is required.")),
            None => ApiError::BadRequest(format!("{} {}", e.path(), field_message(e.inner()))),
        }
    })
}

/// A raw query string (`a=1&b=2`) into its typed struct. Malformed escapes stay as text.
pub fn from_query<T: DeserializeOwned>(query: &str) -> Result<T, ApiError> {
    from_pairs(form_urlencoded::parse(query.as_bytes()))
}

/// What is wrong with a call's query, read strictly (pages read theirs leniently, as a form
/// sends it): a parameter named twice (`?barangay=1&barangay=2`: which was meant cannot be
/// known) or given empty (`?page=`: leave it out instead). The message names the parameter.
pub fn query_fault(query: &str) -> Option<String> {
    for part in query.split('&') {
        if let Some(fault) = domain::text::encoding_fault(part.as_bytes()) {
            let name = part.split('=').next().unwrap_or_default();
            let shown = form_urlencoded::parse(name.as_bytes())
                .next()
                .map(|(k, _)| shown(&k))
                .unwrap_or_default();
            return Some(fault.in_query(if shown.is_empty() {
                "The query string"
            } else {
                &shown
            }));
        }
    }
    let mut seen: Vec<Cow<str>> = Vec::new();
    for (name, value) in form_urlencoded::parse(query.as_bytes()) {
        if name.is_empty() {
            continue;
        }
        let shown = shown(&name);
        if seen.contains(&name) {
            return Some(format!("{shown} is given more than once."));
        }
        if value.is_empty() {
            return Some(format!("{shown} is empty: leave it out or give a value."));
        }
        seen.push(name);
    }
    None
}

/// A parameter's name as an answer may quote it: at most 40 characters, none that typed text
/// refuses (`domain::text`).
fn shown(name: &str) -> String {
    name.chars()
        .filter(|c| !domain::text::refused(*c))
        .take(40)
        .collect()
}

/// The largest request body any call takes.
pub const BODY_LIMIT: usize = 16 * 1024;
/// How long a request body may take to arrive.
pub const BODY_DEADLINE: std::time::Duration = std::time::Duration::from_secs(10);

/// Reads a request body within [`BODY_LIMIT`] bytes and [`BODY_DEADLINE`]; a slow, huge or
/// undecodable body is answered in the store's own words (408, 413, 400).
pub async fn read_body(payload: web::Payload, limit: usize) -> Result<web::Bytes, ApiError> {
    read_body_within(payload, limit, BODY_DEADLINE).await
}

/// [`read_body`] with its own deadline, for any stream of chunks.
pub async fn read_body_within<S, E>(
    mut payload: S,
    limit: usize,
    deadline: std::time::Duration,
) -> Result<web::Bytes, ApiError>
where
    S: futures_util::Stream<Item = Result<web::Bytes, E>> + Unpin,
{
    use futures_util::StreamExt;
    let read = async move {
        let mut body = web::BytesMut::new();
        while let Some(chunk) = payload.next().await {
            let chunk = chunk
                .map_err(|_| ApiError::BadRequest("The request body could not be read.".into()))?;
            if body.len() + chunk.len() > limit {
                return Err(ApiError::TooLarge(limit));
            }
            body.extend_from_slice(&chunk);
        }
        Ok(body.freeze())
    };
    tokio::time::timeout(deadline, read)
        .await
        .map_err(|_| ApiError::Timeout)?
}

/// A client's address as a rate-limit subject: an IPv4 address as it is, an IPv6 address by its
/// /64 (one subscriber's network: its other addresses are the same client, not new ones), an
/// IPv4-mapped IPv6 address as the IPv4 one.
pub fn client_subject(ip: std::net::IpAddr) -> String {
    match ip.to_canonical() {
        std::net::IpAddr::V4(v4) => format!("client {v4}"),
        std::net::IpAddr::V6(v6) => {
            let s = v6.segments();
            format!("client {:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
        }
    }
}

/// Runs `E` for a request: the call, then the check that a public call did not read the session.
pub fn run_call<E: Endpoint>(ctx: &mut Ctx, args: Args<E>) -> Result<E::Answer, ApiError> {
    // A page runs several calls with one context: each is judged on its own reading.
    let before = std::mem::replace(&mut ctx.session_read, false);
    let answer = E::call(ctx, args);
    let read = ctx.session_read;
    ctx.session_read |= before;
    if E::ACCESS == Access::Public && read {
        return Err(ApiError::Internal(format!(
            "{} is declared Access::Public but reads the session",
            E::NAME
        )));
    }
    answer
}

/// What an answer that depends on the session says to caches: keep it nowhere (issue 14).
pub const PRIVATE: [(header::HeaderName, &str); 2] = [
    (header::CACHE_CONTROL, "private, no-store"),
    (header::VARY, "Cookie, Authorization"),
];

/// Marks an answer as depending on the session ([`PRIVATE`]).
pub fn mark_private(headers: &mut header::HeaderMap) {
    for (name, value) in PRIVATE {
        headers.insert(name, header::HeaderValue::from_static(value));
    }
}

/// Answers a call; every answer of a call that is not [`Access::Public`] (errors too) is marked
/// private.
async fn respond<E: Endpoint>(
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<ApiState>,
) -> HttpResponse {
    let mut res = match handle::<E>(req, payload, state).await {
        Ok(res) => res,
        Err(e) => actix_web::ResponseError::error_response(&e),
    };
    if E::ACCESS != Access::Public {
        mark_private(res.headers_mut());
    }
    res
}

/// Unsafe calls take JSON bodies only (issue 14): no HTML form can send one (its types are
/// urlencoded, multipart and text/plain), so no other site's form reaches a call. A call without
/// a body may send no type.
fn json_only(req: &HttpRequest, body: &[u8]) -> Result<(), ApiError> {
    use actix_web::HttpMessage;
    let json = match req.mime_type() {
        Ok(Some(m)) => {
            m.type_() == "application"
                && (m.subtype() == "json" || m.suffix().is_some_and(|s| s == "json"))
        }
        Ok(None) => body.is_empty(),
        Err(_) => false,
    };
    if json {
        Ok(())
    } else {
        Err(ApiError::UnsupportedMediaType)
    }
}

async fn handle<E: Endpoint>(
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<ApiState>,
) -> Result<HttpResponse, ApiError> {
    let body = read_body(payload, BODY_LIMIT).await?;
    if E::METHOD != Method::Get {
        json_only(&req, &body)?;
    }
    // Only a public read's answer is kept, as bytes, by everything that shapes it.
    let key = (E::ACCESS == Access::Public).then(|| {
        let today = domain::calendar::iso_date(domain::calendar::manila_now().date());
        crate::cache::key(&[
            E::NAME.as_bytes(),
            E::METHOD.as_str().as_bytes(),
            req.path().as_bytes(),
            req.query_string().as_bytes(),
            &body,
            &state.watch.data_version().to_le_bytes(),
            today.as_bytes(),
        ])
    });
    if let Some(hit) = key.and_then(|k| state.cache.get(k)) {
        return Ok(hit.respond(&req));
    }
    let args = arguments::<E>(&req, &body)?;
    let mut caller = Caller::of_api(&req);
    if E::ACCESS == Access::Public {
        // A shared answer is made without the session.
        caller.token = None;
    }
    if let Some(work) = E::prepare(&req, &state.config) {
        caller.prepared = web::block(work)
            .await
            .map_err(|e| ApiError::Internal(e.to_string()))??;
    }
    let mut done = answer_call::<E>(&state, caller.clone(), args).await;
    if E::METHOD == Method::Get && matches!(done, Err(ApiError::DatabaseDown(db::Outage::Lost))) {
        // A read that met a dropped connection is run once more on a fresh one (as
        // `ApiState::read` does for pages).
        done = answer_call::<E>(&state, caller, arguments::<E>(&req, &body)?).await;
    }
    let (answer, issued, ended, cookies) = done?;
    let json = serde_json::to_vec(&answer).map_err(|e| ApiError::Internal(e.to_string()))?;
    let status = StatusCode::from_u16(E::status(&answer)).unwrap_or(StatusCode::OK);
    let answer = std::sync::Arc::new(crate::cache::Cached::new(
        status,
        vec![(
            header::CONTENT_TYPE,
            header::HeaderValue::from_static("application/json"),
        )],
        json.into(),
    ));
    if let Some(k) = key {
        state.cache.insert(k, answer.clone());
    }
    let mut res = answer.respond(&req);
    if let Some(issued) = issued {
        send_token(&mut res, &issued, state.config.secure_cookies);
    } else if ended {
        end_token(&mut res);
    }
    for cookie in cookies {
        let _ = res.add_cookie(&cookie);
    }
    Ok(res)
}

/// A call's arguments, read from its request and body.
fn arguments<E: Endpoint>(req: &HttpRequest, body: &[u8]) -> Result<Args<E>, ApiError> {
    let path: E::Path = from_pairs(
        req.match_info()
            .iter()
            .map(|(k, v)| (Cow::Borrowed(k), Cow::Borrowed(v))),
    )?;
    if let Some(fault) = query_fault(req.query_string()) {
        return Err(ApiError::BadRequest(fault));
    }
    let query: E::Query = from_query_strict(req.query_string())?;
    let body = E::Body::parse(body)?;
    let headers: E::Headers = from_pairs(header_pairs(req))?;
    Ok((path, query, body, headers))
}

/// What a call answers, with the session and cart it issued or ended.
type Done<E> = (
    <E as Declared>::Answer,
    Option<crate::session::Issued>,
    bool,
    Vec<actix_web::cookie::Cookie<'static>>,
);

/// Runs a call with one connection.
async fn answer_call<E: Endpoint>(
    state: &ApiState,
    caller: Caller,
    args: Args<E>,
) -> Result<Done<E>, ApiError> {
    state
        .run(caller, move |ctx| {
            let answer = run_call::<E>(ctx, args)?;
            Ok((answer, ctx.issued.take(), ctx.ended, ctx.take_cookies()))
        })
        .await
}

/// Owned pairs as the parsers take them.
fn borrowed(list: &[(String, String)]) -> impl Iterator<Item = (Cow<'_, str>, Cow<'_, str>)> {
    list.iter()
        .map(|(k, v)| (Cow::Borrowed(k.as_str()), Cow::Borrowed(v.as_str())))
}

/// A request's headers as name-value pairs (values that are not text are left out).
fn header_pairs(req: &HttpRequest) -> impl Iterator<Item = (Cow<'_, str>, Cow<'_, str>)> {
    req.headers().iter().filter_map(|(k, v)| {
        let v = v.to_str().ok()?;
        Some((Cow::Borrowed(k.as_str()), Cow::Borrowed(v)))
    })
}

/// The session token of the cookie (what pages and forms read).
pub fn cookie_token(req: &HttpRequest) -> Option<String> {
    req.cookie(crate::session::COOKIE)
        .map(|c| c.value().to_string())
        .filter(|t| !t.is_empty())
}

/// The session token a request presents: `Authorization: Bearer` (the scheme in any case)
/// first, else the cookie.
pub fn presented_token(req: &HttpRequest) -> Option<String> {
    crate::origin::bearer(req)
        .map(str::to_string)
        .or_else(|| cookie_token(req))
}

/// Clears the session cookie and the member hint (logout).
pub fn end_token(res: &mut HttpResponse) {
    for name in [crate::session::COOKIE, crate::session::MEMBER_COOKIE] {
        let mut cookie = actix_web::cookie::Cookie::new(name, "");
        cookie.set_path("/");
        cookie.set_http_only(true);
        cookie.make_removal();
        let _ = res.add_cookie(&cookie);
    }
}

/// Sends a new or extended token: the `access-token` header for API clients, an HttpOnly,
/// SameSite=Lax cookie (Secure on https) for browsers, and beside it the member hint
/// ([`crate::session::MEMBER_COOKIE`]) that lets guests' pages come from the shared cache.
pub fn send_token(res: &mut HttpResponse, issued: &crate::session::Issued, secure: bool) {
    if let Ok(v) = header::HeaderValue::from_str(&issued.token) {
        res.headers_mut()
            .insert(header::HeaderName::from_static(crate::session::HEADER), v);
    }
    let value = |v: &str| {
        let mut cookie = actix_web::cookie::Cookie::new(crate::session::COOKIE, v.to_string());
        cookie.set_path("/");
        cookie.set_http_only(true);
        cookie.set_secure(secure);
        cookie.set_same_site(actix_web::cookie::SameSite::Lax);
        cookie.set_max_age(actix_web::cookie::time::Duration::seconds(
            crate::session::TTL_SECS,
        ));
        cookie
    };
    let _ = res.add_cookie(&value(&issued.token));
    let mut hint = value("1");
    hint.set_name(crate::session::MEMBER_COOKIE);
    if !issued.member {
        hint.make_removal();
    }
    let _ = res.add_cookie(&hint);
}

/// The registry's view of an endpoint, whatever its types.
pub trait Registered: Sync {
    fn name(&self) -> &'static str;
    fn method(&self) -> Method;
    fn path(&self) -> &'static str;
    fn access(&self) -> Access;
    /// The actix route: method guard (GET also answers HEAD) and handler.
    fn route(&self) -> actix_web::Route;
    /// Runs the call in process with already split path parameters and the raw query.
    fn load(
        &self,
        ctx: &mut Ctx,
        path: Vec<(String, String)>,
        query: &str,
    ) -> Result<Value, ApiError>;
    /// Runs the call in process for a page form: its path and body from the form's fields
    /// ([`Body::from_fields`]); the answer as JSON.
    /// `headers` stand for the request headers the call reads (a link's token from a field).
    fn run_form(
        &self,
        ctx: &mut Ctx,
        fields: &[(String, String)],
        headers: &[(String, String)],
    ) -> Result<Value, ApiError>;
    /// The key template the UI fills: the path, then `?name={name}` for each query parameter.
    fn key_template(&self) -> String;
    fn operation(
        &self,
        components: &mut Vec<(String, RefOr<Schema>)>,
    ) -> utoipa::openapi::path::Operation;
    /// The TypeScript name of the answer, and the collection of the types it needs.
    fn answer_ts(&self, types: &mut crate::contract::TsTypes) -> String;
}

/// Puts an [`Endpoint`] into the registry.
pub struct Api<E>(PhantomData<fn() -> E>);

impl<E> Api<E> {
    pub const ENTRY: Self = Self(PhantomData);
}

impl<E: Endpoint> Registered for Api<E> {
    fn name(&self) -> &'static str {
        E::NAME
    }

    fn method(&self) -> Method {
        E::METHOD
    }

    fn path(&self) -> &'static str {
        E::PATH
    }

    fn access(&self) -> Access {
        E::ACCESS
    }

    fn route(&self) -> actix_web::Route {
        let guard = match E::METHOD {
            Method::Get => guard::Any(guard::Get()).or(guard::Head()),
            Method::Post => guard::Any(guard::Post()),
            Method::Put => guard::Any(guard::Put()),
            Method::Delete => guard::Any(guard::Delete()),
        };
        web::route().guard(guard).to(respond::<E>)
    }

    fn load(
        &self,
        ctx: &mut Ctx,
        path: Vec<(String, String)>,
        query: &str,
    ) -> Result<Value, ApiError> {
        let p: E::Path = from_pairs(
            path.into_iter()
                .map(|(k, v)| (Cow::Owned(k), Cow::Owned(v))),
        )?;
        let q: E::Query = from_query(query)?;
        let body = E::Body::parse(b"")?;
        let headers: E::Headers = from_query("")?;
        let answer = run_call::<E>(ctx, (p, q, body, headers))?;
        serde_json::to_value(answer).map_err(|e| ApiError::Internal(e.to_string()))
    }

    fn run_form(
        &self,
        ctx: &mut Ctx,
        fields: &[(String, String)],
        headers: &[(String, String)],
    ) -> Result<Value, ApiError> {
        let path: E::Path = from_pairs(borrowed(fields))?;
        let query: E::Query = from_query("")?;
        let body = E::Body::from_fields(borrowed(fields))?;
        let headers: E::Headers = from_pairs(borrowed(headers))?;
        let answer = run_call::<E>(ctx, (path, query, body, headers))?;
        serde_json::to_value(answer).map_err(|e| ApiError::Internal(e.to_string()))
    }

    fn key_template(&self) -> String {
        let names: Vec<String> = query_names::<E::Query>();
        if names.is_empty() {
            return E::PATH.to_string();
        }
        let pairs: Vec<String> = names.iter().map(|n| format!("{n}={{{n}}}")).collect();
        format!("{}?{}", E::PATH, pairs.join("&"))
    }

    fn operation(
        &self,
        components: &mut Vec<(String, RefOr<Schema>)>,
    ) -> utoipa::openapi::path::Operation {
        crate::openapi::operation::<E>(components)
    }

    fn answer_ts(&self, types: &mut crate::contract::TsTypes) -> String {
        types.add::<E::Answer>()
    }
}

/// The names of a query type's parameters, in declaration order.
pub fn query_names<Q: utoipa::IntoParams>() -> Vec<String> {
    Q::into_params(|| Some(utoipa::openapi::path::ParameterIn::Query))
        .into_iter()
        .map(|p| p.name)
        .collect()
}

/// Splits a path against a template: the `{name}` segments' values (percent-decoded), or `None`
/// when the path is not of the template. Empty segments do not count (`//a//b/` is `/a/b`). The
/// one path matcher of the store: API keys in process and the pages' routes.
pub fn match_path(template: &str, path: &str) -> Option<Vec<(String, String)>> {
    let pattern = template.split('/').filter(|s| !s.is_empty());
    let parts = path.split('/').filter(|s| !s.is_empty());
    if pattern.clone().count() != parts.clone().count() {
        return None;
    }
    let mut params = Vec::new();
    for (seg, part) in pattern.zip(parts) {
        match seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
            Some(name) => params.push((
                name.to_string(),
                percent_encoding::percent_decode_str(part)
                    .decode_utf8_lossy()
                    .into_owned(),
            )),
            None if seg == part => {}
            None => return None,
        }
    }
    Some(params)
}

/// Data a page loaded in process.
pub struct Fetched {
    pub data: Value,
    /// The data is the session's own ([`Access::Session`]): a page holding it is never kept in
    /// the shared cache.
    pub private: bool,
}

/// Answers the read named by a query key (an API path with its query string) in process, as
/// JSON: the data a page needs under the same key the client's react-query uses for it.
pub fn fetch(ctx: &mut Ctx, key: &str) -> Result<Fetched, ApiError> {
    let (path, query) = key.split_once('?').unwrap_or((key, ""));
    let (e, params) = crate::registry::endpoints()
        .iter()
        .filter(|e| e.access() != Access::Write)
        .find_map(|e| match_path(e.path(), path).map(|params| (e, params)))
        .ok_or_else(|| ApiError::NotFound(format!("No data at {path}")))?;
    Ok(Fetched {
        data: e.load(ctx, params, query)?,
        private: e.access() == Access::Session,
    })
}

/// 405 for a known address with another method, naming the methods it takes (`Allow`): the
/// API's JSON error under `/api`, plain text for pages and files.
pub fn method_not_allowed(req: &HttpRequest, allowed: &str) -> HttpResponse {
    let mut res = if req.path().starts_with("/api/") {
        actix_web::ResponseError::error_response(&ApiError::MethodNotAllowed(format!(
            "{} is not allowed on {}",
            req.method(),
            req.path()
        )))
    } else {
        HttpResponse::MethodNotAllowed()
            .content_type("text/plain; charset=utf-8")
            .body("This address does not take that method.")
    };
    if let Ok(v) = header::HeaderValue::from_str(allowed) {
        res.headers_mut().insert(header::ALLOW, v);
    }
    res
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures_util::{stream, StreamExt};

    type Chunk = Result<web::Bytes, std::io::Error>;

    #[test]
    fn a_call_refuses_a_query_parameter_named_twice_or_given_empty() {
        assert_eq!(query_fault("barangay=1&packaging=2"), None);
        assert_eq!(query_fault(""), None);
        assert_eq!(
            query_fault("barangay=1&barangay=1").as_deref(),
            Some("barangay is given more than once.")
        );
        assert_eq!(
            query_fault("page=").as_deref(),
            Some("page is empty: leave it out or give a value.")
        );
        // A name is shown without control characters and at most 40 characters long.
        let long = format!("{}%0A=&{}%0A=", "x".repeat(60), "x".repeat(60));
        assert_eq!(
            query_fault(&long),
            Some(format!(
                "{} is empty: leave it out or give a value.",
                "x".repeat(40)
            ))
        );
    }

    #[derive(Debug, Default, Deserialize, utoipa::ToSchema)]
    struct Sample {
        #[serde(default)]
        quantity: Option<i64>,
        #[serde(default)]
        ids: Vec<i32>,
    }

    #[test]
    fn a_body_is_an_object_whose_whole_numbers_may_be_written_2_0() {
        let parse = |b: &str| <Json<Sample, false> as Body>::parse(b.as_bytes()).map(|j| j.0);
        let s = parse(r#"{"quantity": 2.0, "ids": [1e1, 3]}"#).unwrap();
        assert_eq!((s.quantity, s.ids), (Some(2), vec![10, 3]));
        assert!(parse("").is_ok(), "an optional body may be left out");
        for bad in [
            "null",
            "[true]",
            "2",
            r#""x""#,
            r#"{"quantity": 2.5}"#,
            r#"{"quantity": 1e300}"#,
        ] {
            assert!(
                matches!(parse(bad), Err(ApiError::BadRequest(_))),
                "{bad} was read"
            );
        }
        match parse(r#"{"quantity": 2.5}"#) {
            Err(ApiError::BadRequest(m)) => assert_eq!(m, "quantity is not valid."),
            _ => unreachable!(),
        }
    }

    #[test]
    fn a_client_is_its_ipv4_address_or_its_ipv6_network() {
        let subject = |s: &str| client_subject(s.parse().unwrap());
        assert_eq!(subject("203.0.113.9"), "client 203.0.113.9");
        assert_eq!(subject("::ffff:203.0.113.9"), "client 203.0.113.9");
        assert_eq!(
            subject("2001:db8:1:2:aaaa::1"),
            subject("2001:db8:1:2:ffff:ffff:ffff:ffff")
        );
        assert_eq!(subject("2001:db8:1:2::7"), "client 2001:db8:1:2::/64");
        assert_ne!(subject("2001:db8:1:2::1"), subject("2001:db8:1:3::1"));
    }

    #[actix_web::test]
    async fn a_body_that_never_ends_is_timed_out() {
        let first = stream::iter(vec![Ok::<_, std::io::Error>(web::Bytes::from_static(b"{"))]);
        let slow = first.chain(stream::pending::<Chunk>());
        let err = read_body_within(Box::pin(slow), 1024, std::time::Duration::from_millis(50))
            .await
            .unwrap_err();
        assert!(matches!(err, ApiError::Timeout), "{err:?}");
        assert_eq!(err.status(), StatusCode::REQUEST_TIMEOUT);
    }

    #[actix_web::test]
    async fn a_body_past_the_limit_is_refused() {
        let big = stream::iter(
            (0..10).map(|_| Ok::<_, std::io::Error>(web::Bytes::from(vec![b'x'; 1000]))),
        );
        let err = read_body_within(big, 4096, BODY_DEADLINE)
            .await
            .unwrap_err();
        assert!(matches!(err, ApiError::TooLarge(4096)), "{err:?}");
        assert_eq!(err.status(), StatusCode::PAYLOAD_TOO_LARGE);
        let ok = stream::iter(vec![Ok::<_, std::io::Error>(web::Bytes::from_static(
            b"{}",
        ))]);
        assert_eq!(
            &read_body_within(ok, 4096, BODY_DEADLINE).await.unwrap()[..],
            b"{}"
        );
    }

    // A call that asks for the session, declared public (a mistake) or as the session's own.
    crate::declare!(struct PublicPeek = Get "/api/v1/peek" as "publicPeek", Public, errors [],
        (NoParams, NoParams, NoBody) -> bool, "Whether a session was presented.");
    crate::declare!(struct SessionPeek = Get "/api/v1/peek" as "sessionPeek", Session, errors [],
        (NoParams, NoParams, NoBody) -> bool, "Whether a session was presented.");

    impl Endpoint for PublicPeek {
        fn call(ctx: &mut Ctx, _: Args<Self>) -> Result<bool, ApiError> {
            Ok(ctx.token().is_some())
        }
    }

    impl Endpoint for SessionPeek {
        fn call(ctx: &mut Ctx, _: Args<Self>) -> Result<bool, ApiError> {
            Ok(ctx.token().is_some())
        }
    }

    #[test]
    fn a_public_call_that_reads_the_session_fails() {
        use db::diesel::Connection;
        let mut conn = AnyConnection::establish(":memory:").unwrap();
        let config = ApiConfig::default();
        let caller = Caller {
            token: Some("t".into()),
            ..Caller::default()
        };
        let mut ctx = Ctx::new(&mut conn, &config, caller);
        let err = run_call::<PublicPeek>(&mut ctx, (NoParams {}, NoParams {}, NoBody, NoParams {}))
            .unwrap_err();
        assert!(
            matches!(&err, ApiError::Internal(d) if d.contains("declared Access::Public")),
            "{err:?}"
        );
        // Declared as the session's own, it runs; and a public call after it in the same
        // context (a page's data) is judged on its own reading.
        assert!(
            run_call::<SessionPeek>(&mut ctx, (NoParams {}, NoParams {}, NoBody, NoParams {}))
                .unwrap()
        );
        assert!(ctx.read_session());
    }

    #[test]
    fn repeated_and_empty_parameters_and_bad_escapes() {
        #[derive(Deserialize, Debug)]
        struct Q {
            barangay: Option<domain::BarangayId>,
        }
        let q: Q = from_query("barangay=1&barangay=1380300002").unwrap();
        assert_eq!(q.barangay, domain::BarangayId::parse("1380300002"));
        let q: Q = from_query("barangay=").unwrap();
        assert_eq!(q.barangay, None);
        for bad in [
            "barangay=%zz",
            "barangay=%",
            "barangay=-1",
            "barangay=1e3",
            "barangay=%00",
        ] {
            let e = from_query::<Q>(bad).unwrap_err();
            assert_eq!(
                e.to_string(),
                "barangay must be a positive whole number.",
                "{bad}"
            );
        }
        // Parameters it does not know are left alone, whatever they hold.
        assert!(from_query::<Q>("%=%&x=%C0").is_ok());
    }
}
