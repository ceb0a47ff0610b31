//! Every request, observed once at the outside of the application: a request id (the proxy's
//! `x-request-id` when it is a sane one, else a new one) sent back in the answer's
//! `x-request-id`, the request counted and timed by method, route template and status in the
//! metrics, and one log line (method, path without its query, status, duration, request id).
//! Recording is a few atomic operations on metrics resolved once per label set; nothing is
//! locked across an await.
//!
//! `/metrics` answers the Prometheus text format: these request metrics, and what the store's
//! parts count themselves, read when scraped (render memo and queue, database turns, the page
//! cache, orders placed).

use std::cell::RefCell;
use std::collections::HashMap;
use std::future::{ready, Future, Ready};
use std::pin::Pin;
use std::sync::atomic::Ordering;
use std::sync::LazyLock;
use std::task::{Context, Poll};
use std::time::Instant;

use actix_web::dev::{Service, ServiceRequest, ServiceResponse, Transform};
use actix_web::http::header::{HeaderMap, HeaderName, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use prometheus::core::Collector;
use prometheus::proto::MetricFamily;
use prometheus::{Histogram, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, Opts};

pub const X_REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The longest request id taken from a proxy.
pub const MAX_REQUEST_ID: usize = 128;

/// The route label of a request no route answered (a 404 page, an unknown API call): any path
/// a client makes up must not become a series of its own.
pub const UNMATCHED: &str = "unmatched";

/// The probes: their requests are counted, but logged at debug level only (a load balancer asks
/// every few seconds).
const PROBES: [&str; 3] = ["/healthz", "/readyz", "/metrics"];

/// The request id a proxy sent, when it is one to repeat: 1 to [`MAX_REQUEST_ID`] printable
/// ASCII characters, no spaces.
pub fn sane_request_id(headers: &HeaderMap) -> Option<&HeaderValue> {
    headers.get(X_REQUEST_ID).filter(|v| {
        let b = v.as_bytes();
        !b.is_empty() && b.len() <= MAX_REQUEST_ID && b.iter().all(u8::is_ascii_graphic)
    })
}

/// A new request id: 16 hexadecimal digits, random.
pub fn new_request_id() -> HeaderValue {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut n: u64 = rand::random();
    let mut out = [0u8; 16];
    for b in out.iter_mut() {
        *b = HEX[(n & 15) as usize];
        n >>= 4;
    }
    HeaderValue::from_bytes(&out).expect("hex digits are a header value")
}

/// The request metrics, one set for the process.
struct Requests {
    total: IntCounterVec,
    seconds: HistogramVec,
    registry: prometheus::Registry,
}

static REQUESTS: LazyLock<Requests> = LazyLock::new(|| {
    let total = IntCounterVec::new(
        Opts::new(
            "store_http_requests_total",
            "Requests answered, by method, route template and status.",
        ),
        &["method", "route", "status"],
    )
    .expect("a counter");
    let seconds = HistogramVec::new(
        HistogramOpts::new(
            "store_http_request_duration_seconds",
            "Time from a request's arrival to its answer's head, by method and route template.",
        )
        .buckets(vec![
            0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
        ]),
        &["method", "route"],
    )
    .expect("a histogram");
    let registry = prometheus::Registry::new();
    registry
        .register(Box::new(total.clone()))
        .expect("registered");
    registry
        .register(Box::new(seconds.clone()))
        .expect("registered");
    Requests {
        total,
        seconds,
        registry,
    }
});

/// The metrics of one method and route (and of one status): resolved once per thread, so a
/// request costs a hash of a pointer and a few atomic additions, not a lookup by label text.
#[derive(Default)]
struct Series {
    seconds: Option<Histogram>,
    by_status: Vec<(u16, IntCounter)>,
}

thread_local! {
    static SERIES: RefCell<HashMap<(usize, usize, &'static str), Series>> =
        RefCell::new(HashMap::new());
}

/// A method as the metrics name it: the standard ones, and `OTHER` for any a client makes up
/// (each would be series of its own).
fn method_label(method: &Method) -> &'static str {
    match *method {
        Method::GET => "GET",
        Method::HEAD => "HEAD",
        Method::POST => "POST",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        Method::PATCH => "PATCH",
        Method::OPTIONS => "OPTIONS",
        Method::CONNECT => "CONNECT",
        Method::TRACE => "TRACE",
        _ => "OTHER",
    }
}

/// Counts and times one answer. `route` is a template kept for the life of the process
/// ([`framework::observe::intern`]) or [`UNMATCHED`], so its address names it.
fn record(method: &Method, route: &'static str, status: StatusCode, seconds: f64) {
    let method = method_label(method);
    SERIES.with(|series| {
        let mut series = series.borrow_mut();
        let key = (route.as_ptr() as usize, route.len(), method);
        let s = series.entry(key).or_default();
        s.seconds
            .get_or_insert_with(|| REQUESTS.seconds.with_label_values(&[method, route]))
            .observe(seconds);
        let code = status.as_u16();
        match s.by_status.iter().find(|(c, _)| *c == code) {
            Some((_, counter)) => counter.inc(),
            None => {
                let counter = REQUESTS
                    .total
                    .with_label_values(&[method, route, status.as_str()]);
                counter.inc();
                s.by_status.push((code, counter));
            }
        }
    });
}

/// The request middleware (see the module's documentation); the outermost of the application.
#[derive(Clone, Copy, Default)]
pub struct Observe;

impl<S, B> Transform<S, ServiceRequest> for Observe
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error>,
{
    type Response = ServiceResponse<B>;
    type Error = actix_web::Error;
    type Transform = ObserveService<S>;
    type InitError = ();
    type Future = Ready<Result<Self::Transform, Self::InitError>>;

    fn new_transform(&self, service: S) -> Self::Future {
        ready(Ok(ObserveService { service }))
    }
}

pub struct ObserveService<S> {
    service: S,
}

impl<S, B> Service<ServiceRequest> for ObserveService<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error>,
{
    type Response = ServiceResponse<B>;
    type Error = actix_web::Error;
    type Future = Observed<S::Future>;

    actix_web::dev::forward_ready!(service);

    fn call(&self, req: ServiceRequest) -> Self::Future {
        let start = Instant::now();
        let id = sane_request_id(req.headers())
            .cloned()
            .unwrap_or_else(new_request_id);
        let method = req.method().clone();
        // The route is noted while actix routes the request: here or in a poll of the answer.
        framework::observe::take_mark();
        let answer = self.service.call(req);
        Observed {
            answer,
            start,
            id: Some(id),
            method,
            route: framework::observe::take_mark(),
        }
    }
}

pin_project_lite::pin_project! {
    pub struct Observed<F> {
        #[pin]
        answer: F,
        start: Instant,
        // Taken when the answer is ready: still here on drop, the request was abandoned.
        id: Option<HeaderValue>,
        method: Method,
        route: Option<&'static str>,
    }

    impl<F> PinnedDrop for Observed<F> {
        fn drop(this: Pin<&mut Self>) {
            let this = this.project();
            if let Some(id) = this.id.take() {
                // The client went away, or a shutdown's deadline passed, before the answer:
                // counted and logged as nginx does, 499.
                let status = StatusCode::from_u16(499).unwrap_or(StatusCode::BAD_REQUEST);
                let route = this.route.unwrap_or(UNMATCHED);
                let seconds = this.start.elapsed().as_secs_f64();
                record(this.method, route, status, seconds);
                log_request(this.method, route, route, status, seconds, &id);
            }
        }
    }
}

impl<F, B> Future for Observed<F>
where
    F: Future<Output = Result<ServiceResponse<B>, actix_web::Error>>,
{
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        framework::observe::take_mark();
        let polled = this.answer.poll(cx);
        if let Some(route) = framework::observe::take_mark() {
            *this.route = Some(route);
        }
        let Poll::Ready(result) = polled else {
            return Poll::Pending;
        };
        let seconds = this.start.elapsed().as_secs_f64();
        let id = this.id.take().unwrap_or_else(new_request_id);
        let (status, path, route) = match &result {
            Ok(res) => (
                res.status(),
                res.request().path(),
                this.route.or_else(|| page_route(res.request())),
            ),
            Err(e) => (e.as_response_error().status_code(), "", *this.route),
        };
        let route = route.unwrap_or(UNMATCHED);
        record(this.method, route, status, seconds);
        log_request(this.method, path, route, status, seconds, &id);
        Poll::Ready(result.map(|mut res| {
            res.headers_mut().insert(X_REQUEST_ID, id);
            res
        }))
    }
}

