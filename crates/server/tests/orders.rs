//! Orders over HTTP on SQLite and PostgreSQL (issue 15 section 6): one order per cart revision
//! however often it is submitted (20 at once included), checks at the moment of submit (hours,
//! blackout, prices, availability), the order's own copy, mail through the outbox, and who may
//! see an order.

// A test tells one story from start to end: it may run past a screen.
#![allow(clippy::too_many_lines)]

mod support;

use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use diesel::prelude::*;
use serde_json::{json, Value};
use support::{database, Backend, TestDb};

const MAKATI: i64 = 1380300002;
/// A Tuesday afternoon, within the hours and outside the blackout.
const OPEN: &str = "2026-11-24T14:00";

async fn call(
    db: &TestDb,
    method: &str,
    uri: &str,
    token: &str,
    body: Value,
) -> (StatusCode, Value) {
    let mut req = TestRequest::default()
        .method(method.parse().unwrap())
        .uri(uri);
    if !token.is_empty() {
        req = req.insert_header(("authorization", format!("Bearer {token}")));
    }
    if !body.is_null() {
        req = req.set_json(body);
    }
    let r = support::send_api(&db.pool, req).await;
    (
        r.status,
        serde_json::from_slice(&r.body).unwrap_or(Value::Null),
    )
}

