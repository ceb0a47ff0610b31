//! Paying online, on SQLite and PostgreSQL, against the PayMongo simulator
//! (`fixtures::paymongo`): an order paid online awaits its payment and is given one Checkout
//! Session however often it is submitted; PayMongo's signed webhook alone places it, once; a
//! forged, replayed or wrong-amount event changes nothing or is flagged; a gateway out of reach
//! keeps the order and says so; a store without keys takes cash only.

// A test tells one story from start to end: it may run past a screen.
#![allow(clippy::too_many_lines)]

use crate::support;

use actix_web::http::StatusCode;
use diesel::prelude::*;
use fixtures::paymongo::{self, Simulator};
use serde_json::{json, Value};
use support::{checkout, guest_with_a_case, json_request, mails_queued_to, Backend, Res, TestDb};

const EVENTS: &str = "/api/v1/payments/paymongo/events";

/// A simulator on a free loopback port, its events delivered by the tests.
fn simulator() -> Simulator {
    Simulator::start("127.0.0.1:0", None).expect("the simulator starts")
}

/// The store's PayMongo account at `sim`.
fn account_at(sim: &Simulator) -> api::payments::PayMongo {
    api::payments::PayMongo::new(
        paymongo::SECRET_KEY,
        paymongo::WEBHOOK_SECRET,
        Some("gcash,paymaya,qrph,card"),
    )
    .unwrap()
    .at(&sim.url)
}

/// The API with `account` (none: cash only), `testdate` allowed and the store told of orders.
fn config(account: Option<api::payments::PayMongo>) -> framework::ApiConfig {
    let mut config = framework::ApiConfig {
        allow_testdate: true,
        ..framework::ApiConfig::default()
    };
    config
        .settings
        .insert(api::orders::OrdersTo("orders@tala.example".into()));
    if let Some(account) = account {
        config.settings.insert(account);
    }
    config
}

async fn send(
    db: &TestDb,
    account: Option<&api::payments::PayMongo>,
    req: actix_web::test::TestRequest,
) -> Res {
    support::send_api_configured(
        &db.pool,
        &std::env::temp_dir().join("store-test-outbox"),
        config(account.cloned()),
        req,
    )
    .await
}

/// A guest's case of bottles ordered with Ana's form, paid online: the answer.
async fn order_online(
    db: &TestDb,
    account: Option<&api::payments::PayMongo>,
) -> (String, Value, Res) {
    let (token, cart) = guest_with_a_case(db).await;
    let mut form = checkout(&cart);
    form["payment"] = json!("online");
    let r = send(
        db,
        account,
        json_request("POST", "/api/v1/orders", &token, form.clone()),
    )
    .await;
    (token, form, r)
}

/// PayMongo's delivery of an event (`body`, signed `signature`).
async fn deliver(
    db: &TestDb,
    account: &api::payments::PayMongo,
    (body, signature): &(String, String),
) -> Res {
    let req = actix_web::test::TestRequest::post()
        .uri(EVENTS)
        .insert_header(("content-type", "application/json"))
        .insert_header(("paymongo-signature", signature.as_str()))
        .set_payload(body.clone());
    send(db, Some(account), req).await
}

fn order_status(db: &TestDb, id: i64) -> (String, String) {
    use db::schema::orders;
    let mut conn = db.pool.get().unwrap();
    orders::table
        .find(id)
        .select((orders::status, orders::payment))
        .first(&mut *conn)
        .unwrap()
}

fn payments_of(db: &TestDb, id: i64) -> Vec<db::payments::PaymentRow> {
    let mut conn = db.pool.get().unwrap();
    db::payments::of_order(&mut conn, id).unwrap()
}

async fn paid_by_its_webhook_once(backend: Backend) {
    let db = support::database(backend);
    let sim = simulator();
    let account = account_at(&sim);
    let (token, form, r) = order_online(&db, Some(&account)).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text());
    let placed = r.json();
    let order = &placed["order"];
    let id = order["id"].as_i64().unwrap();
    assert_eq!(order["status"], "awaiting_payment");
    assert_eq!(order["status_label"], "Awaiting payment");
    assert_eq!(order["payment"], "Pay online");
    let pay_url = placed["pay_url"]
        .as_str()
        .expect("a page to pay on")
        .to_string();
    assert!(pay_url.starts_with(&sim.url), "{pay_url}");
    assert!(
        placed["message"]
            .as_str()
            .unwrap()
            .contains("waits for your payment"),
        "{placed}"
    );
    {
        let books = sim.books.lock().unwrap();
        assert_eq!(books.created.len(), 1);
        let asked = &books.created[0]["data"]["attributes"];
        assert_eq!(asked["reference_number"], order["number"]);
        let sum: i64 = asked["line_items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["amount"].as_i64().unwrap() * l["quantity"].as_i64().unwrap())
            .sum();
        assert_eq!(sum, order["total"].as_i64().unwrap());
        assert!(asked["success_url"]
            .as_str()
            .unwrap()
            .ends_with(placed["link"].as_str().unwrap()));
    }
    // The shopper is told the order awaits payment; the store hears of it once it is paid.
    assert_eq!(mails_queued_to(&db, "ana@example.com"), 1);
    assert_eq!(mails_queued_to(&db, "orders@tala.example"), 0);

    // Submit Order again (a double click, a retry): the same order and the same session.
    let again = send(
        &db,
        Some(&account),
        json_request("POST", "/api/v1/orders", &token, form),
    )
    .await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text());
    assert_eq!(again.json()["order"]["id"], id);
    assert_eq!(again.json()["pay_url"], json!(pay_url));
    assert_eq!(sim.books.lock().unwrap().created.len(), 1);

    // Paid with GCash: PayMongo's event places the order.
    let session = pay_url.rsplit('/').next().unwrap().to_string();
    let event = sim.pay(&session, "gcash", None);
    let r = deliver(&db, &account, &event).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(r.json()["taken"], true);
    assert_eq!(
        order_status(&db, id),
        ("placed".into(), "Paid online (GCash)".into())
    );
    let paid = payments_of(&db, id);
    assert_eq!(paid.len(), 1);
    assert_eq!(paid[0].amount, order["total"].as_i64().unwrap());
    assert_eq!(paid[0].method, "gcash");
    assert_eq!(paid[0].problem, "");
    assert_eq!(mails_queued_to(&db, "ana@example.com"), 2);
    assert_eq!(mails_queued_to(&db, "orders@tala.example"), 1);
    let link = placed["link"]
        .as_str()
        .unwrap()
        .replace("/active-order/", "/api/v1/orders/");
    let seen = send(&db, None, json_request("GET", &link, "", Value::Null)).await;
    let seen = seen.json();
    let history: Vec<&str> = seen["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["status"].as_str().unwrap())
        .collect();
    assert_eq!(history, ["awaiting_payment", "placed"]);

    // The same event again (PayMongo retries, or someone replays it): nothing changes.
    let r = deliver(&db, &account, &event).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.json()["taken"], false);
    assert_eq!(payments_of(&db, id).len(), 1);
    assert_eq!(mails_queued_to(&db, "orders@tala.example"), 1);
}
both!(paid_by_its_webhook_once);

