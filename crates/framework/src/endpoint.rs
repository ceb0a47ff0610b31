//! What an API call is: its method, who may see its answer ([`Access`]), its typed path,
//! query, body and headers ([`Declared`], [`declare!`](crate::declare)), the function it runs
//! ([`Endpoint`]) with one context ([`Ctx`]), and how its arguments are read from a request or a
//! page form.

use std::borrow::Cow;

use actix_web::HttpRequest;
use db::AnyConnection;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use utoipa::openapi::{RefOr, Schema};

use crate::error::ApiError;
use crate::ApiConfig;

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

/// A token to send back, and whether it is a member's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Issued {
    pub token: String,
    pub member: bool,
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
    pub issued: Option<Issued>,
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
    /// Only reads run here (a page's calls, `ApiState::read`): what a call looks up stays true
    /// for the others ([`Ctx::reading`]).
    pub(crate) reading: bool,
    /// The shared cache, for what a feature keeps across requests ([`Ctx::kept`]); none in tools
    /// and tests that make their own context.
    pub(crate) cache: Option<std::sync::Arc<crate::cache::ResponseCache>>,
    /// Whether the call running changes nothing ([`run_call`]: one not declared
    /// [`Access::Write`]): only then is what it makes kept.
    keeping: bool,
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
            reading: false,
            cache: None,
            keeping: false,
        }
    }

    /// Whether only reads run with this context (a page's calls): a feature may then keep what
    /// it looked up (a session and its member) for the other calls, as no call here changes it.
    pub fn reading(&self) -> bool {
        self.reading
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

    /// Runs a write's change and the reads of its answer as one transaction on PostgreSQL
    /// ([`db::answer_begin`]): a connection lost between them keeps nothing, and the call's 503
    /// is the truth.
    pub fn with_answer<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<T, ApiError>,
    ) -> Result<T, ApiError> {
        let began = db::answer_begin(self.conn)?;
        let result = f(self);
        match (db::answer_end(self.conn, began, result.is_ok()), result) {
            (Err(e), Ok(_)) => Err(e.into()),
            (_, result) => result,
        }
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

    /// A read's answer kept across requests under `key`, made by `make` when it is not kept.
    /// `key` must name everything that shapes the answer: the call and its arguments, who asks
    /// (as far as the answer depends on it), and the versions of the data it reads, read from
    /// the database before the data (so what is kept under a version is at least that new). Kept
    /// while a read runs (a call not declared [`Access::Write`]), or anywhere outside a
    /// transaction (a write call's reads before its change, a tool's: what they read is
    /// committed); never within a write's transaction, which may still roll back what it read.
    pub fn kept<T, F>(&mut self, key: u128, make: F) -> Result<T, ApiError>
    where
        T: Clone + Serialize + Send + Sync + 'static,
        F: FnOnce(&mut Self) -> Result<T, ApiError>,
    {
        self.kept_when(key, make, |_| true)
    }

    /// As [`Ctx::kept`], but what `make` finds is kept only when there is something (`Some`): a
    /// lookup by an id a client sends keeps no answer for ids that name nothing, so a flood of
    /// made-up ids does not fill the cache and push out what others need.
    pub fn kept_found<T, F>(&mut self, key: u128, make: F) -> Result<Option<T>, ApiError>
    where
        T: Clone + Serialize + Send + Sync + 'static,
        F: FnOnce(&mut Self) -> Result<Option<T>, ApiError>,
    {
        self.kept_when(key, make, Option::is_some)
    }

    fn kept_when<T, F>(&mut self, key: u128, make: F, keep: fn(&T) -> bool) -> Result<T, ApiError>
    where
        T: Clone + Serialize + Send + Sync + 'static,
        F: FnOnce(&mut Self) -> Result<T, ApiError>,
    {
        let keeping = self.keeping || !db::in_transaction(self.conn);
        let cache = self.cache.clone().filter(|_| keeping);
        if let Some(hit) = cache.as_ref().and_then(|c| c.get::<Kept<T>>(key)) {
            return Ok(hit.value.clone());
        }
        let value = make(self)?;
        if let Some(cache) = cache.filter(|_| keep(&value)) {
            keep_in(&cache, key, value.clone());
        }
        Ok(value)
    }

    /// What [`Ctx::kept`] keeps, for a write's transaction to look up and add to what it does
    /// not write ([`KeptOutside`]).
    pub fn kept_outside(&self) -> KeptOutside {
        KeptOutside(self.cache.clone())
    }

    /// Counts one mail of kind `action` to `address` against
    /// [`limits::MAILS_PER_ADDRESS`](crate::limits::MAILS_PER_ADDRESS) an hour.
    pub fn limit_mails(&mut self, action: &str, address: &str) -> Result<(), ApiError> {
        use crate::limits::{MAILS_PER_ADDRESS, MAIL_WINDOW};
        self.limit(action, address, MAILS_PER_ADDRESS, MAIL_WINDOW)
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

    /// Counts a sign-in try on `account` (a key naming the account, `user 4`; or what was typed
    /// when no account has it) by this client, before its password is checked, so concurrent
    /// tries each get their number: the sixth in ten minutes is refused, for that client only.
    /// A client that already failed on the account also meets the account's wider limit, 50
    /// failures an hour from all clients; one that has not (the owner at another address) is let
    /// through, so nobody can lock the owner out. Say how it ended with [`SignInTry`].
    pub fn sign_in_try(&mut self, account: &str) -> Result<SignInTry, ApiError> {
        let t = SignInTry {
            here: format!("{account} from {}", self.client_key()),
            everywhere: account.to_string(),
        };
        let (tries, wait) = self.count_try(&t.here, 600)?;
        if tries > 5 {
            return Err(ApiError::TooMany(wait));
        }
        if tries > 1 {
            if let Some(wait) = self.failures(&t.everywhere, 50, 3600)? {
                return Err(ApiError::TooMany(wait));
            }
        }
        Ok(t)
    }

    /// The client as a rate-limit subject ([`client_subject`]).
    pub fn client_key(&self) -> String {
        self.caller
            .client
            .map_or_else(|| "unknown".to_string(), client_subject)
    }
}

/// A sign-in try counted by [`Ctx::sign_in_try`].
pub struct SignInTry {
    here: String,
    everywhere: String,
}

impl SignInTry {
    /// The password was wrong: one more failure on the account.
    pub fn failed(&self, ctx: &mut Ctx) -> Result<(), ApiError> {
        ctx.fail(&self.everywhere, 3600)
    }

    /// The password was right: the client's count is forgotten.
    pub fn succeeded(&self, ctx: &mut Ctx) -> Result<(), ApiError> {
        Ok(db::limits::rate_reset(ctx.conn, &self.here)?)
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
    /// The file that declares the call (`file!()` where `declare!` is written): its feature's
    /// folder names the call's tag in the OpenAPI document ([`crate::operation::tag_of`]).
    const FILE: &'static str = "";
    /// The status of a successful answer.
    const STATUS: u16 = 200;
    /// Who the answer is for (no default: a call that forgets cannot be kept or shared). Some
    /// reads are POST calls; they are reads all the same.
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

/// The largest request body any call takes.
pub const BODY_LIMIT: usize = 16 * 1024;

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

    /// The answers that lead to this call (OpenAPI links, written in the answer of the call
    /// they come from): the ids a client, and the contract test's stateful phase, take from one
    /// answer to this call. Declared here, by the call that follows, as it is the one that knows
    /// what it takes.
    const LINKS: &'static [Link] = &[];

    /// What the whole body must hold beyond its fields, as JSON Schema keywords merged into the
    /// body's schema (a change that must name something to change).
    const BODY_RULES: Option<&'static str> = None;

    /// The cookie of the session the call reads when it is a feature's own (the staff's), not
    /// the shopper's: its name and what the document says of it. The document then names that
    /// cookie, and not the shopper's token, as the call's credential.
    const CREDENTIAL: Option<(&'static str, &'static str)> = None;

    /// A file call's ([`File`] body) check of who calls and what its path names, with one
    /// connection, before a byte of its body is read (a photo may be 10 MB): a visitor who may
    /// not send it, or a path naming nothing, is answered at once. Anyone, by default.
    fn admit(_ctx: &mut Ctx, _path: &Self::Path) -> Result<(), ApiError> {
        Ok(())
    }

    /// How the call is answered when its work is more than one connection's (a file call's photo
    /// checked and kept on a blocking thread with no connection held, between its reads and its
    /// write): given the state, who calls and the arguments, it runs its own steps
    /// ([`crate::ApiState::run`] for each database step). None: [`Endpoint::call`] answers.
    const RECEIVE: Option<Receive<Self>> = None;

    /// The request header that proves who sends the call instead of a session (a payment
    /// gateway's signature over the body), with what the document says of it: the document names
    /// it as the call's only credential, and the call checks it itself.
    const SIGNATURE: Option<(&'static str, &'static str)> = None;

    /// The most bytes its body may be ([`BODY_LIMIT`] unless said: a payment
    /// gateway's event with an order's every line is larger than any form).
    const MOST_BODY: usize = BODY_LIMIT;

    /// Work after the call's database work, holding no connection: given the state, who called
    /// and the call's answer, it answers in its place (asking a payment gateway for the page
    /// where the order the call placed is paid). It runs for the call sent as JSON and for a
    /// page's form alike. None by default.
    const THEN: Option<Then<Self>> = None;
}

/// Work after a call's database work ([`Endpoint::THEN`]).
pub type Then<E> = for<'a> fn(
    &'a crate::ApiState,
    Caller,
    <E as Declared>::Answer,
) -> std::pin::Pin<
    Box<dyn std::future::Future<Output = Result<<E as Declared>::Answer, ApiError>> + 'a>,
>;

/// A call's own way to be answered ([`Endpoint::RECEIVE`]).
pub type Receive<E> = for<'a> fn(
    &'a crate::ApiState,
    Caller,
    Args<E>,
) -> std::pin::Pin<
    Box<dyn std::future::Future<Output = Result<<E as Declared>::Answer, ApiError>> + 'a>,
