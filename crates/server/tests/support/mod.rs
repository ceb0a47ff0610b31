//! What the server's tests share. Here: the test databases (a SQLite file in a temporary folder,
//! or a database in a throwaway PostgreSQL cluster that the tests start themselves,
//! `fixtures::postgres`: initdb + pg_ctl on a temporary folder and a free port, as the `postgres`
//! user when the tests run as root; each test gets its own database, migrated and seeded,
//! PostgreSQL's copied from a seeded template), the store in process (`store!`, `send!`,
//! [`call`]), the requests a browser sends and what the tests read of an answer ([`Res`], its
//! cookies, [`Jar`]), the mail, and members and guests made in the database. [`calls`]: the API
//! called as JSON and the first steps of many tests; [`seed`]: the places, products and times the
//! tests name; [`process`]: the `store` binary itself.

#![allow(dead_code)]

pub mod calls;
pub mod process;
pub mod seed;
pub mod staff;

#[allow(unused_imports)]
pub use calls::*;
#[allow(unused_imports)]
pub use seed::*;

/// How soon a running store shows a write to the catalog or the maintenance switch made in the
/// database: within the second the store promises (its watch reads the data version four times a
/// second), with 900 ms of slack for a busy 2-core machine.
pub const SHOWN_WITHIN: std::time::Duration = std::time::Duration::from_millis(1900);

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

use db::DbPool;
use fixtures::postgres::{self, Cluster};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

/// A test database; the folder (SQLite) lives as long as this value.
pub struct TestDb {
    pub pool: DbPool,
    pub url: String,
    _dir: Option<tempfile::TempDir>,
}

/// A PostgreSQL test database is dropped with its test (all the server's tests share one cluster:
/// 350 databases copied from the template would fill gigabytes of CI's disk); its connections,
/// the test's pool among them, are ended by `FORCE`.
impl Drop for TestDb {
    fn drop(&mut self) {
        let Some((_, name)) = self.url.rsplit_once('/') else {
            return;
        };
        if !self.url.starts_with("postgres://") || !name.starts_with("store_test_") {
            return;
        }
        let Some(c) = CLUSTER.get() else { return };
        if let Ok(admin) = db::connect(&c.url("postgres"), 1) {
            use db::diesel::connection::SimpleConnection;
            if let Ok(mut conn) = admin.get() {
                let _ = conn.batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"));
            }
        }
    }
}

pub fn database(backend: Backend) -> TestDb {
    match backend {
        Backend::Sqlite => sqlite(),
        Backend::Postgres => postgres(),
    }
}

fn migrate_and_seed(pool: &DbPool) {
    let mut conn = pool.get().expect("connection");
    db::migrate(&mut conn).expect("migrations");
    db::seed::seed(&mut conn)
        .expect("seed")
        .expect("an empty database");
}

/// A seeded SQLite database in the folder `dir` (kept by the caller).
#[allow(dead_code)]
pub fn sqlite_in(dir: &Path) -> TestDb {
    let url = dir.join("store.db").display().to_string();
    let pool = db::connect(&url, 4).expect("sqlite pool");
    migrate_and_seed(&pool);
    TestDb {
        pool,
        url,
        _dir: None,
    }
}

fn sqlite() -> TestDb {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = dir.path().join("store.db").display().to_string();
    let pool = db::connect(&url, 4).expect("sqlite pool");
    migrate_and_seed(&pool);
    TestDb {
        pool,
        url,
        _dir: Some(dir),
    }
}

/// Stops this test process's PostgreSQL cluster (`-m fast`: connections are ended, as an
/// operator's stop would). Only for a test binary whose PostgreSQL tests all expect it.
#[allow(dead_code)]
pub fn postgres_stop() {
    cluster().stop();
}

/// Starts this test process's PostgreSQL cluster again (see [`postgres_stop`]).
#[allow(dead_code)]
pub fn postgres_start() {
    cluster().start_again();
}

static CLUSTER: OnceLock<Cluster> = OnceLock::new();

/// The test process's cluster (`fixtures::postgres`, set for tests: no fsync and the like), with
/// a seeded template that each test's database is copied from.
fn cluster() -> &'static Cluster {
    CLUSTER.get_or_init(|| {
        let cluster = Cluster::start(&postgres::Options::tests());
        cluster.execute("CREATE DATABASE store_template");
        let template =
            db::connect(&cluster.url("store_template"), 1).expect("connect to the template");
        migrate_and_seed(&template);
        drop(template);
        cluster
    })
}

