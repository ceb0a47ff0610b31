//! The cart over HTTP on SQLite and PostgreSQL: cases, totals to the centavo, deposits and returned
//! empties, delivery fees by area and fulfillment, availability per barangay, the family rule,
//! limits, and whose cart it is.

// A test tells one story from start to end: it may run past a screen.
#![allow(clippy::too_many_lines)]

use crate::support;

use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use serde_json::{json, Value};
use support::{
    add_to_cart, bearer, call_api, change_cart, database, guest_browser, guest_with_a_case,
    member_with_a_cart, quantities, send_json, view_cart, Auth, Backend, Browser, TestDb, ANGAT,
    EVIL, JUPITER_STREET, MAKATI, MANILA, MEYCAUAYAN,
};

fn summary(v: &Value) -> (i64, i64, i64, i64) {
    let s = &v["cart_order_summary"];
    (
        s["items_total"].as_i64().unwrap(),
        s["deposits_total"].as_i64().unwrap(),
        s["delivery_fee"].as_i64().unwrap(),
        s["subtotal"].as_i64().unwrap(),
    )
}

/// `cases` empty cases of the deposit `deposit` returned from the cart of `auth` for Makati
/// (`POST /api/v3/return-empty`): the answer's status and JSON.
async fn return_empty(
    db: &TestDb,
    auth: &Auth,
    deposit: impl Into<Value>,
    cases: i64,
) -> (StatusCode, Value) {
    let body = json!({"deposit_id": deposit.into(), "cases": cases, "barangay": MAKATI});
    call_api(db, "POST", "/api/v3/return-empty", auth, body).await
}

/// The choice `body` between the member's and the guest's cart, made by `auth`
/// (`POST /api/v1/cart/keep`): the answer's status and JSON.
async fn keep(db: &TestDb, auth: &Auth, body: Value) -> (StatusCode, Value) {
    call_api(db, "POST", "/api/v1/cart/keep", auth, body).await
}

/// Member 1 logging in on the guest's `browser` (its session and cart cookies sent): the login's
/// JSON, and what the browser sends from then on (the member's new session, the same cart).
async fn log_in_on(db: &TestDb, browser: &Browser) -> (Value, Auth) {
    let (session, jar) = (&browser.session, browser.cart());
    let (v, member) =
        support::log_in_member(db, 1, &format!("session={session}; cart={jar}")).await;
    (v, Auth::Cookie(format!("session={member}; cart={jar}")))
}

async fn totals_to_the_centavo(backend: Backend) {
    let db = database(backend);
    let guest = Auth::Bearer(support::guest(&db).await);
    // A case of Tala Pale Pilsen (P1,188.00 the case, deposit P240.00) delivered to Makati (P150).
    let (s, v) = add_to_cart(&db, &guest, 1, 24, MAKATI).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        v["message"],
        "You successfully added this product to the cart."
    );
    assert_eq!(v["item_count"], 1);
    assert_eq!(summary(&v), (118_800, 24_000, 15_000, 157_800));
    let case = &v["shopping_cart"][0];
    assert_eq!(case["name"], "Bottles");
    assert_eq!(
        (
            case["cases"].as_u64(),
            case["capacity"].as_u64(),
            case["missing"].as_u64()
        ),
        (Some(1), Some(24), Some(0))
    );
    assert_eq!(
        v["checkout"]["ready"].as_bool(),
        Some(v["checkout"]["reason"].is_null())
    );

    // Half a crate of grande (deposit P288.00 a crate): 12 units at P78.00; the case is 36 of 48.
    let (_, v) = add_to_cart(&db, &guest, 2, 12, MAKATI).await;
    let case = &v["shopping_cart"][0];
    assert_eq!(
        (
            case["units"].as_u64(),
            case["capacity"].as_u64(),
            case["missing"].as_u64()
        ),
        (Some(36), Some(48), Some(12))
    );
    assert_eq!(v["checkout"]["ready"], false);
    assert_eq!(
        v["checkout"]["reason"],
        "For you to proceed to checkout, you need to complete filling up your cases."
    );
    assert_eq!(
        summary(&v),
        (
            118_800 + 12 * 7_800,
            24_000 + 14_400,
            15_000,
            118_800 + 93_600 + 38_400 + 15_000
        )
    );

    // Pickup has no fee; a city outside Metro Manila pays its own.
    let (_, v) = view_cart(&db, &guest, MAKATI, "?fulfillment=2").await;
    assert_eq!(summary(&v).2, 0);
    let (_, v) = view_cart(&db, &guest, MEYCAUAYAN, "").await;
    assert_eq!(summary(&v).2, 25_000);

    // Returning one empty crate of the regular bottles credits its deposit, at most what is charged.
    let (s, v) = return_empty(&db, &guest, 1, 1).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(summary(&v).1, 24_000 + 14_400 - 24_000);
    let (s, v) = return_empty(&db, &guest, 1, 2).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        v["error"].as_str().unwrap().contains("return at most"),
        "{v}"
    );
    let (s, v) = return_empty(&db, &guest, 4, 1).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(v["error"].is_string());
}
both!(totals_to_the_centavo);