async fn forged_and_wrong_events_change_nothing(backend: Backend) {
    let db = support::database(backend);
    let sim = simulator();
    let account = account_at(&sim);
    let (_, _, r) = order_online(&db, Some(&account)).await;
    let placed = r.json();
    let id = placed["order"]["id"].as_i64().unwrap();
    let session = placed["pay_url"]
        .as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .to_string();

    // Paid less than the order: recorded, flagged for a refund, the order still unpaid.
    let (body, signature) = sim.pay(&session, "card", Some(100));
    // Forged: the same body signed with another secret, a changed body, no header, a stale time,
    // the right signature given as a live event's to a store in test mode.
    let t = domain::calendar::unix_now();
    let forged = paymongo::signature("whsk_guess", t, body.as_bytes());
    let changed = body.replace("\"amount\":100", "\"amount\":999999");
    let stale = paymongo::signature(paymongo::WEBHOOK_SECRET, t - 3600, body.as_bytes());
    let right = paymongo::signature(paymongo::WEBHOOK_SECRET, t, body.as_bytes());
    let hex = right.split("te=").nth(1).unwrap().trim_end_matches(",li=");
    for (what, b, sig) in [
        ("another secret", body.clone(), forged),
        ("a changed body", changed, signature.clone()),
        ("no signature", body.clone(), String::new()),
        ("an hour old", body.clone(), stale),
        (
            "live for a test store",
            body.clone(),
            format!("t={t},te=,li={hex}"),
        ),
    ] {
        let r = deliver(&db, &account, &(b, sig)).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{what}: {}", r.text());
        assert!(payments_of(&db, id).is_empty(), "{what}");
    }
    let r = deliver(&db, &account, &(body, signature)).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(r.json()["taken"], true);
    assert_eq!(order_status(&db, id).0, "awaiting_payment");
    let flagged = payments_of(&db, id);
    assert_eq!(flagged.len(), 1);
    assert!(flagged[0].problem.contains("refund"), "{:?}", flagged[0]);
    assert_eq!(mails_queued_to(&db, "orders@tala.example"), 0);

    // An event of a session this store never made, and one of another kind: acknowledged,
    // nothing taken.
    let strange = paymongo::event(
        "evt_strange",
        "checkout_session.payment.paid",
        &json!({"id": "cs_elsewhere", "attributes": {"payments": [{"id": "pay_x",
            "attributes": {"amount": 100, "currency": "PHP", "status": "paid"}}]}}),
    );
    let r = deliver(&db, &account, &paymongo::signed(&strange)).await;
    assert_eq!(
        (r.status, r.json()["taken"].clone()),
        (StatusCode::OK, json!(false))
    );
    let other = paymongo::event("evt_other", "payment.failed", &json!({"id": "pay_y"}));
    let r = deliver(&db, &account, &paymongo::signed(&other)).await;
    assert_eq!(
        (r.status, r.json()["taken"].clone()),
        (StatusCode::OK, json!(false))
    );
    // Not JSON at all, though signed.
    let r = deliver(&db, &account, &paymongo::signed(&json!("text"))).await;
    assert_eq!(r.status, StatusCode::BAD_REQUEST, "{}", r.text());
}
both!(forged_and_wrong_events_change_nothing);

async fn a_gateway_out_of_reach_keeps_the_order(backend: Backend) {
    let db = support::database(backend);
    // Nothing listens on port 9 of loopback: the connection is refused at once.
    let account = account_at(&simulator()).at("http://127.0.0.1:9");
    let (_, _, r) = order_online(&db, Some(&account)).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text());
    let placed = r.json();
    assert_eq!(placed["order"]["status"], "awaiting_payment");
    assert_eq!(placed["pay_url"], Value::Null);
    let message = placed["message"].as_str().unwrap();
    assert!(
        message.contains(api::payments::online::UNREACHABLE),
        "{message}"
    );
    assert!(!message.contains("sk_test"), "{message}");
}
both!(a_gateway_out_of_reach_keeps_the_order);

async fn a_store_without_keys_takes_cash_only(backend: Backend) {
    let db = support::database(backend);
    let (_, _, r) = order_online(&db, None).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text());
    assert!(
        r.text().contains(api::payments::NOT_OFFERED),
        "{}",
        r.text()
    );
    assert_eq!(support::orders_placed(&db), 0);
    let sim = simulator();
    let event = paymongo::signed(&paymongo::event("evt_1", "payment.paid", &json!({})));
    let req = actix_web::test::TestRequest::post()
        .uri(EVENTS)
        .insert_header(("content-type", "application/json"))
        .insert_header(("paymongo-signature", event.1.as_str()))
        .set_payload(event.0.clone());
    let r = send(&db, None, req).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text());
    drop(sim);
    // Cash stays the default: an order without a payment choice is placed as before.
    let (token, cart) = guest_with_a_case(&db).await;
    let r = send(
        &db,
        None,
        json_request("POST", "/api/v1/orders", &token, checkout(&cart)),
    )
    .await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text());
    assert_eq!(r.json()["order"]["status"], "placed");
    assert_eq!(r.json()["pay_url"], Value::Null);
}
both!(a_store_without_keys_takes_cash_only);

/// The key of a guest's order link (`/active-order/7?key=…`).
fn key_of(placed: &Value) -> String {
    let link = placed["link"].as_str().unwrap();
    link.split("key=").nth(1).unwrap().to_string()
}

fn session_id(pay_url: &Value) -> String {
    pay_url
        .as_str()
        .unwrap()
        .rsplit('/')
        .next()
        .unwrap()
        .to_string()
}

