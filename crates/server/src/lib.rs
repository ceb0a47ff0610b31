//! Wiring of the `store` binary: configuration from the environment, the actix application, the
//! commands serve, migrate and seed; the log ([`logging`]), the request observer and metrics
//! ([`observe`]) and the load balancer's probes ([`health`]).

use std::path::PathBuf;
use std::sync::Arc;

use ::web::{WebConfig, WebState};
use actix_web::{guard, web, App, HttpServer};
use db::DbPool;
use framework::observe::Mark;
use framework::{ApiConfig, ApiState};

/// The allocator of everything linked with the store (the binary, the bench, the tests):
/// mimalloc. A page is answered with thousands of small allocations (its state as JSON values,
/// rows, strings); with glibc's allocator `perf` put a quarter of a kept staff page's time in
/// malloc and free (`make bench` 8).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub mod config;
pub mod health;
pub mod logging;
pub mod noindex;
pub mod observe;
pub mod staff;
pub mod team;

/// Configuration, each from an environment variable (docs/operations.md, "Configuration").
#[derive(Debug, Clone)]
pub struct Config {
    /// DATABASE_URL: a SQLite file (default `data/store.db`) or `postgres://...`.
    pub database_url: String,
    /// BIND: address to listen on (default `127.0.0.1:8080`).
    pub bind: String,
    /// PUBLIC_URL: the address shoppers reach the store at, for canonical links.
    pub public_url: String,
    /// UI_DIST: the front-end build (default `ui/dist`).
    pub ui_dist: PathBuf,
    /// UI_PUBLIC: static files (default `ui/public`).
    pub ui_public: PathBuf,
    /// SSR_BUNDLE: the server bundle (default `ssr-bundle/dist/server.js`).
    pub ssr_bundle: PathBuf,
    /// SSR_THREADS: render threads (default one per core).
    pub ssr_threads: usize,
    /// DB_POOL_SIZE: database connections (default 8).
    pub db_pool_size: u32,
    /// WORKERS: HTTP worker threads (default one per core).
    pub workers: usize,
    /// STORE_ENV: `development` (default) or `production`; `testdate` is honoured only in
    /// development.
    pub production: bool,
    /// MAIL_OUTBOX: the folder mail is written to when no SMTP server is set (default
    /// `data/outbox`).
    pub mail_outbox: PathBuf,
    /// MEDIA_DIR: the folder of product photos and their sizes (default `data/media`; on
    /// several app servers one folder they share).
    pub media_dir: PathBuf,
    /// SMTP_URL: send mail through this server instead (`smtps://user:pass@host:465`).
    pub smtp_url: Option<String>,
    /// PAYMONGO_SECRET_KEY, PAYMONGO_WEBHOOK_SECRET, PAYMONGO_METHODS: the store's PayMongo
    /// account (docs/payments.md); none, the store takes cash only.
    pub paymongo: Option<api::payments::PayMongo>,
    /// MAIL_FROM: the sender of the store's mail.
    pub mail_from: String,
    /// CACHE_MB: megabytes of finished pages and API answers kept in memory (default 128).
    pub cache_mb: u64,
    /// GOOGLE_CLIENT_ID, FACEBOOK_APP_ID and FACEBOOK_APP_SECRET (and the providers' addresses
    /// GOOGLE_API_URL, FACEBOOK_GRAPH_URL): social registration; without them a provider's token
    /// is refused with 422.
    pub social: api::accounts::social::SocialConfig,
    /// MAINTENANCE: `on` shows the maintenance page everywhere (503), the back office too; the
    /// database's `settings.maintenance` row switches it on as well, but for the back office.
    pub maintenance: bool,
    /// TRUSTED_PROXIES: the proxies in front of the store, whose `X-Forwarded-For` names the
    /// client (IP addresses).
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// ORDERS_TO: the address the store's staff are told of each new order at.
    pub orders_to: Option<String>,
    /// METRICS_BIND: serve `/metrics` on this address instead of on BIND.
    pub metrics_bind: Option<String>,
    /// SHUTDOWN_TIMEOUT: seconds a SIGTERM waits for the requests in flight (default 30).
    pub shutdown_timeout: u64,
    /// STORE_TESTDATE: development and tests only, the Manila time checkout takes when a request
    /// names no `testdate`.
    pub testdate: Option<String>,
    /// HOUSEKEEPING_MINUTES: minutes between housekeeping runs (default 60; 0: none).
    pub housekeeping_minutes: u64,
    /// GUEST_CART_DAYS, GUEST_ORDER_DAYS, MAIL_KEEP_DAYS: how long a shopper's rows are kept
    /// (the privacy page states them).
    pub retention: db::housekeeping::Retention,
}

