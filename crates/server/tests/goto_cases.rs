//! Go-to Cases and Order Again over HTTP on SQLite and PostgreSQL: save a cart case, add to it,
//! rename, change and remove items, refill the cart for a barangay with what cannot be added named,
//! the reset question, delete; members only, another member's case the same 404 as an unknown one;
//! unique names regardless of case; the limits; deleted with the account; and Order Again from a
//! member's and a guest's order.

// A test tells one story from start to end: it may run past a screen.
#![allow(clippy::too_many_lines)]

use crate::support;

use actix_web::http::StatusCode;
use diesel::prelude::*;
use serde_json::{json, Value};
use support::{
    add_to_cart, call_api, call_get, change_cart, checkout, database, quantities, view_cart,
    Backend, TestDb, ANGAT, MAKATI, MANILA, MEYCAUAYAN,
};

/// The Go-to Cases of the member calling: `POST` saves a case from the cart (a new one, or items
/// added to one), `PUT` changes one, `GET` lists them.
const CASES: &str = "/api/v1/user/goto-case";

const RESET: &str = "Your current cart will be reset. Orders for Bottles/ Cans and Draft Beer should be in a separate transaction. Continue to reset your cart?";

/// The revision of the cart of `token` (0 without one).
async fn revision(db: &TestDb, token: &str) -> i64 {
    let (_, cart) = view_cart(db, token, MAKATI, "").await;
    cart["revision"].as_i64().unwrap_or(0)
}

/// A refill (Order Again, a Go-to Case into the cart) posted as the pages post it: naming the
/// revision of the cart it was made against (one refill per click), the cart's revision now
/// unless `body` names one (or is not an object).
async fn refill(db: &TestDb, uri: &str, token: &str, mut body: Value) -> (StatusCode, Value) {
    if body.is_null() {
        body = json!({});
    }
    if body.is_object() && body.get("revision").is_none() {
        body["revision"] = json!(revision(db, token).await);
    }
    call_api(db, "POST", uri, token, body).await
}

/// Saves a Go-to Case from the cart of `token` (`POST` [`CASES`] with `body`).
async fn save(db: &TestDb, token: &str, body: Value) -> (StatusCode, Value) {
    call_api(db, "POST", CASES, token, body).await
}

/// Changes a Go-to Case of `token` (`PUT` [`CASES`] with `body`).
async fn change(db: &TestDb, token: &str, body: Value) -> (StatusCode, Value) {
    call_api(db, "PUT", CASES, token, body).await
}

/// Takes items out of a Go-to Case of `token` (`DELETE /api/v1/user/goto-case/items`).
async fn remove_items(db: &TestDb, token: &str, body: Value) -> (StatusCode, Value) {
    call_api(db, "DELETE", "/api/v1/user/goto-case/items", token, body).await
}

/// Go-to Case `id` into the cart of `token` for `barangay`, as the pages post it (see [`refill`]).
async fn refill_case(db: &TestDb, token: &str, id: i64, barangay: i64) -> (StatusCode, Value) {
    let uri = format!("/api/v1/user/goto-case/cart/{id}/barangay/{barangay}");
    refill(db, &uri, token, Value::Null).await
}

/// Order Again of order `id` into the cart of `token` with `body`, as the pages post it (see
/// [`refill`]).
async fn again(db: &TestDb, token: &str, id: i64, body: Value) -> (StatusCode, Value) {
    refill(db, &format!("/api/v1/orders/{id}/again"), token, body).await
}

/// Adds to the cart of `token`, which must take it.
async fn add(db: &TestDb, token: &str, product: i64, quantity: i64, barangay: i64) {
    let (s, v) = add_to_cart(db, token, product, quantity, barangay).await;
    assert_eq!(s, StatusCode::OK, "{v}");
}

async fn empty_cart(db: &TestDb, token: &str) {
    let (_, v) = view_cart(db, token, MAKATI, "").await;
    let ids: Vec<Value> = v["shopping_cart"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|c| {
            c["items"]
                .as_array()
                .unwrap()
                .iter()
                .map(|i| i["id"].clone())
        })
        .collect();
    if !ids.is_empty() {
        let body = json!({ "product_id": ids });
        let (s, v) = call_api(db, "DELETE", "/api/v1/cart", token, body).await;
        assert_eq!(s, StatusCode::OK, "{v}");
    }
}