async fn availability_per_barangay(backend: Backend) {
    let db = database(backend);
    let guest = Auth::Bearer(support::guest(&db).await);
    // The Double IPA can is sold in Makati, not in Manila: refused there, by name.
    let (s, v) = add_to_cart(&db, &guest, 17, 24, MANILA).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(v["data"]["products"][0]["id"], 17);
    assert!(v["message"]
        .as_str()
        .unwrap()
        .contains("Bangkal Double IPA Can"));
    // Out of stock (not orderable) is refused too.
    let (s, v) = add_to_cart(&db, &guest, 20, 24, MAKATI).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["data"]["products"][0]["reason"], "Out of stock.");
    // Bought in Makati, then priced for Manila: kept, listed by name, counted in no total.
    let (s, _) = add_to_cart(&db, &guest, 17, 24, MAKATI).await;
    assert_eq!(s, StatusCode::OK);
    let (_, v) = view_cart(&db, &guest, MANILA, "").await;
    assert_eq!(v["item_count"], 1);
    assert_eq!(
        v["unavailable"][0]["product_name"],
        "Bangkal Double IPA Can 473 ml"
    );
    assert_eq!(summary(&v), (0, 0, 0, 0));
    assert_eq!(v["checkout"]["ready"], false);
    assert!(v["checkout"]["reason"]
        .as_str()
        .unwrap()
        .contains("Bangkal Double IPA Can"));
    // Not served at all: everything listed.
    let (_, v) = view_cart(&db, &guest, ANGAT, "").await;
    assert!(v["unavailable"][0]["reason"]
        .as_str()
        .unwrap()
        .contains("do not deliver"));
    // Unknown barangay: 404 carrying data.error.
    let (s, v) = view_cart(&db, &guest, 999, "").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert!(v["data"]["error"].is_string(), "{v}");
}
both!(availability_per_barangay);

async fn families_limits_and_bad_input(backend: Backend) {
    let db = database(backend);
    let guest = Auth::Bearer(support::guest(&db).await);
    assert_eq!(
        add_to_cart(&db, &guest, 1, 24, MAKATI).await.0,
        StatusCode::OK
    );
    // A keg does not join bottles.
    let (s, v) = add_to_cart(&db, &guest, 21, 1, MAKATI).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(v["message"]
        .as_str()
        .unwrap()
        .contains("separate transaction"));
    // Quantities 1-999, per item in total.
    for q in [0, -1, 1000, i64::MAX] {
        let (s, v) = add_to_cart(&db, &guest, 1, q, MAKATI).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{q}: {v}");
        assert_eq!(
            v["errors"]["quantity"][0],
            "The quantity must be from 1 to 999."
        );
    }
    assert_eq!(
        add_to_cart(&db, &guest, 1, 975, MAKATI).await.0,
        StatusCode::OK
    );
    let (s, v) = add_to_cart(&db, &guest, 1, 1, MAKATI).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        v["message"].as_str().unwrap().contains("at most 999"),
        "{v}"
    );
    // Wrong kinds and unknown ids.
    let body = json!({"product_id": "x", "quantity": 1, "barangay": MAKATI});
    let (s, _) = call_api(&db, "POST", "/api/v1/cart", &guest, body).await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    let (s, _) = add_to_cart(&db, &guest, 9999, 1, MAKATI).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let body = json!({"product_id": 1, "quantity": 1, "barangay": MAKATI, "street_id": 9999});
    let (s, v) = call_api(&db, "POST", "/api/v1/cart", &guest, body).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(v["errors"]["street_id"].is_array());
    // Changing and removing.
    let (s, v) = change_cart(&db, &guest, 1, 48).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["shopping_cart"][0]["items"][0]["quantity"], 48);
    let (s, _) = change_cart(&db, &guest, 3, 2).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let body = json!({"product_id": [1]});
    let (s, v) = call_api(&db, "DELETE", "/api/v1/cart", &guest, body).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["item_count"], 0);
    assert_eq!(v["checkout"]["reason"], "There are no items in your cart.");
    // Now a keg is fine.
    assert_eq!(
        add_to_cart(&db, &guest, 21, 1, MAKATI).await.0,
        StatusCode::OK
    );
}
both!(families_limits_and_bad_input);