impl Config {
    /// The configuration from the environment (see [`config::Args`]).
    pub fn from_env() -> Result<Self, String> {
        config::Args::from_env().map(config::Args::into_config)
    }
}

/// Connects and migrates.
pub fn open_database(config: &Config) -> Result<DbPool, String> {
    let pool = db::connect(&config.database_url, config.db_pool_size).map_err(|e| e.to_string())?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    let ran = db::migrate(&mut conn).map_err(|e| e.to_string())?;
    if ran > 0 {
        log::info!("ran {ran} migrations");
    }
    Ok(pool)
}

/// The whole store as one actix application: the API, the assets and the pages, the probes and
/// `/metrics`, with the security headers and the request observer (request id, metrics, access
/// log). `serve` and the tests use the same. Answers are compressed where they are made (once,
/// and kept), not by a middleware on every request.
pub fn app(
    api: &web::Data<ApiState>,
    pages: &web::Data<WebState>,
) -> App<
    impl actix_web::dev::ServiceFactory<
        actix_web::dev::ServiceRequest,
        Config = (),
        Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    app_with(api, pages, true)
}

/// As [`app`]; `/metrics` only when `metrics` (METRICS_BIND serves it elsewhere).
pub fn app_with(
    api: &web::Data<ApiState>,
    pages: &web::Data<WebState>,
    metrics: bool,
) -> App<
    impl actix_web::dev::ServiceFactory<
        actix_web::dev::ServiceRequest,
        Config = (),
        Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    let (api, pages) = (api.clone(), pages.clone());
    App::new()
        .wrap(::web::security::headers(pages.shell.csp()))
        .wrap(noindex::BackOffice)
        // Outermost: the request id, the metrics and the access line (the path without its
        // query: links carry one-time tokens that must not end up in logs).
        .wrap(observe::Observe)
        .configure(move |cfg| {
            cfg.app_data(api.clone()).app_data(pages.clone());
            cfg.service(probe("/healthz", web::to(health::healthz)))
                .service(probe("/readyz", web::to(health::readyz)));
            if metrics {
                cfg.service(probe("/metrics", web::to(observe::metrics)));
            }
            framework::configure(cfg);
            ::web::configure(cfg, &pages.routes);
        })
}

/// A probe's resource: GET and HEAD, counted under its path.
fn probe(path: &'static str, route: actix_web::Route) -> impl actix_web::dev::HttpServiceFactory {
    web::resource(path)
        .route(route.guard(guard::Any(guard::Get()).or(guard::Head())))
        .wrap(Mark(path))
}

/// The application METRICS_BIND serves: `/metrics` alone.
pub fn metrics_app(
    api: &web::Data<ApiState>,
    pages: &web::Data<WebState>,
) -> App<
    impl actix_web::dev::ServiceFactory<
        actix_web::dev::ServiceRequest,
        Config = (),
        Response = actix_web::dev::ServiceResponse<impl actix_web::body::MessageBody>,
        Error = actix_web::Error,
        InitError = (),
    >,
> {
    App::new()
        .app_data(api.clone())
        .app_data(pages.clone())
        .service(probe("/metrics", web::to(observe::metrics)))
}

pub fn api_config(config: &Config) -> ApiConfig {
    let mut settings = http::Extensions::new();
    settings.insert(config.social.clone());
    settings.insert(config.retention);
    // What this app server holds in memory for the catalog's data version: the search index and
    // the catalog as the lists read it (built at start, see `warm`, and when the version moves).
    settings.insert(std::sync::Arc::new(api::search::IndexPerVersion::default()));
    settings.insert(std::sync::Arc::new(
        api::catalog::list::ListedPerVersion::default(),
    ));
    if let Some(paymongo) = &config.paymongo {
        settings.insert(paymongo.clone());
    }
    if let Some(to) = config.orders_to.as_deref() {
        settings.insert(api::orders::OrdersTo(std::sync::Arc::from(to)));
    }
    ApiConfig {
        allow_testdate: !config.production,
        cache_bytes: config.cache_mb << 20,
        secure_cookies: config.public_url.starts_with("https://"),
        public_url: std::sync::Arc::from(config.public_url.as_str()),
        origins: std::sync::Arc::from(origins(config)),
        trusted_proxies: config.trusted_proxies.clone().into(),
        settings,
        clock: config
            .testdate
            .as_deref()
            .and_then(domain::calendar::parse_testdate),
        open_under_maintenance: api::staff::OPEN_UNDER_MAINTENANCE
            .iter()
            .map(|p| (*p).to_string())
            .collect(),
    }
}

