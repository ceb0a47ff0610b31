//! Several app servers on one database. Two `store serve` processes on different ports over one
//! throwaway PostgreSQL cluster share what must be shared: a session made on one is valid on the
//! other; a cart filled through one is the cart seen through the other; a rate limit counts
//! requests to both; the maintenance switch and a catalog import reach both within a second; 20
//! concurrent order submits split over both make one order. And two app servers in one process,
//! on SQLite and PostgreSQL: a catalog write reaches the cached pages of both within a second.

// A test tells one story from start to end: it may run past a screen.
#![allow(clippy::too_many_lines)]

use crate::support;

use std::time::{Duration, Instant};

use serde_json::{json, Value};
use support::process::{free_port, json_call, kill, serve, store_ok, within};
use support::{checkout, database, orders_placed, Backend, MAKATI, PAST_GATES};

fn price_of(port: u16) -> i64 {
    let r = json_call(
        port,
        "GET",
        &format!("/api/v2/products/tala-pale-pilsen-320ml/barangay/{MAKATI}"),
        "",
        &Value::Null,
    );
    r.json_or_null()["product_single"]["price"]
        .as_i64()
        .unwrap_or(-1)
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
    let r = json_call(a, "POST", "/api/v1/login", "", &login);
    assert_eq!(r.status, 200);
    let token = r.header("access-token").expect("a token").to_string();
    let r = json_call(b, "GET", "/api/v1/user", &token, &Value::Null);
    let v = r.json_or_null();
    assert_eq!(r.status, 200, "{v}");
    assert_eq!(v["data"]["email"], "member1@example.com");

    // A cart filled through one is the cart seen through the other.
    let add = json!({"product_id": 1, "quantity": 24, "barangay": MAKATI});
    let r = json_call(a, "POST", "/api/v1/cart", &token, &add);
    let v = r.json_or_null();
    assert_eq!(r.status, 200, "{v}");
    let seen = json_call(
        b,
        "GET",
        &format!("/api/v1/cart/{MAKATI}"),
        &token,
        &Value::Null,
    )
    .json_or_null();
    assert_eq!(seen["item_count"], 1);
    assert_eq!(seen["revision"], v["revision"]);

    // A rate limit counts requests to both: five wrong passwords, alternating, stop the sixth.
    actix_web::rt::System::new().block_on(support::member_who_logs_in(&db, 2));
    for n in 0..5 {
        let port = if n % 2 == 0 { a } else { b };
        let wrong = json!({"login": "member2@example.com", "password": "Guess-2026x"});
        assert_eq!(
            json_call(port, "POST", "/api/v1/login", "", &wrong).status,
            422
        );
    }
    let right = json!({"login": "member2@example.com", "password": "Tala beer 2026 ok"});
    assert_eq!(
        json_call(b, "POST", "/api/v1/login", "", &right).status,
        429
    );
    assert_eq!(
        json_call(a, "POST", "/api/v1/login", "", &right).status,
        429
    );

    // The maintenance switch reaches both within a second (the watch reads it four times a second).
    let products = |port: u16| json_call(port, "GET", "/api/v1/products", "", &Value::Null).status;
    store_ok(&db, &["maintenance", "on"]);
    let took = within(Duration::from_millis(1500), "maintenance on", || {
        products(a) == 503 && products(b) == 503
    });
    eprintln!("maintenance on reached both in {took:?}");
    store_ok(&db, &["maintenance", "off"]);
    within(Duration::from_millis(1500), "maintenance off", || {
        products(a) == 200 && products(b) == 200
    });

    // A catalog import reaches both within a second.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("catalog.json");
    let mut catalog: Value = serde_json::from_str(&store_ok(&db, &["catalog", "export"])).unwrap();
    assert_eq!(price_of(a), 5200);
    catalog["products"][0]["price"] = json!(5400);
    std::fs::write(&file, catalog.to_string()).unwrap();
    store_ok(&db, &["catalog", "import", file.to_str().unwrap()]);
    let took = within(Duration::from_millis(1500), "the new price", || {
        price_of(a) == 5400 && price_of(b) == 5400
    });
    eprintln!("the import reached both in {took:?}");

    // 20 concurrent submits of one cart, split over both servers, make one order.
    let cart = json_call(
        b,
        "GET",
        &format!("/api/v1/cart/{MAKATI}"),
        &token,
        &Value::Null,
    )
    .json_or_null();
    // A member's form: no email (the account's), and no street.
    let mut form = checkout(&cart);
    let fields = form.as_object_mut().unwrap();
    fields.remove("email");
    fields.remove("street_id");
    let answers: Vec<(u16, Value)> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..20)
            .map(|n| {
                let (token, form) = (&token, &form);
                s.spawn(move || {
                    let port = if n % 2 == 0 { a } else { b };
                    let r = json_call(port, "POST", "/api/v1/orders", token, form);
                    (r.status, r.json_or_null())
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
    let orders = orders_placed(&db);
    assert_eq!(orders, 1);

    kill(server_a);
    kill(server_b);
}

/// Two app servers on one database: a write to the catalog reaches both servers' cached pages
/// and answers within about a second (the data version is read four times a second).
async fn a_write_reaches_every_app_server_within_a_second(b: Backend) {
    let db = database(b);
    let cfg = support::store_config(&db.url, false);
    let mut apps = Vec::new();
    for _ in 0..2 {
        let api = server::api_state(db::connect(&db.url, 2).unwrap(), &cfg).expect("api state");
        let pages = actix_web::web::Data::new(server::web_state(&api, &cfg).unwrap());
        apps.push(
            actix_web::test::init_service(server::app(&actix_web::web::Data::new(api), &pages))
                .await,
        );
    }
    let page = |i: usize| {
        let app = &apps[i];
        async move {
            support::call(app, support::get("/buy-beer", PAST_GATES).to_request())
                .await
                .text()
        }
    };
    for i in 0..2 {
        assert!(page(i).await.contains("Tala Pale Pilsen 320 ml"));
    }
    {
        use diesel::prelude::*;
        let mut c = db.pool.get().unwrap();
        diesel::update(
            db::schema::products::table
                .filter(db::schema::products::slug.eq("tala-pale-pilsen-320ml")),
        )
        .set(db::schema::products::product_name.eq("Tala Pale Pilsen 320 ml (new label)"))
        .execute(&mut *c)
        .unwrap();
    }
    let written = Instant::now();
    for i in 0..2 {
        loop {
            if page(i).await.contains("(new label)") {
                break;
            }
            assert!(
                written.elapsed() < support::SHOWN_WITHIN,
                "server {i} still shows the old name"
            );
            actix_web::rt::time::sleep(Duration::from_millis(50)).await;
        }
    }
}
both!(a_write_reaches_every_app_server_within_a_second);
