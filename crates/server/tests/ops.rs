//! The store as a service, in process on SQLite and PostgreSQL: the probes (`/healthz`, `/readyz`:
//! a database out of reach and pending migrations answer 503 naming the part), `/metrics` (the
//! series exist and move with requests, counted by route template, never by ids), and the request
//! id (taken from a sane `x-request-id`, else made, and sent back). The log lines themselves,
//! `METRICS_BIND` and SIGTERM are tested on the real binary (`ops_process.rs`).

// A test tells one story from start to end: it may run past a screen.
#![allow(clippy::too_many_lines)]

mod support;

use std::time::{Duration, Instant};

use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use support::{a_case, checkout, database, get, json_request, Backend, Res, EVIL, MAKATI};

/// The value of the series `name` whose labels include `labels` (0 when there is none).
fn sample(metrics: &str, name: &str, labels: &[(&str, &str)]) -> f64 {
    metrics
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.rsplit_once(' '))
        .filter(|(series, _)| {
            let (n, rest) = series.split_once('{').unwrap_or((series, ""));
            n == name
                && labels
                    .iter()
                    .all(|(k, v)| rest.contains(&format!("{k}=\"{v}\"")))
        })
        .map(|(_, v)| v.parse::<f64>().unwrap())
        .sum()
}

fn header<'a>(r: &'a Res, name: &str) -> &'a str {
    r.headers
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
}

async fn probes_answer_and_bypass_maintenance(b: Backend) {
    let db = database(b);
    for maintenance in [false, true] {
        let store = store!(db, support::store_config(&db.url, maintenance));
        let r = send!(store, get("/healthz", "").insert_header(("origin", EVIL)));
        assert_eq!(r.status, StatusCode::OK);
        assert_eq!(r.text(), "ok\n");
        assert_eq!(header(&r, "cache-control"), "no-store");
        let r = send!(
            store,
            TestRequest::default()
                .method(actix_web::http::Method::HEAD)
                .uri("/healthz")
        );
        assert_eq!(r.status, StatusCode::OK);
        let r = send!(store, get("/readyz", ""));
        assert_eq!(r.status, StatusCode::OK, "{}", r.text());
        let text = r.text();
        for part in [
            "ready\n",
            "database: ok",
            "migrations: ok",
            "render: ok (1 of 1 threads alive)",
        ] {
            assert!(text.contains(part), "{part}: {text}");
        }
        assert_eq!(text.contains("maintenance: on"), maintenance, "{text}");
        assert_eq!(header(&r, "cache-control"), "no-store");
        // Neither is an API call: not in the OpenAPI document.
        let doc = send!(store, get("/api/openapi.json", "")).text();
        assert!(!doc.contains("healthz") && !doc.contains("readyz") && !doc.contains("/metrics"));
    }
}
both!(probes_answer_and_bypass_maintenance);

async fn pending_migrations_are_not_ready(b: Backend) {
    use db::diesel::connection::SimpleConnection;
    let db = database(b);
    let store = store!(db);
    db.pool
        .get()
        .unwrap()
        .batch_execute(
            "DELETE FROM __diesel_schema_migrations WHERE version = \
             (SELECT MAX(version) FROM __diesel_schema_migrations)",
        )
        .unwrap();
    let r = send!(store, get("/readyz", ""));
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE);
    let text = r.text();
    assert!(text.starts_with("not ready\n"), "{text}");
    assert!(text.contains("database: ok"), "{text}");
    assert!(text.contains("migrations: 1 pending"), "{text}");
    assert!(text.contains("render: ok"), "{text}");
    // The health of the process is another question.
    assert_eq!(send!(store, get("/healthz", "")).status, StatusCode::OK);
}
both!(pending_migrations_are_not_ready);

