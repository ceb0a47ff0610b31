//! The money path, from the cart to a placed order and back into the cart, on SQLite and
//! PostgreSQL, against an attacker and a careless client: a browser's cart cookie opens no earlier
//! order, a refill counts once per click, a guest's order page is never stored, typed text holds
//! nothing invisible or broken, nobody locks an address out of guest checkout, a card's quantity
//! follows the packaging and not a display name, and a write sent again after its answer was lost
//! is made once.

// A test tells one story from start to end: it may run past a screen.
#![allow(clippy::too_many_lines)]

use crate::support;

use actix_web::http::StatusCode;
use diesel::prelude::*;
use serde_json::{json, Value};
use support::{
    a_case, at_once, at_once_each, checkout, database, mails_queued_to, orders_placed, send_json,
    set_cookie, Auth, Backend, Res, TestDb, MAKATI, MANILA, OPEN, SHOP,
};

/// Ana's checkout form for `cart`, with a note, her email `email` ("" for a member's).
fn form(cart: &Value, email: &str) -> Value {
    let mut form = checkout(cart);
    form["email"] = json!(email);
    form["notes"] = json!("Ring twice");
    form
}

/// A case of bottles into the cart of `auth`; answers the cart.
async fn a_case_for(db: &TestDb, auth: impl Into<Auth>) -> (Value, Res) {
    let r = send_json(db, "POST", "/api/v1/cart", auth, a_case()).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    (r.json(), r)
}

/// An order placed from the cart of `auth` with `form` (`POST /api/v1/orders`): the answer.
async fn place(db: &TestDb, auth: impl Into<Auth>, form: Value) -> Res {
    send_json(db, "POST", "/api/v1/orders", auth, form).await
}

/// A GET of `uri` from `auth`: the answer.
async fn api_get(db: &TestDb, uri: &str, auth: impl Into<Auth>) -> Res {
    send_json(db, "GET", uri, auth, Value::Null).await
}