async fn pay_now_finds_a_late_payment_and_makes_the_next_session(backend: Backend) {
    let db = support::database(backend);
    let sim = simulator();
    let account = account_at(&sim);
    let (token, _, r) = order_online(&db, Some(&account)).await;
    let placed = r.json();
    let id = placed["order"]["id"].as_i64().unwrap();
    let key = key_of(&placed);
    let pay = format!("/api/v1/orders/{id}/pay");

    // PayMongo expired the first session: Pay Now makes the second, with its own key.
    let first = session_id(&placed["pay_url"]);
    sim.books.lock().unwrap().sessions.get_mut(&first).unwrap()["attributes"]["status"] =
        json!("expired");
    let r = send(
        &db,
        Some(&account),
        json_request("POST", &pay, &token, json!({"key": key})),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let second = session_id(&r.json()["pay_url"]);
    assert_ne!(first, second);
    assert_eq!(sim.books.lock().unwrap().created.len(), 2);

    // Paid in the second, its webhook not come yet: Pay Now reads the payment from PayMongo and
    // the order is placed.
    let event = sim.pay(&second, "paymaya", None);
    let r = send(
        &db,
        Some(&account),
        json_request("POST", &pay, &token, json!({"key": key})),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let answer = r.json();
    assert_eq!(answer["order"]["status"], "placed", "{answer}");
    assert_eq!(answer["order"]["payment"], "Paid online (Maya)");
    assert_eq!(answer["pay_url"], Value::Null);
    assert!(answer["message"]
        .as_str()
        .unwrap()
        .contains("We received your payment"));
    assert_eq!(mails_queued_to(&db, "orders@tala.example"), 1);
    // The webhook, late, changes nothing more.
    let r = deliver(&db, &account, &event).await;
    assert_eq!(r.json()["taken"], false);
    assert_eq!(payments_of(&db, id).len(), 1);
    assert_eq!(mails_queued_to(&db, "orders@tala.example"), 1);
    // Paid: Pay Now again is a conflict, and another guest's key finds no order.
    let r = send(
        &db,
        Some(&account),
        json_request("POST", &pay, &token, json!({"key": key})),
    )
    .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text());
    let stranger = support::guest(&db).await;
    let wrong = "0".repeat(40);
    let r = send(
        &db,
        Some(&account),
        json_request("POST", &pay, &stranger, json!({"key": wrong})),
    )
    .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text());
}
both!(pay_now_finds_a_late_payment_and_makes_the_next_session);

async fn cash_instead_expires_the_session(backend: Backend) {
    let db = support::database(backend);
    let sim = simulator();
    let account = account_at(&sim);
    let (token, _, r) = order_online(&db, Some(&account)).await;
    let placed = r.json();
    let id = placed["order"]["id"].as_i64().unwrap();
    let key = key_of(&placed);
    let session = session_id(&placed["pay_url"]);
    let cash = format!("/api/v1/orders/{id}/cash");
    let r = send(
        &db,
        Some(&account),
        json_request("POST", &cash, &token, json!({"key": key})),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(r.json()["order"]["status"], "placed");
    assert_eq!(r.json()["order"]["payment"], "Cash on delivery");
    assert_eq!(
        sim.books.lock().unwrap().sessions[&session]["attributes"]["status"],
        "expired"
    );
    assert_eq!(mails_queued_to(&db, "orders@tala.example"), 1);
    // A second press: the order no longer waits for a payment.
    let r = send(
        &db,
        Some(&account),
        json_request("POST", &cash, &token, json!({"key": key})),
    )
    .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text());
    // Paid online all the same (the page was open in another tab): flagged for a refund.
    let event = sim.pay(&session, "gcash", None);
    let r = deliver(&db, &account, &event).await;
    assert_eq!(r.json()["taken"], true);
    let paid = payments_of(&db, id);
    assert!(paid[0].problem.contains("refund"), "{:?}", paid[0]);
    assert_eq!(
        order_status(&db, id),
        ("placed".into(), "Cash on delivery".into())
    );
    // A cash order from the start is no order to pay online.
    let (token, cart) = guest_with_a_case(&db).await;
    let r = send(
        &db,
        Some(&account),
        json_request("POST", "/api/v1/orders", &token, checkout(&cart)),
    )
    .await;
    let other = r.json();
    let pay = format!("/api/v1/orders/{}/pay", other["order"]["id"]);
    let r = send(
        &db,
        Some(&account),
        json_request("POST", &pay, &token, json!({"key": key_of(&other)})),
    )
    .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text());
}
both!(cash_instead_expires_the_session);

/// The checkout and the order's page without JavaScript: Submit Order paying online answers 303
/// to PayMongo's page; the order's page says it waits for its payment, and its Pay Now and Pay in
/// Cash forms land on PayMongo's page and back on the order.
async fn without_javascript_the_forms_go_to_paymongo_and_back(backend: Backend) {
    let db = support::database(backend);
    let sim = simulator();
    let mut cfg = support::store_config(&db.url, false);
    cfg.paymongo = Some(account_at(&sim));
    let store = store!(db, cfg);
    let browser = support::guest_browser(&db, 1, 24).await;
    let token = browser.session.clone();
    let cookie = format!("session={token}; cart={}", browser.cart());
    let csrf = framework::session::csrf_token(&token);
    let mut fields: Vec<(String, String)> = checkout(&browser.added.json())
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| {
            (
                k.clone(),
                v.as_str().map_or_else(|| v.to_string(), str::to_string),
            )
        })
        .collect();
    fields.extend([
        ("_call".to_string(), "placeOrder".to_string()),
        ("csrf".to_string(), csrf.clone()),
        ("payment".to_string(), "online".to_string()),
    ]);
    let pairs: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let r = send!(
        store,
        support::post_form("/checkout", &cookie, &support::form_body(&pairs))
            .insert_header(("origin", support::SHOP))
    );
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    let pay_url = support::location(&r).to_string();
    assert!(
        pay_url.starts_with(&format!("{}/pay/cs_sim", sim.url)),
        "{pay_url}"
    );
    let (id, key) = {
        use db::schema::orders;
        let mut conn = db.pool.get().unwrap();
        let id: i64 = orders::table.select(orders::id).first(&mut *conn).unwrap();
        let cs = db::payments::newest_session(&mut conn, id)
            .unwrap()
            .unwrap();
        assert_eq!(cs.url, pay_url);
        let created = &sim.books.lock().unwrap().created[0];
        let back = created["data"]["attributes"]["success_url"]
            .as_str()
            .unwrap()
            .to_string();
        (id, back.split("key=").nth(1).unwrap().to_string())
    };
    let page = format!("/active-order/{id}?key={key}");
    let r = send!(store, support::get(&page, ""));
    assert_eq!(r.status, StatusCode::OK);
    let html = r.text();
    assert!(html.contains("Waiting for your payment"), "{html}");
    assert!(html.contains("Pay Cash on Delivery Instead"), "{html}");

    // Pay Now from another browser that holds the link alone (no session yet): PayMongo's page.
    let body = support::form_body(&[
        ("_call", "payOrder"),
        ("form", "pay-now"),
        ("orderId", &id.to_string()),
        ("key", &key),
    ]);
    let r = send!(
        store,
        support::post_form(&page, "", &body).insert_header(("origin", support::SHOP))
    );
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    assert_eq!(support::location(&r), pay_url);
    // Pay in Cash: back on the order, placed.
    let body = support::form_body(&[
        ("_call", "payInCash"),
        ("csrf", &csrf),
        ("form", "pay-cash"),
        ("orderId", &id.to_string()),
        ("key", &key),
    ]);
    let r = send!(
        store,
        support::post_form(&page, &cookie, &body).insert_header(("origin", support::SHOP))
    );
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    assert_eq!(support::location(&r), page);
    assert_eq!(
        order_status(&db, id),
        ("placed".into(), "Cash on delivery".into())
    );
    let html = send!(store, support::get(&page, "")).text();
    assert!(!html.contains("Waiting for your payment"));
    // Another site's form cannot press Pay in Cash.
    let r = send!(
        store,
        support::post_form(&page, &cookie, &body).insert_header(("origin", "https://evil.example"))
    );
    assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.text());
}
both!(without_javascript_the_forms_go_to_paymongo_and_back);