async fn save_edit_refill_delete(backend: Backend) {
    let db = database(backend);
    let ana = support::member(&db, 1).await;
    add(&db, &ana, 1, 12, MAKATI).await;
    add(&db, &ana, 3, 12, MAKATI).await;
    add(&db, &ana, 12, 24, MAKATI).await;
    // The bottles case of the cart becomes "Friday".
    let (s, v) = save(
        &db,
        &ana,
        json!({"name": "  Friday ", "cart_items": [1, 3], "barangay": MAKATI}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        v["message"],
        "You successfully created Go-to Case \"Friday\" from your case \"Bottles\""
    );
    assert_eq!(v["created"], true);
    let case = &v["goto_case"];
    let id = case["id"].as_i64().unwrap();
    assert_eq!(case["case_name"], "Friday");
    assert_eq!(case["case_type"], "Bottles");
    assert_eq!(quantities(case), [(1, 12), (3, 12)]);
    // 12 x P52 + 12 x P55, at today's unit prices.
    assert_eq!(case["total"], 12 * 5200 + 12 * 5500);
    assert_eq!(case["units"], 24);
    // A name is unique whatever its case.
    let (s, v) = save(&db, &ana, json!({"name": "FRIDAY", "cart_items": [12]})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(v["errors"]["name"][0]
        .as_str()
        .unwrap()
        .contains("already have a Go-to Case named \"FRIDAY\""));
    // Cans do not join a Go-to Case of bottles.
    let (s, v) = save(&db, &ana, json!({"case_id": id, "cart_items": [12]})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        v["message"].as_str().unwrap().contains("holds Bottles"),
        "{v}"
    );
    // Nor a case that mixes types, nor items not in the cart.
    for items in [json!([1, 12]), json!([4])] {
        let (s, v) = save(&db, &ana, json!({"name": "Mixed", "cart_items": items})).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    }
    // Adding the bottles again: quantities add.
    let (s, v) = save(&db, &ana, json!({"case_id": id, "cart_items": [1]})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        v["message"],
        "You successfully added from your case \"Bottles\" to your existing Go-to Case \"Friday\""
    );
    assert_eq!(v["created"], false);
    assert_eq!(quantities(&v["goto_case"]), [(1, 24), (3, 12)]);
    // The cans become a second case; the compatible lookup lists by case type.
    let (s, _) = save(&db, &ana, json!({"name": "Cans night", "cart_items": "12"})).await;
    assert_eq!(s, StatusCode::OK);
    let names = |v: &Value| -> Vec<String> {
        v["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["case_name"].as_str().unwrap().to_string())
            .collect()
    };
    let (s, v) = call_get(&db, CASES, &ana).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(names(&v), ["Friday", "Cans night"]);
    let (_, v) = call_get(&db, "/api/v1/user/goto-case?cart_items=1,3", &ana).await;
    assert_eq!(names(&v), ["Friday"]);
    let (_, v) = call_get(&db, "/api/v1/user/goto-case?cart_items=13", &ana).await;
    assert_eq!(names(&v), ["Cans night"]);
    let (_, v) = call_get(&db, "/api/v1/user/goto-case/options", &ana).await;
    assert_eq!(v["cases"].as_array().unwrap().len(), 2);
    assert_eq!(v["cases"][0]["item_count"], 2);
    assert_eq!(v["can_create"], true);
    assert_eq!(v["max_cases"], 50);
    // Priced for Manila, where the Double IPA is not sold (not in this case: all available).
    let this = format!("/api/v1/user/goto-case/{id}");
    let (s, v) = call_get(&db, &format!("{this}?barangay={MANILA}"), &ana).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["barangay_id"], MANILA);
    assert!(v["items"]
        .as_array()
        .unwrap()
        .iter()
        .all(|i| i["available"] == true));
    // Rename and change a quantity; remove an item.
    let (s, v) = change(
        &db,
        &ana,
        json!({"case_id": id, "name": "Weekend", "items": [{"product_id": 1, "quantity": 48}]}),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["goto_case"]["case_name"], "Weekend");
    assert_eq!(quantities(&v["goto_case"]), [(1, 48), (3, 12)]);
    // Its own name in another case is no clash; another case's name is.
    let (s, _) = change(&db, &ana, json!({"case_id": id, "name": "WEEKEND"})).await;
    assert_eq!(s, StatusCode::OK);
    let (s, v) = change(&db, &ana, json!({"case_id": id, "name": "cans NIGHT"})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    let (s, v) = remove_items(&db, &ana, json!({"case_id": id, "items": [3]})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(quantities(&v["goto_case"]), [(1, 48)]);
    // Refill an empty cart from it in another barangay.
    empty_cart(&db, &ana).await;
    let (s, v) = refill_case(&db, &ana, id, MEYCAUAYAN).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["message"], "Your Go-to Case \"WEEKEND\" is in your cart.");
    assert_eq!(v["link"], "/cart?done=refilled");
    assert_eq!(v["cart"]["barangay_id"], MEYCAUAYAN);
    assert_eq!(quantities(&v["cart"]["shopping_cart"][0]), [(1, 48)]);
    // Delete it: gone.
    let (s, v) = call_api(&db, "DELETE", &this, &ana, Value::Null).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["case_name"], "WEEKEND");
    let (s, _) = call_get(&db, &this, &ana).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    let (s, _) = call_api(&db, "DELETE", &this, &ana, Value::Null).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
}
both!(save_edit_refill_delete);

/// A member with one Go-to Case of bottles (product 1 x 24); answers its id.
async fn member_with_a_case(db: &TestDb, token: &str, name: &str) -> i64 {
    add(db, token, 1, 24, MAKATI).await;
    let (s, v) = save(db, token, json!({"name": name, "cart_items": [1]})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v["goto_case"]["id"].as_i64().unwrap()
}

async fn owners_guests_and_bad_input(backend: Backend) {
    let db = database(backend);
    let ana = support::member(&db, 1).await;
    let ben = support::member(&db, 2).await;
    let guest = support::guest(&db).await;
    let id = member_with_a_case(&db, &ana, "Ana's").await;
    // Every call on case `id`; the refill as the pages post it, naming the caller's cart revision.
    let calls = |id: i64, revision: i64| {
        vec![
            ("GET", CASES.to_string(), Value::Null),
            ("GET", format!("/api/v1/user/goto-case/{id}"), Value::Null),
            ("GET", "/api/v1/user/goto-case/options".into(), Value::Null),
            (
                "POST",
                CASES.into(),
                json!({"case_id": id, "cart_items": [1]}),
            ),
            ("PUT", CASES.into(), json!({"case_id": id, "name": "Mine"})),
            (
                "DELETE",
                format!("/api/v1/user/goto-case/{id}"),
                Value::Null,
            ),
            (
                "DELETE",
                "/api/v1/user/goto-case/items".into(),
                json!({"case_id": id, "items": [1]}),
            ),
            (
                "POST",
                format!("/api/v1/user/goto-case/cart/{id}/barangay/{MAKATI}"),
                json!({ "revision": revision }),
            ),
        ]
    };
    // Guests and callers without a session: 401 on every call.
    for token in [guest.as_str(), ""] {
        let revision = revision(&db, token).await;
        for (method, uri, body) in calls(id, revision) {
            let (s, v) = call_api(&db, method, &uri, token, body).await;
            assert_eq!(s, StatusCode::UNAUTHORIZED, "{method} {uri}: {v}");
        }
    }
    // Another member: the same 404 as an unknown case, and nothing changes.
    add(&db, &ben, 1, 24, MAKATI).await;
    let revision = revision(&db, &ben).await;
    for ((method, uri, body), (_, unknown, unknown_body)) in
        calls(id, revision).into_iter().zip(calls(999999, revision))
    {
        if uri.ends_with("/options") || (method == "GET" && uri.ends_with("goto-case")) {
            continue;
        }
        let (s, theirs) = call_api(&db, method, &uri, &ben, body).await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{method} {uri}: {theirs}");
        let (s, missing) = call_api(&db, method, &unknown, &ben, unknown_body).await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{method} {unknown}: {missing}");
        assert_eq!(
            theirs["error"]
                .as_str()
                .unwrap()
                .replace(&id.to_string(), "N"),
            missing["error"].as_str().unwrap().replace("999999", "N"),
        );
    }
    let (_, v) = call_get(&db, CASES, &ben).await;
    assert_eq!(v["data"], json!([]));
    let (s, v) = call_get(&db, &format!("/api/v1/user/goto-case/{id}"), &ana).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["case_name"], "Ana's");
    assert_eq!(quantities(&v), [(1, 24)]);
    // Bad input: each refused with a message, nothing saved.
    let bad = [
        json!({"cart_items": [1]}),
        json!({"name": "", "cart_items": [1]}),
        json!({"name": "   ", "cart_items": [1]}),
        json!({"name": "a\u{0}b", "cart_items": [1]}),
        json!({"name": "a\u{e000}b", "cart_items": [1]}),
        json!({"name": "x".repeat(61), "cart_items": [1]}),
        json!({"name": "ok", "cart_items": []}),
        json!({"name": "ok", "cart_items": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51]}),
        json!({"name": "ok", "cart_items": [2]}),
    ];
    for body in bad {
        let (s, v) = save(&db, &ana, body.clone()).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {v}");
        assert!(v["message"].as_str().is_some_and(|m| !m.is_empty()), "{v}");
    }
    for body in [
        json!({"name": "ok", "cart_items": ["x"]}),
        json!({"name": 5, "cart_items": [1]}),
        json!({"name": "ok", "cart_items": "1,x"}),
    ] {
        let (s, v) = save(&db, &ana, body.clone()).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{body}: {v}");
    }
    for body in [
        json!({"case_id": id, "items": [{"product_id": 1, "quantity": 0}]}),
        json!({"case_id": id, "items": [{"product_id": 1, "quantity": 1000}]}),
        json!({"case_id": id, "items": [{"product_id": 1, "quantity": -5}]}),
        json!({"case_id": id, "product_id": 1}),
        json!({"case_id": id}),
        json!({"name": "No id"}),
    ] {
        let (s, v) = change(&db, &ana, body.clone()).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {v}");
    }
    let (s, _) = change(
        &db,
        &ana,
        json!({"case_id": id, "items": [{"product_id": 3, "quantity": 5}]}),
    )
    .await;
    assert_eq!(s, StatusCode::NOT_FOUND, "a product the case does not hold");
    let (s, _) = remove_items(&db, &ana, json!({"case_id": id, "items": [3]})).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    for uri in [
        "/api/v1/user/goto-case/abc",
        "/api/v1/user/goto-case/-1",
        "/api/v1/user/goto-case/99999999999999999999",
    ] {
        let (s, _) = call_get(&db, uri, &ana).await;
        assert!(
            s == StatusCode::NOT_FOUND || s == StatusCode::BAD_REQUEST,
            "{uri}: {s}"
        );
    }
    let (s, _) = call_get(&db, "/api/v1/user/goto-case?cart_items=1,x", &ana).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    let (s, _) = call_get(&db, "/api/v1/user/goto-case?barangay=5", &ana).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    // Names that differ only in case or Unicode form are one name; invisible ones are no name.
    for (name, status) in [
        ("ANA'S", StatusCode::UNPROCESSABLE_ENTITY),
        ("Straße", StatusCode::OK),
        ("STRASSE", StatusCode::UNPROCESSABLE_ENTITY),
        ("Ｓｔｒａｓｓｅ", StatusCode::UNPROCESSABLE_ENTITY),
        ("\u{200B}", StatusCode::UNPROCESSABLE_ENTITY),
        ("Fri\u{200B}day", StatusCode::UNPROCESSABLE_ENTITY),
    ] {
        let (s, v) = save(&db, &ana, json!({"name": name, "cart_items": [1]})).await;
        assert_eq!(s, status, "{name:?}: {v}");
    }
    let (s, v) = change(&db, &ana, json!({"case_id": id, "quantity": 5})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        v["errors"]["product_id"][0],
        "Choose the product whose quantity changes."
    );
    let (s, v) = change(&db, &ana, json!({"case_id": id, "name": " "})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["errors"]["name"][0], "Enter a name for your Go-to Case.");
    let (s, _) = call_get(&db, "/api/v1/user/goto-case?cart_items=1,12", &ana).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "two case types");
    let (_, v) = call_get(&db, CASES, &ana).await;
    assert_eq!(v["data"].as_array().unwrap().len(), 2, "Ana's and Straße");
}
both!(owners_guests_and_bad_input);