>;

/// An OpenAPI link to a call from the answer of another ([`Endpoint::LINKS`]).
pub struct Link {
    /// The call whose answer holds the link (`Other::NAME`).
    pub from: &'static str,
    /// The link's name in that answer.
    pub name: &'static str,
    /// This call's path or query parameters, as runtime expressions on that answer or request.
    pub params: &'static [(&'static str, &'static str)],
    /// This call's body, JSON with runtime expressions.
    pub body: Option<&'static str>,
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
            const FILE: &'static str = file!();
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
    /// The name of the body's schema among the components.
    fn name() -> Option<Cow<'static, str>>;
    /// A file call's body ([`File`]): its part and limits, read as `multipart/form-data`
    /// instead of JSON ([`crate::form::upload::read_file`]). None: a JSON body.
    fn file() -> Option<FileRules> {
        None
    }
    /// The body of a file call from the file it was sent.
    fn of_file(_file: Sent) -> Result<Self, ApiError> {
        Err(ApiError::UnsupportedMediaType)
    }
}

/// A JSON body kept with its bytes as sent, for a call that checks a signature over them (a
/// payment gateway's webhook): read and documented as [`Json`] (required); no page form sends
/// one.
#[derive(Debug, Clone)]
pub struct Signed<T> {
    pub value: T,
    pub raw: Vec<u8>,
}

