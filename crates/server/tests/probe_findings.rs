//! Findings of an outside probe of the cart, checkout and orders, each as a test that fails until
//! it is fixed: what a careless client or an attacker sent, and what the store should have
//! answered. On SQLite and PostgreSQL.

use crate::support;

use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use serde_json::{json, Value};
use support::{
    a_case, add_to_cart, bearer, call_api, checkout, database, get, guest_browser,
    guest_with_a_case, mails_queued_to, member_with_a_cart, page_state, view_cart, Auth, Backend,
    TestDb, ANGAT, EVIL, MAKATI, SHOP,
};

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

// --- Finding 1 (medium): the page sentinels can be typed into checkout fields -------------------

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

// --- Finding 2 (medium): login merges carts and drops units without a word ---------------------

/// Member cart: 600 Pale Pilsen; guest cart on another browser: 600 Pale Pilsen; logging in
/// there answered `{"data":{"first_name":"Mara","cart_conflict":false}}` and the cart then held
/// 999, with `message: ""` and `conflict: null`: 201 bottles gone and nobody told
/// (`db::carts::merge` clamps to 999 and its list of what did not fit is thrown away). Nothing
/// is to be dropped from a cart silently.
async fn a_login_merge_says_what_did_not_fit(backend: Backend) {
    let db = database(backend);
    let (s, v) = member_with_a_cart(&db, 1, 600).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // A guest browser with 600 of the same.
    let browser = guest_browser(&db, 1, 600).await;
    let (session, jar) = (&browser.session, browser.cart());
    let (login, member) =
        support::log_in_member(&db, 1, &format!("session={session}; cart={jar}")).await;
    let (_, cart) = view_cart(
        &db,
        Auth::Cookie(format!("session={member}; cart={jar}; member=1")),
        MAKATI,
        "",
    )
    .await;
    assert_eq!(cart["shopping_cart"][0]["items"][0]["quantity"], 999);
    let told = login.to_string().contains("Tala Pale Pilsen 320 ml")
        || cart["message"]
            .as_str()
            .is_some_and(|m| m.contains("Tala Pale Pilsen 320 ml"))
        || !cart["conflict"].is_null();
    assert!(
        told,
        "1,200 bottles became 999 without a word: login {login}, cart message {}",
        cart["message"]
    );
}
both!(a_login_merge_says_what_did_not_fit);

// --- Finding 3 (low): refusals that do not name their products ---------------------------------

/// docs/api.md: each limit's refusal "is a 422 whose `message`, `error` and `data.error` say why and
/// whose `data.products` names the products concerned". Adding a keg (21) to a bottles cart and
/// going past 999 of product 1 both answered `data.products: []`.
async fn limit_refusals_name_their_products(backend: Backend) {
    let db = database(backend);
    let (auth, _) = guest_with_a_case(&db).await;
    let (s, v) = add_to_cart(&db, &auth, 21, 1, MAKATI).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    let ids = |v: &Value| -> Vec<i64> {
        v["data"]["products"]
            .as_array()
            .map(|a| a.iter().filter_map(|p| p["id"].as_i64()).collect())
            .unwrap_or_default()
    };
    assert!(ids(&v).contains(&21), "the keg refused is named: {v}");
    let (s, v) = add_to_cart(&db, &auth, 1, 990, MAKATI).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(ids(&v).contains(&1), "the product over 999 is named: {v}");
}
both!(limit_refusals_name_their_products);

/// `{"product_id":1,"quantity":1000,"barangay":1380300002}` answered 422
/// `{"errors":{"quantity":[...]},"message":"..."}`: no `error` and no `data.error`, unlike every
/// other refusal of the cart (docs/api.md: limits say why in `message`, `error` and `data.error`).
async fn quantity_refusals_carry_error_and_data(backend: Backend) {
    let db = database(backend);
    let (auth, _) = guest_with_a_case(&db).await;
    for q in [0, 1000, -1] {
        let (s, v) = add_to_cart(&db, &auth, 1, q, MAKATI).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
        assert!(v["error"].is_string(), "quantity {q}: {v}");
        assert!(v["data"]["error"].is_string(), "quantity {q}: {v}");
    }
}
both!(quantity_refusals_carry_error_and_data);

// --- Finding 4 (low): messages that say the wrong thing ----------------------------------------

/// Adding to a cart for Angat answered "Tala Pale Pilsen 320 ml cannot be added to your cart: we
/// do not deliver to banaban yet." — the reason is lowercased whole, the barangay's name too.
async fn a_refusal_keeps_the_place_name(backend: Backend) {
    let db = database(backend);
    let auth = support::guest(&db).await;
    let (s, v) = add_to_cart(&db, &auth, 1, 1, ANGAT).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(v["error"].as_str().unwrap().contains("Banaban"), "{v}");
}
both!(a_refusal_keeps_the_place_name);

