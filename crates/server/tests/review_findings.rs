//! Findings of a review of the carts, checkout and orders: each test failed on the reviewed code
//! (0c54c5f) and names the defect it showed. SQLite only, to keep them quick; the defects were not
//! backend-specific.

use crate::support;

use actix_web::http::StatusCode;
use serde_json::{json, Value};
use support::{
    add_to_cart, database, get, guest_browser, page_state, send_json, Auth, Backend, TestDb,
    MAKATI, PAST_GATES,
};

/// Consent given, bottles chosen, no location yet (as right after the category form).
const NO_PLACE: &str = "cookieAccepted=1; privacyVerification=1; categoryGateId=1";

/// A guest's browser with a cart of `quantity` units of `product` (priced for Makati): the
/// `Cookie` header it then sends, without the gate cookies.
async fn guest_with_cart(db: &TestDb, product: i64, quantity: i64) -> String {
    guest_browser(db, product, quantity).await.cookie()
}

/// crates/api/src/cache.rs `respond_filled`: every encoding but identity is answered as a spliced
/// gzip stream, so a client that accepts only Brotli (or refuses gzip with `q=0`) gets
/// `Content-Encoding: gzip`, which it said it cannot decode. `respond` negotiates properly.
#[actix_web::test]
async fn a_filled_page_is_never_gzip_for_a_client_that_refuses_gzip() {
    let db = database(Backend::Sqlite);
    let store = store!(db);
    let mine = guest_with_cart(&db, 1, 24).await;
    for accept in ["br", "br, gzip;q=0"] {
        let r = send!(
            store,
            get("/buy-beer", &format!("{PAST_GATES}; {mine}"))
                .insert_header(("accept-encoding", accept))
        );
        assert_eq!(r.status, StatusCode::OK);
        let encoding = r
            .headers
            .get("content-encoding")
            .map(|v| v.to_str().unwrap().to_string());
        assert_ne!(
            encoding.as_deref(),
            Some("gzip"),
            "Accept-Encoding: {accept} was answered with gzip"
        );
    }
}