async fn fifty_products_at_most(backend: Backend) {
    let db = database(backend);
    let guest = support::guest(&db).await;
    // The seed has fewer than 50 bottles and cans: fill the cart in the database to the limit.
    let cfg = support::store_config(&db.url, false);
    let api = server::api_state(db.pool.clone(), &cfg).expect("api state");
    let t = guest.clone();
    let added: usize = api
        .run(framework::Caller { token: Some(t), bearer: true, ..Default::default() }, move |ctx| {
            let owner = api::cart::owner(ctx, true)?.expect("a session");
            let cart = db::carts::find_or_create(ctx.conn, owner.as_owner(), 0)?;
            let n = 50;
            for i in 0..n {
                use db::diesel::prelude::*;
                db::diesel::sql_query(format!(
                    "INSERT INTO products (id, slug, product_name, sku, brand, size, price, price_per_case, unit_per_case, product_type_id, packaging_id) \
                     VALUES ({id}, 'extra-{i}', 'Extra {i}', 'X-{i}', 'Tala', '330 ml', 100, 2400, 24, 2, 1)",
                    id = 100 + i
                ))
                .execute(ctx.conn)?;
                db::carts::set_quantity(ctx.conn, cart.id, domain::ProductId::from_db(100 + i), 1, 0)?;
            }
            Ok(n as usize)
        })
        .await
        .unwrap();
    assert_eq!(added, 50);
    let (s, v) = add_to_cart(&db, &Auth::Bearer(guest.clone()), 1, 1, MAKATI).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .contains("50 different products"),
        "{v}"
    );
    // Adding more of one it holds is fine.
    assert_eq!(
        add_to_cart(&db, &Auth::Bearer(guest), 100, 1, MAKATI)
            .await
            .0,
        StatusCode::OK
    );
}
both!(fifty_products_at_most);

async fn whose_cart(backend: Backend) {
    let db = database(backend);
    // No session: an empty cart to read, 401 to change.
    let (s, v) = view_cart(&db, &Auth::None, MAKATI, "").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["item_count"], 0);
    assert_eq!(
        add_to_cart(&db, &Auth::None, 1, 24, MAKATI).await.0,
        StatusCode::UNAUTHORIZED
    );
    // Two guests, two carts.
    let a = Auth::Bearer(support::guest(&db).await);
    let b = Auth::Bearer(support::guest(&db).await);
    add_to_cart(&db, &a, 1, 24, MAKATI).await;
    assert_eq!(view_cart(&db, &b, MAKATI, "").await.1["item_count"], 0);
    let (s, _) = change_cart(&db, &b, 1, 2).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    // A member's cart is theirs, and recommendations are for members only.
    let m = Auth::Bearer(support::member(&db, 1).await);
    let (_, v) = add_to_cart(&db, &m, 3, 24, MAKATI).await;
    assert!(!v["recommended_products"].as_array().unwrap().is_empty());
    assert!(v["recommended_products"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["id"] != 3));
    assert_eq!(
        add_to_cart(&db, &a, 5, 24, MAKATI).await.1["recommended_products"],
        json!([])
    );
    assert_eq!(view_cart(&db, &a, MAKATI, "").await.1["item_count"], 2);
    assert_eq!(view_cart(&db, &m, MAKATI, "").await.1["item_count"], 1);
}
both!(whose_cart);