/// Sets order `id` as placed `minutes` ago.
fn placed_ago(db: &TestDb, id: i64, minutes: i64) {
    use db::schema::orders;
    let mut conn = db.pool.get().unwrap();
    diesel::update(orders::table.find(id))
        .set(orders::placed_at.eq(domain::calendar::unix_now() - minutes * 60))
        .execute(&mut *conn)
        .unwrap();
}

async fn an_order_never_paid_is_cancelled_and_a_late_payment_flagged(backend: Backend) {
    let db = support::database(backend);
    let sim = simulator();
    let account = account_at(&sim).within(30);
    let outbox = std::env::temp_dir().join("store-test-outbox");
    let (_, _, r) = order_online(&db, Some(&account)).await;
    let placed = r.json();
    let id = placed["order"]["id"].as_i64().unwrap();
    let session = session_id(&placed["pay_url"]);
    let state = support::api_state(&db.pool, &outbox, config(Some(account.clone())));
    // Within its time it waits.
    placed_ago(&db, id, 29);
    assert_eq!(
        api::payments::expiry::expire_unpaid(&state).await.unwrap(),
        0
    );
    assert_eq!(order_status(&db, id).0, "awaiting_payment");
    // PayMongo out of reach: the session cannot be expired, so the order is not cancelled yet.
    placed_ago(&db, id, 31);
    let away = support::api_state(
        &db.pool,
        &outbox,
        config(Some(account.clone().at("http://127.0.0.1:9"))),
    );
    assert_eq!(
        api::payments::expiry::expire_unpaid(&away).await.unwrap(),
        0
    );
    assert_eq!(order_status(&db, id).0, "awaiting_payment");
    // Past its time: the session expired at PayMongo, the order cancelled with why, the shopper
    // told; a second run finds nothing.
    assert_eq!(
        api::payments::expiry::expire_unpaid(&state).await.unwrap(),
        1
    );
    assert_eq!(order_status(&db, id).0, "cancelled");
    assert_eq!(
        sim.books.lock().unwrap().sessions[&session]["attributes"]["status"],
        "expired"
    );
    let seen = send(
        &db,
        None,
        json_request(
            "GET",
            &placed["link"]
                .as_str()
                .unwrap()
                .replace("/active-order/", "/api/v1/orders/"),
            "",
            Value::Null,
        ),
    )
    .await
    .json();
    assert_eq!(
        seen["history"][1]["note"],
        "Not paid online within 30 minutes."
    );
    assert_eq!(mails_queued_to(&db, "ana@example.com"), 2);
    assert_eq!(
        api::payments::expiry::expire_unpaid(&state).await.unwrap(),
        0
    );
    // Pay Now on a cancelled order: it no longer waits for a payment.
    let r = send(
        &db,
        Some(&account),
        json_request(
            "POST",
            &format!("/api/v1/orders/{id}/pay"),
            "",
            json!({"key": key_of(&placed)}),
        ),
    )
    .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text());
    // A payment made in the last second still arrives: recorded and flagged, never kept.
    let event = sim.pay(&session, "qrph", None);
    let r = deliver(&db, &account, &event).await;
    assert_eq!(r.json()["taken"], true);
    assert_eq!(order_status(&db, id).0, "cancelled");
    assert!(payments_of(&db, id)[0].problem.contains("cancelled"));
}
both!(an_order_never_paid_is_cancelled_and_a_late_payment_flagged);

/// A payment whose event never came (lost, or refused on the way) is found when the order's time
/// is up: the order is placed, not cancelled under a shopper who paid.
async fn a_payment_whose_event_never_came_is_found_before_cancelling(backend: Backend) {
    let db = support::database(backend);
    let sim = simulator();
    let account = account_at(&sim);
    let outbox = std::env::temp_dir().join("store-test-outbox");
    let (_, _, r) = order_online(&db, Some(&account)).await;
    let placed = r.json();
    let id = placed["order"]["id"].as_i64().unwrap();
    let _never_delivered = sim.pay(&session_id(&placed["pay_url"]), "gcash", None);
    placed_ago(&db, id, 61);
    let state = support::api_state(&db.pool, &outbox, config(Some(account)));
    assert_eq!(
        api::payments::expiry::expire_unpaid(&state).await.unwrap(),
        0
    );
    assert_eq!(
        order_status(&db, id),
        ("placed".into(), "Paid online (GCash)".into())
    );
    assert_eq!(mails_queued_to(&db, "orders@tala.example"), 1);
}
both!(a_payment_whose_event_never_came_is_found_before_cancelling);

/// An event of a large order (every line of a paid session) is read whole: a body larger than
/// any form's, within the webhook's own limit.
async fn a_large_event_is_taken(backend: Backend) {
    let db = support::database(backend);
    let sim = simulator();
    let account = account_at(&sim);
    let (_, _, r) = order_online(&db, Some(&account)).await;
    let placed = r.json();
    let id = placed["order"]["id"].as_i64().unwrap();
    let session = session_id(&placed["pay_url"]);
    // PayMongo's session as it sends it, with 200 lines' worth of description besides.
    sim.books
        .lock()
        .unwrap()
        .sessions
        .get_mut(&session)
        .unwrap()["attributes"]["description"] = json!("x".repeat(40_000));
    let event = sim.pay(&session, "card", None);
    assert!(event.0.len() > 40_000);
    let r = deliver(&db, &account, &event).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(order_status(&db, id).0, "placed");
    // Past the webhook's limit: refused as too large, nothing taken.
    let huge = paymongo::signed(
        &json!({"data": {"id": "evt_huge", "attributes": {"type": "x", "data": "y".repeat(api::payments::webhook::MOST_EVENT)}}}),
    );
    let r = deliver(&db, &account, &huge).await;
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", r.text());
}
both!(a_large_event_is_taken);

/// PayMongo answering slower than the store waits: the order is kept, the shopper told, and the
/// order's page (the page form's landing) says so.
async fn a_slow_gateway_is_given_up_on(backend: Backend) {
    let db = support::database(backend);
    let sim = simulator();
    sim.books.lock().unwrap().stall = Some(std::time::Duration::from_secs(3));
    let account = account_at(&sim).waiting(std::time::Duration::from_millis(500));
    let (_, _, r) = order_online(&db, Some(&account)).await;
    assert_eq!(r.status, StatusCode::CREATED, "{}", r.text());
    let placed = r.json();
    assert_eq!(placed["order"]["status"], "awaiting_payment");
    assert_eq!(placed["pay_url"], Value::Null);
    assert!(placed["message"]
        .as_str()
        .unwrap()
        .contains(api::payments::online::UNREACHABLE));
    assert!(placed["link"]
        .as_str()
        .unwrap()
        .ends_with("&notice=pay-unreachable"));
}
both!(a_slow_gateway_is_given_up_on);