pub fn api_state(pool: DbPool, config: &Config) -> Result<ApiState, String> {
    let post = framework::mail::Post::new(
        config.mail_outbox.clone(),
        config.smtp_url.as_deref(),
        &config.mail_from,
    )?;
    let mut api = api_config(config);
    // The photos' folder, for the API's photo calls (`api::staff::catalog::photo`); the pages'
    // server puts its own in its copy for the photo forms (`web::WebState::load`).
    let photos = media::Store::open(&config.media_dir)
        .map_err(|e| format!("MEDIA_DIR {}: {e}", config.media_dir.display()))?;
    api.settings.insert(Arc::new(photos));
    Ok(ApiState::new(pool, api, config.maintenance, Arc::new(post)))
}

pub fn web_state(api: &ApiState, config: &Config) -> Result<WebState, String> {
    let renderer = ssr::Renderer::from_file(
        &config.ssr_bundle,
        ssr::SsrConfig {
            threads: config.ssr_threads.max(1),
            ..ssr::SsrConfig::default()
        },
    )
    .map_err(|e| format!("{e} (run `make build`)"))?;
    WebState::load(
        api.clone(),
        Arc::new(renderer),
        WebConfig {
            dist_dir: config.ui_dist.clone(),
            public_dir: config.ui_public.clone(),
            media_dir: config.media_dir.clone(),
        },
    )
    .map_err(|e| e.to_string())
}

/// The origins allowed to post forms: PUBLIC_URL's, and in development its loopback twin.
pub fn origins(config: &Config) -> Vec<String> {
    let Some(public) = framework::origin::origin_of(&config.public_url) else {
        return vec![];
    };
    let mut out = vec![public.clone()];
    if !config.production {
        for (a, b) in [
            ("://localhost", "://127.0.0.1"),
            ("://127.0.0.1", "://localhost"),
        ] {
            if public.contains(a) {
                out.push(public.replace(a, b));
            }
        }
    }
    out
}

pub async fn serve(config: Config) -> Result<(), String> {
    let pool = open_database(&config)?;
    let mut api = api_state(pool, &config)?;
    api.start_mail()?;
    let pages = web::Data::new(web_state(&api, &config)?);
    let api = web::Data::new(api);
    let metrics_here = config.metrics_bind.is_none();
    let server = {
        let (api, pages) = (api.clone(), pages.clone());
        HttpServer::new(move || app_with(&api, &pages, metrics_here))
    }
    // Answers go out as soon as they are written: no Nagle delay on kept-alive connections.
    .on_connect(|conn, _| {
        if let Some(tcp) = conn.downcast_ref::<actix_web::rt::net::TcpStream>() {
            let _ = tcp.set_nodelay(true);
        }
    })
    .workers(config.workers.max(1))
    // SIGTERM (and SIGINT) stop accepting, let the requests in flight finish within this
    // deadline, then `run` returns.
    .shutdown_timeout(config.shutdown_timeout)
    .bind(&config.bind)
    .map_err(|e| format!("bind {}: {e}", config.bind))?
    .run();
    let metrics = match &config.metrics_bind {
        Some(bind) => {
            let (api, pages) = (api.clone(), pages.clone());
            let metrics = HttpServer::new(move || metrics_app(&api, &pages))
                .workers(1)
                // Stopped with the store, below: scraped until the store is gone.
                .disable_signals()
                .shutdown_timeout(1)
                .bind(bind)
                .map_err(|e| format!("bind {bind} (METRICS_BIND): {e}"))?
                .run();
            tracing::info!("metrics on http://{bind}/metrics");
            let handle = metrics.handle();
            actix_web::rt::spawn(metrics);
            Some(handle)
        }
        None => None,
    };
    actix_web::rt::spawn(keep_the_catalog_held(api.clone()));
    if config.paymongo.is_some() {
        actix_web::rt::spawn(expire_unpaid_orders(api.clone()));
    }
    if config.housekeeping_minutes > 0 {
        actix_web::rt::spawn(keep_house(
            api.clone(),
            config.retention,
            std::time::Duration::from_secs(config.housekeeping_minutes * 60),
        ));
    }
    tracing::info!("serving the store on http://{}", config.bind);
    let served = server.await.map_err(|e| e.to_string());
    if let Some(metrics) = metrics {
        metrics.stop(true).await;
    }
    // Mail already queued stays in the database; the message being sent is finished.
    if !api.stop_mail(std::time::Duration::from_secs(5)) {
        tracing::warn!("the mail sender did not stop in time; its claimed mail is sent later");
    }
    tracing::info!("stopped");
    served
}