/// The browser's cart cookie alone opens no earlier order: placing an order gives the browser a
/// new cart, and a repeated submit answers the order only when it carries the placing submit's
/// form; anything else learns nothing. Before, `POST /api/v1/orders` with only the cart cookie and
/// a counted revision answered the earlier guest order whole (contact, address, the link with its
/// key).
async fn a_cart_cookie_alone_opens_no_earlier_order(b: Backend) {
    let db = database(b);
    let guest = support::guest(&db).await;
    let session = format!("session={guest}");
    let (cart, added) = a_case_for(&db, Auth::Page(session.clone())).await;
    let token = set_cookie(&added, "cart").expect("a cart cookie");
    let browser = format!("{session}; cart={token}");
    let from_browser = Auth::Page(browser.clone());
    let placed = place(&db, &from_browser, form(&cart, "ana@example.com")).await;
    assert_eq!(placed.status, StatusCode::CREATED, "{}", placed.text());
    let order = placed.json();
    let id = order["order"]["id"].as_i64().unwrap();
    let next = set_cookie(&placed, "cart").unwrap_or_default();
    // Someone else on the same phone, with the old cart cookie and no session, counts through
    // the revisions: nothing about the order, whatever the revision.
    let revision = cart["revision"].as_i64().unwrap();
    for r in 0..=revision + 2 {
        for jar in [
            format!("cart={token}"),
            format!("cart={next}"),
            browser.clone(),
        ] {
            let body = json!({"barangay": MAKATI, "revision": r, "expected_total": 1});
            let a = place(&db, Auth::Page(jar.clone()), body).await;
            let text = a.text();
            assert!(
                a.status.is_client_error(),
                "revision {r} with {jar}: {} {text}",
                a.status
            );
            for secret in ["Ana Santos", "ana@example.com", "Jupiter", "key=", "TB-"] {
                assert!(!text.contains(secret), "revision {r}: {text}");
            }
        }
    }
    // The order ends the browser's cart: a new cart token from now on.
    assert!(!next.is_empty(), "a new cart cookie");
    assert_ne!(next, token, "placing an order ends the cart");
    // The same form without the contact, or with another total, is not the placing submit.
    let mut other = form(&cart, "ana@example.com");
    other["contact_name"] = json!("Someone Else");
    let a = place(&db, &from_browser, other).await;
    assert_eq!(a.status, StatusCode::CONFLICT, "{}", a.text());
    assert!(!a.text().contains("ana@example.com"));

    // The placing submit sent again (its answer was lost: the old cookie, the same form) is
    // answered with its order and the same link.
    let again = place(&db, &from_browser, form(&cart, "ana@example.com")).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text());
    let again_res = again;
    let again = again_res.json();
    assert_eq!(again["order"]["id"].as_i64(), Some(id));
    assert_eq!(again["link"], order["link"]);
    assert_eq!(again["placed"], false);
    // Its answer ends the old cart too: the browser that never saw the first answer moves on.
    let moved = set_cookie(&again_res, "cart").expect("a new cart cookie on the retry");
    assert_ne!(moved, token);

    // The new cart is empty and the order's page opens with the link's key only.
    let fresh = Auth::Page(format!("{session}; cart={next}"));
    let r = api_get(&db, &format!("/api/v1/cart/{MAKATI}"), &fresh).await;
    assert_eq!(r.json()["item_count"], 0);
    let r = api_get(&db, &format!("/api/v1/orders/{id}"), &from_browser).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);

    // A member's order opens with their session only: no key opens it, even one that matches
    // what the order keeps.
    let member = support::member(&db, 2).await;
    let (cart, _) = a_case_for(&db, &member).await;
    let placed = place(&db, &member, form(&cart, "")).await;
    assert_eq!(placed.status, StatusCode::CREATED, "{}", placed.text());
    let mine = placed.json()["order"]["id"].as_i64().unwrap();
    let key = "k".repeat(40);
    {
        use db::schema::orders;
        let mut conn = db.pool.get().unwrap();
        diesel::update(orders::table.find(mine))
            .set(orders::access_hash.eq(framework::session::hash(&key)))
            .execute(&mut *conn)
            .unwrap();
    }
    let r = api_get(&db, &format!("/api/v1/orders/{mine}?key={key}"), "").await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text());
}
both!(a_cart_cookie_alone_opens_no_earlier_order);

/// The units of product 1 in the cart of `auth`.
async fn units(db: &TestDb, auth: &str) -> (i64, i64) {
    let cart = api_get(db, &format!("/api/v1/cart/{MAKATI}"), auth)
        .await
        .json();
    let units = cart["shopping_cart"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|c| c["items"].as_array().cloned().unwrap_or_default())
        .filter(|i| i["id"] == 1)
        .map(|i| i["quantity"].as_i64().unwrap())
        .sum();
    (units, cart["revision"].as_i64().unwrap())
}

/// Order Again of order `id` for the client of `auth`, with `body`.
async fn again(db: &TestDb, auth: &str, id: i64, body: Value) -> Res {
    let uri = format!("/api/v1/orders/{id}/again");
    send_json(db, "POST", &uri, auth, body).await
}