impl<T> Body for Signed<T>
where
    T: DeserializeOwned + Default + utoipa::ToSchema + Send + 'static,
{
    fn parse(bytes: &[u8]) -> Result<Self, ApiError> {
        let Json(value) = Json::<T, true>::parse(bytes)?;
        Ok(Self {
            value,
            raw: bytes.to_vec(),
        })
    }

    fn from_fields<'a>(
        _fields: impl Iterator<Item = (Cow<'a, str>, Cow<'a, str>)>,
    ) -> Result<Self, ApiError> {
        Err(ApiError::UnsupportedMediaType)
    }

    fn doc(components: &mut Vec<(String, RefOr<Schema>)>) -> Option<(RefOr<Schema>, bool)> {
        Json::<T, true>::doc(components)
    }

    fn name() -> Option<Cow<'static, str>> {
        Json::<T, true>::name()
    }
}

/// What a file call takes ([`FilePart`]): its part's name, the most the whole body may be (the
/// file and the parts' headers), and what its document says of the part, of a body too large
/// (413) and of a file of a type it does not take (415).
#[derive(Debug, Clone, Copy)]
pub struct FileRules {
    pub part: &'static str,
    pub most: usize,
    pub said: &'static str,
    pub too_large: &'static str,
    pub wrong_type: &'static str,
}