/// crates/web/src/visitor.rs `parts` + crates/api/src/cart.rs `visitor`: with a cart but no
/// location chosen (right after the category form, which clears the location), the header says
/// "1" but the drawer, rendered with `cart: null`, says "There are no items in your cart.".
#[actix_web::test]
async fn the_drawer_agrees_with_the_count_before_a_location_is_chosen() {
    let db = database(Backend::Sqlite);
    let store = store!(db);
    let mine = guest_with_cart(&db, 1, 24).await;
    let r = send!(store, get("/", &format!("{NO_PLACE}; {mine}")));
    assert_eq!(r.status, StatusCode::OK);
    let html = r.text();
    let s = page_state(&html).expect("page state");
    assert_eq!(s["visitor"]["cart_count"], 1, "the header counts the item");
    let drawer_at = html
        .find(r#"class="drawer-panel cart-panel""#)
        .expect("the cart drawer");
    let drawer = &html[drawer_at..drawer_at + html[drawer_at..].find("</details>").unwrap()];
    assert!(
        !drawer.contains("There are no items in your cart."),
        "the drawer says the cart is empty while the header counts 1: {drawer}"
    );
}

/// crates/web/src/gate.rs `reset_cart_first` (and ui needsReset, which reads the visitor's cart,
/// null without a place): without a location cookie the reset question is never asked, so a
/// cart of kegs stays while the shopper switches to bottles; the question is to be asked whenever
/// the cart holds the other family.
#[actix_web::test]
async fn the_reset_question_is_asked_without_a_location_too() {
    let db = database(Backend::Sqlite);
    let store = store!(db);
    // A keg in the cart.
    let mine = guest_with_cart(&db, 21, 1).await;
    let cookie = format!("cookieAccepted=1; privacyVerification=1; categoryGateId=3; {mine}");
    let r = send!(
        store,
        support::post_form(
            "/gate/category",
            &cookie,
            "category_id=1&return_to=%2Fbuy-beer"
        )
    );
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let to = support::location(&r).to_string();
    assert!(
        to.contains("reset=1"),
        "switching a keg cart to bottles went on without the question: {to}"
    );
}

/// crates/web/src/page_with_slots.rs `SlottedBody::new`: every sentinel anywhere in the rendered
/// page becomes a slot, including text a visitor typed. The order form (crates/api/src/orders.rs
/// `check_form`) refuses control characters only, not the private-use ones the sentinels are
/// made of (the module comment says they are refused), so an order's notes holding the visitor
/// sentinel make its /active-order page's state script invalid JSON (the slot takes the two
/// characters around it for quotes) and the page cannot hydrate.
#[actix_web::test]
async fn typed_text_never_becomes_a_slot() {
    let db = database(Backend::Sqlite);
    let store = store!(db);
    let mine = guest_with_cart(&db, 1, 24).await;
    let uri = format!("/api/v1/cart/{MAKATI}");
    let cart = send_json(&db, "GET", &uri, Auth::Cookie(mine.clone()), Value::Null)
        .await
        .json();
    let order = send_json(
        &db,
        "POST",
        "/api/v1/orders",
        Auth::Cookie(mine.clone()),
        json!({
                "contact_name": "Ana Santos",
                "mobile": "09171234567",
                "email": "ana@example.com",
                "address": "12 Rizal St., Unit 3",
                "barangay": MAKATI,
                "fulfillment": 1,
                "notes": "x\u{E000}visitor\u{E000}y \u{E000}csrf\u{E000}",
                "revision": cart["revision"],
                "expected_total": cart["cart_order_summary"]["subtotal"],
                "testdate": "2026-11-23T10:00",
        }),
    )
    .await;
    if order.status == StatusCode::UNPROCESSABLE_ENTITY {
        // The form refuses the characters: nothing typed can become a slot.
        assert!(
            order.json()["errors"]["notes"].is_array(),
            "{}",
            order.text()
        );
        return;
    }
    assert_eq!(order.status, StatusCode::CREATED, "{}", order.text());
    let link = order.json()["link"].as_str().unwrap().to_string();
    let r = send!(store, get(&link, &format!("{PAST_GATES}; {mine}")));
    assert_eq!(r.status, StatusCode::OK, "{link}");
    let html = r.text();
    let s = page_state(&html).expect("the order page's state script is valid JSON");
    let shown = serde_json::to_string(&s).unwrap();
    assert!(
        shown.contains("\u{E000}visitor\u{E000}") || shown.contains("\\ue000visitor\\ue000"),
        "the notes are shown as typed"
    );
}

/// crates/web/src/page_with_slots.rs: a query parameter a page puts in its state (here the location
/// gate's steps and the order key are ids; `testdate`, `token`, `key`, `from` are text) can carry
/// a sentinel; the page must still carry valid JSON and no visitor's parts in its place.
#[actix_web::test]
async fn a_query_parameter_never_becomes_a_slot() {
    let db = database(Backend::Sqlite);
    let store = store!(db);
    let mine = guest_with_cart(&db, 1, 24).await;
    let sentinel = "x%EE%80%80visitor%EE%80%80y";
    let mut broken = Vec::new();
    for uri in [
        format!("/active-order/1?key={sentinel}"),
        format!("/buy-beer?testdate={sentinel}"),
        format!("/reset-password?token={sentinel}"),
        format!("/login?from={sentinel}"),
    ] {
        let r = send!(store, get(&uri, &format!("{PAST_GATES}; {mine}")));
        if page_state(&r.text()).is_none() {
            broken.push(uri);
        }
    }
    assert!(
        broken.is_empty(),
        "pages whose state script is not valid JSON: {broken:?}"
    );
}

/// crates/api/src/cart.rs `COOKIE_DAYS` says the cart cookie is "renewed by every change", but
/// `send_cookies` sends `cart` only when a new token is issued: a shopper who keeps changing
/// their cart loses it 30 days after the first add (the cart is to last on the browser).
#[actix_web::test]
async fn every_cart_change_renews_the_cart_cookie() {
    let db = database(Backend::Sqlite);
    let mine = guest_with_cart(&db, 1, 24).await;
    let body = json!({"product_id": 1, "quantity": 24, "barangay": MAKATI});
    let again = send_json(&db, "POST", "/api/v1/cart", Auth::Cookie(mine), body).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text());
    let sent: Vec<String> = support::set_cookies(&again)
        .into_iter()
        .map(|(k, _)| k)
        .collect();
    assert!(
        sent.iter().any(|k| k == "cart"),
        "a change sends only {sent:?}: the cart cookie keeps its first expiry"
    );
}

/// crates/web/src/visitor.rs `parts`: a member's parts are keyed by this browser's `cart_v`
/// cookie and a 60-second bucket, not by the cart's revision in the database (in-process caches
/// are to be invalidated by a version the database holds), so a change made on another
/// device (or answered by another app server) leaves this browser's header count stale.
#[actix_web::test]
async fn a_members_count_follows_a_change_made_on_another_device() {
    let db = database(Backend::Sqlite);
    let store = store!(db);
    let token = support::member(&db, 1).await;
    // One item, added on "the phone" (no cookies); this browser shows 1.
    assert_eq!(
        add_to_cart(&db, &token, 1, 24, MAKATI).await.0,
        StatusCode::OK
    );
    let browser = format!("{PAST_GATES}; session={token}; member=1");
    let r = send!(store, get("/buy-beer", &browser));
    assert_eq!(page_state(&r.text()).unwrap()["visitor"]["cart_count"], 1);
    // A second item on the phone: this browser must now show 2.
    assert_eq!(
        add_to_cart(&db, &token, 3, 24, MAKATI).await.0,
        StatusCode::OK
    );
    let r = send!(store, get("/buy-beer", &browser));
    assert_eq!(
        page_state(&r.text()).unwrap()["visitor"]["cart_count"],
        2,
        "the header still counts the cart as it was"
    );
}