/// `{"product_id":1,"quantity":42,"pack":"case",...}` (42 cases of 24 = 1,008 bottles) answered
/// "The quantity must be from 1 to 999." though 42 is from 1 to 999: the shopper is not told that
/// the cases come to more than 999 bottles.
async fn too_many_cases_says_cases(backend: Backend) {
    let db = database(backend);
    let auth = support::guest(&db).await;
    let cases = json!({"product_id": 1, "quantity": 42, "pack": "case", "barangay": MAKATI});
    let (s, v) = call_api(&db, "POST", "/api/v1/cart", &auth, cases).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    let m = v["message"].as_str().unwrap();
    assert!(m.contains("case"), "42 cases refused as: {m}");
}
both!(too_many_cases_says_cases);

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

// --- Finding 5 (low): a malformed testdate is ignored ------------------------------------------

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

// --- Finding 6 (low): the drawer contradicts the header count ----------------------------------

/// A browser with a cart (added by a form that named the barangay) but no location cookie got,
/// on /buy-beer, `aria-label="Cart, 1 item"` in the header and "There are no items in your
/// cart." in the cart drawer. The cart knows the barangay it was added for.
async fn the_drawer_agrees_with_the_count(backend: Backend) {
    let db = database(backend);
    let store = store!(db);
    let browser = guest_browser(&db, 1, 25).await;
    let r = send!(store, get("/buy-beer", &browser.cookie()));
    assert_eq!(r.status, StatusCode::OK);
    let html = r.text();
    assert!(html.contains(r#"aria-label="Cart, 1 item""#));
    assert!(
        !html.contains("There are no items in your cart."),
        "the header counts 1 item and the drawer says there are none"
    );
}
both!(the_drawer_agrees_with_the_count);

// --- Finding 7 (medium): guest checkout mails any address, as often as asked ------------------

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

// --- Finding 8 (low): an order address that is not a number loads forever ----------------------

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

// --- Finding 9 (low): the bearer exemption of the origin rule also covers the cart cookie -------

/// `POST /api/v1/cart` with `Origin: https://evil.example`, `Authorization: Bearer <the
/// sender's own guest token>` and `Cookie: cart=<another browser's cart token>` answered 200 and
/// changed that other browser's cart (`[(1, 5), (2, 1)]` revision 6 became `[(1, 6), (2, 1)]`
/// revision 7); the same request with a session cookie is 403. The exemption rests on "a browser
/// never adds that to another site's request" and on no cookie riding along, but the cart cookie
/// is a credential too (it names the cart and wins over the bearer's own). Not reachable from a
/// browser today (no CORS, and the cookie is SameSite=Lax), so defence in depth.
async fn a_cart_cookie_does_not_ride_the_bearer_exemption(backend: Backend) {
    let db = database(backend);
    let store = store!(db);
    // The victim's browser: a cart cookie.
    let cart = guest_browser(&db, 1, 5).await.cart();
    // Another site's request: its own bearer token, the victim's cart cookie.
    let attacker = support::guest(&db).await;
    let r = send!(
        store,
        TestRequest::post()
            .uri("/api/v1/cart")
            .insert_header(("origin", EVIL))
            .insert_header(("authorization", bearer(&attacker)))
            .insert_header(("cookie", format!("cart={cart}")))
            .set_json(json!({"product_id": 1, "quantity": 1, "barangay": MAKATI}))
    );
    assert_eq!(
        r.status,
        StatusCode::FORBIDDEN,
        "another site changed a browser's cart: {}",
        r.text()
    );
}
both!(a_cart_cookie_does_not_ride_the_bearer_exemption);

// --- The contract test's setup: "database is locked" under concurrent signups -------------------

/// Concurrent newsletter signups (each reads the address, then inserts it) answered 500 on SQLite:
/// a transaction that began by reading held a snapshot older than another writer's commit, and
/// SQLite refuses such a transaction its write at once ("database is locked"), without waiting.
/// Transactions that write now begin IMMEDIATE (`db::transaction`).
async fn concurrent_signups_all_land(backend: Backend) {
    let db = database(backend);
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let pool = db.pool.clone();
            std::thread::spawn(move || {
                for i in 0..25 {
                    let mut conn = pool.get().expect("connection");
                    let email = format!("signup{t}x{i}@example.com");
                    db::content::subscribe(&mut conn, &email, "2026-11-24 14:00:00", &email, 1)
                        .unwrap_or_else(|e| panic!("{email}: {e}"));
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("no signup failed");
    }
}
both!(concurrent_signups_all_land);