/// A store whose database went away after it started: SQLite, a file that cannot be opened (its
/// folder is a file); PostgreSQL, its database dropped under the pool's open connections.
async fn an_unreachable_database_is_not_ready(b: Backend) {
    let db = database(b);
    let dir = tempfile::tempdir().unwrap();
    let pool = match b {
        Backend::Sqlite => {
            let file = dir.path().join("file");
            std::fs::write(&file, "").unwrap();
            let manager = db::diesel::r2d2::ConnectionManager::<db::AnyConnection>::new(
                file.join("store.db").display().to_string(),
            );
            db::diesel::r2d2::Pool::builder()
                .max_size(2)
                .build_unchecked(manager)
        }
        Backend::Postgres => db.pool.clone(),
    };
    let cfg = support::store_config(&db.url, false);
    let api = server::api_state(pool, &cfg).expect("api state");
    let pages = actix_web::web::Data::new(server::web_state(&api, &cfg).expect("web state"));
    let api = actix_web::web::Data::new(api);
    let store = actix_web::test::init_service(server::app(&api, &pages)).await;
    if b == Backend::Postgres {
        assert_eq!(send!(store, get("/readyz", "")).status, StatusCode::OK);
        let name = db.url.rsplit('/').next().unwrap().to_string();
        let admin = db::connect(&db.url.replace(&name, "postgres"), 1).unwrap();
        use db::diesel::connection::SimpleConnection;
        admin
            .get()
            .unwrap()
            .batch_execute(&format!("DROP DATABASE {name} WITH (FORCE)"))
            .unwrap();
    }
    let start = Instant::now();
    let r = send!(store, get("/readyz", ""));
    let took = start.elapsed();
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "{}", r.text());
    let text = r.text();
    assert!(text.contains("database: unreachable"), "{text}");
    assert!(text.contains("migrations: unknown"), "{text}");
    assert!(text.contains("render: ok"), "{text}");
    assert!(took < Duration::from_secs(4), "readiness waited {took:?}");
    assert_eq!(send!(store, get("/healthz", "")).status, StatusCode::OK);
}
both!(an_unreachable_database_is_not_ready);

