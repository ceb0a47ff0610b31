//! The API's framework, which knows no feature: calls under `/api/v1` (and later versions under
//! theirs), each a typed [`Endpoint`] registered where it is declared; the actix routes, the
//! pages' in-process loader ([`fetch`]), the OpenAPI document (`/api/openapi.json`) and the UI's
//! TypeScript contract all come from that one list. Its modules, from the bottom up:
//!
//! - `error`: every failure in the store's words, with its status.
//! - `rules`: the patterns of the store's checks, as the OpenAPI document states them.
//! - `limits`: rate limits and their window.
//! - `observe`: the route template a request is counted under.
//! - `cache`: finished API answers as bytes, compressed once, answered 304 by ETag.
//! - `mail`: messages from the features' templates, queued with the call's work, and the
//!   thread that delivers them.
//! - `endpoint`: what a call is ([`declare!`], [`Endpoint`], its typed arguments) and the
//!   context it runs with ([`Ctx`]).
//! - `session`: tokens, their sliding expiry and the CSRF token of a session.
//! - `per_data_version`: what an app server holds in memory for one data version, built by one
//!   call.
//! - `origin`: the one rule for requests from other sites, and the client's address.
//! - `request`: a request read once into a call's arguments, run and answered.
//! - `form`: what a feature's page form needs (its fields, a file form's body, the CSRF token)
//!   and answers, and the forms with a handler of their own ([`custom_form!`], [`file_form!`]).
//! - `ts`, `operation`: a type's TypeScript declaration and a call's OpenAPI operation.
//! - `registry`: the calls ([`register!`]), their routes and the pages' in-process loader.
//! - `openapi`, `contract`: the OpenAPI document and the UI's contract, with what features
//!   export into it ([`export_const!`], [`export_type!`]).
//!
//! This file holds the state every handler shares ([`ApiState`], [`ApiConfig`]) and mounts the
//! API ([`configure`]).

pub mod cache;
pub mod contract;
pub mod endpoint;
pub mod error;
pub mod form;
pub mod limits;
pub mod mail;
pub mod observe;
pub mod openapi;
pub mod operation;
pub mod origin;
pub mod per_data_version;
pub mod registry;
pub mod request;
pub mod rules;
pub mod session;
pub mod ts;

use std::collections::BTreeMap;
use std::sync::Arc;

use actix_web::http::header;
use actix_web::{web, HttpRequest, HttpResponse};
use db::{Db, Watch};

pub use db::watch::MAINTENANCE_MESSAGE;
pub use endpoint::{Access, Caller, Ctx, Endpoint, Method};
pub use error::ApiError;
pub use registry::fetch;

/// Shared state of the API handlers, and the way `web` runs API functions.
#[derive(Clone)]
pub struct ApiState {
    pub db: Db,
    pub config: ApiConfig,
    /// The maintenance switch and the data version, followed in the background.
    pub watch: Arc<Watch>,
    /// Finished answers (API reads, and pages with their slots), bounded by bytes.
    pub cache: Arc<cache::ResponseCache>,
    /// Where mail goes.
    pub post: Arc<mail::Post>,
    /// The thread that delivers queued mail, once started ([`ApiState::start_mail`]); without
    /// it mail waits in the queue (tests deliver it themselves).
    pub sender: Option<mail::Sender>,
}

impl ApiState {
    /// Whether `path` is answered with the maintenance page (or 503): the switch is on and the
    /// path is not one that stays open under it ([`ApiConfig::open_under_maintenance`]), or the
    /// server was started with `MAINTENANCE=on`, which closes everything (a restore or a
    /// migration writes nothing else).
    pub fn closed_for(&self, path: &str) -> bool {
        self.watch.forced()
            || (self.watch.maintenance() && !self.config.open_under_maintenance(path))
    }

    /// State with the maintenance switch forced on, or read from the database's settings.
    pub fn new(
        pool: db::DbPool,
        config: ApiConfig,
        maintenance_forced: bool,
        post: Arc<mail::Post>,
    ) -> Self {
        Self {
            watch: Watch::start(pool.clone(), maintenance_forced),
            cache: Arc::new(cache::ResponseCache::new(config.cache_bytes)),
            post,
            sender: None,
            db: Db::new(pool),
            config,
        }
    }