/// A browser's cart is named by its cart cookie: a new guest session (the old one expired) on the
/// same browser finds the same cart.
async fn the_cart_outlives_the_guest_session(backend: Backend) {
    let db = database(backend);
    let first = guest_browser(&db, 1, 24).await;
    let cart_cookie = first.cart();
    let raw = support::cookies(&first.added).join("\n");
    assert!(
        raw.contains("HttpOnly") && raw.contains("Max-Age=2592000"),
        "{raw}"
    );
    let second = support::guest(&db).await;
    let with_cart = |cart: &str| Auth::Cookie(format!("session={second}; cart={cart}"));
    let (_, v) = view_cart(&db, with_cart(&cart_cookie), MAKATI, "").await;
    assert_eq!(v["item_count"], 1);
    // Without the cookie it is not found; a made-up cookie finds nothing.
    let (_, v) = view_cart(&db, &Auth::Cookie(format!("session={second}")), MAKATI, "").await;
    assert_eq!(v["item_count"], 0);
    let fake = "A".repeat(43);
    let (_, v) = view_cart(&db, with_cart(&fake), MAKATI, "").await;
    assert_eq!(v["item_count"], 0);
}
both!(the_cart_outlives_the_guest_session);

/// The keys of the guests' carts, in their order.
fn guest_keys(db: &TestDb) -> Vec<String> {
    use db::diesel::prelude::*;
    use db::schema::carts;
    carts::table
        .filter(carts::user_id.is_null())
        .order(carts::id)
        .select(carts::guest_key.assume_not_null())
        .load(&mut db.pool.get().unwrap())
        .unwrap()
}

/// Keys the cart of `key` as carts were keyed before: by the hash alone (after the id's 16 hex
/// digits); answers that hash.
fn keyed_as_before(db: &TestDb, key: &str) -> String {
    assert_eq!(key.len(), 80, "{key}");
    let hash = key[16..].to_string();
    support::exec(
        &db.pool,
        &format!("UPDATE carts SET guest_key = '{hash}' WHERE guest_key = '{key}'"),
    );
    assert!(
        guest_keys(db).contains(&hash),
        "the cart is keyed by its hash alone"
    );
    hash
}

/// A guest cart's key begins with the id its cookie carries (so carts begun together sit
/// together in the index housekeeping sweeps); a cart keyed before, by the cookie's hash alone,
/// is still found by its cookie, and changed, and its changes reach the same row. So is the cart
/// of a client without cookies, keyed by its session token.
async fn a_cart_keyed_by_its_hash_alone_is_still_found(backend: Backend) {
    let db = database(backend);
    let browser = guest_browser(&db, 1, 24).await;
    let cookie = browser.cart();
    let id = framework::session::token_id(&cookie).expect("a cart cookie carries an id");
    let key = api::cart::guest_key(&cookie);
    assert!(key.starts_with(&format!("{id:016x}")), "{key}");
    assert_eq!(guest_keys(&db), vec![key.clone()]);
    let hash = keyed_as_before(&db, &key);
    let second = support::guest(&db).await;
    let auth = Auth::Cookie(format!("session={second}; cart={cookie}"));
    let (_, v) = view_cart(&db, &auth, MAKATI, "").await;
    assert_eq!(v["item_count"], 1, "{v}");
    let (s, v) = add_to_cart(&db, &auth, 2, 24, MAKATI).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["item_count"], 2, "{v}");
    assert_eq!(
        guest_keys(&db),
        vec![hash.clone()],
        "the change reached the cart it found, no second cart"
    );
    // A client without cookies: its cart is its session's, keyed by the session's id.
    let token = support::guest(&db).await;
    let app = Auth::Bearer(token.clone());
    let (s, v) = add_to_cart(&db, &app, 1, 24, MAKATI).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let session_id = framework::session::token_id(&token).expect("a session token carries an id");
    let keys = guest_keys(&db);
    assert_eq!(keys.len(), 2, "{keys:?}");
    assert!(
        keys[1].starts_with(&format!("{session_id:016x}")),
        "{keys:?}"
    );
    let app_hash = keyed_as_before(&db, &keys[1]);
    let (_, v) = view_cart(&db, &app, MAKATI, "").await;
    assert_eq!(v["item_count"], 1, "{v}");
    assert_eq!(guest_keys(&db), vec![hash, app_hash]);
}
both!(a_cart_keyed_by_its_hash_alone_is_still_found);