/// The one file of a file call's body: its name as sent (may be empty) and its bytes (never
/// empty).
#[derive(Debug, Clone, Default)]
pub struct Sent {
    pub name: String,
    pub bytes: Vec<u8>,
}

/// The part a file call takes ([`File`]), as a feature declares it.
pub trait FilePart: Send + 'static {
    /// Its rules (see [`FileRules`]).
    fn rules() -> FileRules;
}

/// A file call's body: one file, sent as the part `P` names of a `multipart/form-data` body,
/// and nothing else. Read within the part's limits before the call runs, after
/// [`Endpoint::admit`] let the caller send it; never from JSON or a page form's fields.
pub struct File<P: FilePart> {
    pub file: Sent,
    part: std::marker::PhantomData<fn() -> P>,
}

impl<P: FilePart> Body for File<P> {
    fn parse(_: &[u8]) -> Result<Self, ApiError> {
        Err(not_multipart(&P::rules()))
    }

    fn from_fields<'a>(
        _: impl Iterator<Item = (Cow<'a, str>, Cow<'a, str>)>,
    ) -> Result<Self, ApiError> {
        Err(not_multipart(&P::rules()))
    }

    fn doc(_: &mut Vec<(String, RefOr<Schema>)>) -> Option<(RefOr<Schema>, bool)> {
        use utoipa::openapi::schema::{AdditionalProperties, ObjectBuilder, SchemaFormat, Type};
        let rules = P::rules();
        let part = ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(SchemaFormat::KnownFormat(
                utoipa::openapi::KnownFormat::Binary,
            )))
            .description(Some(rules.said));
        let body = ObjectBuilder::new()
            .schema_type(Type::Object)
            .property(rules.part, part)
            .required(rules.part)
            .additional_properties(Some(AdditionalProperties::FreeForm(false)));
        Some((RefOr::T(Schema::Object(body.build())), true))
    }

    fn name() -> Option<Cow<'static, str>> {
        None
    }

    fn file() -> Option<FileRules> {
        Some(P::rules())
    }

    fn of_file(file: Sent) -> Result<Self, ApiError> {
        Ok(Self {
            file,
            part: std::marker::PhantomData,
        })
    }
}

/// What a file call answers a body that is not `multipart/form-data`.
pub fn not_multipart(rules: &FileRules) -> ApiError {
    ApiError::Unacceptable {
        status: 415,
        message: format!(
            "Send the file as multipart/form-data, in one part named {}.",
            rules.part
        ),
    }
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

    fn name() -> Option<Cow<'static, str>> {
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

    fn name() -> Option<Cow<'static, str>> {
        Some(T::name())
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
    let keeping = std::mem::replace(&mut ctx.keeping, E::ACCESS != Access::Write);
    let answer = E::call(ctx, args);
    ctx.keeping = keeping;
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

/// What [`Ctx::kept`] (or [`Ctx::kept_found`]) keeps, for a write's transaction, where `kept`
/// keeps nothing: the transaction may still roll back what it wrote, and what it reads back of
/// its own writes must not outlive it. Data the transaction does not write is another matter: a
/// value kept under a key that names the data versions it was read at is as true within the
/// transaction as before it, and what the transaction reads of it is committed, at least as new
/// as those versions. An add to a cart writes the cart and reads the catalog's products: it looks
/// them up here, and keeps those it had to read.
#[derive(Clone)]
pub struct KeptOutside(Option<std::sync::Arc<crate::cache::ResponseCache>>);

impl KeptOutside {
    /// What is kept under `key` as a `T`, if anything.
    pub fn get<T: Clone + Send + Sync + 'static>(&self, key: u128) -> Option<T> {
        let hit = self.0.as_ref()?.get::<Kept<T>>(key)?;
        Some(hit.value.clone())
    }

    /// Keeps `value` under `key`, as [`Ctx::kept`] would: only data the transaction does not
    /// write, under a key naming the versions read before it.
    pub fn keep<T: Clone + Serialize + Send + Sync + 'static>(&self, key: u128, value: T) {
        if let Some(cache) = &self.0 {
            keep_in(cache, key, value);
        }
    }
}