    /// Starts delivering queued mail (what `serve` does).
    pub fn start_mail(&mut self) -> Result<(), String> {
        self.sender = Some(mail::Sender::start(
            self.db.pool().clone(),
            self.post.clone(),
        )?);
        Ok(())
    }

    /// Stops delivering mail (the server is stopping): the message being sent is finished and
    /// recorded, waiting at most `wait`; queued mail stays in the database for the next start.
    pub fn stop_mail(&self, wait: std::time::Duration) -> bool {
        self.sender.as_ref().is_none_or(|s| s.stop(wait))
    }

    /// Runs a read ([`ApiState::run`]); a read that met a dropped connection (the database
    /// restarted, a proxy cut it) is run once more on a fresh one before it fails: the
    /// pool tests a connection before it gives it out, so the second try is not given the dead one.
    pub async fn read<T, F>(&self, caller: Caller, f: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: Fn(&mut Ctx) -> Result<T, ApiError> + Send + Sync + 'static,
    {
        let f = Arc::new(f);
        let again = f.clone();
        let read = move |ctx: &mut Ctx| {
            ctx.reading = true;
            f(ctx)
        };
        match self.run(caller.clone(), read).await {
            Err(ApiError::DatabaseDown(db::Outage::Lost)) => {
                self.run(caller, move |ctx| {
                    ctx.reading = true;
                    again(ctx)
                })
                .await
            }
            answer => answer,
        }
    }

    /// Runs API functions with one connection, off the async workers; mail they wrote goes into
    /// the mail queue on the same connection, and the sender is woken.
    pub async fn run<T, F>(&self, caller: Caller, f: F) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&mut Ctx) -> Result<T, ApiError> + Send + 'static,
    {
        let config = self.config.clone();
        let cache = self.cache.clone();
        let (value, mailed) = self
            .db
            .run(move |conn| {
                let mut ctx = Ctx::new(conn, &config, caller);
                ctx.cache = Some(cache);
                let value = f(&mut ctx);
                // Mail a call wrote goes out even when it then refuses (a social member asked
                // to confirm by the link just mailed): what it mails, it has already decided.
                let outgoing = std::mem::take(&mut ctx.outgoing);
                if !outgoing.is_empty() {
                    mail::enqueue(ctx.conn, &outgoing)?;
                }
                Ok::<_, ApiError>((value, !outgoing.is_empty() || ctx.mailed))
            })
            .await?;
        if mailed {
            if let Some(sender) = &self.sender {
                sender.wake();
            }
        }
        value
    }
}

#[derive(Debug, Clone)]
pub struct ApiConfig {
    /// Whether a `testdate` query parameter may stand in for today (dev and test only).
    pub allow_testdate: bool,
    /// How many bytes of finished answers (API reads and pages) to keep.
    pub cache_bytes: u64,
    /// Whether session cookies are `Secure` (the store is reached over https).
    pub secure_cookies: bool,
    /// The store's address, for links in mail (no trailing slash).
    pub public_url: Arc<str>,
    /// The origins whose pages may send unsafe requests with the store's cookies (PUBLIC_URL's;
    /// in development also its `localhost`/`127.0.0.1` twin).
    pub origins: Arc<[String]>,
    /// The proxies in front of the store: from these peers the client is named by
    /// `X-Forwarded-For` ([`origin::client_ip`]).
    pub trusted_proxies: Arc<[std::net::IpAddr]>,
    /// The features' own settings, by their type (the social providers, where new orders are
    /// told): the framework carries them without knowing them.
    pub settings: http::Extensions,
    /// Development and tests only (`STORE_TESTDATE`): the Manila time checkout's hours and
    /// blackouts take when a request names no `testdate`, so a test run does not depend on the
    /// hour it runs at. Ignored unless `allow_testdate`.
    pub clock: Option<time::PrimitiveDateTime>,
    /// The addresses that stay open under maintenance switched on, by their beginning (`/staff/`
    /// also opens `/staff`): the back office, so the manager who closed the store can open it
    /// again. `MAINTENANCE=on` closes them too ([`ApiState::closed_for`]).
    pub open_under_maintenance: Arc<[String]>,
}

impl Default for ApiConfig {
    fn default() -> Self {
        Self {
            allow_testdate: false,
            cache_bytes: 64 << 20,
            secure_cookies: false,
            public_url: Arc::from("http://localhost:8080"),
            origins: Arc::from(vec!["http://localhost:8080".to_string()]),
            trusted_proxies: Arc::from(vec![]),
            settings: http::Extensions::new(),
            clock: None,
            open_under_maintenance: Arc::from(vec![]),
        }
    }
}