async fn carts_merge_at_login(backend: Backend) {
    let db = database(backend);
    // The member's own cart: a case of Tala Light.
    member_with_a_cart(&db, 3, 24).await;
    // As a guest on another browser: 24 Tala Light and 24 Pale Pilsen; then logging in there.
    let browser = guest_browser(&db, 3, 24).await;
    let (session, jar) = (browser.session.clone(), browser.cart());
    let there = Auth::Cookie(format!("session={session}; cart={jar}"));
    add_to_cart(&db, &there, 1, 24, MAKATI).await;
    let (v, me) = log_in_on(&db, &browser).await;
    assert_eq!(v["data"]["cart_conflict"], false);
    let (_, v) = view_cart(&db, &me, MAKATI, "").await;
    let mut items = quantities(&v["shopping_cart"][0]);
    items.sort();
    assert_eq!(items, vec![(1, 24), (3, 48)], "quantities add per product");
    assert!(v["conflict"].is_null());
    // The guest's cart is gone: the cookie alone finds nothing now.
    let (_, v) = view_cart(&db, &Auth::Cookie(format!("cart={jar}")), MAKATI, "").await;
    assert_eq!(v["item_count"], 0);
}
both!(carts_merge_at_login);

/// A guest's add named by its key, whose answer was lost, is sent again after the guest logged in
/// on that browser (another tab): the cart it went into was merged into the member's and deleted,
/// and the member's cart knows the key, so nothing is added twice.
async fn a_keyed_add_retried_after_the_login_adds_nothing(backend: Backend) {
    let db = database(backend);
    member_with_a_cart(&db, 3, 24).await;
    let browser = guest_browser(&db, 3, 24).await;
    let (session, jar) = (browser.session.clone(), browser.cart());
    let there = Auth::Cookie(format!("session={session}; cart={jar}"));
    let add = json!({"product_id": 1, "quantity": 24, "barangay": MAKATI, "request_key": "lost-answer-0123456789"});
    let (status, _) = call_api(&db, "POST", "/api/v1/cart", &there, add.clone()).await;
    assert_eq!(status, StatusCode::OK);
    let (v, me) = log_in_on(&db, &browser).await;
    assert_eq!(v["data"]["cart_conflict"], false);
    let (status, _) = call_api(&db, "POST", "/api/v1/cart", &me, add).await;
    assert_eq!(status, StatusCode::OK);
    let (_, v) = view_cart(&db, &me, MAKATI, "").await;
    let mut items = quantities(&v["shopping_cart"][0]);
    items.sort();
    assert_eq!(
        items,
        vec![(1, 24), (3, 48)],
        "the retried add added nothing"
    );
}
both!(a_keyed_add_retried_after_the_login_adds_nothing);

async fn a_cart_conflict_is_the_members_choice(backend: Backend) {
    let db = database(backend);
    member_with_a_cart(&db, 1, 24).await;
    // A keg as a guest, then logging in: two families, nothing moves.
    let browser = guest_browser(&db, 21, 1).await;
    let (v, me) = log_in_on(&db, &browser).await;
    assert_eq!(v["data"]["cart_conflict"], true);
    let (_, v) = view_cart(&db, &me, MAKATI, "").await;
    assert_eq!(v["shopping_cart"][0]["name"], "Bottles");
    assert_eq!(
        v["conflict"]["guest_items"][0],
        "Tala Pale Pilsen Keg 30 L x 1"
    );
    // A bad choice is refused; keeping the guest's cart replaces the member's.
    let (s, _) = keep(&db, &me, json!({"keep": "both"})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    // An unknown barangay is a 404 before anything changes (a review found the choice made
    // first): both carts are still there to choose from.
    let (s, _) = keep(&db, &me, json!({"keep": "member", "barangay": 999_999_999})).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, v) = keep(&db, &me, json!({"keep": "guest", "barangay": MAKATI})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["shopping_cart"][0]["name"], "Keg");
    assert_eq!(v["item_count"], 1);
    assert!(v["conflict"].is_null());
    // Nothing left to choose: the choice conflicts with how things are (409).
    let (s, _) = keep(&db, &me, json!({"keep": "member"})).await;
    assert_eq!(s, StatusCode::CONFLICT);
    // Guests cannot choose.
    let jar = browser.cart();
    let (s, _) = keep(
        &db,
        &Auth::Cookie(format!("cart={jar}")),
        json!({"keep": "guest"}),
    )
    .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
}
both!(a_cart_conflict_is_the_members_choice);