async fn fifty_cases_at_most(backend: Backend) {
    let db = database(backend);
    let ana = support::member(&db, 1).await;
    add(&db, &ana, 1, 24, MAKATI).await;
    for n in 0..50 {
        let body = json!({"name": format!("Case {n}"), "cart_items": [1]});
        let (s, v) = save(&db, &ana, body).await;
        assert_eq!(s, StatusCode::OK, "{n}: {v}");
    }
    let one_too_many = json!({"name": "One too many", "cart_items": [1]});
    let (s, v) = save(&db, &ana, one_too_many).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        v["message"].as_str().unwrap().contains("50 Go-to Cases"),
        "{v}"
    );
    let (_, v) = call_get(&db, "/api/v1/user/goto-case/options", &ana).await;
    assert_eq!(v["can_create"], false);
    // Adding to one of them still works; a list of more than 50 items is refused.
    let first = v["cases"][0]["id"].as_i64().unwrap();
    let (s, _) = save(&db, &ana, json!({"case_id": first, "cart_items": [1]})).await;
    assert_eq!(s, StatusCode::OK);
    let items: Vec<Value> = (1..=51)
        .map(|p| json!({"product_id": p, "quantity": 1}))
        .collect();
    let (s, v) = change(&db, &ana, json!({"case_id": first, "items": items})).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    // A quantity beyond 999 is kept at 999 and said.
    for _ in 0..40 {
        save(&db, &ana, json!({"case_id": first, "cart_items": [1]})).await;
    }
    let (_, v) = save(&db, &ana, json!({"case_id": first, "cart_items": [1]})).await;
    assert_eq!(v["goto_case"]["items"][0]["quantity"], 999);
    assert!(
        v["message"].as_str().unwrap().contains("at most 999"),
        "{v}"
    );
    // Two members may use the same name.
    let ben = support::member(&db, 2).await;
    member_with_a_case(&db, &ben, "Case 0").await;
}
both!(fifty_cases_at_most);