/// A guest with a complete case of bottles in Makati; answers the token and the cart.
async fn shopper_with_a_case(db: &TestDb) -> (String, Value) {
    let token = support::guest(db).await;
    let (s, cart) = call(
        db,
        "POST",
        "/api/v1/cart",
        &token,
        json!({"product_id": 1, "quantity": 24, "barangay": MAKATI, "street_id": 1}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{cart}");
    (token, cart)
}

fn form(cart: &Value, testdate: &str) -> Value {
    json!({
        "contact_name": "Ana Santos",
        "mobile": "09171234567",
        "email": "ana@example.com",
        "address": "Unit 5B, 12 Jupiter St.",
        "barangay": MAKATI,
        "street_id": 1,
        "fulfillment": 1,
        "notes": "Ring twice",
        "revision": cart["revision"],
        "expected_total": cart["cart_order_summary"]["subtotal"],
        "testdate": testdate,
    })
}

fn count_orders(db: &TestDb) -> i64 {
    use db::schema::orders;
    let mut conn = db.pool.get().unwrap();
    orders::table.count().get_result(&mut *conn).unwrap()
}

async fn an_order_keeps_its_own_copy(backend: Backend) {
    let db = database(backend);
    let (token, cart) = shopper_with_a_case(&db).await;
    let (s, placed) = call(&db, "POST", "/api/v1/orders", &token, form(&cart, OPEN)).await;
    assert_eq!(s, StatusCode::CREATED, "{placed}");
    let order = &placed["order"];
    assert_eq!(order["status"], "placed");
    assert_eq!(order["total"], 118_800 + 24_000 + 15_000);
    assert_eq!(order["items"][0]["product_name"], "Tala Pale Pilsen 320 ml");
    assert_eq!(order["payment"], "Cash on delivery");
    assert!(
        order["place"]
            .as_str()
            .unwrap()
            .starts_with("Jupiter Street, "),
        "{order}"
    );
    assert!(placed["link"].as_str().unwrap().contains("?key="));
    // The cart is empty, and a price change later does not touch the order.
    let (_, after) = call(
        &db,
        "GET",
        &format!("/api/v1/cart/{MAKATI}"),
        &token,
        Value::Null,
    )
    .await;
    assert_eq!(after["item_count"], 0);
    {
        use db::schema::products;
        let mut conn = db.pool.get().unwrap();
        diesel::update(products::table.find(1))
            .set(products::price_per_case.eq(200_000))
            .execute(&mut *conn)
            .unwrap();
    }
    let link = placed["link"]
        .as_str()
        .unwrap()
        .replace("/active-order/", "/api/v1/orders/");
    let (s, again) = call(&db, "GET", &link, "", Value::Null).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(again["total"], order["total"]);
    assert_eq!(again["history"][0]["status"], "placed");
    // The confirmation and the store's notice wait in the outbox.
    use db::schema::mail_outbox;
    let mut conn = db.pool.get().unwrap();
    let to: Vec<String> = mail_outbox::table
        .select(mail_outbox::recipient)
        .load(&mut *conn)
        .unwrap();
    assert!(
        to.contains(&"ana@example.com".to_string())
            && to.contains(&"orders@tala.example".to_string()),
        "{to:?}"
    );
}
both!(an_order_keeps_its_own_copy);

async fn one_revision_one_order(backend: Backend) {
    let db = database(backend);
    let (token, cart) = shopper_with_a_case(&db).await;
    let body = form(&cart, OPEN);
    // 20 submits at once: one order; every answer names it.
    let cfg = support::store_config(&db.url, false);
    let api = actix_web::web::Data::new(server::api_state(db.pool.clone(), &cfg).expect("api"));
    let app = actix_web::test::init_service(
        actix_web::App::new()
            .app_data(api.clone())
            .configure(framework::configure),
    )
    .await;
    let reqs = (0..20).map(|_| {
        TestRequest::post()
            .uri("/api/v1/orders")
            .insert_header(("authorization", format!("Bearer {token}")))
            .set_json(body.clone())
            .to_request()
    });
    let answers =
        futures_util::future::join_all(reqs.map(|r| actix_web::test::call_service(&app, r))).await;
    let mut ids = Vec::new();
    let mut created = 0;
    for res in answers {
        let status = res.status();
        let v: Value = actix_web::test::read_body_json(res).await;
        assert!(
            status == StatusCode::CREATED || status == StatusCode::OK,
            "{status}: {v}"
        );
        created += usize::from(status == StatusCode::CREATED);
        ids.push(v["order"]["id"].as_i64().unwrap());
    }
    ids.dedup();
    assert_eq!((created, ids.len(), count_orders(&db)), (1, 1, 1));
    // A retry later still answers the same order.
    let (s, v) = call(&db, "POST", "/api/v1/orders", &token, body).await;
    assert_eq!(
        (s, v["order"]["id"].as_i64()),
        (StatusCode::OK, Some(ids[0]))
    );
}
both!(one_revision_one_order);

async fn checked_at_the_moment_of_submit(backend: Backend) {
    let db = database(backend);
    let (token, cart) = shopper_with_a_case(&db).await;
    // Outside the hours, and in the blackout (minute precision, both ends included).
    for (when, words) in [
        ("2026-11-24T22:00", "We take orders from 08:00 to 22:00"),
        ("2026-11-24T07:59", "We take orders from 08:00 to 22:00"),
        (
            "2025-05-10T20:00",
            "not taking orders until May 13, 2025 08:00",
        ),
        (
            "2025-05-13T08:00",
            "not taking orders until May 13, 2025 08:00",
        ),
    ] {
        let (s, v) = call(&db, "POST", "/api/v1/orders", &token, form(&cart, when)).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{when}: {v}");
        assert!(
            v["message"].as_str().unwrap().contains(words),
            "{when}: {v}"
        );
    }
    let (s, _) = call(
        &db,
        "POST",
        "/api/v1/orders",
        &token,
        form(&cart, "2025-05-13T08:01"),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED);
    assert_eq!(count_orders(&db), 1);

    // A price changed between the cart and the submit: nothing is placed, the new total is said.
    let (token, cart) = shopper_with_a_case(&db).await;
    {
        use db::schema::products;
        let mut conn = db.pool.get().unwrap();
        diesel::update(products::table.find(1))
            .set(products::price_per_case.eq(120_000))
            .execute(&mut *conn)
            .unwrap();
    }
    let (s, v) = call(&db, "POST", "/api/v1/orders", &token, form(&cart, OPEN)).await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    assert!(v["error"].as_str().unwrap().contains("P1,590.00"), "{v}");
    // The cart changed since checkout opened: refused, and the shopper looks again.
    let mut stale = form(&cart, OPEN);
    stale["revision"] = json!(cart["revision"].as_i64().unwrap() - 1);
    let (s, _) = call(&db, "POST", "/api/v1/orders", &token, stale).await;
    assert_eq!(s, StatusCode::CONFLICT);
    // Bad fields, every one named.
    let (s, v) = call(&db, "POST", "/api/v1/orders", &token, json!({"revision": cart["revision"], "expected_total": 1, "barangay": MAKATI, "mobile": "0817", "contact_name": "A\u{7}", "email": "no"})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    for field in ["mobile", "contact_name", "email", "address"] {
        assert!(v["errors"][field].is_array(), "{field}: {v}");
    }
    assert_eq!(count_orders(&db), 1);
}
both!(checked_at_the_moment_of_submit);

async fn who_sees_an_order(backend: Backend) {
    let db = database(backend);
    let (guest, cart) = shopper_with_a_case(&db).await;
    let (_, placed) = call(&db, "POST", "/api/v1/orders", &guest, form(&cart, OPEN)).await;
    let id = placed["order"]["id"].as_i64().unwrap();
    let key = placed["link"]
        .as_str()
        .unwrap()
        .split("key=")
        .nth(1)
        .unwrap()
        .to_string();
    // Without the key, or with another, the same 404 as an unknown order.
    let (s, missing) = call(&db, "GET", "/api/v1/orders/999999", &guest, Value::Null).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, v) = call(
        &db,
        "GET",
        &format!("/api/v1/orders/{id}"),
        &guest,
        Value::Null,
    )
    .await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert_eq!(
        v["error"].as_str().unwrap().replace(&id.to_string(), "N"),
        missing["error"].as_str().unwrap().replace("999999", "N")
    );
    let wrong = format!(
        "{}{}",
        &key[..39],
        if key.ends_with('0') { '1' } else { '0' }
    );
    assert_eq!(
        call(
            &db,
            "GET",
            &format!("/api/v1/orders/{id}?key={wrong}"),
            "",
            Value::Null
        )
        .await
        .0,
        StatusCode::NOT_FOUND
    );
    assert_eq!(
        call(
            &db,
            "GET",
            &format!("/api/v1/orders/{id}?key={key}"),
            "",
            Value::Null
        )
        .await
        .0,
        StatusCode::OK
    );

    // A member's order: theirs, in their list; not another member's.
    let ana = support::member(&db, 1).await;
    let ben = support::member(&db, 2).await;
    let (_, cart) = call(
        &db,
        "POST",
        "/api/v1/cart",
        &ana,
        json!({"product_id": 21, "quantity": 1, "barangay": MAKATI, "street_id": 1}),
    )
    .await;
    let mut body = form(&cart, OPEN);
    body["email"] = json!("");
    let (s, placed) = call(&db, "POST", "/api/v1/orders", &ana, body).await;
    assert_eq!(s, StatusCode::CREATED, "{placed}");
    assert_eq!(placed["order"]["email"], "member1@example.com");
    let id = placed["order"]["id"].as_i64().unwrap();
    assert_eq!(
        call(
            &db,
            "GET",
            &format!("/api/v1/orders/{id}"),
            &ana,
            Value::Null
        )
        .await
        .0,
        StatusCode::OK
    );
    assert_eq!(
        call(
            &db,
            "GET",
            &format!("/api/v1/orders/{id}"),
            &ben,
            Value::Null
        )
        .await
        .0,
        StatusCode::NOT_FOUND
    );
    let (_, list) = call(&db, "GET", "/api/v1/user/orders", &ana, Value::Null).await;
    assert_eq!(
        (list["total"].as_i64(), list["orders"][0]["id"].as_i64()),
        (Some(1), Some(id))
    );
    assert_eq!(
        call(&db, "GET", "/api/v1/user/orders", &ben, Value::Null)
            .await
            .1["total"],
        0
    );
    assert_eq!(
        call(&db, "GET", "/api/v1/user/orders", &guest, Value::Null)
            .await
            .0,
        StatusCode::UNAUTHORIZED
    );
}
both!(who_sees_an_order);