/// The template of the page a request was answered with (pages are the application's default
/// service, routed by the UI's route table rather than by actix).
fn page_route(req: &HttpRequest) -> Option<&'static str> {
    let pages = req.app_data::<web::Data<::web::WebState>>()?;
    pages.routes.template(req.path())
}

fn log_request(
    method: &Method,
    path: &str,
    route: &str,
    status: StatusCode,
    seconds: f64,
    id: &HeaderValue,
) {
    let ms = (seconds * 1e6).round() / 1e3;
    let id = id.to_str().unwrap_or("");
    let status = status.as_u16();
    // Displayed, not debugged: `method=GET`, not `method="GET"` (a path and a sane request id
    // hold no spaces or quotes).
    if PROBES.contains(&route) {
        tracing::debug!(
            target: "store::request",
            method = %method, path = %path, status, ms, request_id = %id,
            "request"
        );
    } else {
        tracing::info!(
            target: "store::request",
            method = %method, path = %path, status, ms, request_id = %id,
            "request"
        );
    }
}

fn counter(name: &str, help: &str, value: u64) -> Vec<MetricFamily> {
    let c = IntCounter::new(name, help).expect("a counter");
    c.inc_by(value);
    c.collect()
}

fn gauge(name: &str, help: &str, value: u64) -> Vec<MetricFamily> {
    let g = prometheus::IntGauge::new(name, help).expect("a gauge");
    g.set(i64::try_from(value).unwrap_or(i64::MAX));
    g.collect()
}