/// From now on, every statement `conn` starts, as diesel shows it (its SQL, then ` -- binds:
/// [...]`), in the order they run.
pub fn queries_run(conn: &mut db::AnyConnection) -> std::sync::Arc<std::sync::Mutex<Vec<String>>> {
    use db::diesel::connection::{Connection, InstrumentationEvent};
    let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let log = seen.clone();
    conn.set_instrumentation(move |event: InstrumentationEvent<'_>| {
        if let InstrumentationEvent::StartQuery { query, .. } = event {
            log.lock().unwrap().push(query.to_string());
        }
    });
    seen
}

/// Runs SQL statements on `pool` (a test's own setup), panicking with the statement on error.
pub fn exec(pool: &DbPool, sql: &str) {
    use db::diesel::connection::SimpleConnection;
    pool.get()
        .expect("connection")
        .batch_execute(sql)
        .unwrap_or_else(|e| panic!("{sql}: {e}"));
}

fn postgres() -> TestDb {
    static N: AtomicUsize = AtomicUsize::new(0);
    static CREATING: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let c = cluster();
    let _one_at_a_time = CREATING.lock().unwrap_or_else(|e| e.into_inner());
    let name = format!("store_test_{}", N.fetch_add(1, Ordering::SeqCst));
    c.execute(&format!("CREATE DATABASE {name} TEMPLATE store_template"));
    let url = c.url(&name);
    let pool = db::connect(&url, 4).expect("postgres pool");
    TestDb {
        pool,
        url,
        _dir: None,
    }
}

/// The store's configuration for tests: the real UI build, one render thread, canonical links on
/// `https://shop.example`.
pub fn store_config(database_url: &str, maintenance: bool) -> server::Config {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    server::Config {
        database_url: database_url.to_string(),
        bind: "127.0.0.1:0".into(),
        public_url: "https://shop.example".into(),
        ui_dist: root.join("ui/dist"),
        ui_public: root.join("ui/public"),
        ssr_bundle: root.join("ssr-bundle/dist/server.js"),
        ssr_threads: 1,
        db_pool_size: 4,
        workers: 1,
        production: false,
        cache_mb: 64,
        mail_outbox: std::env::temp_dir().join("store-test-outbox"),
        media_dir: std::env::temp_dir().join("store-test-media"),
        smtp_url: None,
        paymongo: None,
        mail_from: "Tala Brewing Co. <hello@tala.example>".into(),
        social: api::accounts::social::SocialConfig::default(),
        maintenance,
        trusted_proxies: vec![],
        orders_to: Some("orders@tala.example".into()),
        metrics_bind: None,
        shutdown_timeout: 30,
        testdate: None,
        housekeeping_minutes: 0,
        retention: db::housekeeping::Retention::default(),
    }
}

/// Declares a test for each backend: `both!(name, body)` where `body` is an async fn taking a
/// `Backend`; `both!(name)` when the test is named as its fn.
#[macro_export]
macro_rules! both {
    ($name:ident) => {
        $crate::both!($name, $name);
    };
    ($name:ident, $body:ident) => {
        mod $name {
            #[actix_web::test]
            async fn sqlite() {
                super::$body($crate::support::Backend::Sqlite).await
            }
            #[actix_web::test]
            async fn postgres() {
                super::$body($crate::support::Backend::Postgres).await
            }
        }
    };
}

