//! Several app servers on one PostgreSQL (issue 17 section 4): two `store serve` processes on
//! different ports over one throwaway cluster share what must be shared. A session made on one
//! is valid on the other; a cart filled through one is the cart seen through the other; a rate
//! limit counts requests to both; the maintenance switch and a catalog import reach both within a
//! second; 20 concurrent order submits split over both make one order.

// A test tells one story from start to end: it may run past a screen.
#![allow(clippy::too_many_lines)]

mod support;

use std::process::Command;
use std::time::{Duration, Instant};

use diesel::prelude::*;
use serde_json::{json, Value};
use support::process::{free_port, http, kill, serve};
use support::{database, Backend, TestDb};

const MAKATI: i64 = 1380300002;
const OPEN: &str = "2026-11-24T14:00";

fn call(port: u16, method: &str, path: &str, token: &str, body: &Value) -> (u16, String, Value) {
    let auth = format!("Bearer {token}");
    let mut headers = vec![("Content-Type", "application/json")];
    if !token.is_empty() {
        headers.push(("Authorization", auth.as_str()));
    }
    let body = if body.is_null() {
        String::new()
    } else {
        body.to_string()
    };
    let (status, head, text) = http(port, method, path, &headers, &body);
    (
        status,
        head,
        serde_json::from_str(&text).unwrap_or(Value::Null),
    )
}

/// Runs a staff command of the `store` binary on the test database.
fn store(db: &TestDb, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_store"))
        .args(args)
        .env("DATABASE_URL", &db.url)
        .env("RUST_LOG", "error")
        .output()
        .expect("store");
    assert!(
        out.status.success(),
        "store {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Waits until `check` holds for both servers; answers how long it took.
fn within(limit: Duration, what: &str, mut check: impl FnMut() -> bool) -> Duration {
    let start = Instant::now();
    while !check() {
        assert!(start.elapsed() < limit, "{what}: not within {limit:?}");
        std::thread::sleep(Duration::from_millis(25));
    }
    start.elapsed()
}

fn price_of(port: u16) -> i64 {
    let (_, _, v) = call(
        port,
        "GET",
        &format!("/api/v2/products/tala-pale-pilsen-320ml/barangay/{MAKATI}"),
        "",
        &Value::Null,
    );
    v["product_single"]["price"].as_i64().unwrap_or(-1)
}

#[test]
fn two_app_servers_share_what_must_be_shared() {
    let db = database(Backend::Postgres);
    let outbox = tempfile::tempdir().unwrap();
    let (a, b) = (free_port(), free_port());
    let server_a = serve(&db, a, outbox.path());
    let server_b = serve(&db, b, outbox.path());

    // A session made on one is valid on the other.
    actix_web::rt::System::new().block_on(support::member_who_logs_in(&db, 1));
    let login = json!({"login": "member1@example.com", "password": "Tala beer 2026 ok"});
    let (s, head, _) = call(a, "POST", "/api/v1/login", "", &login);
    assert_eq!(s, 200);
    let token = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .starts_with("access-token:")
                .then(|| l.split_once(':').unwrap().1.trim().to_string())
        })
        .expect("a token");
    let (s, _, v) = call(b, "GET", "/api/v1/user", &token, &Value::Null);
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["data"]["email"], "member1@example.com");

    // A cart filled through one is the cart seen through the other.
    let add = json!({"product_id": 1, "quantity": 24, "barangay": MAKATI});
    let (s, _, v) = call(a, "POST", "/api/v1/cart", &token, &add);
    assert_eq!(s, 200, "{v}");
    let (_, _, seen) = call(
        b,
        "GET",
        &format!("/api/v1/cart/{MAKATI}"),
        &token,
        &Value::Null,
    );
    assert_eq!(seen["item_count"], 1);
    assert_eq!(seen["revision"], v["revision"]);

    // A rate limit counts requests to both: five wrong passwords, alternating, stop the sixth.
    actix_web::rt::System::new().block_on(support::member_who_logs_in(&db, 2));
    for n in 0..5 {
        let port = if n % 2 == 0 { a } else { b };
        let wrong = json!({"login": "member2@example.com", "password": "Guess-2026x"});
        assert_eq!(call(port, "POST", "/api/v1/login", "", &wrong).0, 422);
    }
    let right = json!({"login": "member2@example.com", "password": "Tala beer 2026 ok"});
    assert_eq!(call(b, "POST", "/api/v1/login", "", &right).0, 429);
    assert_eq!(call(a, "POST", "/api/v1/login", "", &right).0, 429);

    // The maintenance switch reaches both within a second (the watch reads it once a second).
    let products = |port: u16| call(port, "GET", "/api/v1/products", "", &Value::Null).0;
    store(&db, &["maintenance", "on"]);
    let took = within(Duration::from_millis(1500), "maintenance on", || {
        products(a) == 503 && products(b) == 503
    });
    eprintln!("maintenance on reached both in {took:?}");
    store(&db, &["maintenance", "off"]);
    within(Duration::from_millis(1500), "maintenance off", || {
        products(a) == 200 && products(b) == 200
    });

    // A catalog import reaches both within a second.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("catalog.json");
    let mut catalog: Value = serde_json::from_str(&store(&db, &["catalog", "export"])).unwrap();
    assert_eq!(price_of(a), 5200);
    catalog["products"][0]["price"] = json!(5400);
    std::fs::write(&file, catalog.to_string()).unwrap();
    store(&db, &["catalog", "import", file.to_str().unwrap()]);
    let took = within(Duration::from_millis(1500), "the new price", || {
        price_of(a) == 5400 && price_of(b) == 5400
    });
    eprintln!("the import reached both in {took:?}");

    // 20 concurrent submits of one cart, split over both servers, make one order.
    let (_, _, cart) = call(
        b,
        "GET",
        &format!("/api/v1/cart/{MAKATI}"),
        &token,
        &Value::Null,
    );
    let form = json!({
        "contact_name": "Ana Santos",
        "mobile": "09171234567",
        "address": "Unit 5B, 12 Jupiter St.",
        "barangay": MAKATI,
        "fulfillment": 1,
        "revision": cart["revision"],
        "expected_total": cart["cart_order_summary"]["subtotal"],
        "testdate": OPEN,
    });
    let answers: Vec<(u16, Value)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..20)
            .map(|n| {
                let (token, form) = (&token, &form);
                s.spawn(move || {
                    let port = if n % 2 == 0 { a } else { b };
                    let (status, _, v) = call(port, "POST", "/api/v1/orders", token, form);
                    (status, v)
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let placed = answers.iter().filter(|(s, _)| *s == 201).count();
    assert_eq!(placed, 1, "{answers:?}");
    let ids: Vec<&Value> = answers.iter().map(|(_, v)| &v["order"]["id"]).collect();
    assert!(
        answers.iter().all(|(s, _)| *s == 201 || *s == 200),
        "{answers:?}"
    );
    assert!(ids.iter().all(|id| *id == ids[0]), "one order: {ids:?}");
    let orders: i64 = {
        let mut conn = db.pool.get().unwrap();
        db::schema::orders::table
            .count()
            .get_result(&mut *conn)
            .unwrap()
    };
    assert_eq!(orders, 1);

    kill(server_a);
    kill(server_b);
}
