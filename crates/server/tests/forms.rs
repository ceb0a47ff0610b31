//! Page forms as routes.ts declares them, over HTTP on SQLite and PostgreSQL: a form names the
//! call it runs (`_call`), its fields parse into that call's own types, and it is answered with a
//! 303 or the page again (without JavaScript) or JSON (with it), from the same declaration.

use crate::support;

use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use serde_json::Value;
use support::{assert_private, database, json_request, location, Backend, MAKATI, SHOP};

/// A form posted from the store's own page with the session `token` and its CSRF token; `json`
/// as a page with JavaScript posts it.
fn form(uri: &str, token: &str, fields: &[(&str, &str)], json: bool) -> TestRequest {
    let body = form_urlencoded::Serializer::new(String::new())
        .extend_pairs(fields)
        .append_pair("csrf", &framework::session::csrf_token(token))
        .finish();
    let req = TestRequest::post()
        .uri(uri)
        .insert_header(("origin", SHOP))
        .insert_header(("cookie", format!("session={token}")))
        .insert_header(("content-type", "application/x-www-form-urlencoded"))
        .set_payload(body);
    if json {
        req.insert_header(("accept", "application/json"))
    } else {
        req
    }
}

/// A form as [`form`] posts it, but with the CSRF token of another session than the one of
/// `token` (an expired form).
fn stale_form(uri: &str, token: &str, fields: &[(&str, &str)], json: bool) -> TestRequest {
    let other = framework::session::new_token();
    form(uri, &other, fields, json).insert_header(("cookie", format!("session={token}")))
}

/// The fields of the form adding the address "12 Jupiter St." in the barangay `barangay` (its
/// code as typed), on the street `street` when there is one.
fn new_address<'a>(barangay: &'a str, street: Option<&'a str>) -> Vec<(&'a str, &'a str)> {
    let mut fields = vec![
        ("_call", "createAddress"),
        ("address", "12 Jupiter St."),
        ("barangay_id", barangay),
    ];
    fields.extend(street.map(|id| ("street_id", id)));
    fields
}

/// The addresses of the member of `token`, as the app asks for them.
fn addresses(token: &str) -> TestRequest {
    json_request("GET", "/api/v1/user/addresses/list", token, Value::Null)
}

/// How many addresses the member of `token` has, as the app lists them from `store`.
macro_rules! address_count {
    ($store:expr, $token:expr) => {
        send!($store, addresses($token)).json()["results"]
            .as_array()
            .unwrap()
            .len()
    };
}

/// A member adds, renames and deletes an address by form; each action is named by `_call`.
async fn the_address_book_runs_the_call_each_form_names(b: Backend) {
    let db = database(b);
    let store = store!(db);
    let (ana, ben) = (support::member(&db, 1).await, support::member(&db, 2).await);
    let makati = MAKATI.to_string();
    let add = new_address(&makati, Some("1"));
    let r = send!(store, form("/my-account/addresses", &ana, &add, false));
    assert_eq!(
        (r.status, location(&r)),
        (StatusCode::SEE_OTHER, "/my-account/addresses?done=added"),
        "{}",
        r.text()
    );
    let list = send!(store, addresses(&ana)).json();
    let id = list["results"][0]["id"].to_string();
    assert_eq!(list["results"][0]["address"], "12 Jupiter St.");

    let rename = [
        ("_call", "updateAddress"),
        ("addressId", id.as_str()),
        ("address", "Unit 5B, 12 Jupiter St."),
        ("barangay_id", makati.as_str()),
        ("street_id", "1"),
    ];
    let r = send!(store, form("/my-account/addresses", &ana, &rename, false));
    assert_eq!(location(&r), "/my-account/addresses?done=saved");
    assert_eq!(
        send!(store, addresses(&ana)).json()["results"][0]["address"],
        "Unit 5B, 12 Jupiter St."
    );

    // Another member's address is not found, as an unknown one; nothing changes.
    let r = send!(store, form("/my-account/addresses", &ben, &rename, false));
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text());
    let delete = [("_call", "deleteAddress"), ("addressId", id.as_str())];
    let r = send!(store, form("/my-account/addresses", &ben, &delete, true));
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert_eq!(address_count!(store, &ana), 1);

    // An address with three forms needs the name; a name it does not take is refused.
    for call in [None, Some("deleteUser"), Some("nope")] {
        let mut fields = vec![("addressId", id.as_str())];
        fields.extend(call.map(|c| ("_call", c)));
        let r = send!(store, form("/my-account/addresses", &ana, &fields, true));
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{call:?}");
        assert_eq!(r.json()["message"], "This form cannot be sent here.");
    }
    assert_eq!(address_count!(store, &ana), 1);

    let r = send!(store, form("/my-account/addresses", &ana, &delete, true));
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.json()["location"], "/my-account/addresses?done=deleted");
    assert_eq!(address_count!(store, &ana), 0);
}
both!(the_address_book_runs_the_call_each_form_names);