/// Keeps `value` under `key` in `cache`, weighed about as its JSON (the form it is answered in).
fn keep_in<T: Serialize + Send + Sync + 'static>(
    cache: &crate::cache::ResponseCache,
    key: u128,
    value: T,
) {
    let bytes = serde_json::to_vec(&value).map_or(0, |v| v.len());
    let weight = (2 * bytes + 256) as u64;
    cache.insert(key, std::sync::Arc::new(Kept { value, weight }));
}

/// A value [`Ctx::kept`] keeps, with what it costs the cache.
struct Kept<T> {
    value: T,
    weight: u64,
}

impl<T> crate::cache::Weigh for Kept<T> {
    fn weight(&self) -> u64 {
        self.weight
    }
}

/// Owned pairs as the parsers take them.
pub(crate) fn borrowed(
    list: &[(String, String)],
) -> impl Iterator<Item = (Cow<'_, str>, Cow<'_, str>)> {
    list.iter()
        .map(|(k, v)| (Cow::Borrowed(k.as_str()), Cow::Borrowed(v.as_str())))
}

/// `{"results": [...]}`, the shape of the API's list answers.
#[derive(Debug, Clone, Serialize, PartialEq, ts_rs::TS)]
pub struct Results<T> {
    pub results: Vec<T>,
}

impl<T: utoipa::ToSchema> utoipa::PartialSchema for Results<T> {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ArrayBuilder, ObjectBuilder};
        ObjectBuilder::new()
            .property(
                "results",
                ArrayBuilder::new().items(utoipa::openapi::Ref::from_schema_name(T::name())),
            )
            .required("results")
            .into()
    }
}

/// The list's item is a named schema of its own.
impl<T: utoipa::ToSchema> utoipa::ToSchema for Results<T> {
    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        schemas.push((T::name().into_owned(), T::schema()));
        T::schemas(schemas);
    }
}