/// A refill is one per click: it names the cart revision it was made against, and the same refill
/// against the same revision adds nothing and says it was done. Before, ten concurrent Order Again
/// added the order's 24 units ten times, and two concurrent Go-to Case refills added the case
/// twice.
async fn a_refill_is_one_per_click(b: Backend) {
    let db = database(b);
    // A guest's order of 24 bottles, and its key.
    let guest = support::guest(&db).await;
    let (cart, _) = a_case_for(&db, &guest).await;
    let placed = place(&db, &guest, form(&cart, "ana@example.com")).await;
    assert_eq!(placed.status, StatusCode::CREATED, "{}", placed.text());
    let placed = placed.json();
    let id = placed["order"]["id"].as_i64().unwrap();
    let link = placed["link"].as_str().unwrap();
    let key = link.split("key=").nth(1).unwrap();
    let (before, revision) = units(&db, &guest).await;
    assert_eq!(before, 0);
    // Without the revision it was made against, a refill is refused.
    let r = again(&db, &guest, id, json!({"key": key})).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text());
    assert!(r.json()["errors"]["revision"].is_array(), "{}", r.text());
    let r = again(&db, &guest, id, json!({"key": key, "revision": -1})).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text());

    // A revision the cart never had (made up) is refused too.
    let r = again(
        &db,
        &guest,
        id,
        json!({"key": key, "revision": revision + 1000}),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text());
    assert_eq!(units(&db, &guest).await.0, 0);

    // Ten at once: added once; the others say so.
    let body = json!({"key": key, "revision": revision});
    let answers = at_once(
        &db,
        &format!("/api/v1/orders/{id}/again"),
        &guest,
        body.clone(),
        10,
    )
    .await;
    let mut added = 0;
    for (status, v) in &answers {
        assert_eq!(*status, StatusCode::OK, "{v}");
        if v["already"] == false {
            added += 1;
        } else {
            assert_eq!(v["already"], true, "{v}");
            assert!(
                v["message"].as_str().unwrap().contains("already added"),
                "{v}"
            );
            assert_eq!(v["link"], "/cart?done=already");
        }
    }
    assert_eq!(added, 1);
    let (after, now) = units(&db, &guest).await;
    assert_eq!(after, 24, "one refill of 24 units");
    // The same click again later (a retry, a second tab): nothing more.
    let r = again(&db, &guest, id, body).await;
    assert_eq!(
        (r.status, r.json()["already"].clone()),
        (StatusCode::OK, json!(true))
    );
    assert_eq!(units(&db, &guest).await.0, 24);
    // A new click, made against the cart as it is now, adds again.
    let r = again(&db, &guest, id, json!({"key": key, "revision": now})).await;
    assert_eq!(
        (r.status, r.json()["already"].clone()),
        (StatusCode::OK, json!(false))
    );
    assert_eq!(units(&db, &guest).await.0, 48);

    // A member's Go-to Case, refilled twice at once: once.
    let ana = support::member(&db, 1).await;
    let (_, _) = a_case_for(&db, &ana).await;
    let friday = json!({"name": "Friday", "cart_items": [1]});
    let saved = send_json(&db, "POST", "/api/v1/user/goto-case", &ana, friday).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text());
    let case = saved.json()["goto_case"]["id"].as_i64().unwrap();
    let (held, revision) = units(&db, &ana).await;
    assert_eq!(held, 24);
    let uri = format!("/api/v1/user/goto-case/cart/{case}/barangay/{MAKATI}");
    let answers = at_once(&db, &uri, &ana, json!({"revision": revision}), 2).await;
    let fresh: Vec<&Value> = answers.iter().map(|(_, v)| &v["already"]).collect();
    assert!(
        answers.iter().all(|(s, _)| *s == StatusCode::OK),
        "{answers:?}"
    );
    assert_eq!(
        fresh.iter().filter(|a| ***a == json!(false)).count(),
        1,
        "{fresh:?}"
    );
    assert_eq!(units(&db, &ana).await.0, 48, "the case's 24 went in once");
}
both!(a_refill_is_one_per_click);