/// The request metrics are the process's: the two databases' runs take turns.
static METRICS_TEST: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[allow(clippy::await_holding_lock)]
async fn metrics_count_by_route_template(b: Backend) {
    let _turn = METRICS_TEST.lock().unwrap_or_else(|e| e.into_inner());
    let db = database(b);
    let store = store!(db);
    let metrics = |s: &Res| s.text();
    let before = metrics(&send!(store, get("/metrics", "")));
    let r = send!(store, get("/metrics", ""));
    assert_eq!(r.status, StatusCode::OK);
    assert!(header(&r, "content-type").starts_with("text/plain; version=0.0.4"));
    assert_eq!(header(&r, "cache-control"), "no-store");
    for name in [
        "store_render_memo_hits_total",
        "store_render_memo_misses_total",
        "store_render_failures_total",
        "store_render_queue_length",
        "store_render_threads_alive",
        "store_db_turns",
        "store_db_turns_waiting",
        "store_db_turns_in_use",
        "store_db_turns_refused_total",
        "store_cache_hits_total",
        "store_cache_misses_total",
        "store_cache_bytes",
        "store_orders_placed_total",
    ] {
        assert!(
            before.contains(&format!("\n# TYPE {name} ")),
            "{name} missing:\n{before}"
        );
    }
    assert_eq!(sample(&before, "store_render_threads_alive", &[]), 1.0);
    assert_eq!(sample(&before, "store_db_turns", &[]), 4.0);

    // Requests, by the template of their route: an API call, a page with a slug, a static file,
    // a made-up address.
    for _ in 0..2 {
        assert_eq!(
            send!(store, get("/api/v1/products", "")).status,
            StatusCode::OK
        );
    }
    let product = "/single-product/tala-light-330ml";
    for _ in 0..3 {
        assert_eq!(send!(store, get(product, "")).status, StatusCode::OK);
    }
    let api_product = format!("/api/v2/products/tala-light-330ml/barangay/{MAKATI}");
    assert_eq!(send!(store, get(&api_product, "")).status, StatusCode::OK);
    assert_eq!(
        send!(store, get("/no-such-page-4711", "")).status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        send!(store, get("/api/v1/no-such-call", "")).status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(send!(store, get("/robots.txt", "")).status, StatusCode::OK);
    let brew = actix_web::http::Method::from_bytes(b"BREW").unwrap();
    let r = send!(
        store,
        TestRequest::default().method(brew).uri("/api/v1/products")
    );
    assert_eq!(r.status, StatusCode::METHOD_NOT_ALLOWED);

    // An order placed.
    let token = support::guest(&db).await;
    let cart = send!(
        store,
        json_request("POST", "/api/v1/cart", &token, a_case())
    );
    assert_eq!(cart.status, StatusCode::OK, "{}", cart.text());
    let cart = cart.json();
    let order = send!(
        store,
        json_request("POST", "/api/v1/orders", &token, checkout(&cart))
    );
    assert_eq!(order.status, StatusCode::CREATED, "{}", order.text());

    // A request abandoned before its answer (the client went away): 499.
    {
        use actix_web::dev::Service;
        let abandoned = store.call(get("/healthz", "").to_request());
        drop(abandoned);
    }

    let after = metrics(&send!(store, get("/metrics", "")));
    let moved = |name: &str, labels: &[(&str, &str)]| {
        sample(&after, name, labels) - sample(&before, name, labels)
    };
    let requests = "store_http_requests_total";
    assert_eq!(
        moved(
            requests,
            &[
                ("method", "GET"),
                ("route", "/api/v1/products"),
                ("status", "200")
            ]
        ),
        2.0
    );
    assert_eq!(
        moved(
            requests,
            &[
                ("method", "GET"),
                ("route", "/single-product/{slug}"),
                ("status", "200")
            ]
        ),
        3.0
    );
    assert_eq!(
        moved(
            requests,
            &[
                ("route", "/api/v2/products/{slug}/barangay/{barangayId}"),
                ("status", "200")
            ]
        ),
        1.0
    );
    // (Other tests of this process ask for made-up addresses too.)
    assert!(moved(requests, &[("route", "unmatched"), ("status", "404")]) >= 2.0);
    assert_eq!(
        moved(requests, &[("route", "/robots.txt"), ("status", "200")]),
        1.0
    );
    assert_eq!(
        moved(requests, &[("route", "/healthz"), ("status", "499")]),
        1.0
    );
    // A made-up method is no series of its own.
    assert_eq!(
        moved(
            requests,
            &[
                ("method", "OTHER"),
                ("route", "/api/v1/products"),
                ("status", "405")
            ]
        ),
        1.0
    );
    assert!(!after.contains("BREW"));
    assert_eq!(
        moved(
            requests,
            &[
                ("method", "POST"),
                ("route", "/api/v1/orders"),
                ("status", "201")
            ]
        ),
        1.0
    );
    assert!(moved(requests, &[("route", "/metrics"), ("status", "200")]) >= 1.0);
    // Never a path's own ids or slugs, never an address somebody made up.
    for raw in ["tala-light-330ml", "no-such", &MAKATI.to_string()] {
        assert!(
            !after
                .lines()
                .any(|l| l.starts_with("store_http") && l.contains(raw)),
            "{raw} in a label"
        );
    }
    let seconds = "store_http_request_duration_seconds_count";
    assert_eq!(
        moved(
            seconds,
            &[("method", "GET"), ("route", "/single-product/{slug}")]
        ),
        3.0
    );
    assert!(
        sample(
            &after,
            "store_http_request_duration_seconds_bucket",
            &[("route", "/single-product/{slug}"), ("le", "+Inf")]
        ) >= 3.0
    );
    // The page was rendered once, then kept: a render miss, cache hits, bytes held.
    assert!(moved("store_render_memo_misses_total", &[]) >= 1.0);
    assert!(moved("store_cache_hits_total", &[]) >= 2.0);
    assert!(moved("store_cache_misses_total", &[]) >= 1.0);
    assert!(sample(&after, "store_cache_bytes", &[]) > sample(&before, "store_cache_bytes", &[]));
    // The process's orders (other tests in this binary place theirs too).
    assert!(moved("store_orders_placed_total", &[]) >= 1.0);
}
both!(metrics_count_by_route_template);

#[actix_web::test]
async fn database_turns_waiting_are_counted() {
    let db = database(Backend::Sqlite);
    let turns = db::Db::new(db.pool.clone());
    let size = turns.turn_stats().size;
    // Every turn held, and one more call waiting for one.
    let (hold_tx, hold_rx) = std::sync::mpsc::channel::<()>();
    let hold_rx = std::sync::Arc::new(std::sync::Mutex::new(hold_rx));
    let mut held = Vec::new();
    for _ in 0..=size {
        let (turns, rx) = (turns.clone(), hold_rx.clone());
        held.push(actix_web::rt::spawn(async move {
            turns
                .run(move |_| {
                    let _ = rx.lock().unwrap().recv_timeout(Duration::from_secs(5));
                    Ok::<_, db::DbError>(())
                })
                .await
        }));
    }
    let start = Instant::now();
    while turns.turn_stats().waiting < 1 {
        assert!(
            start.elapsed() < Duration::from_secs(2),
            "{:?}",
            turns.turn_stats()
        );
        actix_web::rt::time::sleep(Duration::from_millis(5)).await;
    }
    let stats = turns.turn_stats();
    assert_eq!((stats.in_use, stats.waiting), (size, 1), "{stats:?}");
    for _ in 0..=size {
        hold_tx.send(()).unwrap();
    }
    for h in held {
        h.await.unwrap().unwrap();
    }
    let stats = turns.turn_stats();
    assert_eq!(
        (stats.in_use, stats.waiting, stats.refused),
        (0, 0, 0),
        "{stats:?}"
    );
}

async fn request_ids_are_taken_or_made_and_sent_back(b: Backend) {
    let db = database(b);
    let store = store!(db);
    let with =
        |id: &str| get("/api/v1/banners", "").insert_header(("x-request-id", id.to_string()));
    let r = send!(store, with("lb-7f3a:42/b"));
    assert_eq!(header(&r, "x-request-id"), "lb-7f3a:42/b");
    let long = "a".repeat(129);
    for insane in ["has space", "tab\there", long.as_str()] {
        let r = send!(store, with(insane));
        let made = header(&r, "x-request-id");
        assert_eq!(made.len(), 16, "{insane:?} -> {made:?}");
        assert!(made.bytes().all(|c| c.is_ascii_hexdigit()), "{made}");
    }
    let r = send!(store, with(&"b".repeat(128)));
    assert_eq!(header(&r, "x-request-id"), "b".repeat(128));
    // Every answer carries one: pages, errors, probes.
    let mut seen = std::collections::HashSet::new();
    for uri in [
        "/buy-beer",
        "/no-such-page",
        "/healthz",
        "/api/v1/no-such-call",
    ] {
        let r = send!(store, get(uri, ""));
        let id = header(&r, "x-request-id").to_string();
        assert_eq!(id.len(), 16, "{uri}");
        assert!(seen.insert(id), "ids are new each time");
    }
}
both!(request_ids_are_taken_or_made_and_sent_back);

/// Locks `products` on a connection of the test's own.
fn lock_products(url: &str) -> diesel::PgConnection {
    use diesel::connection::SimpleConnection;
    use diesel::Connection;
    let mut admin = diesel::PgConnection::establish(url).expect("a connection of the test's own");
    admin
        .batch_execute("BEGIN; LOCK TABLE products IN ACCESS EXCLUSIVE MODE;")
        .expect("lock");
    admin
}

/// Once the store's read of the locked `products` waits, ends that read's connection as a
/// restarting server would, and lets the table go; answers how many reads it ended.
fn drop_the_reader(mut admin: diesel::PgConnection) -> usize {
    use diesel::connection::SimpleConnection;
    use diesel::prelude::*;
    #[derive(QueryableByName)]
    struct Ended {
        #[diesel(sql_type = diesel::sql_types::Bool)]
        ended: bool,
    }
    let started = Instant::now();
    let ended = loop {
        // The statistics are read once per transaction unless the snapshot is let go.
        admin
            .batch_execute("SELECT pg_stat_clear_snapshot()")
            .expect("a fresh look");
        let ended: Vec<Ended> = diesel::sql_query(
            "SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity \
             WHERE datname = current_database() AND pid <> pg_backend_pid() \
             AND wait_event_type = 'Lock' AND query ILIKE '%products%'",
        )
        .load(&mut admin)
        .expect("terminate");
        if !ended.is_empty() {
            break ended.iter().filter(|e| e.ended).count();
        }
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the store never read the products"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    admin.batch_execute("COMMIT").expect("unlock");
    ended
}

/// A read that meets a dropped connection (PostgreSQL restarted, a proxy cut it) is run once more
/// on a fresh connection before it fails: an API read and a page's data both answer in full, and
/// the failure is counted.
#[actix_web::test]
async fn a_read_on_a_dropped_connection_is_tried_again() {
    let db = database(Backend::Postgres);
    let store = store!(db);
    let lost = |metrics: &str| -> u64 {
        metrics
            .lines()
            .find(|l| l.starts_with("store_db_failures_total{kind=\"lost\"}"))
            .and_then(|l| l.rsplit(' ').next())
            .and_then(|n| n.parse().ok())
            .expect("the lost series")
    };
    let before = lost(&send!(store, get("/metrics", "")).text());

    let locked = lock_products(&db.url);
    let admin = actix_web::rt::task::spawn_blocking(move || drop_the_reader(locked));
    let r = send!(
        store,
        get(&format!("/api/v1/products?barangay={MAKATI}"), "")
    );
    assert_eq!(admin.await.expect("admin"), 1, "one read was cut");
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert!(r.text().contains("Tala Pale Pilsen 320 ml"), "{}", r.text());

    // A second app server, whose catalog is not yet in its memory, renders a page.
    let pages = store!(db);
    let locked = lock_products(&db.url);
    let admin = actix_web::rt::task::spawn_blocking(move || drop_the_reader(locked));
    let r = send!(pages, get("/buy-beer", ""));
    assert_eq!(admin.await.expect("admin"), 1, "one read was cut");
    assert_eq!(r.status, StatusCode::OK);
    // The page's data came with it (a plan without data would leave the list to the browser).
    assert!(r.text().contains("Tala Pale Pilsen 320 ml"), "{}", r.text());

    let after = lost(&send!(store, get("/metrics", "")).text());
    assert_eq!(after, before + 2, "both cut reads are counted");
}