impl<T> From<Vec<T>> for Results<T> {
    fn from(results: Vec<T>) -> Self {
        Self { results }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
        // Read exactly (serde_json's float_roundtrip): without it this one was read as a number
        // with a fraction and refused (make fuzz, a barangay sent as 2050671425703555.0).
        let s = parse(r#"{"quantity": 2050671425703555.0}"#).unwrap();
        assert_eq!(s.quantity, Some(2_050_671_425_703_555));
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

    // Calls that count how often they made what they answer, kept under one key.
    static MADE: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    fn made_once_more(ctx: &mut Ctx) -> Result<u32, ApiError> {
        ctx.kept(7, |_| {
            Ok(MADE.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1)
        })
    }
    crate::declare!(struct KeptRead = Get "/api/v1/kept" as "keptRead", Session, errors [],
        (NoParams, NoParams, NoBody) -> u32, "How many times the answer was made.");
    crate::declare!(struct KeptWrite = Post "/api/v1/kept" as "keptWrite", Write, errors [],
        (NoParams, NoParams, NoBody) -> u32, "How many times the answer was made.");
    crate::declare!(struct KeptInWrite = Put "/api/v1/kept" as "keptInWrite", Write, errors [],
        (NoParams, NoParams, NoBody) -> u32, "How many times the answer was made.");
    impl Endpoint for KeptRead {
        fn call(ctx: &mut Ctx, _: Args<Self>) -> Result<u32, ApiError> {
            made_once_more(ctx)
        }
    }
    impl Endpoint for KeptWrite {
        fn call(ctx: &mut Ctx, _: Args<Self>) -> Result<u32, ApiError> {
            made_once_more(ctx)
        }
    }
    /// Reads inside its own transaction (as a change does before it commits).
    impl Endpoint for KeptInWrite {
        fn call(ctx: &mut Ctx, _: Args<Self>) -> Result<u32, ApiError> {
            use db::diesel::connection::{AnsiTransactionManager, TransactionManager};
            let AnyConnection::Sqlite(c) = &mut *ctx.conn else {
                unreachable!("the test's connection is SQLite")
            };
            AnsiTransactionManager::begin_transaction(c)?;
            let made = made_once_more(ctx);
            let AnyConnection::Sqlite(c) = &mut *ctx.conn else {
                unreachable!("the test's connection is SQLite")
            };
            AnsiTransactionManager::rollback_transaction(c)?;
            made
        }
    }

    #[test]
    fn what_a_read_or_a_write_outside_a_transaction_made_is_kept_never_within_one() {
        use db::diesel::Connection;
        let mut conn = AnyConnection::establish(":memory:").unwrap();
        let config = ApiConfig::default();
        let args = || (NoParams {}, NoParams {}, NoBody, NoParams {});
        // Without a cache (a tool's context) it is made each time.
        let mut ctx = Ctx::new(&mut conn, &config, Caller::default());
        assert_eq!(run_call::<KeptRead>(&mut ctx, args()).unwrap(), 1);
        assert_eq!(run_call::<KeptRead>(&mut ctx, args()).unwrap(), 2);
        ctx.cache = Some(std::sync::Arc::new(crate::cache::ResponseCache::new(
            1 << 20,
        )));
        // Within a write's transaction it is made afresh and not kept (it may yet roll back).
        assert_eq!(run_call::<KeptInWrite>(&mut ctx, args()).unwrap(), 3);
        assert_eq!(run_call::<KeptInWrite>(&mut ctx, args()).unwrap(), 4);
        assert_eq!(run_call::<KeptRead>(&mut ctx, args()).unwrap(), 5);
        assert_eq!(run_call::<KeptRead>(&mut ctx, args()).unwrap(), 5, "kept");
        // A write outside any transaction reads what is committed: it finds what is kept.
        assert_eq!(run_call::<KeptWrite>(&mut ctx, args()).unwrap(), 5);
        assert_eq!(
            run_call::<KeptInWrite>(&mut ctx, args()).unwrap(),
            6,
            "never read from within a transaction either"
        );
        // Outside a call and any transaction (a tool's reads): committed, so kept.
        assert_eq!(made_once_more(&mut ctx).unwrap(), 5);
    }

    #[test]
    fn what_is_found_is_kept_and_nothing_found_is_not() {
        use db::diesel::Connection;
        let mut conn = AnyConnection::establish(":memory:").unwrap();
        let config = ApiConfig::default();
        let mut ctx = Ctx::new(&mut conn, &config, Caller::default());
        ctx.cache = Some(std::sync::Arc::new(crate::cache::ResponseCache::new(
            1 << 20,
        )));
        let mut made = 0;
        let mut find = |ctx: &mut Ctx, key: u128, found: Option<&str>| {
            ctx.kept_found(key, |_| {
                made += 1;
                Ok(found.map(str::to_string))
            })
            .unwrap()
        };
        // Nothing found under a key (a made-up id): asked again each time, nothing kept.
        assert_eq!(find(&mut ctx, 11, None), None);
        assert_eq!(find(&mut ctx, 11, Some("later")), Some("later".into()));
        // Something found: kept, and the next lookup does not make it again.
        assert_eq!(find(&mut ctx, 12, Some("pilsen")), Some("pilsen".into()));
        assert_eq!(find(&mut ctx, 12, None), Some("pilsen".into()));
        assert_eq!(made, 3);
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
