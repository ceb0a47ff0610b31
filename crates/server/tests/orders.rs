//! Orders over HTTP on SQLite and PostgreSQL: one order per cart revision however often it is
//! submitted (20 at once included), checks at the moment of submit (hours, blackout, prices,
//! availability), the order's own copy, mail through the outbox, and who may see an order.

// A test tells one story from start to end: it may run past a screen.
#![allow(clippy::too_many_lines)]

use crate::support;

use actix_web::http::StatusCode;
use diesel::prelude::*;
use serde_json::{json, Value};
use support::{
    a_case, at_once, call_api, checkout, database, get, guest_browser, guest_with_a_case,
    mails_queued_to, orders_placed, page_state, view_cart, Backend, TestDb, ANGAT, MAKATI, OPEN,
    SHOP,
};

/// Ana's checkout form for `cart`, with a note, submitted at `testdate`.
fn form(cart: &Value, testdate: &str) -> Value {
    let mut form = checkout(cart);
    form["notes"] = json!("Ring twice");
    form["testdate"] = json!(testdate);
    form
}

async fn an_order_keeps_its_own_copy(backend: Backend) {
    let db = database(backend);
    let (token, cart) = guest_with_a_case(&db).await;
    let (s, placed) = call_api(&db, "POST", "/api/v1/orders", &token, form(&cart, OPEN)).await;
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
    let (_, after) = call_api(
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
    let (s, again) = call_api(&db, "GET", &link, "", Value::Null).await;
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

/// Two products whose deposits are of one kind (the Grande bottles of products 2 and 6) in one
/// order: it is placed (their containers were once two rows of one name, refused by the table's
/// key, and the order with them), and the run loads and collects them as one kind.
async fn deposits_of_one_kind_count_together(backend: Backend) {
    let db = database(backend);
    let (token, _) = guest_with_a_case(&db).await;
    for product in [2, 6] {
        let body = json!({"product_id": product, "quantity": 24, "barangay": MAKATI});
        let (s, cart) = call_api(&db, "POST", "/api/v1/cart", &token, body).await;
        assert_eq!(s, StatusCode::OK, "{cart}");
    }
    let (_, cart) = view_cart(&db, &token, MAKATI, "").await;
    let (s, placed) = call_api(&db, "POST", "/api/v1/orders", &token, form(&cart, OPEN)).await;
    assert_eq!(s, StatusCode::CREATED, "{placed}");
    let id = placed["order"]["id"].as_i64().unwrap();
    use db::schema::order_containers as c;
    let mut conn = db.pool.get().unwrap();
    let mut rows: Vec<(String, i32)> = c::table
        .filter(c::order_id.eq(id))
        .select((c::name, c::cases_out))
        .load(&mut *conn)
        .unwrap();
    rows.sort();
    assert_eq!(
        rows,
        [
            ("Bottles and crate deposit (case of 24)".to_string(), 1),
            (
                "Grande bottles and crate deposit (case of 24)".to_string(),
                2
            ),
        ]
    );
}
both!(deposits_of_one_kind_count_together);

async fn one_revision_one_order(backend: Backend) {
    let db = database(backend);
    let (token, cart) = guest_with_a_case(&db).await;
    let body = form(&cart, OPEN);
    // 20 submits at once: one order; every answer names it.
    let answers = at_once(&db, "/api/v1/orders", &token, body.clone(), 20).await;
    let mut ids = Vec::new();
    let mut created = 0;
    for (status, v) in answers {
        assert!(
            status == StatusCode::CREATED || status == StatusCode::OK,
            "{status}: {v}"
        );
        created += usize::from(status == StatusCode::CREATED);
        ids.push(v["order"]["id"].as_i64().unwrap());
    }
    ids.dedup();
    assert_eq!((created, ids.len(), orders_placed(&db)), (1, 1, 1));
    // A retry later still answers the same order.
    let (s, v) = call_api(&db, "POST", "/api/v1/orders", &token, body).await;
    assert_eq!(
        (s, v["order"]["id"].as_i64()),
        (StatusCode::OK, Some(ids[0]))
    );
}
both!(one_revision_one_order);

async fn checked_at_the_moment_of_submit(backend: Backend) {
    let db = database(backend);
    let (token, cart) = guest_with_a_case(&db).await;
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
        let (s, v) = call_api(&db, "POST", "/api/v1/orders", &token, form(&cart, when)).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{when}: {v}");
        assert!(
            v["message"].as_str().unwrap().contains(words),
            "{when}: {v}"
        );
    }
    let (s, _) = call_api(
        &db,
        "POST",
        "/api/v1/orders",
        &token,
        form(&cart, "2025-05-13T08:01"),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED);
    assert_eq!(orders_placed(&db), 1);

    // A price changed between the cart and the submit: nothing is placed, the new total is said.
    let (token, cart) = guest_with_a_case(&db).await;
    {
        use db::schema::products;
        let mut conn = db.pool.get().unwrap();
        diesel::update(products::table.find(1))
            .set(products::price_per_case.eq(120_000))
            .execute(&mut *conn)
            .unwrap();
    }
    let (s, v) = call_api(&db, "POST", "/api/v1/orders", &token, form(&cart, OPEN)).await;
    assert_eq!(s, StatusCode::CONFLICT, "{v}");
    assert!(v["error"].as_str().unwrap().contains("P1,590.00"), "{v}");
    // The cart changed since checkout opened: refused, and the shopper looks again.
    let mut stale = form(&cart, OPEN);
    stale["revision"] = json!(cart["revision"].as_i64().unwrap() - 1);
    let (s, _) = call_api(&db, "POST", "/api/v1/orders", &token, stale).await;
    assert_eq!(s, StatusCode::CONFLICT);
    // Bad fields, every one named.
    let (s, v) = call_api(&db, "POST", "/api/v1/orders", &token, json!({"revision": cart["revision"], "expected_total": 1, "barangay": MAKATI, "mobile": "0817", "contact_name": "A\u{7}", "email": "no"})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    for field in ["mobile", "contact_name", "email", "address"] {
        assert!(v["errors"][field].is_array(), "{field}: {v}");
    }
    assert_eq!(orders_placed(&db), 1);
}
both!(checked_at_the_moment_of_submit);

async fn who_sees_an_order(backend: Backend) {
    let db = database(backend);
    let (guest, cart) = guest_with_a_case(&db).await;
    let (_, placed) = call_api(&db, "POST", "/api/v1/orders", &guest, form(&cart, OPEN)).await;
    let id = placed["order"]["id"].as_i64().unwrap();
    let key = placed["link"]
        .as_str()
        .unwrap()
        .split("key=")
        .nth(1)
        .unwrap()
        .to_string();
    // Without the key, or with another, the same 404 as an unknown order.
    let (s, missing) = call_api(&db, "GET", "/api/v1/orders/999999", &guest, Value::Null).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, v) = call_api(
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
        call_api(
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
        call_api(
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
    let (_, cart) = call_api(
        &db,
        "POST",
        "/api/v1/cart",
        &ana,
        json!({"product_id": 21, "quantity": 1, "barangay": MAKATI, "street_id": 1}),
    )
    .await;
    let mut body = form(&cart, OPEN);
    body["email"] = json!("");
    let (s, placed) = call_api(&db, "POST", "/api/v1/orders", &ana, body).await;
    assert_eq!(s, StatusCode::CREATED, "{placed}");
    assert_eq!(placed["order"]["email"], "member1@example.com");
    let id = placed["order"]["id"].as_i64().unwrap();
    assert_eq!(
        call_api(
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
        call_api(
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
    let (_, list) = call_api(&db, "GET", "/api/v1/user/orders", &ana, Value::Null).await;
    assert_eq!(
        (list["total"].as_i64(), list["orders"][0]["id"].as_i64()),
        (Some(1), Some(id))
    );
    assert_eq!(
        call_api(&db, "GET", "/api/v1/user/orders", &ben, Value::Null)
            .await
            .1["total"],
        0
    );
    assert_eq!(
        call_api(&db, "GET", "/api/v1/user/orders", &guest, Value::Null)
            .await
            .0,
        StatusCode::UNAUTHORIZED
    );
}
both!(who_sees_an_order);

/// A guest's case of bottles ([`guest_with_a_case`]) ordered with Ana's checkout form, `fields`
/// set in it: the answer's status and JSON.
async fn order_with(db: &TestDb, fields: &[(&str, Value)]) -> (StatusCode, Value) {
    let (auth, cart) = guest_with_a_case(db).await;
    let mut form = checkout(&cart);
    for (field, value) in fields {
        form[*field] = value.clone();
    }
    call_api(db, "POST", "/api/v1/orders", &auth, form).await
}

/// POST /api/v1/orders with `contact_name: "\uE000csrf\uE000"`, `address: "\uE000drawer\uE000 Unit
/// 5"`, `notes: "\uE000visitor\uE000"` answered 201 and stored them. The order page then fills
/// them as slots: whoever opens `/active-order/{id}?key=...` sees their own CSRF token as the
/// contact name, the cart drawer's HTML as the address, and a page state that is no longer JSON
/// (the drawer's quotes land unescaped inside a JSON string), so the page cannot hydrate. The
/// private-use characters the sentinels are made of must be refused where a shopper types them
/// (as `web::page_with_slots` says names and texts do).
async fn checkout_fields_refuse_the_sentinel_characters(backend: Backend) {
    let db = database(backend);
    let (s, v) = order_with(
        &db,
        &[
            ("contact_name", json!("\u{E000}csrf\u{E000}")),
            ("address", json!("\u{E000}drawer\u{E000} Unit 5")),
            ("notes", json!("\u{E000}visitor\u{E000}")),
        ],
    )
    .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    for field in ["contact_name", "address", "notes"] {
        assert!(v["errors"][field].is_array(), "{field} is refused: {v}");
    }
}
both!(checkout_fields_refuse_the_sentinel_characters);

/// The no-JS checkout form refused (a bad mobile) with `contact_name` = the CSRF sentinel and
/// `address` = the drawer sentinel: the page typed back the visitor's own CSRF token as the
/// contact name and the drawer's raw HTML inside the state's JSON string, which no longer parses.
async fn a_refused_checkout_form_types_back_what_was_typed(backend: Backend) {
    let db = database(backend);
    let store = store!(db);
    let browser = guest_browser(&db, 1, 24).await;
    let (token, cart) = (&browser.session, browser.cart());
    let csrf = framework::session::csrf_token(token);
    let body = support::form_body(&[
        ("_call", "placeOrder"),
        ("csrf", &csrf),
        ("contact_name", "\u{E000}csrf\u{E000}"),
        ("address", "\u{E000}drawer\u{E000}"),
        ("notes", "\u{E000}visitor\u{E000}"),
        ("mobile", "bad"),
        ("email", "x"),
    ]);
    let r = send!(
        store,
        support::post_form("/checkout", &format!("session={token}; cart={cart}"), &body)
            .insert_header(("origin", SHOP))
    );
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    let html = r.text();
    let s = page_state(&html).expect("the page state is JSON");
    // The page carries its session's CSRF token where it belongs (`csrf`); what was typed must not
    // turn into it, nor into the drawer.
    let typed = serde_json::to_string(&s["form"]).unwrap();
    assert!(
        !typed.contains(&csrf),
        "the visitor's CSRF token is typed back as a field: {typed}"
    );
    assert!(
        !typed.contains("drawer-title"),
        "the drawer's HTML is typed back"
    );
}
both!(a_refused_checkout_form_types_back_what_was_typed);

/// Placing an order for Angat (not served) without a fulfillment answered 422 "This choice of
/// delivery or pickup is not offered in Angat." — the shopper chose nothing; the store does not
/// deliver to Banaban at all, which the cart itself says ("We do not deliver to Banaban yet.").
async fn an_order_for_an_unserved_place_says_so(backend: Backend) {
    let db = database(backend);
    let (s, v) = order_with(
        &db,
        &[
            ("barangay", json!(ANGAT)),
            ("street_id", Value::Null),
            ("fulfillment", Value::Null),
        ],
    )
    .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(
        v.to_string().contains("do not deliver"),
        "an unserved barangay is named as such: {v}"
    );
}
both!(an_order_for_an_unserved_place_says_so);

/// `contact_name: "Di\u0000Lim"` was refused as "Enter the name of the person we contact (2 to 100
/// characters)." and `notes: "a\u0007b"` as "Notes can be up to 500 characters.": both are short;
/// what is wrong is a character, which the messages do not say.
async fn control_characters_are_named_as_such(backend: Backend) {
    let db = database(backend);
    let fields = [
        ("contact_name", json!("Di\u{0}Lim")),
        ("notes", json!("a\u{7}b")),
    ];
    let (s, v) = order_with(&db, &fields).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    let notes = v["errors"]["notes"][0].as_str().unwrap_or_default();
    let name = v["errors"]["contact_name"][0].as_str().unwrap_or_default();
    assert!(
        !notes.contains("up to 500 characters"),
        "a 3-character note refused for its length: {notes}"
    );
    assert!(
        !name.contains("2 to 100 characters"),
        "a 6-character name refused for its length: {name}"
    );
}
both!(control_characters_are_named_as_such);

/// `testdate=garbage` (and `2026-02-30T10:00`) answered as if none had been given: the real clock
/// decides, so a test meant for the blackout places a real order. Malformed input answers 400
/// naming the parameter (docs/api.md).
async fn a_malformed_testdate_is_refused(backend: Backend) {
    let db = database(backend);
    let (auth, cart) = guest_with_a_case(&db).await;
    for bad in ["garbage", "2026-02-30T10:00"] {
        let (s, v) = view_cart(&db, &auth, MAKATI, &format!("?testdate={bad}")).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "cart, testdate {bad}: {v}");
        let mut form = checkout(&cart);
        form["testdate"] = json!(bad);
        let (s, v) = call_api(&db, "POST", "/api/v1/orders", &auth, form).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "order, testdate {bad}: {v}");
    }
}
both!(a_malformed_testdate_is_refused);

/// One guest client (bearer token 0M5MC47W...) placed 15 orders in about a second, each a case
/// of bottles with `email: "victim@example.org"`, `contact_name: "Visit evil.example to claim
/// your prize"` and `notes: "Click https://evil.example/login"`: 15 x 201, and 15 mails "Your
/// order TB-0000nn is placed" went to the stranger opening "Hello Visit evil.example to claim your
/// prize," (plus 15 notices of cash-on-delivery orders to the staff). Everywhere else the store
/// refuses to be a way to mail a stranger (docs/security.md: 3 mails an address an hour, limits
/// per client); Submit Order has no limit at all.
async fn guest_orders_cannot_mail_a_stranger_without_limit(backend: Backend) {
    let db = database(backend);
    let auth = support::guest(&db).await;
    let mut limited = false;
    for _ in 0..6 {
        let (s, cart) = call_api(&db, "POST", "/api/v1/cart", &auth, a_case()).await;
        assert_eq!(s, StatusCode::OK, "{cart}");
        let mut form = checkout(&cart);
        form["email"] = json!("victim@example.org");
        form["contact_name"] = json!("Visit evil.example to claim your prize");
        let (s, v) = call_api(&db, "POST", "/api/v1/orders", &auth, form).await;
        if s == StatusCode::TOO_MANY_REQUESTS {
            limited = true;
            break;
        }
        assert_eq!(s, StatusCode::CREATED, "{v}");
    }
    let mailed = mails_queued_to(&db, "victim@example.org");
    assert!(
        limited || mailed <= 3,
        "6 orders from one client in a row, {mailed} mails to the same stranger, no limit"
    );
}
both!(guest_orders_cannot_mail_a_stranger_without_limit);

/// `GET /active-order/abc` (also `/active-order/1.5`, `/active-order/99999999999999999999999`,
/// `/active-order/%FF%FE`) answered 200 with "Loading your order…" and nothing else: without
/// JavaScript it never loads, and the status says the page exists. An unknown number
/// (`/active-order/12345`, `/active-order/-1`) gets the 404 "Order not found"; docs/shopping.md: anyone
/// else gets the 404 of an unknown order.
async fn an_order_address_that_is_no_number_is_not_found(backend: Backend) {
    let db = database(backend);
    let store = store!(db);
    for path in [
        "/active-order/abc",
        "/active-order/1.5",
        "/active-order/99999999999999999999999",
    ] {
        let r = send!(store, get(path, "cookieAccepted=1; privacyVerification=1"));
        let html = r.text();
        assert!(
            !html.contains("Loading your order"),
            "{path}: a page that never loads"
        );
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{path}");
    }
}
both!(an_order_address_that_is_no_number_is_not_found);