impl ApiConfig {
    /// Whether `path` stays open while the store is under maintenance
    /// ([`Self::open_under_maintenance`]).
    pub fn open_under_maintenance(&self, path: &str) -> bool {
        self.open_under_maintenance
            .iter()
            .any(|p| path.starts_with(p.as_str()) || path == p.trim_end_matches('/'))
    }

    /// Business "now": the `testdate` parameter when allowed and valid, else the Manila clock.
    pub fn now(&self, testdate: Option<&str>) -> time::PrimitiveDateTime {
        self.testdate(testdate)
            .or(self.clock.filter(|_| self.allow_testdate))
            .unwrap_or_else(domain::calendar::manila_now)
    }

    /// The `testdate` parameter when allowed and valid.
    pub fn testdate(&self, testdate: Option<&str>) -> Option<time::PrimitiveDateTime> {
        testdate
            .filter(|_| self.allow_testdate)
            .and_then(domain::calendar::parse_testdate)
    }
}

/// A `testdate` as given: one that is not a date (or date and time) is a 400 naming it, never
/// silently the real clock. The document states its shape ([`rules::TESTDATE`]).
pub fn testdate(t: Option<&str>) -> Result<Option<&str>, ApiError> {
    match t {
        Some(v) if v.trim() != v || domain::calendar::parse_testdate(v).is_none() => {
            Err(ApiError::BadRequest(
                "testdate is not valid: use YYYY-MM-DD or YYYY-MM-DDTHH:MM.".into(),
            ))
        }
        other => Ok(other),
    }
}

/// The longest path and query a call takes; a longer address is answered 414, not echoed.
pub const MAX_URL: usize = 2_000;

/// A call's address longer than [`MAX_URL`] answers 414; while the store is under maintenance
/// every API call answers 503, but those open under it ([`ApiState::closed_for`]).
async fn maintenance_gate(
    req: actix_web::dev::ServiceRequest,
    next: actix_web::middleware::Next<impl actix_web::body::MessageBody + 'static>,
) -> Result<actix_web::dev::ServiceResponse<actix_web::body::BoxBody>, actix_web::Error> {
    if req.path().len() + req.query_string().len() > MAX_URL {
        let res = actix_web::ResponseError::error_response(&ApiError::UriTooLong);
        return Ok(req.into_response(res));
    }
    let on = req
        .app_data::<web::Data<ApiState>>()
        .is_some_and(|s| s.closed_for(req.path()));
    if on {
        let res = HttpResponse::ServiceUnavailable()
            .insert_header((header::RETRY_AFTER, "300"))
            .json(serde_json::json!({ "error": MAINTENANCE_MESSAGE }));
        return Ok(req.into_response(res));
    }
    next.call(req).await.map(|r| r.map_into_boxed_body())
}

/// Every answer says how long it may be kept: one that did not say already (a public read, a
/// refusal before any call ran, a write) is kept for revalidation when it is a successful read (its
/// ETag answers 304) and nowhere otherwise. A phone on prepaid data then never downloads the same
/// catalog twice, and never keeps what it should not.
async fn how_long_kept(
    req: actix_web::dev::ServiceRequest,
    next: actix_web::middleware::Next<impl actix_web::body::MessageBody + 'static>,
) -> Result<actix_web::dev::ServiceResponse<actix_web::body::BoxBody>, actix_web::Error> {
    let read = matches!(
        *req.method(),
        actix_web::http::Method::GET | actix_web::http::Method::HEAD
    );
    let mut res = next.call(req).await?.map_into_boxed_body();
    if !res.headers().contains_key(header::CACHE_CONTROL) {
        let status = res.status();
        let kept =
            read && (status.is_success() || status == actix_web::http::StatusCode::NOT_MODIFIED);
        res.headers_mut().insert(
            header::CACHE_CONTROL,
            header::HeaderValue::from_static(if kept { "no-cache" } else { "no-store" }),
        );
    }
    Ok(res)
}

async fn not_found(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    Err(ApiError::NotFound(format!("No API call at {}", req.path())))
}

async fn openapi_json() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("application/json")
        .body(openapi::json())
}