/// The metrics as Prometheus reads them, for the store built on `api` and `pages`.
pub fn render(api: &framework::ApiState, pages: &::web::WebState) -> String {
    let mut families = REQUESTS.registry.gather();
    let ssr = &pages.renderer;
    let turns = api.db.turn_stats();
    let cache = api.cache.stats();
    families.extend(render_families(ssr));
    families.extend(turn_families(&turns));
    families.extend(cache_families(&cache));
    families.extend(counter(
        "store_orders_placed_total",
        "Orders placed through this process since it started.",
        api::orders::place::PLACED.load(Ordering::Relaxed),
    ));
    families.extend(db_failure_families());
    families.extend(housekeeping_families());
    families.extend(gauge(
        "store_maintenance",
        "1 while the store is under maintenance.",
        u64::from(api.watch.maintenance()),
    ));
    let mut out = String::new();
    if let Err(e) = prometheus::TextEncoder::new().encode_utf8(&families, &mut out) {
        tracing::error!("metrics: {e}");
    }
    out
}

/// The page renderer's metrics: its memo, failures and fallbacks, queue and threads.
fn render_families(ssr: &ssr::Renderer) -> Vec<MetricFamily> {
    [
        counter(
            "store_render_memo_hits_total",
            "Page renders answered from the render memo.",
            ssr.stats.hits.load(Ordering::Relaxed),
        ),
        counter(
            "store_render_memo_misses_total",
            "Page renders made by a render thread (not in the memo).",
            ssr.stats.misses.load(Ordering::Relaxed),
        ),
        counter(
            "store_render_failures_total",
            "Page renders that failed (the client rendered the page instead).",
            ssr.stats.failures.load(Ordering::Relaxed),
        ),
        counter(
            "store_render_fallbacks_total",
            "Pages answered for the client to render: the render failed, timed out or found the queue full.",
            ::web::page::FALLBACKS.load(Ordering::Relaxed),
        ),
        gauge(
            "store_render_queue_length",
            "Renders waiting for a render thread.",
            ssr.queue_len() as u64,
        ),
        gauge(
            "store_render_threads",
            "Render threads started.",
            ssr.threads() as u64,
        ),
        gauge(
            "store_render_threads_alive",
            "Render threads with a working JavaScript runtime.",
            ssr.threads_alive() as u64,
        ),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The database turns' metrics: how many, in use, waiting, refused.
fn turn_families(turns: &db::TurnStats) -> Vec<MetricFamily> {
    [
        gauge(
            "store_db_turns",
            "Database turns (DB_POOL_SIZE): how many database calls run at once.",
            turns.size as u64,
        ),
        gauge(
            "store_db_turns_in_use",
            "Database calls running now.",
            turns.in_use as u64,
        ),
        gauge(
            "store_db_turns_waiting",
            "Database calls waiting for a turn now.",
            turns.waiting as u64,
        ),
        counter(
            "store_db_turns_refused_total",
            "Database calls that found no turn within 2 s (answered 503).",
            turns.refused,
        ),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The cache's metrics (finished pages and API answers as one).
fn cache_families(cache: &framework::cache::CacheStats) -> Vec<MetricFamily> {
    [
        counter(
            "store_cache_hits_total",
            "Lookups of finished pages and API answers found in the cache.",
            cache.hits,
        ),
        counter(
            "store_cache_misses_total",
            "Lookups of finished pages and API answers not in the cache.",
            cache.misses,
        ),
        gauge(
            "store_cache_bytes",
            "Bytes of finished pages and API answers held in the cache.",
            cache.bytes,
        ),
        gauge(
            "store_cache_max_bytes",
            "The most bytes the cache holds (CACHE_MB).",
            cache.max_bytes,
        ),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Database calls the database failed, by kind.
fn db_failure_families() -> Vec<MetricFamily> {
    let failures = IntCounterVec::new(
        Opts::new(
            "store_db_failures_total",
            "Database calls the database failed (answered 503), by kind: unreachable, lost, full, read_only, locked.",
        ),
        &["kind"],
    )
    .expect("a counter");
    for (kind, n) in db::outages::counts() {
        failures.with_label_values(&[kind.as_str()]).inc_by(n);
    }
    failures.collect()
}

/// What this process's housekeeping runs swept, by kind, and how many runs it made.
fn housekeeping_families() -> Vec<MetricFamily> {
    let rows = IntCounterVec::new(
        Opts::new(
            "store_housekeeping_rows_total",
            "Rows this process's housekeeping runs removed (or blanked: guest orders' contacts), by kind.",
        ),
        &["kind"],
    )
    .expect("a counter");
    let (by_kind, runs) = db::housekeeping::swept();
    for (kind, n) in by_kind {
        rows.with_label_values(&[kind]).inc_by(n);
    }
    let mut families = rows.collect();
    families.extend(counter(
        "store_housekeeping_runs_total",
        "Housekeeping runs this process made since it started.",
        runs,
    ));
    families
}

/// `GET /metrics`.
pub async fn metrics(
    api: web::Data<framework::ApiState>,
    pages: web::Data<::web::WebState>,
) -> HttpResponse {
    HttpResponse::Ok()
        .content_type(prometheus::TEXT_FORMAT)
        .insert_header(("cache-control", "no-store"))
        .body(render(&api, &pages))
}