/// Without JavaScript too, a double click on Order Again adds once: the page's form carries the
/// cart's revision, so the same form posted twice adds once and the second lands on the cart
/// saying so.
async fn a_double_click_on_order_again_adds_once(b: Backend) {
    let db = database(b);
    let token = support::member(&db, 3).await;
    let store = store!(db);
    let jar = support::Jar(vec![
        ("session".into(), token.clone()),
        ("member".into(), "1".into()),
    ]);
    let (cart, _) = a_case_for(&db, &token).await;
    let placed = place(&db, &token, form(&cart, "")).await;
    assert_eq!(placed.status, StatusCode::CREATED, "{}", placed.text());
    let id = placed.json()["order"]["id"].as_i64().unwrap();
    let page = send!(
        store,
        support::get(&format!("/active-order/{id}"), &jar.header())
    );
    assert_eq!(page.status, StatusCode::OK);
    let html = page.text();
    let at = html
        .find(r#"name="_call" value="orderAgain""#)
        .expect("an Order Again form");
    let form_html = &html[html[..at].rfind("<form").unwrap()..];
    let form_html = &form_html[..form_html.find("</form>").unwrap()];
    let revision = form_html
        .split(r#"name="revision" value=""#)
        .nth(1)
        .and_then(|s| s.split('"').next())
        .expect("the form names the cart's revision");
    assert_eq!(revision, units(&db, &token).await.1.to_string());
    let body = support::form_body(&[
        ("_call", "orderAgain"),
        ("csrf", &support::csrf_of(form_html)),
        ("orderId", &id.to_string()),
        ("revision", revision),
    ]);
    let mut landed = Vec::new();
    for _ in 0..2 {
        let r = send!(
            store,
            support::post_form("/cart", &jar.header(), &body).insert_header(("origin", SHOP))
        );
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
        landed.push(support::location(&r).to_string());
    }
    assert_eq!(landed[0], "/cart?done=refilled");
    assert_eq!(landed[1], "/cart?done=already");
    assert_eq!(units(&db, &token).await.0, 24);
}
both!(a_double_click_on_order_again_adds_once);

/// A guest's order page by its link is `no-store`, like every page with one shopper's data, so the
/// browser keeps none of it; a page of everyone's data stays `private, no-cache`. Before, the
/// order page too answered `private, no-cache` (the browser could keep the name, mobile, email and
/// address) while the API's answer was `no-store`.
async fn a_guests_order_page_is_never_stored(b: Backend) {
    let db = database(b);
    let guest = support::guest(&db).await;
    let (cart, _) = a_case_for(&db, &guest).await;
    let placed = place(&db, &guest, form(&cart, "ana@example.com")).await;
    let link = placed.json()["link"].as_str().unwrap().to_string();
    let store = store!(db);
    let page = send!(store, support::get(&link, ""));
    assert_eq!(page.status, StatusCode::OK);
    assert!(page.text().contains("ana@example.com"));
    let cache = page.headers.get("cache-control").unwrap().to_str().unwrap();
    assert!(cache.contains("no-store"), "{cache}");
    // A page of everyone's data is still kept by browsers (asked again, 304 while the same).
    let shop = send!(store, support::get("/buy-beer", ""));
    let cache = shop.headers.get("cache-control").unwrap().to_str().unwrap();
    assert_eq!(cache, "private, no-cache");
}
both!(a_guests_order_page_is_never_stored);

/// Typed text holds nothing invisible or broken, by one rule (`domain::text`): an order's contact
/// name, address and notes and a member's names and saved addresses refuse invisible characters,
/// direction overrides, line separators and U+FFFD (422), and a query or a checkout form that
/// cannot be read as text is a 400 that places nothing. Before, the contact name took
/// `"\u200b\u200b"` (blank), a right-to-left override and a line separator, and the checkout
/// form's invalid UTF-8 was kept as U+FFFD.
async fn typed_text_holds_nothing_invisible_or_broken(b: Backend) {
    let db = database(b);
    let guest = support::guest(&db).await;
    let (cart, _) = a_case_for(&db, &guest).await;
    for (field, bad) in [
        ("contact_name", "\u{200b}\u{200b}"),
        ("contact_name", "\u{202e}Juan Cruz"),
        ("contact_name", "Juan\u{2028}Cruz"),
        ("contact_name", "Juan \u{fffd}\u{fffd}"),
        ("address", "\u{fffd}\u{fffd}\u{fffd}\u{fffd}\u{fffd}"),
        ("address", "Unit 5\u{200f}, Jupiter St."),
        ("notes", "Ring\u{feff} twice"),
    ] {
        let mut f = form(&cart, "ana@example.com");
        f[field] = json!(bad);
        let r = place(&db, &guest, f).await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{field} {bad:?}: {}",
            r.text()
        );
        assert!(
            r.json()["errors"][field].is_array(),
            "{field} {bad:?}: {}",
            r.text()
        );
    }
    // A member's names and saved addresses keep the same rule.
    let ana = support::member(&db, 1).await;
    let r = send_json(
        &db,
        "PUT",
        "/api/v1/user",
        &ana,
        json!({"first_name": "\u{202e}Ana"}),
    )
    .await;
    assert!(r.status.is_client_error(), "{}", r.text());
    let r = send_json(
        &db,
        "POST",
        "/api/v1/user/addresses",
        &ana,
        json!({"address": "\u{200b}\u{200b}\u{200b}\u{200b}\u{200b}", "barangay_id": MAKATI}),
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text());
    // A call's query with a malformed escape or bytes that are not UTF-8.
    for q in ["testdate=%zz", "testdate=%FF%FE"] {
        let r = api_get(&db, &format!("/api/v1/cart/{MAKATI}?{q}"), &guest).await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{q}: {}", r.text());
    }
    // The checkout form posted without JavaScript: invalid UTF-8 and a malformed escape are a
    // 400 that says so, and nothing is placed.
    let store = store!(db);
    let cookie = format!("session={guest}");
    for bad in ["%FF%FE%FD%FC%FB", "Unit 5 %zz Jupiter"] {
        let body = format!(
            "_call=placeOrder&csrf={}&contact_name=Ana+Santos&mobile=09171234567&email=ana%40example.com&address={bad}&barangay={MAKATI}&revision={}&expected_total={}",
            framework::session::csrf_token(&guest), cart["revision"], cart["cart_order_summary"]["subtotal"]
        );
        let r = send!(
            store,
            support::post_form(&format!("/checkout?testdate={OPEN}"), &cookie, &body)
                .insert_header(("origin", SHOP))
                .insert_header(("accept", "application/json"))
        );
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{bad}: {}", r.text());
        assert!(
            r.text().contains("nothing was saved"),
            "{bad}: {}",
            r.text()
        );
    }
    assert_eq!(orders_placed(&db), 0);
}
both!(typed_text_holds_nothing_invisible_or_broken);

/// Nobody locks an address out of guest checkout: past 3 guest orders to one address in an hour
/// the order is still placed and only its confirmation held (the store mails an address at most 3
/// times an hour). Before, the fourth order was a 429 for an hour, so three junk orders with a
/// victim's address locked the victim out.
async fn no_one_locks_an_address_out_of_guest_checkout(b: Backend) {
    let db = database(b);
    for n in 1..=4 {
        let guest = support::guest(&db).await;
        let (cart, _) = a_case_for(&db, &guest).await;
        let r = place(&db, &guest, form(&cart, "victim@example.com")).await;
        assert_eq!(r.status, StatusCode::CREATED, "order {n}: {}", r.text());
        let v = r.json();
        assert_eq!(v["order"]["confirmation_mailed"], n <= 3, "order {n}");
        assert_eq!(
            v["message"]
                .as_str()
                .unwrap()
                .contains("We did not mail its confirmation"),
            n > 3,
            "order {n}: {v}"
        );
    }
    assert_eq!(
        mails_queued_to(&db, "victim@example.com"),
        3,
        "three confirmations, the fourth held"
    );
}
both!(no_one_locks_an_address_out_of_guest_checkout);

/// A recommended card's quantity is the API's, decided by the packaging: renaming the product
/// type changes nothing. Before, the card gave Cans 24 units by testing the type's display name.
async fn a_cards_quantity_is_the_apis_not_a_names(b: Backend) {
    let db = database(b);
    {
        use db::schema::product_types;
        let mut conn = db.pool.get().unwrap();
        diesel::update(product_types::table)
            .set(product_types::name.eq("Canned beer"))
            .filter(product_types::name.eq("Cans"))
            .execute(&mut *conn)
            .unwrap();
    }
    let r = api_get(&db, &format!("/api/v1/products?barangay={MAKATI}"), "").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let v = r.json();
    let products = v["products"].as_array().unwrap();
    assert!(!products.is_empty());
    for p in products {
        let expected = if p["sold_as"] == "box" {
            p["unit_per_case"].as_i64().unwrap()
        } else {
            1
        };
        assert_eq!(
            p["card_quantity"].as_i64(),
            Some(expected),
            "{}",
            p["product_name"]
        );
    }
    assert!(products
        .iter()
        .any(|p| p["card_quantity"] == 24 && p["types"]["name"] == "Canned beer"));
}
both!(a_cards_quantity_is_the_apis_not_a_names);

/// A Go-to Case save sent twice by the member of `token`: the ids of the cases each answered.
async fn saved_twice(db: &TestDb, token: &str, body: Value) -> Vec<i64> {
    let mut ids = Vec::new();
    for _ in 0..2 {
        let r = send_json(db, "POST", "/api/v1/user/goto-case", token, body.clone()).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text());
        ids.push(r.json()["goto_case"]["id"].as_i64().unwrap());
    }
    ids
}