/// Pay in Cash pressed by a shopper who had paid online, the event not come yet: the payment is
/// found at PayMongo and taken, and nothing is owed in cash. With PayMongo out of reach, nothing
/// is switched (the shopper might have paid).
async fn cash_instead_after_paying_online_takes_the_payment(backend: Backend) {
    let db = support::database(backend);
    let sim = simulator();
    let account = account_at(&sim);
    let (token, _, r) = order_online(&db, Some(&account)).await;
    let placed = r.json();
    let id = placed["order"]["id"].as_i64().unwrap();
    let key = key_of(&placed);
    let cash = format!("/api/v1/orders/{id}/cash");
    // PayMongo out of reach: 502, the order still waits.
    let away = account.clone().at("http://127.0.0.1:9");
    let r = send(
        &db,
        Some(&away),
        json_request("POST", &cash, &token, json!({"key": key})),
    )
    .await;
    assert_eq!(r.status, StatusCode::BAD_GATEWAY, "{}", r.text());
    assert!(r.text().contains("not switched to cash"), "{}", r.text());
    assert_eq!(order_status(&db, id).0, "awaiting_payment");
    // Paid at PayMongo, the event lost: Pay in Cash finds it.
    let _lost = sim.pay(&session_id(&placed["pay_url"]), "grab_pay", None);
    let r = send(
        &db,
        Some(&account),
        json_request("POST", &cash, &token, json!({"key": key})),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let answer = r.json();
    assert_eq!(answer["order"]["payment"], "Paid online (GrabPay)");
    assert!(answer["message"]
        .as_str()
        .unwrap()
        .contains("nothing is to be paid in cash"));
    assert_eq!(payments_of(&db, id).len(), 1);
    assert_eq!(payments_of(&db, id)[0].problem, "");
}
both!(cash_instead_after_paying_online_takes_the_payment);

/// A dispatcher cancels an order awaiting its payment: its PayMongo page is expired within the
/// minute, and a payment made there before is flagged.
async fn a_cancelled_orders_session_is_expired(backend: Backend) {
    let db = support::database(backend);
    let sim = simulator();
    let account = account_at(&sim);
    let (_, _, r) = order_online(&db, Some(&account)).await;
    let placed = r.json();
    let id = placed["order"]["id"].as_i64().unwrap();
    let session = session_id(&placed["pay_url"]);
    {
        let mut conn = db.pool.get().unwrap();
        let now = domain::calendar::unix_now();
        assert!(db::staff::set_status(
            &mut conn,
            id,
            "awaiting_payment",
            "cancelled",
            now,
            "Asked by phone"
        )
        .unwrap());
    }
    let outbox = std::env::temp_dir().join("store-test-outbox");
    let state = support::api_state(&db.pool, &outbox, config(Some(account)));
    assert_eq!(
        api::payments::expiry::expire_unpaid(&state).await.unwrap(),
        0
    );
    assert_eq!(
        sim.books.lock().unwrap().sessions[&session]["attributes"]["status"],
        "expired"
    );
    let mut conn = db.pool.get().unwrap();
    assert_eq!(
        db::payments::newest_session(&mut conn, id)
            .unwrap()
            .unwrap()
            .state,
        "expired"
    );
}
both!(a_cancelled_orders_session_is_expired);

/// The back office: the board says how each order is paid and filters by it; a run's stop of an
/// order paid online collects nothing, so the rider's cash adds up; the day report adds the
/// online payments by method and lists those to refund.
async fn the_back_office_sees_how_each_order_is_paid(backend: Backend) {
    let db = support::database(backend);
    let sim = simulator();
    let account = account_at(&sim);
    // Paid online with GCash.
    let (_, _, r) = order_online(&db, Some(&account)).await;
    let paid = r.json();
    let paid_id = paid["order"]["id"].as_i64().unwrap();
    let total = paid["order"]["total"].as_i64().unwrap();
    let event = sim.pay(&session_id(&paid["pay_url"]), "gcash", None);
    assert_eq!(deliver(&db, &account, &event).await.json()["taken"], true);
    // Paid short: flagged, the order still awaits its payment.
    let (_, _, r) = order_online(&db, Some(&account)).await;
    let short = r.json();
    let short_id = short["order"]["id"].as_i64().unwrap();
    let event = sim.pay(&session_id(&short["pay_url"]), "card", Some(100));
    assert_eq!(deliver(&db, &account, &event).await.json()["taken"], true);
    // In cash.
    let (token, cart) = guest_with_a_case(&db).await;
    let r = send(
        &db,
        None,
        json_request("POST", "/api/v1/orders", &token, checkout(&cart)),
    )
    .await;
    let cash_id = r.json()["order"]["id"].as_i64().unwrap();

    let dora = support::staff::Staff::signed_in(&db, "dora@tala.example", "dispatcher").await;
    let ben = support::staff::Staff::signed_in(&db, "ben@tala.example", "rider").await;
    let board = |query: &'static str| {
        let dora = &dora;
        async move {
            let r = dora
                .send("GET", &format!("/api/v1/staff/orders{query}"), None)
                .await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.text());
            r.json()["orders"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| {
                    (
                        o["id"].as_i64().unwrap(),
                        o["payment"].as_str().unwrap().to_string(),
                    )
                })
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(
        board("").await,
        [
            (cash_id, "Cash on delivery".to_string()),
            (short_id, "Pay online".to_string()),
            (paid_id, "Paid online (GCash)".to_string()),
        ]
    );
    let ids = |rows: Vec<(i64, String)>| rows.into_iter().map(|(id, _)| id).collect::<Vec<_>>();
    assert_eq!(ids(board("?paid=online").await), [short_id, paid_id]);
    assert_eq!(ids(board("?paid=cash").await), [cash_id]);
    assert_eq!(
        dora.send("GET", "/api/v1/staff/orders?paid=card", None)
            .await
            .status,
        StatusCode::BAD_REQUEST
    );
    // An order awaiting its payment cannot be confirmed by hand.
    let r = dora
        .send(
            "POST",
            "/api/v1/staff/orders/status",
            Some(json!({"order_ids": [short_id], "status": "confirmed"})),
        )
        .await;
    assert!(r.status.is_client_error(), "{}", r.text());

    // A run of the paid order and the cash one: the paid stop collects nothing.
    let r = dora
        .send(
            "POST",
            "/api/v1/staff/orders/status",
            Some(json!({"order_ids": [paid_id, cash_id], "status": "confirmed"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let runs = dora.send("GET", "/api/v1/staff/runs", None).await.json();
    let today = runs["today"].clone();
    let r = dora
        .send(
            "POST",
            "/api/v1/staff/runs",
            Some(json!({"rider_id": ben.id, "day": today, "order_ids": [paid_id, cash_id]})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let run = r.json()["run_id"].as_i64().unwrap();
    let view = dora
        .send("GET", &format!("/api/v1/staff/runs/{run}"), None)
        .await
        .json();
    let stop = |id: i64| {
        view["stops"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["order_id"] == id)
            .unwrap()
            .clone()
    };
    assert_eq!(
        (
            stop(paid_id)["total"].clone(),
            stop(paid_id)["paid_online"].clone()
        ),
        (json!(0), json!(total))
    );
    assert_eq!(
        (
            stop(cash_id)["total"].clone(),
            stop(cash_id)["paid_online"].clone()
        ),
        (json!(157_800), json!(0))
    );
    assert_eq!(view["totals"]["cash_expected"], 157_800, "{view}");

    // The day: GCash's payment taken, the short one to refund.
    let day = dora.send("GET", "/api/v1/staff/day", None).await.json();
    assert_eq!(
        day["online"],
        json!([{"method": "GCash", "payments": 1, "amount": total}]),
        "{day}"
    );
    assert_eq!(day["online_received"], total);
    assert_eq!(day["to_refund"].as_array().unwrap().len(), 1, "{day}");
    assert_eq!(day["to_refund"][0]["order_id"], short_id);
    assert!(day["to_refund"][0]["reason"]
        .as_str()
        .unwrap()
        .contains("refund it"));
}
both!(the_back_office_sees_how_each_order_is_paid);

/// A member of staff's call with the store's PayMongo `account`.
async fn staff_call(
    db: &TestDb,
    account: &api::payments::PayMongo,
    who: &support::staff::Staff<'_>,
    method: &str,
    uri: &str,
    body: Option<Value>,
) -> Res {
    let mut req = match method {
        "GET" => actix_web::test::TestRequest::get(),
        _ => actix_web::test::TestRequest::post(),
    }
    .uri(uri)
    .insert_header(("origin", "http://localhost:8080"));
    if let Some(c) = &who.cookie {
        req = req.insert_header(("cookie", format!("{}={c}", api::staff::COOKIE)));
    }
    if let Some(b) = body {
        req = req.set_json(b);
    }
    send(db, Some(account), req).await
}

fn refund_uri(payment: &str) -> String {
    format!("/api/v1/staff/payments/{payment}/refund")
}

/// The refund kept of `payment`.
fn refund_row(db: &TestDb, payment: &str) -> db::payments::RefundRow {
    let mut conn = db.pool.get().unwrap();
    db::payments::refund_of(&mut conn, payment)
        .unwrap()
        .expect("a refund kept")
}

/// A payment not taken as its order's (paid short) is refunded by a manager through PayMongo,
/// whole and once: dispatchers cannot, a reason is one of PayMongo's, a second press is refused,
/// PayMongo's event moves it to refunded (once), it is in the audit log, and the day report shows
/// it refunded instead of to refund.
async fn a_manager_refunds_a_flagged_payment_once(backend: Backend) {
    let db = support::database(backend);
    let sim = simulator();
    let account = account_at(&sim);
    let (_, _, r) = order_online(&db, Some(&account)).await;
    let short = r.json();
    let id = short["order"]["id"].as_i64().unwrap();
    let event = sim.pay(&session_id(&short["pay_url"]), "card", Some(5_000));
    assert_eq!(deliver(&db, &account, &event).await.json()["taken"], true);
    let payment = payments_of(&db, id)[0].id.clone();

    let mia = support::staff::Staff::signed_in(&db, "mia@tala.example", "manager").await;
    let dora = support::staff::Staff::signed_in(&db, "dora@tala.example", "dispatcher").await;
    let page = staff_call(
        &db,
        &account,
        &dora,
        "GET",
        &format!("/api/v1/staff/orders/{id}"),
        None,
    )
    .await
    .json();
    assert_eq!(page["payments"][0]["id"], payment.as_str(), "{page}");
    assert_eq!(page["payments"][0]["amount"], 5_000);
    assert_eq!(page["payments"][0]["refundable"], true);
    assert_eq!(page["payments"][0]["refund"], Value::Null);

    let asked = json!({"reason": "requested_by_customer", "notes": "Paid short; asked by phone"});
    // A dispatcher does not refund; nor does anyone with a reason PayMongo does not take or a note
    // that is not one line; nor a payment that does not exist.
    let r = staff_call(
        &db,
        &account,
        &dora,
        "POST",
        &refund_uri(&payment),
        Some(asked.clone()),
    )
    .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text());
    for (body, field) in [
        (json!({"reason": "changed_mind"}), "reason"),
        (json!({"reason": ""}), "reason"),
        (json!({"reason": "others", "notes": "two\nlines"}), "notes"),
        (
            json!({"reason": "others", "notes": "x".repeat(256)}),
            "notes",
        ),
    ] {
        let r = staff_call(
            &db,
            &account,
            &mia,
            "POST",
            &refund_uri(&payment),
            Some(body),
        )
        .await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text());
        assert!(r.json()["errors"][field].is_array(), "{}", r.text());
    }
    let r = staff_call(
        &db,
        &account,
        &mia,
        "POST",
        &refund_uri("pay_nothing"),
        Some(asked.clone()),
    )
    .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text());
    assert_eq!(sim.books.lock().unwrap().refund_calls, 0);

    // The manager refunds it: PayMongo makes it (pending), the page says so.
    let r = staff_call(
        &db,
        &account,
        &mia,
        "POST",
        &refund_uri(&payment),
        Some(asked.clone()),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let view = r.json();
    assert_eq!(view["payments"][0]["refund"]["state"], "pending", "{view}");
    assert_eq!(view["payments"][0]["refund"]["amount"], 5_000);
    assert_eq!(view["payments"][0]["refund"]["reason"], "The shopper asked");
    assert_eq!(view["payments"][0]["refundable"], false);
    {
        let books = sim.books.lock().unwrap();
        assert_eq!(books.refunds.len(), 1);
        let made = books.refunds.values().next().unwrap();
        assert_eq!(made["attributes"]["payment_id"], payment.as_str());
        assert_eq!(made["attributes"]["amount"], 5_000);
        assert_eq!(made["attributes"]["reason"], "requested_by_customer");
    }
    // Pressed again: refused, PayMongo not asked.
    let r = staff_call(
        &db,
        &account,
        &mia,
        "POST",
        &refund_uri(&payment),
        Some(asked.clone()),
    )
    .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text());
    assert_eq!(sim.books.lock().unwrap().refund_calls, 1);

    // PayMongo's event: refunded; sent again, nothing moves.
    let event = sim
        .books
        .lock()
        .unwrap()
        .undelivered
        .pop()
        .expect("the refund's event");
    assert_eq!(deliver(&db, &account, &event).await.json()["taken"], true);
    assert_eq!(deliver(&db, &account, &event).await.json()["taken"], false);
    let kept = refund_row(&db, &payment);
    assert_eq!((kept.state.as_str(), kept.attempt), ("succeeded", 1));
    assert_eq!(kept.staff_id, Some(mia.id));

    // The audit log says who refunded what.
    let log = staff_call(
        &db,
        &account,
        &mia,
        "GET",
        "/api/v1/staff/audit?action=payment.refund",
        None,
    )
    .await
    .json();
    let entries = log["entries"].as_array().unwrap();
    assert_eq!(entries.len(), 1, "{log}");
    assert_eq!(entries[0]["staff_id"], mia.id);
    let after: Value = serde_json::from_str(entries[0]["after"].as_str().unwrap()).unwrap();
    assert_eq!(after["payment"], payment.as_str());
    assert_eq!(after["reason"], "requested_by_customer");

    // The day: nothing left to refund; the refund with who asked. It returns a payment never
    // counted with the day's received online, so the day's refunded (of payments taken) is 0.
    let day = staff_call(&db, &account, &dora, "GET", "/api/v1/staff/day", None)
        .await
        .json();
    assert_eq!(day["to_refund"], json!([]), "{day}");
    assert_eq!(day["refunded"], 0, "{day}");
    let line = day["refunds"][0]["reason"].as_str().unwrap();
    assert!(
        line.contains(&payment) && line.contains("Refunded"),
        "{line}"
    );
    assert!(line.contains("mia"), "{line}");
}
both!(a_manager_refunds_a_flagged_payment_once);

/// The payment of an order paid online is its order's: refunded only once the order is
/// cancelled, and listed to refund until then. A refund whose answer was lost (PayMongo slower
/// than the store waits) is asked again under the same key and made once; one PayMongo refused
/// says why and is asked again under the next key.
async fn a_cancelled_orders_payment_is_refunded_once_through_lost_answers(backend: Backend) {
    let db = support::database(backend);
    let sim = simulator();
    let account = account_at(&sim);
    let (_, _, r) = order_online(&db, Some(&account)).await;
    let placed = r.json();
    let id = placed["order"]["id"].as_i64().unwrap();
    let total = placed["order"]["total"].as_i64().unwrap();
    let event = sim.pay(&session_id(&placed["pay_url"]), "gcash", None);
    assert_eq!(deliver(&db, &account, &event).await.json()["taken"], true);
    let payment = payments_of(&db, id)[0].id.clone();
    let mia = support::staff::Staff::signed_in(&db, "mia@tala.example", "manager").await;
    let asked = json!({"reason": "requested_by_customer"});

    // The order's own payment: not refunded while the order stands.
    let r = staff_call(
        &db,
        &account,
        &mia,
        "POST",
        &refund_uri(&payment),
        Some(asked.clone()),
    )
    .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text());
    assert!(r.text().contains("cancel the order first"), "{}", r.text());
    let r = staff_call(
        &db,
        &account,
        &mia,
        "POST",
        "/api/v1/staff/orders/status",
        Some(json!({"order_ids": [id], "status": "cancelled", "reason": "Out of kegs"})),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let day = staff_call(&db, &account, &mia, "GET", "/api/v1/staff/day", None)
        .await
        .json();
    assert_eq!(
        day["online_received"], total,
        "received, to be refunded: {day}"
    );
    assert_eq!(day["to_refund"][0]["order_id"], id, "{day}");
    assert!(day["to_refund"][0]["reason"]
        .as_str()
        .unwrap()
        .contains("cancelled after it was paid"));

    // PayMongo refuses: the page says why; nothing stands, so it may be asked again.
    sim.books.lock().unwrap().refuse_refunds = Some("The account's balance is too low.".into());
    let r = staff_call(
        &db,
        &account,
        &mia,
        "POST",
        &refund_uri(&payment),
        Some(asked.clone()),
    )
    .await;
    assert_eq!(r.status, StatusCode::BAD_GATEWAY, "{}", r.text());
    assert!(r.text().contains("balance is too low"), "{}", r.text());
    let kept = refund_row(&db, &payment);
    assert_eq!((kept.state.as_str(), kept.attempt), ("failed", 1));
    sim.books.lock().unwrap().refuse_refunds = None;

    // PayMongo slower than the store waits: the refund is kept as asked, and the manager told.
    sim.books.lock().unwrap().stall = Some(std::time::Duration::from_millis(1_500));
    let slow = account
        .clone()
        .waiting(std::time::Duration::from_millis(300));
    let r = staff_call(
        &db,
        &slow,
        &mia,
        "POST",
        &refund_uri(&payment),
        Some(asked.clone()),
    )
    .await;
    assert_eq!(r.status, StatusCode::BAD_GATEWAY, "{}", r.text());
    assert!(r.text().contains("PayMongo makes it once"), "{}", r.text());
    let kept = refund_row(&db, &payment);
    assert_eq!((kept.state.as_str(), kept.attempt), ("asking", 2));
    // Pressed again at once: it may still be on its way to PayMongo, so it is not sent again.
    let r = staff_call(
        &db,
        &slow,
        &mia,
        "POST",
        &refund_uri(&payment),
        Some(asked.clone()),
    )
    .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text());
    assert!(r.text().contains("just now"), "{}", r.text());
    // PayMongo made it meanwhile. Asked again a little later, with another reason typed: what was
    // asked is sent again under the same key, and PayMongo answers the same refund.
    std::thread::sleep(std::time::Duration::from_millis(3_100));
    sim.books.lock().unwrap().stall = None;
    let page = staff_call(
        &db,
        &account,
        &mia,
        "GET",
        &format!("/api/v1/staff/orders/{id}"),
        None,
    )
    .await
    .json();
    assert_eq!(
        page["payments"][0]["refundable"], true,
        "asked, not known: {page}"
    );
    assert_eq!(
        page["payments"][0]["refund"]["reason_code"],
        "requested_by_customer"
    );
    let r = staff_call(
        &db,
        &slow,
        &mia,
        "POST",
        &refund_uri(&payment),
        Some(json!({"reason": "others", "notes": "typed again"})),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(r.json()["payments"][0]["refund"]["state"], "pending");
    let books = sim.books.lock().unwrap();
    assert_eq!(books.refunds.len(), 1, "one refund however often asked");
    assert_eq!(books.refund_calls, 3);
    let made = books.refunds.values().next().unwrap();
    assert_eq!(made["attributes"]["amount"], total);
    assert_eq!(made["attributes"]["reason"], "requested_by_customer");
    drop(books);
    let kept = refund_row(&db, &payment);
    assert_eq!((kept.state.as_str(), kept.attempt), ("pending", 2));
    assert!(kept.gateway_id.starts_with("ref_"));
}
both!(a_cancelled_orders_payment_is_refunded_once_through_lost_answers);

/// PayMongo's event may come before the refund call's answer is kept: the refund moves on, and
/// the late answer does not move it back; an event of another shop's refund changes nothing.
async fn a_refunds_event_before_its_answer_is_kept(backend: Backend) {
    let db = support::database(backend);
    let sim = simulator();
    let account = account_at(&sim);
    let (_, _, r) = order_online(&db, Some(&account)).await;
    let short = r.json();
    let id = short["order"]["id"].as_i64().unwrap();
    let event = sim.pay(&session_id(&short["pay_url"]), "qrph", Some(2_000));
    deliver(&db, &account, &event).await;
    let payment = payments_of(&db, id)[0].id.clone();
    let now = domain::calendar::unix_now();
    {
        let mut conn = db.pool.get().unwrap();
        db::payments::put_refund(
            &mut conn,
            &db::payments::RefundRow {
                payment_id: payment.clone(),
                order_id: id,
                amount: 2_000,
                reason: "duplicate".into(),
                notes: String::new(),
                staff_id: None,
                attempt: 1,
                gateway_id: String::new(),
                state: "asking".into(),
                detail: String::new(),
                asked_at: now,
                updated_at: now,
            },
        )
        .unwrap();
    }
    let refund = |rid: &str, pay: &str, status: &str| {
        json!({"id": rid, "type": "refund",
            "attributes": {"amount": 2_000, "currency": "PHP", "payment_id": pay, "status": status}})
    };
    let other = paymongo::signed(&paymongo::event(
        "evt_other",
        "payment.refund.updated",
        &refund("ref_other", "pay_other", "succeeded"),
    ));
    assert_eq!(deliver(&db, &account, &other).await.json()["taken"], false);
    // As PayMongo sends it: the payment, with its refunds.
    let ours = paymongo::signed(&paymongo::event(
        "evt_ours",
        "payment.refund.updated",
        &json!({"id": payment, "type": "payment",
            "attributes": {"amount": 2_000, "status": "paid",
                "refunds": [refund("ref_ours", &payment, "succeeded")]}}),
    ));
    assert_eq!(deliver(&db, &account, &ours).await.json()["taken"], true);
    let mut conn = db.pool.get().unwrap();
    assert!(
        !db::payments::answer_refund(&mut conn, &payment, 1, "ref_ours", "pending", "", now)
            .unwrap()
    );
    drop(conn);
    let kept = refund_row(&db, &payment);
    assert_eq!(
        (kept.state.as_str(), kept.gateway_id.as_str()),
        ("succeeded", "ref_ours")
    );
    // An older event arriving last does not move it back.
    let older = paymongo::signed(&paymongo::event(
        "evt_older",
        "payment.refund.updated",
        &refund("ref_ours", &payment, "pending"),
    ));
    assert_eq!(deliver(&db, &account, &older).await.json()["taken"], false);
    assert_eq!(refund_row(&db, &payment).state, "succeeded");
}
both!(a_refunds_event_before_its_answer_is_kept);

/// Refunds not known done are looked after every minute: one whose answer was lost is asked again
/// as it was (made once), one pending whose event never came is read back from PayMongo, and one
/// never answered within a day is marked failed for a manager to look up.
async fn refunds_not_known_done_are_read_back(backend: Backend) {
    let db = support::database(backend);
    let sim = simulator();
    let account = account_at(&sim);
    let mut payments = Vec::new();
    for _ in 0..3 {
        let (_, _, r) = order_online(&db, Some(&account)).await;
        let short = r.json();
        let id = short["order"]["id"].as_i64().unwrap();
        let event = sim.pay(&session_id(&short["pay_url"]), "gcash", Some(3_000));
        deliver(&db, &account, &event).await;
        payments.push((id, payments_of(&db, id)[0].id.clone()));
    }
    let mia = support::staff::Staff::signed_in(&db, "mia@tala.example", "manager").await;
    let asked = json!({"reason": "duplicate"});
    // The first: made, pending; PayMongo's event never comes, and PayMongo refunds it.
    let r = staff_call(
        &db,
        &account,
        &mia,
        "POST",
        &refund_uri(&payments[0].1),
        Some(asked.clone()),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    for made in sim.books.lock().unwrap().refunds.values_mut() {
        made["attributes"]["status"] = json!("succeeded");
    }
    // The second: its answer lost. The third: asked more than a day ago, never answered.
    sim.books.lock().unwrap().stall = Some(std::time::Duration::from_millis(800));
    let slow = account
        .clone()
        .waiting(std::time::Duration::from_millis(200));
    let r = staff_call(
        &db,
        &slow,
        &mia,
        "POST",
        &refund_uri(&payments[1].1),
        Some(asked.clone()),
    )
    .await;
    assert_eq!(r.status, StatusCode::BAD_GATEWAY, "{}", r.text());
    std::thread::sleep(std::time::Duration::from_millis(900));
    sim.books.lock().unwrap().stall = None;
    let now = domain::calendar::unix_now();
    {
        let mut conn = db.pool.get().unwrap();
        db::payments::put_refund(
            &mut conn,
            &db::payments::RefundRow {
                payment_id: payments[2].1.clone(),
                order_id: payments[2].0,
                amount: 3_000,
                reason: "duplicate".into(),
                notes: String::new(),
                staff_id: Some(mia.id),
                attempt: 1,
                gateway_id: String::new(),
                state: "asking".into(),
                detail: String::new(),
                asked_at: now - 2 * 86_400,
                updated_at: now - 2 * 86_400,
            },
        )
        .unwrap();
        // A minute has passed for the other two.
        diesel::update(db::schema::refunds::table)
            .set(db::schema::refunds::updated_at.eq(now - 120))
            .filter(db::schema::refunds::payment_id.ne(&payments[2].1))
            .execute(&mut *conn)
            .unwrap();
    }
    let outbox = std::env::temp_dir().join("store-test-outbox");
    let state = support::api_state(&db.pool, &outbox, config(Some(account)));
    assert_eq!(
        api::staff::orders::refund::read_back(&state).await.unwrap(),
        3
    );
    assert_eq!(refund_row(&db, &payments[0].1).state, "succeeded");
    let second = refund_row(&db, &payments[1].1);
    assert_eq!((second.state.as_str(), second.attempt), ("pending", 1));
    assert_eq!(
        sim.books.lock().unwrap().refunds.len(),
        2,
        "the lost one made once"
    );
    let third = refund_row(&db, &payments[2].1);
    assert_eq!(third.state, "failed");
    assert!(
        third.detail.contains("PayMongo's dashboard"),
        "{}",
        third.detail
    );
    // Nothing more to look at for a minute.
    assert_eq!(
        api::staff::orders::refund::read_back(&state).await.unwrap(),
        0
    );
}
both!(refunds_not_known_done_are_read_back);