/// The server-rendered root of a page, without the state script.
pub fn root(html: &str) -> &str {
    let start = html.find(r#"<div id="root">"#).expect("root");
    let end = html
        .find(r#"<script type="application/json""#)
        .expect("state");
    &html[start..end]
}

/// The page state a page carries (what the client hydrates from), parsed as the client parses it;
/// `None` when the page has no state script or it is not JSON.
pub fn page_state(html: &str) -> Option<serde_json::Value> {
    let open = r#"<script type="application/json" id="__STATE__">"#;
    let start = html.find(open)? + open.len();
    let end = start + html[start..].find("</script>")?;
    serde_json::from_str(&html[start..end].replace("\\u003c", "<")).ok()
}

/// An answer as the tests read it.
pub struct Res {
    pub status: actix_web::http::StatusCode,
    pub headers: actix_web::http::header::HeaderMap,
    pub body: Vec<u8>,
}

impl Res {
    pub fn text(&self) -> String {
        String::from_utf8(self.body.clone()).expect("UTF-8 body")
    }

    /// The body as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|_| panic!("JSON: {}", self.text()))
    }

    /// The body as JSON, null when it is not JSON.
    pub fn json_or_null(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or(serde_json::Value::Null)
    }
}

pub async fn read<B: actix_web::body::MessageBody>(res: actix_web::dev::ServiceResponse<B>) -> Res {
    let (status, headers) = (res.status(), res.headers().clone());
    let body = actix_web::test::read_body(res).await.to_vec();
    Res {
        status,
        headers,
        body,
    }
}

/// The whole store over the test database, as `serve` builds it, with one render pool:
/// `store!(db)` or `store!(db, cfg)`. Built once per test; send it requests with `send!`.
/// `store!(db, cfg, with api)` answers `(api, store)`, the API state too.
#[macro_export]
macro_rules! store {
    ($db:expr $(,)?) => {
        $crate::store!($db, $crate::support::store_config(&$db.url, false))
    };
    ($db:expr, $cfg:expr $(,)?) => {
        $crate::store!($db, $cfg, with api).1
    };
    ($db:expr, $cfg:expr, with api) => {{
        let cfg: server::Config = $cfg;
        let api = server::api_state($db.pool.clone(), &cfg).expect("api state");
        let pages = actix_web::web::Data::new(server::web_state(&api, &cfg).expect("web state"));
        let api = actix_web::web::Data::new(api);
        let store = actix_web::test::init_service(server::app(&api, &pages)).await;
        (api, store)
    }};
}

/// Sends a `TestRequest` to a store built by `store!` and reads the answer.
#[macro_export]
macro_rules! send {
    ($app:expr, $req:expr $(,)?) => {
        $crate::support::call(&$app, $req.to_request()).await
    };
}

/// Calls a service built by `store!` (see `send!`).
pub async fn call<S, R, B>(app: &S, req: R) -> Res
where
    S: actix_web::dev::Service<
        R,
        Response = actix_web::dev::ServiceResponse<B>,
        Error = actix_web::Error,
    >,
    B: actix_web::body::MessageBody,
{
    read(actix_web::test::call_service(app, req).await).await
}

/// A GET with the `cookie` header when there is one.
pub fn get(uri: &str, cookie: &str) -> actix_web::test::TestRequest {
    let req = actix_web::test::TestRequest::get().uri(uri);
    with_cookie(req, cookie)
}

/// A form POST (`application/x-www-form-urlencoded`) with the `cookie` header when there is one.
pub fn post_form(uri: &str, cookie: &str, body: &str) -> actix_web::test::TestRequest {
    let req = actix_web::test::TestRequest::post()
        .uri(uri)
        .insert_header(("content-type", "application/x-www-form-urlencoded"))
        .set_payload(body.to_string());
    with_cookie(req, cookie)
}

fn with_cookie(req: actix_web::test::TestRequest, cookie: &str) -> actix_web::test::TestRequest {
    if cookie.is_empty() {
        req
    } else {
        req.insert_header(("cookie", cookie.to_string()))
    }
}

/// A form's body from its fields.
pub fn form_body(pairs: &[(&str, &str)]) -> String {
    form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs)
        .finish()
}