/// A write the client names with a request key is made once: the same key again, even at once,
/// changes nothing and answers as the first did; another key or none adds again; a refused add
/// records nothing; a malformed key is a 422. Before, on a dropping link, the page's retry of an
/// add whose answer was lost added the units again (a Go-to Case save likewise saved twice, or
/// was refused as a name taken).
async fn a_retried_write_is_made_once(b: Backend) {
    let db = database(b);
    let ana = support::member(&db, 3).await;
    let keyed = |key: &str| {
        let mut body = a_case();
        body["request_key"] = json!(key);
        body
    };
    let add = |body: Value| send_json(&db, "POST", "/api/v1/cart", ana.as_str(), body);
    let first = add(keyed("add-0123456789abcdef")).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text());
    let (units_after, revision) = units(&db, &ana).await;
    assert_eq!(units_after, 24);
    let again = add(keyed("add-0123456789abcdef")).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text());
    assert_eq!(again.json()["message"], first.json()["message"]);
    assert_eq!(
        again.json()["revision"],
        json!(revision),
        "a repeat is no change"
    );
    assert_eq!(units(&db, &ana).await, (24, revision));
    // Five at once with a new key: added once, each answered the cart.
    let answers = at_once(&db, "/api/v1/cart", &ana, keyed("add-fedcba9876543210"), 5).await;
    assert!(
        answers.iter().all(|(s, _)| *s == StatusCode::OK),
        "{answers:?}"
    );
    assert_eq!(units(&db, &ana).await.0, 48);
    // No key: each add is an add.
    a_case_for(&db, &ana).await;
    assert_eq!(units(&db, &ana).await.0, 72);
    // Refused (past 999 units) with a key: nothing recorded, refused again, and the same key
    // works once the add fits.
    let mut big = keyed("add-too-many-0123456789");
    big["quantity"] = json!(950);
    for _ in 0..2 {
        let r = add(big.clone()).await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text());
    }
    big["quantity"] = json!(1);
    for _ in 0..2 {
        let r = add(big.clone()).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    }
    assert_eq!(units(&db, &ana).await.0, 73);
    for bad in [
        "short",
        "has spaces in it here",
        &"x".repeat(65),
        "0123456789abcdef\u{0}",
    ] {
        let r = add(keyed(bad)).await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{bad:?}: {}",
            r.text()
        );
        assert!(r.json()["errors"]["request_key"].is_array(), "{}", r.text());
    }
    assert_eq!(units(&db, &ana).await.0, 73);
    // A quantity set, answered late: the shopper set another since; the set sent again (its
    // retry, or the late original after the retry) changes nothing.
    let set = |quantity: i64, key: &str| json!({"product_id": 1, "quantity": quantity, "barangay": MAKATI, "request_key": key});
    let put = |body: Value| send_json(&db, "PUT", "/api/v1/cart", ana.as_str(), body);
    assert_eq!(
        put(set(5, "set-five-0123456789")).await.status,
        StatusCode::OK
    );
    assert_eq!(
        put(set(3, "set-three-0123456789")).await.status,
        StatusCode::OK
    );
    let late = put(set(5, "set-five-0123456789")).await;
    assert_eq!(late.status, StatusCode::OK, "{}", late.text());
    assert_eq!(units(&db, &ana).await.0, 3, "the later set stands");
    // The same for a removal and for returned empties.
    let gone =
        json!({"product_id": [1], "barangay": MAKATI, "request_key": "remove-0123456789abc"});
    let del = |body: Value| send_json(&db, "DELETE", "/api/v1/cart", ana.as_str(), body);
    assert_eq!(del(gone.clone()).await.status, StatusCode::OK);
    assert_eq!(
        put(set(2, "set-two-0123456789ab")).await.status,
        StatusCode::NOT_FOUND
    );
    add(a_case()).await;
    let again = del(gone).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text());
    assert_eq!(again.json()["message"], "Removed from your cart.");
    assert_eq!(
        units(&db, &ana).await.0,
        24,
        "the late removal removed nothing"
    );
    let cart = api_get(&db, &format!("/api/v1/cart/{MAKATI}"), ana.as_str())
        .await
        .json();
    let deposit = cart["empties"][0]["deposit_id"].clone();
    let empties = |cases: i64, key: &str| json!({"deposit_id": deposit, "cases": cases, "barangay": MAKATI, "request_key": key});
    let post = |body: Value| send_json(&db, "POST", "/api/v3/return-empty", ana.as_str(), body);
    assert_eq!(
        post(empties(1, "empties-one-012345678")).await.status,
        StatusCode::OK
    );
    assert_eq!(
        post(empties(0, "empties-none-01234567")).await.status,
        StatusCode::OK
    );
    let late = post(empties(1, "empties-one-012345678")).await.json();
    assert_eq!(late["empties"][0]["returned"], 0, "{late}");
    // Back to 73 units for the Go-to Cases below.
    let mut one = a_case();
    one["quantity"] = json!(49);
    assert_eq!(add(one).await.status, StatusCode::OK);
    assert_eq!(units(&db, &ana).await.0, 73);

    // A Go-to Case saved from the cart, twice with one key: one case, both answered as saved;
    // the cart case added to it, twice with one key: its quantity added once.
    let save = json!({"name": "Friday", "cart_items": [1], "barangay": MAKATI, "request_key": "save-0123456789abcdef"});
    let ids = saved_twice(&db, &ana, save).await;
    assert_eq!(ids[0], ids[1]);
    let add = json!({"case_id": ids[0], "cart_items": [1], "barangay": MAKATI, "request_key": "save-to-0123456789abcdef"});
    assert_eq!(saved_twice(&db, &ana, add).await, ids);
    let cases = api_get(&db, "/api/v1/user/goto-case", ana.as_str())
        .await
        .json();
    let list = cases["data"].as_array().expect("the member's cases");
    assert_eq!(list.len(), 1, "{cases}");
    let quantity: i64 = list[0]["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["id"] == 1)
        .map(|i| i["quantity"].as_i64().unwrap())
        .sum();
    assert_eq!(quantity, 146, "{cases}");
}
both!(a_retried_write_is_made_once);