/// The grande crate is one container whatever grande beer fills it: 12 of each of two grande
/// products are charged, listed and credited as one crate.
async fn a_mixed_crate_is_one_deposit(backend: Backend) {
    let db = database(backend);
    let guest = Auth::Bearer(support::guest(&db).await);
    add_to_cart(&db, &guest, 2, 12, MAKATI).await;
    let (_, v) = add_to_cart(&db, &guest, 6, 12, MAKATI).await;
    let deposits = v["cart_order_summary"]["deposits"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(deposits.len(), 1, "{deposits:?}");
    assert_eq!(deposits[0]["amount"], 28_800);
    assert_eq!(v["empties"][0]["max_cases"], 1);
    let (s, v) = return_empty(&db, &guest, v["empties"][0]["deposit_id"].clone(), 1).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        v["cart_order_summary"]["deposits_total"], 0,
        "one returned crate credits the crate"
    );
}
both!(a_mixed_crate_is_one_deposit);

/// The writes of every add (the cart taken and placed, the units added; with the client's key the
/// cart held and the key recorded) and the cart taken by other changes are prepared once per
/// connection and kept in diesel's
/// statement cache: diesel prepares its own `UPDATE`s, upserts and `sql_query`s anew each time,
/// and on SQLite that happened while every other writer waited. Their results stay as before.
async fn the_carts_writes_are_prepared_once(backend: Backend) {
    use db::diesel::connection::{Connection, InstrumentationEvent};
    use std::sync::{Arc, Mutex};
    let db = database(backend);
    let guest = support::guest(&db).await;
    assert_eq!(
        add_to_cart(&db, &Auth::Bearer(guest.clone()), 1, 1, MAKATI)
            .await
            .0,
        StatusCode::OK
    );
    let (cart, key): (i64, String) = {
        use db::diesel::prelude::*;
        use db::schema::carts;
        let mut conn = db.pool.get().expect("connection");
        carts::table
            .select((carts::id, carts::guest_key.assume_not_null()))
            .order(carts::id.desc())
            .first(&mut conn)
            .expect("the guest's cart")
    };
    // A member without a cart: the add that finds the cart in its lock makes it the first time.
    support::member(&db, 1).await;
    let member = {
        use db::diesel::prelude::*;
        use db::schema::users;
        let mut conn = db.pool.get().expect("connection");
        let id: i64 = users::table
            .select(users::id)
            .order(users::id.desc())
            .first(&mut conn)
            .expect("the member");
        domain::UserId::from_db(id)
    };
    let mut owners = Vec::new();
    let mut contents = Vec::new();
    // A connection of its own, which has prepared nothing yet.
    let mut conn = db::connect(&db.url, 1)
        .expect("pool")
        .get()
        .expect("connection");
    let cached = Arc::new(Mutex::new(Vec::<String>::new()));
    let log = cached.clone();
    conn.set_instrumentation(move |event: InstrumentationEvent<'_>| {
        if let InstrumentationEvent::CacheQuery { sql, .. } = event {
            log.lock().unwrap().push(sql.to_string());
        }
    });
    let product = domain::ProductId::from_db(1);
    let barangay = domain::BarangayId::from_db(MAKATI);
    let mut revisions = Vec::new();
    let mut added = Vec::new();
    let mut recorded = Vec::new();
    for round in 0..2 {
        db::write_transaction(&mut conn, |c| {
            db::carts::hold(c, cart)?;
            revisions.push(db::carts::lock(c, cart, round)?);
            // Jupiter Street the second time: a street bound, and read back in its column.
            let street = (round == 1).then(|| domain::StreetId::from_db(JUPITER_STREET as i32));
            let row = db::carts::lock_placed(c, cart, round, barangay, street)?;
            assert_eq!(
                (row.id, row.barangay_id, row.street_id, row.updated_at),
                (cart, Some(MAKATI), street.map(domain::StreetId::get), round)
            );
            revisions.push(row.revision);
            // 1 unit held: 997 more come to 998, at most 999; then 997 more would pass it.
            added.push(db::carts::add_quantity(c, cart, product, 997, 999, round)?);
            recorded.push(db::carts::record_once(c, cart, "add test-key", 7, round)?);
            let held = db::carts::contents(c, cart)?;
            contents.push((held.lines.len(), held.empties.len()));
            // Found by the owner in the statement that takes it: the guest's by its key, the
            // member's made the first time.
            for owner in [
                db::carts::Owner::Guest(&key),
                db::carts::Owner::Member(member),
            ] {
                let row = db::carts::lock_owner_placed(c, owner, round, barangay, street)?;
                owners.push((row.id == cart, row.revision, row.street_id, row.updated_at));
            }
            Ok::<_, db::diesel::result::Error>(())
        })
        .expect("the writes");
    }
    let first = revisions[0];
    assert_eq!(
        revisions,
        [first, first + 1, first + 3, first + 4],
        "each lock counts one change (the guest's lock by its owner one between the rounds)"
    );
    let jupiter = Some(JUPITER_STREET as i32);
    assert_eq!(
        owners,
        [
            (true, revisions[1] + 1, None, 0),
            (false, 1, None, 0),
            (true, revisions[3] + 1, jupiter, 1),
            (false, 2, jupiter, 1)
        ],
        "each owner's cart taken, counted and placed; the member's made once"
    );
    assert_eq!(contents, [(1, 0), (1, 0)], "one line, no empties");
    assert_eq!(added, [true, false], "the most is kept");
    assert_eq!(recorded, [true, false], "a key is recorded once");
    assert_eq!(
        db::carts::quantity_of(&mut conn, cart, product).unwrap(),
        998
    );
    let cached = cached.lock().unwrap().clone();
    // Diesel's own statements quote their names (`UPDATE "carts"`): these are the fixed ones.
    for (statement, want) in [
        ("UPDATE carts SET updated_at", 1),
        ("UPDATE carts SET revision", 4),
        ("SELECT 0, product_id", 1),
        ("INSERT INTO cart_items", 1),
        ("INSERT INTO cart_refills", 1),
    ] {
        let n = cached
            .iter()
            .filter(|sql| sql.starts_with(statement))
            .count();
        assert_eq!(
            n, want,
            "{statement}: prepared once each, kept: {cached:#?}"
        );
    }
}
both!(the_carts_writes_are_prepared_once);

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