async fn refills_name_what_cannot_be_added(backend: Backend) {
    let db = database(backend);
    let ana = support::member(&db, 1).await;
    add(&db, &ana, 12, 24, MAKATI).await;
    add(&db, &ana, 17, 24, MAKATI).await;
    let (_, v) = save(&db, &ana, json!({"name": "Cans", "cart_items": [12, 17]})).await;
    let id = v["goto_case"]["id"].as_i64().unwrap();
    // Priced for Manila, the Double IPA says why it cannot be had.
    let in_manila = format!("/api/v1/user/goto-case/{id}?barangay={MANILA}");
    let (_, v) = call_get(&db, &in_manila, &ana).await;
    assert_eq!(v["items"][1]["available"], false);
    assert_eq!(
        v["items"][1]["unavailable_reason"],
        "Not sold in Manila City."
    );
    assert_eq!(v["total"], 139200, "a whole case at the case price");
    empty_cart(&db, &ana).await;
    // Into the cart for Manila: the can that is sold there goes in, the other is named.
    let (s, v) = refill_case(&db, &ana, id, MANILA).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["left_out"][0]["id"], 17);
    assert_eq!(
        v["message"],
        "Your Go-to Case \"Cans\" is in your cart, but not all of it: Bangkal Double IPA Can 473 ml (Not sold in Manila City)."
    );
    assert_eq!(v["link"], "/cart?done=refilled&left=17:area");
    assert_eq!(quantities(&v["cart"]["shopping_cart"][0]), [(12, 24)]);
    // The cart page names it again from the link.
    let (s, v) = view_cart(&db, &ana, MANILA, "?left=17:area").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["left_out"][0]["reason"], "Not sold in Manila City.");
    let (s, _) = view_cart(&db, &ana, MANILA, "?left=1:area,x").await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
    // Not served: nothing can be added, each named.
    let (s, v) = refill_case(&db, &ana, id, ANGAT).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(v["data"]["products"].as_array().unwrap().len(), 2);
    // The cart's limit: 990 of the can held, 24 more: 9 go in, and it is said.
    change_cart(&db, &ana, 12, 990).await;
    let (s, v) = refill_case(&db, &ana, id, MAKATI).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        v["left_out"][0]["reason"],
        "9 of 24 added: a cart holds at most 999 of a product."
    );
    assert_eq!(
        quantities(&v["cart"]["shopping_cart"][0]),
        [(12, 999), (17, 24)]
    );
    assert_eq!(v["link"], "/cart?done=refilled&left=12:max");
    let (_, v) = view_cart(&db, &ana, MAKATI, "?left=12:max").await;
    assert_eq!(
        v["left_out"][0]["reason"],
        "Not all of it: a cart holds at most 999 of a product."
    );
    // With 999 of both, nothing more goes in: a refusal naming them, not a success.
    change_cart(&db, &ana, 17, 999).await;
    let (s, v) = refill_case(&db, &ana, id, MAKATI).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert!(
        v["message"]
            .as_str()
            .unwrap()
            .starts_with("Nothing could be added"),
        "{v}"
    );
    assert_eq!(v["data"]["products"].as_array().unwrap().len(), 2);
    // A cart of the other family asks first whether to reset it; yes empties it.
    empty_cart(&db, &ana).await;
    add(&db, &ana, 21, 1, MAKATI).await;
    let uri = format!("/api/v1/user/goto-case/cart/{id}/barangay/{MAKATI}");
    let (s, v) = refill(&db, &uri, &ana, Value::Null).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["errors"]["reset"][0], RESET);
    let (_, v) = view_cart(&db, &ana, MAKATI, "").await;
    assert_eq!(
        v["shopping_cart"][0]["items"][0]["id"], 21,
        "the keg stays until the shopper agrees"
    );
    let (s, v) = refill(&db, &uri, &ana, json!({"reset": true})).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["cart"]["item_count"], 2);
    assert_eq!(v["cart"]["shopping_cart"][0]["family"], "can");
    // An empty Go-to Case says so.
    let (_, v) = remove_items(&db, &ana, json!({"case_id": id, "items": [12, 17]})).await;
    assert_eq!(v["goto_case"]["items"], json!([]));
    let (s, v) = refill(&db, &uri, &ana, Value::Null).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(v["message"].as_str().unwrap().contains("is empty"));
}
both!(refills_name_what_cannot_be_added);