/// Holds the catalog's lists and search index for the data version now: at start, then within a
/// second of each move of the version (an import, a product changed; looked at as often as the
/// watch reads it), off the actix workers (the build runs on the database's blocking threads), so
/// no shopper's request waits for a build.
async fn keep_the_catalog_held(api: web::Data<ApiState>) {
    let mut held = None;
    loop {
        let version = api.watch.data_version();
        if held != Some(version) {
            let started = std::time::Instant::now();
            match api
                .run(framework::Caller::default(), api::search::hold)
                .await
            {
                Ok(products) => {
                    tracing::info!(
                        products,
                        version,
                        ms = started.elapsed().as_millis() as u64,
                        "holding the catalog's lists and search index"
                    );
                    held = Some(version);
                }
                Err(e) => {
                    tracing::warn!("holding the catalog: {e} (tried again in a second)");
                    actix_web::rt::time::sleep(std::time::Duration::from_secs(1)).await;
                }
            }
        }
        actix_web::rt::time::sleep(db::watch::EVERY).await;
    }
}

/// Cancels the orders paid online that were never paid, every minute
/// ([`api::payments::expiry`]): their PayMongo sessions expired first, off the actix workers; and
/// reads back refunds not known done ([`api::staff::orders::refund::read_back`]).
async fn expire_unpaid_orders(api: web::Data<ApiState>) {
    loop {
        actix_web::rt::time::sleep(std::time::Duration::from_secs(60)).await;
        match api::payments::expiry::expire_unpaid(&api).await {
            Ok(0) => {}
            Ok(n) => tracing::info!("cancelled {n} orders never paid online"),
            Err(e) => tracing::warn!("expiring unpaid orders: {e} (tried again in a minute)"),
        }
        if let Err(e) = api::staff::orders::refund::read_back(&api).await {
            tracing::warn!("reading refunds back from PayMongo: {e} (tried again in a minute)");
        }
    }
}

/// Sweeps what is due a minute after the start, then every `every`, on one app server at a time
/// (whichever takes the run's lease), on the blocking threads: [`housekeep`].
async fn keep_house(
    api: web::Data<ApiState>,
    retention: db::housekeeping::Retention,
    every: std::time::Duration,
) {
    actix_web::rt::time::sleep(std::time::Duration::from_secs(60).min(every)).await;
    loop {
        let pool = api.db.pool().clone();
        let ran = actix_web::web::block(move || housekeep(&pool, &retention, false)).await;
        match ran {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => tracing::warn!("housekeeping: {e} (tried again at the next run)"),
            Err(e) => tracing::warn!("housekeeping: {e}"),
        }
        actix_web::rt::time::sleep(every).await;
    }
}

/// One housekeeping run, if this process takes the lease (`None`: another server holds it):
/// logged once, with what it swept.
pub fn housekeep(
    pool: &DbPool,
    retention: &db::housekeeping::Retention,
    dry_run: bool,
) -> Result<Option<db::housekeeping::Report>, String> {
    let now = domain::calendar::unix_now();
    if !dry_run {
        let mut conn = pool.get().map_err(|e| e.to_string())?;
        if !db::housekeeping::take_lease(&mut conn, now).map_err(|e| e.to_string())? {
            tracing::info!("housekeeping: another app server is running it");
            return Ok(None);
        }
    }
    let report = db::housekeeping::run(pool, now, retention, dry_run).map_err(|e| e.to_string());
    if !dry_run {
        let mut conn = pool.get().map_err(|e| e.to_string())?;
        let ended = domain::calendar::unix_now();
        db::housekeeping::give_back_lease(&mut conn, ended).map_err(|e| e.to_string())?;
    }
    let report = report?;
    tracing::info!(
        rows = report.total(),
        ms = report.took.as_millis() as u64,
        pages = report.pages,
        longest_page_ms = report.longest_page.as_millis() as u64,
        "housekeeping{}: {}",
        if dry_run {
            " (dry run: nothing removed)"
        } else {
            ""
        },
        report.summary()
    );
    Ok(Some(report))
}

/// Plans the page at `path` (no query, not in maintenance) for a shopper with these gate
/// choices, in process on `conn`, as a request would: what the bench renders and the tests count.
pub fn plan_page(
    conn: &mut db::AnyConnection,
    state: &WebState,
    public_url: &str,
    path: &str,
    choices: api::gate::Choices,
) -> ::web::plan::Plan {
    ::web::plan::plan(
        Some(&mut framework::Ctx::new(
            conn,
            &state.api.config,
            framework::Caller::default(),
        )),
        &state.routes,
        public_url,
        &::web::plan::Request {
            path,
            query: "",
            choices,
            maintenance: false,
            extra: &serde_json::Value::Null,
        },
    )
}