/// The CSRF token of the first form on a page.
pub fn csrf_of(html: &str) -> String {
    let at = html.find(r#"name="csrf" value=""#).expect("a CSRF field") + 19;
    html[at..].split('"').next().unwrap().to_string()
}

/// Asserts an answer says it depends on the session and is to be kept nowhere.
pub fn assert_private(r: &Res, what: &str) {
    let h = |name: &str| {
        r.headers
            .get(name)
            .map(|v| v.to_str().unwrap().to_string())
            .unwrap_or_default()
    };
    assert_eq!(h("cache-control"), "private, no-store", "{what}");
    assert_eq!(h("vary"), "Cookie, Authorization", "{what}");
}

/// How an answer asks to be saved (its `Content-Disposition`; "" when it has none).
pub fn disposition(r: &Res) -> &str {
    r.headers
        .get("content-disposition")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
}

/// Where an answer sends the browser ("" when nowhere).
pub fn location(r: &Res) -> &str {
    r.headers
        .get("location")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
}

/// The `Set-Cookie` headers of an answer.
pub fn cookies(r: &Res) -> Vec<String> {
    r.headers
        .get_all("set-cookie")
        .filter_map(|v| v.to_str().ok())
        .map(str::to_string)
        .collect()
}

/// The `name=value` pairs a response sets, as a `Cookie` header would send them back (removals
/// left out).
pub fn set_cookies(r: &Res) -> Vec<(String, String)> {
    cookies(r)
        .iter()
        .filter(|v| !v.contains("Max-Age=0"))
        .filter_map(|v| {
            let pair = v.split(';').next()?;
            let (k, val) = pair.split_once('=')?;
            Some((k.to_string(), val.to_string()))
        })
        .collect()
}

/// Whether an answer removes the cookie `name`.
pub fn removed(r: &Res, name: &str) -> bool {
    cookies(r)
        .iter()
        .any(|v| v.starts_with(&format!("{name}=;")) && v.contains("Max-Age=0"))
}

/// A browser's cookie jar, just enough of one.
#[derive(Default, Clone)]
pub struct Jar(pub Vec<(String, String)>);

impl Jar {
    /// Keeps what an answer sets and forgets the session cookies it removes.
    pub fn keep(&mut self, r: &Res) {
        for (k, v) in set_cookies(r) {
            self.0.retain(|(n, _)| *n != k);
            self.0.push((k, v));
        }
        for name in ["session", "member"] {
            if removed(r, name) {
                self.0.retain(|(n, _)| n != name);
            }
        }
    }

    /// The `Cookie` header ("" for an empty jar).
    pub fn header(&self) -> String {
        self.0
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// The store's post writing mail as files into the folder `dir` (no SMTP), from the store's
/// address.
pub fn post_to(dir: &Path) -> framework::mail::Post {
    framework::mail::Post::new(
        dir.to_path_buf(),
        None,
        "Tala Brewing Co. <hello@tala.example>",
    )
    .expect("mail")
}

/// The mails in an outbox, decoded enough to read (quoted-printable soft breaks and `=`), once
/// the database's mail queue has been delivered into it (as the sender thread of `serve` does).
pub fn read_outbox(pool: &DbPool, dir: &Path) -> Vec<String> {
    framework::mail::deliver_due(pool, &post_to(dir), &domain::calendar::unix_now)
        .expect("delivered");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return vec![];
    };
    entries
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .map(|m| m.replace("=\r\n", "").replace("=3D", "="))
        .collect()
}

/// The token of the first link to `path?param=` in a mail.
pub fn link_in(mail: &str, link: &str) -> String {
    let at = mail.find(link).unwrap_or_else(|| panic!("a link {link}")) + link.len();
    mail[at..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect()
}

/// The token of a registration link in a mail.
pub fn link_token(mail: &str) -> String {
    link_in(mail, "registration?token=")
}

/// Registers a member as a visitor does, through the API and the mail: the pre-registration
/// `form` (its `password` left out), the link read from `outbox`, the registration with the
/// password. Answers the registration's answer
/// (its `access-token` header and session cookies).
pub async fn register(db: &TestDb, outbox: &Path, form: serde_json::Value) -> Res {
    use actix_web::test::TestRequest;
    let to = format!(
        "To: {}",
        form["email"]
            .as_str()
            .expect("an email")
            .to_ascii_lowercase()
    );
    let mut form = form;
    let password = form
        .as_object_mut()
        .and_then(|f| f.remove("password"))
        .expect("a password");
    let r = send_api_mailing(
        &db.pool,
        outbox,
        TestRequest::post()
            .uri("/api/v1/pre-register")
            .set_json(form),
    )
    .await;
    assert_eq!(r.status, actix_web::http::StatusCode::OK, "{}", r.text());
    let mail = read_outbox(&db.pool, outbox)
        .into_iter()
        .find(|m| m.contains("Finish creating your account") && m.contains(&to))
        .expect("link mail");
    let r = send_api_mailing(
        &db.pool,
        outbox,
        TestRequest::post()
            .uri("/api/v1/registration")
            .insert_header(("registration-token", link_token(&mail)))
            .set_json(serde_json::json!({ "password": password })),
    )
    .await;
    assert_eq!(r.status, actix_web::http::StatusCode::OK, "{}", r.text());
    r
}

/// The `access-token` header of an answer.
pub fn access_token(r: &Res) -> String {
    r.headers
        .get("access-token")
        .expect("access-token")
        .to_str()
        .unwrap()
        .to_string()
}

/// Sends a request to the API alone (no render threads), `testdate` allowed.
pub async fn send_api(pool: &DbPool, req: actix_web::test::TestRequest) -> Res {
    send_api_mailing(pool, &std::env::temp_dir().join("store-test-outbox"), req).await
}

/// As [`send_api`], with mail written to `outbox`.
pub async fn send_api_mailing(
    pool: &DbPool,
    outbox: &Path,
    req: actix_web::test::TestRequest,
) -> Res {
    let mut config = framework::ApiConfig {
        allow_testdate: true,
        ..framework::ApiConfig::default()
    };
    config
        .settings
        .insert(api::orders::OrdersTo("orders@tala.example".into()));
    send_api_configured(pool, outbox, config, req).await
}

/// Sends a request to the API alone configured by `config` (another app: its settings, what it
/// allows), with mail written to `outbox`.
pub async fn send_api_configured(
    pool: &DbPool,
    outbox: &Path,
    config: framework::ApiConfig,
    req: actix_web::test::TestRequest,
) -> Res {
    use actix_web::{test, App};
    let state = api_state(pool, outbox, config);
    let app = test::init_service(App::new().app_data(state).configure(framework::configure)).await;
    call(&app, req.to_request()).await
}

/// The API's state over `pool` with `config`, its mail written to `outbox` (once delivered).
pub fn api_state(
    pool: &DbPool,
    outbox: &Path,
    config: framework::ApiConfig,
) -> actix_web::web::Data<framework::ApiState> {
    actix_web::web::Data::new(framework::ApiState::new(
        pool.clone(),
        config,
        false,
        std::sync::Arc::new(post_to(outbox)),
    ))
}

/// The session token of member number `n` (`member{n}@example.com`, mobile `0917000000{n}`,
/// first name `Member{n}`, no password that logs in), made in the database.
pub async fn member(db: &TestDb, n: u8) -> String {
    session(db, Some(n)).await
}

/// A guest's session token.
pub async fn guest(db: &TestDb) -> String {
    session(db, None).await
}

/// Member number `n` as [`member`] makes them, with a password that logs in ("Tala beer 2026
/// ok"); no session.
pub async fn member_who_logs_in(db: &TestDb, n: u8) {
    let cfg = store_config(&db.url, false);
    let api = server::api_state(db.pool.clone(), &cfg).expect("api state");
    api.run(framework::Caller::default(), move |ctx| {
        let mut row = member_row(n);
        row.password_hash = api::accounts::hash_password("Tala beer 2026 ok")?;
        db::users::create_user(ctx.conn, &row, 0)?;
        Ok(())
    })
    .await
    .expect("a member");
}

/// Members `ns` as [`member_who_logs_in`] makes them, the password hashed once for all.
#[allow(dead_code)]
pub async fn members_who_log_in(db: &TestDb, ns: std::ops::RangeInclusive<u8>) {
    let cfg = store_config(&db.url, false);
    let api = server::api_state(db.pool.clone(), &cfg).expect("api state");
    api.run(framework::Caller::default(), move |ctx| {
        let hash = api::accounts::hash_password("Tala beer 2026 ok")?;
        for n in ns {
            let mut row = member_row(n);
            row.password_hash = hash.clone();
            db::users::create_user(ctx.conn, &row, 0)?;
        }
        Ok(())
    })
    .await
    .expect("members");
}

/// Logs member `n` (made by [`member_who_logs_in`]) in from a browser holding `cookie`: the
/// login's JSON and the new session's token.
pub async fn log_in_member(db: &TestDb, n: u8, cookie: &str) -> (serde_json::Value, String) {
    let login = serde_json::json!({
        "login": format!("member{n}@example.com"),
        "password": "Tala beer 2026 ok",
    });
    let req = json_request("POST", "/api/v1/login", Auth::Cookie(cookie.into()), login);
    let r = send_api(&db.pool, req).await;
    assert_eq!(r.status, actix_web::http::StatusCode::OK, "{}", r.text());
    let session = set_cookie(&r, "session").expect("a session cookie");
    (r.json(), session)
}

fn member_row(n: u8) -> db::users::RegistrationRow {
    db::users::RegistrationRow {
        token_hash: String::new(),
        email: format!("member{n}@example.com"),
        mobile: format!("0917000000{n}"),
        first_name: format!("Member{n}"),
        last_name: "Dela Cruz".into(),
        birth_date: "1990-01-01".into(),
        password_hash: "x".into(),
        expires_at: 0,
        used_at: None,
    }
}

async fn session(db: &TestDb, member: Option<u8>) -> String {
    let cfg = store_config(&db.url, false);
    let api = server::api_state(db.pool.clone(), &cfg).expect("api state");
    api.run(framework::Caller::default(), move |ctx| {
        let user = match member {
            Some(n) => {
                let id =
                    db::users::create_user(ctx.conn, &member_row(n), domain::calendar::unix_now())?;
                Some(id.get())
            }
            None => None,
        };
        ctx.start_session(user)
    })
    .await
    .expect("a session")
}