/// A form's fields parse as the call's JSON body would: a field of the wrong kind is named, the
/// call's own rules give each field's message, and what was typed comes back (JSON with
/// JavaScript, the page without).
async fn fields_parse_into_the_calls_own_types(b: Backend) {
    let db = database(b);
    let store = store!(db);
    let ana = support::member(&db, 1).await;
    let bad_id = new_address("12abc", None);
    let r = send!(store, form("/my-account/addresses", &ana, &bad_id, true));
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        r.json()["message"],
        "barangay_id must be a positive whole number."
    );
    let makati = MAKATI.to_string();
    let no_line = [("_call", "createAddress"), ("barangay_id", makati.as_str())];
    let r = send!(store, form("/my-account/addresses", &ana, &no_line, true));
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    let v = r.json();
    assert!(v["errors"]["address"].is_array(), "{v}");
    assert_eq!(v["values"]["barangay_id"], makati);
    assert!(v["values"].get("csrf").is_none() && v["values"].get("_call").is_none());
    // Without JavaScript: the page again, with the messages.
    let r = send!(store, form("/my-account/addresses", &ana, &no_line, false));
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r
        .text()
        .contains("<h1 id=\"addresses-title\">My Addresses</h1>"));
}
both!(fields_parse_into_the_calls_own_types);

/// With JavaScript a login is answered in JSON: where to go (with the new session's cookies), or
/// the message, never the password.
async fn a_page_with_javascript_gets_json(b: Backend) {
    let db = database(b);
    let store = store!(db);
    let guest = support::guest(&db).await;
    let wrong = [
        ("login", "member1@example.com"),
        ("password", "NotHers2026"),
        ("from", "checkout"),
    ];
    let r = send!(store, form("/login", &guest, &wrong, true));
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    let v = r.json();
    assert_eq!(v["message"], "These credentials do not match our records.");
    assert_eq!(v["values"]["login"], "member1@example.com");
    assert!(!r.text().contains("NotHers2026"));
    assert_private(&r, "a login's answer");

    // A stale CSRF token: the form's own message, in JSON too.
    let r = send!(store, stale_form("/login", &guest, &wrong, true));
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert_eq!(
        r.json()["message"],
        "This form has expired. Please try again."
    );
}
both!(a_page_with_javascript_gets_json);

/// The first address becomes the shop's location: the answer sets the location gate's cookies.
async fn the_first_address_becomes_the_location(b: Backend) {
    let db = database(b);
    let store = store!(db);
    let ana = support::member(&db, 1).await;
    let makati = MAKATI.to_string();
    let add = new_address(&makati, Some("1"));
    let r = send!(store, form("/setup-address", &ana, &add, true));
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(r.json()["location"], "/buy-beer");
    let cookies: Vec<&str> = r
        .headers
        .get_all("set-cookie")
        .filter_map(|v| v.to_str().ok())
        .collect();
    assert!(
        cookies
            .iter()
            .any(|c| c.starts_with(&format!("locationGateBarangayId={MAKATI}"))),
        "{cookies:?}"
    );
}
both!(the_first_address_becomes_the_location);

/// Under maintenance no form writes: the maintenance page (503), or its words in JSON.
async fn under_maintenance_no_form_writes(b: Backend) {
    let db = database(b);
    let store = store!(db, support::store_config(&db.url, true));
    let ana = support::member(&db, 1).await;
    let makati = MAKATI.to_string();
    let add = new_address(&makati, None);
    let r = send!(store, form("/my-account/addresses", &ana, &add, true));
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "{}", r.text());
    assert_eq!(r.json()["message"], framework::MAINTENANCE_MESSAGE);
    let r = send!(store, form("/my-account/addresses", &ana, &add, false));
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(r.headers.contains_key("retry-after"));
    let open = store!(db);
    assert_eq!(address_count!(open, &ana), 0);
}
both!(under_maintenance_no_form_writes);

/// A Log Out form with an expired token says so (403), rather than quietly going home.
async fn an_expired_logout_form_says_so(b: Backend) {
    let db = database(b);
    let store = store!(db);
    let ana = support::member(&db, 1).await;
    let r = send!(store, stale_form("/logout", &ana, &[], false));
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert!(r
        .text()
        .contains("This form has expired. Please try again."));
    // The member is still logged in.
    let r = send!(
        store,
        json_request("GET", "/api/v1/user", &ana, Value::Null)
    );
    assert_eq!(r.status, StatusCode::OK);
}
both!(an_expired_logout_form_says_so);