/// The cart cookie is renewed by every change (`api::cart::COOKIE_DAYS`), not only when a new
/// token is issued: a shopper who keeps changing their cart keeps it 30 days after the last
/// change, not the first add (the cart is to last on the browser).
#[actix_web::test]
async fn every_cart_change_renews_the_cart_cookie() {
    let db = database(Backend::Sqlite);
    let mine = guest_browser(&db, 1, 24).await.cookie();
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

/// An add prices the cart's other products as kept under the catalog's data version (read before
/// its transaction), and reads them from the database once the catalog has changed, keeping them
/// for the adds after: the cart shows each product as the catalog has it at the version read.
async fn an_add_prices_the_products_kept_at_its_version(backend: Backend) {
    use actix_web::{test, App};
    let db = database(backend);
    let guest = Auth::Bearer(support::guest(&db).await);
    // One app for every call: what it keeps lasts from one add to the next.
    let state = support::api_state(
        &db.pool,
        &std::env::temp_dir().join("store-test-outbox"),
        framework::ApiConfig::default(),
    );
    let app = test::init_service(App::new().app_data(state).configure(framework::configure)).await;
    let add = |product: i64| {
        let body = json!({"product_id": product, "quantity": 1, "barangay": MAKATI});
        support::json_request("POST", "/api/v1/cart", guest.clone(), body).to_request()
    };
    // Each item's id, name and unit price, by id.
    let names = |v: &Value| -> Vec<(i64, String, i64)> {
        let mut named: Vec<(i64, String, i64)> = v["shopping_cart"]
            .as_array()
            .expect("cases")
            .iter()
            .flat_map(|case| case["items"].as_array().expect("items").iter())
            .map(|i| {
                (
                    i["id"].as_i64().unwrap(),
                    i["product_name"].as_str().unwrap().into(),
                    i["price"].as_i64().unwrap(),
                )
            })
            .collect();
        named.sort();
        named
    };
    let first = support::call(&app, add(1)).await;
    assert_eq!(first.status, StatusCode::OK);
    let (_, _, price) = names(&first.json())[0].clone();
    let r = support::call(&app, add(2)).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(names(&r.json()).len(), 2);
    // A change of the catalog moves its version: the next add reads the products it has not
    // kept at the new one, and prices the change.
    support::exec(
        &db.pool,
        "UPDATE products SET product_name = 'Renamed', price = price + 100 WHERE id = 1",
    );
    let r = support::call(&app, add(3)).await;
    assert_eq!(r.status, StatusCode::OK);
    let renamed = (1, "Renamed".to_string(), price + 100);
    assert_eq!(names(&r.json())[0], renamed, "{}", r.json());
    assert_eq!(names(&r.json()).len(), 3);
    // Renamed again with the version put back, as if nothing had changed: the add after shows the
    // product as it kept it from the read above, not the row (kept, and read no more).
    let version: i64 = {
        use db::diesel::prelude::*;
        use db::schema::data_version;
        data_version::table
            .select(data_version::version)
            .first(&mut db.pool.get().unwrap())
            .unwrap()
    };
    support::exec(
        &db.pool,
        "UPDATE products SET product_name = 'Unseen' WHERE id = 1",
    );
    support::exec(
        &db.pool,
        &format!("UPDATE data_version SET version = {version} WHERE id = 1"),
    );
    // An empty case returned first: the add reads the empties with the lines, in one read.
    let deposit = r.json()["empties"][0]["deposit_id"].clone();
    let (s, returned) = return_empty(&db, &guest, deposit, 1).await;
    assert_eq!(s, StatusCode::OK, "{returned}");
    let r = support::call(&app, add(2)).await;
    assert_eq!(r.status, StatusCode::OK);
    let v = r.json();
    assert_eq!(names(&v)[0], renamed, "{v}");
    assert_eq!(v["empties"][0]["returned"], 1, "{v}");
    let (_, view) = view_cart(&db, &guest, MAKATI, "").await;
    assert_eq!(
        (&v["empties"], &v["cart_order_summary"]),
        (&view["empties"], &view["cart_order_summary"]),
        "the add prices the returned case as the cart's own answer does"
    );
}
both!(an_add_prices_the_products_kept_at_its_version);

/// Adds without a key sent at once to an owner without a cart (a guest's first adds, a member's):
/// the first made makes the cart within its change, the others wait for it and add to it. One cart
/// each, every add in it, each counted once.
async fn first_adds_at_once_make_one_cart(backend: Backend) {
    let db = database(backend);
    let owners = [support::guest(&db).await, support::member(&db, 1).await];
    for token in &owners {
        let bodies = (1..=4)
            .map(|p| json!({"product_id": p, "quantity": 1, "barangay": MAKATI}))
            .collect();
        let answers = support::at_once_each(&db, "/api/v1/cart", token, bodies).await;
        let mut revisions: Vec<i64> = answers
            .iter()
            .map(|(s, v)| {
                assert_eq!(*s, StatusCode::OK, "{v}");
                v["revision"].as_i64().expect("a revision")
            })
            .collect();
        revisions.sort_unstable();
        assert_eq!(revisions, [1, 2, 3, 4], "each add counted once");
        let (_, v) = view_cart(&db, &Auth::Bearer(token.clone()), MAKATI, "").await;
        assert_eq!(v["item_count"], 4, "{v}");
    }
    let carts: i64 = {
        use db::diesel::prelude::*;
        db::schema::carts::table
            .count()
            .get_result(&mut db.pool.get().unwrap())
            .unwrap()
    };
    assert_eq!(carts, 2, "one cart an owner");
}
both!(first_adds_at_once_make_one_cart);