/// Places the cart of `token` (a complete case in Makati) as an order, with Ana's checkout form
/// and no street; answers the placed order.
async fn place(db: &TestDb, token: &str) -> Value {
    let (_, cart) = view_cart(db, token, MAKATI, "").await;
    let mut form = checkout(&cart);
    form.as_object_mut().unwrap().remove("street_id");
    let (s, v) = call_api(db, "POST", "/api/v1/orders", token, form).await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    v
}

async fn order_again(backend: Backend) {
    let db = database(backend);
    let ana = support::member(&db, 1).await;
    add(&db, &ana, 1, 12, MAKATI).await;
    add(&db, &ana, 3, 12, MAKATI).await;
    let placed = place(&db, &ana).await;
    let id = placed["order"]["id"].as_i64().unwrap();
    let number = placed["order"]["number"].as_str().unwrap().to_string();
    // The cart emptied with the order; Order Again fills it at today's prices, for the order's
    // own barangay unless another is named.
    let (s, v) = again(&db, &ana, id, Value::Null).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(
        v["message"],
        format!("Your order {number} is in your cart.")
    );
    assert_eq!(v["cart"]["barangay_id"], MAKATI);
    assert_eq!(
        v["place"]["barangay_id"], MAKATI,
        "the order's place, chosen for the shopper"
    );
    assert_eq!(
        quantities(&v["cart"]["shopping_cart"][0]),
        [(1, 12), (3, 12)]
    );
    // Twice: quantities add.
    let (_, v) = again(&db, &ana, id, json!({"barangay": MEYCAUAYAN})).await;
    assert_eq!(
        quantities(&v["cart"]["shopping_cart"][0]),
        [(1, 24), (3, 24)]
    );
    assert_eq!(v["cart"]["barangay_id"], MEYCAUAYAN);
    assert_eq!(v["place"], Value::Null, "the shopper's own place");
    // Not someone else's, nor an unknown one: the 404 of an unknown order.
    let ben = support::member(&db, 2).await;
    for (uri, token) in [
        (format!("/api/v1/orders/{id}/again"), ben.as_str()),
        ("/api/v1/orders/999999/again".to_string(), ana.as_str()),
    ] {
        let (s, v) = refill(&db, &uri, token, json!({"key": "x".repeat(40)})).await;
        assert_eq!(s, StatusCode::NOT_FOUND, "{uri}: {v}");
    }
    // Without a session there is no cart to fill: 401, whatever the order (the contract test's
    // ignored_auth check found it answering 404 first).
    for uri in [
        format!("/api/v1/orders/{id}/again"),
        "/api/v1/orders/999999/again".into(),
    ] {
        let (s, v) = refill(&db, &uri, "", json!({"key": "x".repeat(40)})).await;
        assert_eq!(s, StatusCode::UNAUTHORIZED, "{uri}: {v}");
    }
    let (_, v) = view_cart(&db, &ben, MAKATI, "").await;
    assert_eq!(v["item_count"], 0);
    // A guest's order, by the key of its link; the guest's cart fills.
    let guest = support::guest(&db).await;
    add(&db, &guest, 21, 1, MAKATI).await;
    let placed = place(&db, &guest).await;
    let link = placed["link"].as_str().unwrap();
    let (id, key) = (
        placed["order"]["id"].as_i64().unwrap(),
        link.split("key=").nth(1).unwrap().to_string(),
    );
    let (s, _) = again(&db, &guest, id, Value::Null).await;
    assert_eq!(s, StatusCode::NOT_FOUND, "without its key");
    let (s, v) = again(&db, &guest, id, json!({ "key": key })).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(quantities(&v["cart"]["shopping_cart"][0]), [(21, 1)]);
    // Ana's cart holds bottles: the keg order asks the reset question first.
    let (s, v) = again(&db, &ana, id, json!({ "key": key })).await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    assert_eq!(v["errors"]["reset"][0], RESET);
}
both!(order_again);

async fn deleted_with_the_account(backend: Backend) {
    let db = database(backend);
    support::member_who_logs_in(&db, 1).await;
    let (_, ana) = support::log_in_member(&db, 1, "").await;
    {
        use db::schema::users;
        let mut conn = db.pool.get().unwrap();
        diesel::update(users::table)
            .set(users::password_set.eq(true))
            .execute(&mut *conn)
            .unwrap();
    }
    member_with_a_case(&db, &ana, "Mine").await;
    let ben = support::member(&db, 2).await;
    member_with_a_case(&db, &ben, "Mine").await;
    let password = json!({"current_password": "Tala beer 2026 ok"});
    let (s, v) = call_api(&db, "DELETE", "/api/v1/user", &ana, password).await;
    assert!(s.is_success(), "{s} {v}");
    use db::schema::{goto_case_items, goto_cases};
    let mut conn = db.pool.get().unwrap();
    let cases: i64 = goto_cases::table.count().get_result(&mut *conn).unwrap();
    let items: i64 = goto_case_items::table
        .count()
        .get_result(&mut *conn)
        .unwrap();
    assert_eq!((cases, items), (1, 1), "only Ben's is left");
}
both!(deleted_with_the_account);