/// A request key sent again with another change (a careless client reusing its keys) is refused
/// by name, and nothing is changed: answered as a repeat, the client would believe a change made
/// that was not. The same key with the same change is still a repeat.
async fn a_request_key_sent_again_with_another_change_is_refused(b: Backend) {
    let db = database(b);
    let ana = support::member(&db, 3).await;
    let refused = |r: &Res| {
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text());
        assert_eq!(
            r.json()["errors"]["request_key"][0],
            "This request key was sent before with another change. Send a new key for a new change.",
            "{}",
            r.text()
        );
    };
    let mut body = a_case();
    body["request_key"] = json!("reused-0123456789abcdef");
    let add = |body: Value| send_json(&db, "POST", "/api/v1/cart", ana.as_str(), body);
    assert_eq!(add(body.clone()).await.status, StatusCode::OK);
    let (units_before, revision) = units(&db, &ana).await;
    assert_eq!(units_before, 24);
    let mut more = body.clone();
    more["quantity"] = json!(48);
    refused(&add(more).await);
    // An add places the cart: the same add to another place is another change.
    let mut elsewhere = body.clone();
    elsewhere["barangay"] = json!(MANILA);
    elsewhere["street_id"] = Value::Null;
    refused(&add(elsewhere).await);
    // The same change again is a repeat.
    assert_eq!(add(body.clone()).await.status, StatusCode::OK);
    assert_eq!(units(&db, &ana).await, (24, revision), "nothing changed");
    // Two changes under one new key at the same moment: one is made, the other refused.
    let mut two = [body.clone(), body];
    two[0]["request_key"] = json!("at-once-0123456789abcdef");
    two[1]["request_key"] = json!("at-once-0123456789abcdef");
    two[1]["quantity"] = json!(48);
    let answers = at_once_each(&db, "/api/v1/cart", &ana, two.to_vec()).await;
    let mut statuses: Vec<u16> = answers.iter().map(|(s, _)| s.as_u16()).collect();
    statuses.sort_unstable();
    assert_eq!(statuses, vec![200, 422], "{answers:?}");
    let added = units(&db, &ana).await.0 - 24;
    assert!(added == 24 || added == 48, "one of the two made: {added}");
    // A quantity set, a removal and a Go-to Case save: the same.
    let set = |quantity: i64| json!({"product_id": 1, "quantity": quantity, "barangay": MAKATI, "request_key": "set-again-0123456789"});
    let put = |body: Value| send_json(&db, "PUT", "/api/v1/cart", ana.as_str(), body);
    assert_eq!(put(set(30)).await.status, StatusCode::OK);
    refused(&put(set(31)).await);
    assert_eq!(put(set(30)).await.status, StatusCode::OK);
    assert_eq!(units(&db, &ana).await.0, 30);
    let gone = |id: i64| json!({"product_id": [id], "barangay": MAKATI, "request_key": "remove-again-0123456789"});
    let del = |body: Value| send_json(&db, "DELETE", "/api/v1/cart", ana.as_str(), body);
    assert_eq!(del(gone(2)).await.status, StatusCode::OK);
    refused(&del(gone(1)).await);
    assert_eq!(units(&db, &ana).await.0, 30, "product 1 was not removed");
    let save = |name: &str| json!({"name": name, "cart_items": [1], "barangay": MAKATI, "request_key": "save-again-0123456789"});
    let post = |body: Value| send_json(&db, "POST", "/api/v1/user/goto-case", ana.as_str(), body);
    assert_eq!(post(save("Friday")).await.status, StatusCode::OK);
    refused(&post(save("Saturday")).await);
    let cases = api_get(&db, "/api/v1/user/goto-case", ana.as_str())
        .await
        .json();
    assert_eq!(cases["data"].as_array().map(Vec::len), Some(1), "{cases}");
}
both!(a_request_key_sent_again_with_another_change_is_refused);