/// Mounts the API under `/api`: every registered call, `/api/openapi.json`, JSON 404 and 405.
pub fn configure(cfg: &mut web::ServiceConfig) {
    let mut by_path: BTreeMap<&str, Vec<&dyn registry::Registered>> = BTreeMap::new();
    for e in registry::endpoints() {
        by_path.entry(e.path()).or_default().push(*e);
    }
    let mut scope = web::scope("/api")
        .wrap(actix_web::middleware::from_fn(maintenance_gate))
        // The one rule for cross-site requests, before anything else (forms apply the
        // same rule, `origin::refused`, in `web::form`).
        .wrap(actix_web::middleware::from_fn(origin::guard))
        // Outermost (the last wrapped): every answer passes it, a refusal of the origin too.
        .wrap(actix_web::middleware::from_fn(how_long_kept))
        .service(
            web::resource("/openapi.json")
                .wrap(observe::Mark("/api/openapi.json"))
                .route(web::get().to(openapi_json)),
        );
    for (path, endpoints) in by_path {
        let allowed: Vec<&str> = endpoints
            .iter()
            .flat_map(|e| match e.method() {
                Method::Get => vec!["GET", "HEAD"],
                Method::Post => vec!["POST"],
                Method::Put => vec!["PUT"],
                Method::Delete => vec!["DELETE"],
            })
            .collect();
        let allowed = allowed.join(", ");
        let mut resource = web::resource(path.trim_start_matches("/api"));
        for e in endpoints {
            resource = resource.route(e.route());
        }
        resource = resource.default_service(web::to(move |req: HttpRequest| {
            let allowed = allowed.clone();
            async move { request::method_not_allowed(&req, &allowed) }
        }));
        // Counted under its template (metrics, access log), never its ids.
        scope = scope.service(resource.wrap(observe::Mark(path)));
    }
    cfg.service(scope.default_service(web::to(not_found)));
}

#[cfg(test)]
mod clock_tests {
    use super::*;

    #[test]
    fn the_test_clock_stands_in_for_now_only_where_testdate_is_allowed() {
        let at = domain::calendar::parse_testdate("2026-11-24T14:00");
        let mut config = ApiConfig {
            allow_testdate: true,
            clock: at,
            ..ApiConfig::default()
        };
        assert_eq!(Some(config.now(None)), at);
        assert_eq!(
            Some(config.now(Some("2026-11-25T09:30"))),
            domain::calendar::parse_testdate("2026-11-25T09:30"),
            "a request's own testdate wins"
        );
        config.allow_testdate = false;
        assert_ne!(Some(config.now(None)), at, "never in production");
    }
}

#[cfg(test)]
mod reading_tests {
    use super::*;

    /// A page's calls run as reads ([`ApiState::read`]: a feature may keep what it looked up for
    /// the others); anything run otherwise (a form's write) is not marked so.
    #[actix_web::test]
    async fn only_reads_are_marked_reading() {
        let dir = tempfile::tempdir().unwrap();
        let pool = db::connect(&dir.path().join("store.db").display().to_string(), 1).unwrap();
        let post = Arc::new(
            mail::Post::new(dir.path().join("outbox"), None, "Store <store@example.com>").unwrap(),
        );
        let state = ApiState::new(pool, ApiConfig::default(), false, post);
        let read = state.read(Caller::default(), |ctx| Ok(ctx.reading()));
        assert!(read.await.unwrap());
        let run = state.run(Caller::default(), |ctx| Ok(ctx.reading()));
        assert!(!run.await.unwrap());
    }
}

#[cfg(test)]
mod maintenance_tests {
    use super::*;

    #[test]
    fn only_the_named_addresses_stay_open_under_maintenance() {
        let config = ApiConfig {
            open_under_maintenance: Arc::from(vec!["/staff/".into(), "/api/v1/staff/".into()]),
            ..ApiConfig::default()
        };
        for open in [
            "/staff",
            "/staff/",
            "/staff/catalog",
            "/api/v1/staff",
            "/api/v1/staff/me",
        ] {
            assert!(config.open_under_maintenance(open), "{open}");
        }
        for closed in [
            "/staffing",
            "/api/v1/staffx",
            "//staff/catalog",
            "/buy-beer",
            "/Staff/catalog",
            "/%73taff/catalog",
        ] {
            assert!(!config.open_under_maintenance(closed), "{closed}");
        }
        assert!(!ApiConfig::default().open_under_maintenance("/staff"));
    }
}
