//! The visitor's parts of shared pages: a page is rendered once for everyone with the same data and
//! each answer carries its visitor's own CSRF token, first name and cart; no visitor ever sees
//! another's, and no sentinel reaches a browser.

use crate::support;

use actix_web::http::StatusCode;
use serde_json::json;
use support::{
    add_to_cart, database, get, guest_browser, page_state, send_json, Auth, Backend, MAKATI,
    PAST_GATES, SHOP,
};

fn gunzip(body: &[u8]) -> String {
    use std::io::Read;
    let mut out = String::new();
    flate2::read::GzDecoder::new(body)
        .read_to_string(&mut out)
        .expect("gzip");
    out
}

async fn visitors_see_their_own_parts(b: Backend) {
    let db = database(b);
    let store = store!(db);
    // A guest without a session or cart: the page for everyone, kept and validated.
    let r = send!(store, get("/buy-beer", PAST_GATES));
    assert_eq!(r.status, StatusCode::OK);
    let html = r.text();
    assert!(!html.contains('\u{E000}'), "no sentinel reaches a browser");
    let s = page_state(&html).expect("state JSON");
    assert_eq!(
        s["visitor"],
        json!({"cart_count": 0, "cart": null, "cart_revision": 0})
    );
    assert_eq!(s["csrf"], "");
    assert!(r.headers.get("etag").is_some());

    // A guest with a cart: their count and cart, and their session's CSRF token.
    let browser = guest_browser(&db, 1, 24).await;
    let token = &browser.session;
    let mine = format!("{PAST_GATES}; {}", browser.cookie());
    let r = send!(
        store,
        get("/buy-beer", &mine).insert_header(("accept-encoding", "gzip"))
    );
    assert_eq!(r.headers.get("content-encoding").unwrap(), "gzip");
    // The shopper's own page: kept by their browser and its worker, asked again each time.
    assert_eq!(r.headers.get("cache-control").unwrap(), "private, no-cache");
    let html = gunzip(&r.body);
    assert!(!html.contains('\u{E000}'));
    let s = page_state(&html).expect("state JSON");
    assert_eq!(s["visitor"]["cart_count"], 1);
    assert_eq!(
        s["visitor"]["cart"]["cart_order_summary"]["items_total"],
        118_800
    );
    assert_eq!(s["csrf"], framework::session::csrf_token(token));

    // Everyone else still gets the page for everyone, filled for no session.
    let r = send!(store, get("/buy-beer", PAST_GATES));
    assert_eq!(r.headers.get("x-session").unwrap(), "");
    assert_eq!(
        page_state(&r.text()).expect("state JSON")["visitor"]["cart_count"],
        0
    );

    // Two members share the rendered page and each sees their own name.
    for n in [1u8, 2] {
        let t = support::member(&db, n).await;
        let r = send!(
            store,
            get("/buy-beer", &format!("{PAST_GATES}; session={t}; member=1"))
        );
        // A member's shop page is theirs to keep (their worker, while they are signed in), and
        // says when their session ends unless used again: at most an hour, at least half.
        assert_eq!(r.headers.get("cache-control").unwrap(), "private, no-cache");
        assert_eq!(r.headers.get("x-session").unwrap().len(), 20);
        let ends: i64 = r
            .headers
            .get("x-session-ends-in")
            .unwrap()
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!((1800..=3600).contains(&ends), "{ends}");
        // Asked again unchanged: 304, saying the end again (the browser's copy takes it).
        let etag = r.headers.get("etag").expect("a validator").clone();
        let again = send!(
            store,
            get("/buy-beer", &format!("{PAST_GATES}; session={t}; member=1"))
                .insert_header(("if-none-match", etag))
        );
        assert_eq!(again.status, StatusCode::NOT_MODIFIED);
        assert!(again.headers.get("x-session-ends-in").is_some());
        let html = r.text();
        assert!(!html.contains('\u{E000}'));
        assert!(html.contains(&format!(">Member{n}<")), "member {n}");
        assert!(!html.contains(&format!(">Member{}<", 3 - n)));
        assert_eq!(
            page_state(&html).expect("state JSON")["member"]["firstname"],
            format!("Member{n}")
        );
        assert_eq!(
            page_state(&html).expect("state JSON")["csrf"],
            framework::session::csrf_token(&t)
        );
    }
}
both!(visitors_see_their_own_parts);

/// A shopper's own shop page (their cart's count and drawer in it) may be kept by their browser and
/// its worker: validated by the page and the parts filled in, and naming the session it was filled
/// for, so that the worker throws it away when a page comes for another.
async fn a_shoppers_page_is_kept_by_their_browser_alone(b: Backend) {
    let db = database(b);
    let store = store!(db);
    let browser = guest_browser(&db, 1, 24).await;
    let mine = format!("{PAST_GATES}; {}", browser.cookie());
    let r = send!(
        store,
        get("/buy-beer", &mine).insert_header(("accept-encoding", "gzip"))
    );
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.headers.get("cache-control").unwrap(), "private, no-cache");
    let vary = r.headers.get("vary").unwrap().to_str().unwrap();
    assert!(
        vary.contains("Cookie") && !vary.contains("Authorization"),
        "{vary}"
    );
    let etag = r.headers.get("etag").expect("a validator").clone();
    let tag = r
        .headers
        .get("x-session")
        .expect("the session's tag")
        .clone();
    assert_eq!(tag.len(), 20, "{tag:?}");
    // A guest's page names no end: their pages hold no name and stay until another session's page.
    assert!(r.headers.get("x-session-ends-in").is_none());

    // Asked again unchanged: 304, with nothing of the page.
    let again = |cookie: &str, etag: &actix_web::http::header::HeaderValue| {
        get("/buy-beer", cookie)
            .insert_header(("accept-encoding", "gzip"))
            .insert_header(("if-none-match", etag.clone()))
    };
    let r = send!(store, again(&mine, &etag));
    assert_eq!(r.status, StatusCode::NOT_MODIFIED);
    assert!(r.body.is_empty());
    assert_eq!(r.headers.get("x-session").unwrap(), &tag);
    // Another shopper's browser with the same cart is another session: another tag, and the
    // first one's validator does not answer 304 to it.
    let other = guest_browser(&db, 1, 24).await;
    let theirs = format!("{PAST_GATES}; {}", other.cookie());
    let r = send!(store, again(&theirs, &etag));
    assert_eq!(r.status, StatusCode::OK);
    assert_ne!(r.headers.get("x-session").unwrap(), &tag);
    assert_ne!(r.headers.get("etag").unwrap(), &etag);
    // The cart changed: the page is sent again.
    let req = actix_web::test::TestRequest::post()
        .uri("/api/v1/cart")
        .insert_header(("cookie", browser.cookie()))
        .insert_header(("content-type", "application/json"))
        .set_payload(json!({"product_id": 1, "quantity": 24, "barangay": MAKATI}).to_string());
    let added = support::send_api(&db.pool, req).await;
    assert_eq!(added.status, StatusCode::OK, "{}", added.text());
    let version = support::set_cookie(&added, "cart_v").expect("the cart's new version");
    let mine = format!(
        "{PAST_GATES}; session={}; cart={}; cart_v={version}",
        browser.session,
        browser.cart()
    );
    let r = send!(store, again(&mine, &etag));
    assert_eq!(r.status, StatusCode::OK);
    assert_ne!(r.headers.get("etag").unwrap(), &etag);
}
both!(a_shoppers_page_is_kept_by_their_browser_alone);

/// Member 1 (who logs in) with bottles in their cart, and a guest's browser with a keg in its
/// cart: the guest's cart cannot join the member's.
async fn bottles_and_a_guest_keg(db: &support::TestDb) -> support::Browser {
    support::member_who_logs_in(db, 1).await;
    let (_, first) = support::log_in_member(db, 1, "").await;
    let add = json!({"product_id": 1, "quantity": 24, "barangay": MAKATI});
    send_json(
        db,
        "POST",
        "/api/v1/cart",
        Auth::Cookie(format!("session={first}")),
        add,
    )
    .await;
    guest_browser(db, 21, 1).await
}

/// A member who logs in holding a guest cart of the other family chooses on the cart page which
/// cart to keep, without JavaScript too.
async fn the_cart_page_settles_a_conflict(b: Backend) {
    let db = database(b);
    let store = store!(db);
    // Bottles in the member's cart; a keg as a guest on another browser, then logging in there.
    let browser = bottles_and_a_guest_keg(&db).await;
    let (guest, cart) = (&browser.session, browser.cart());
    let (login, member) =
        support::log_in_member(&db, 1, &format!("session={guest}; cart={cart}")).await;
    assert_eq!(login["data"]["cart_conflict"], true);
    let jar = format!("{PAST_GATES}; session={member}; member=1; cart={cart}");
    let page = send!(store, get("/cart", &jar));
    let html = page.text();
    assert!(
        html.contains("Which cart do you keep?"),
        "the cart page asks"
    );
    assert!(html.contains("Tala Pale Pilsen Keg 30 L x 1"));
    let body = support::form_body(&[
        ("_call", "keepCart"),
        ("csrf", &support::csrf_of(&html)),
        ("keep", "guest"),
        ("barangay", &MAKATI.to_string()),
    ]);
    let r = send!(
        store,
        support::post_form("/cart", &jar, &body).insert_header(("origin", SHOP))
    );
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    assert_eq!(support::location(&r), "/cart?done=kept");
    let html = send!(store, get("/cart?done=kept", &jar)).text();
    assert!(html.contains("Your cart is ready."));
    assert!(!html.contains("Which cart do you keep?"));
    assert!(page_state(&html).expect("state JSON")["state"]["queries"]
        .to_string()
        .contains("Tala Pale Pilsen Keg 30 L"));
}
both!(the_cart_page_settles_a_conflict);

/// The login form without JavaScript sends a member whose guest cart could not join theirs to
/// the cart page, which asks which to keep (the login's answer says so, and the login action
/// declares where that goes).
async fn a_login_form_with_a_conflicting_cart_goes_to_the_cart(b: Backend) {
    let db = database(b);
    let store = store!(db);
    let browser = bottles_and_a_guest_keg(&db).await;
    let jar = format!("{PAST_GATES}; {}", browser.cookie());
    let page = send!(store, get("/login", &jar));
    assert_eq!(page.status, StatusCode::OK);
    let body = support::form_body(&[
        ("_call", "login"),
        ("csrf", &support::csrf_of(&page.text())),
        ("login", "member1@example.com"),
        ("password", "Tala beer 2026 ok"),
    ]);
    let r = send!(
        store,
        support::post_form("/login", &jar, &body).insert_header(("origin", SHOP))
    );
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    assert_eq!(support::location(&r), "/cart?done=conflict");
}
both!(a_login_form_with_a_conflicting_cart_goes_to_the_cart);

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

/// Consent given, bottles chosen, no location yet (as right after the category form).
const NO_PLACE: &str = "cookieAccepted=1; privacyVerification=1; categoryGateId=1";

/// With a cart but no location chosen (right after the category form, which clears the
/// location), the drawer shows the cart the header counts (`web::visitor::parts`,
/// `api::cart::visitor::visitor`), never "There are no items in your cart." beside a count of 1.
#[actix_web::test]
async fn the_drawer_agrees_with_the_count_before_a_location_is_chosen() {
    let db = database(Backend::Sqlite);
    let store = store!(db);
    let mine = guest_browser(&db, 1, 24).await.cookie();
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

/// crates/api/src/gate/forms.rs `reset_cart_first` (and ui needsReset, which reads the visitor's cart,
/// null without a place): without a location cookie the reset question is never asked, so a
/// cart of kegs stays while the shopper switches to bottles; the question is to be asked whenever
/// the cart holds the other family.
#[actix_web::test]
async fn the_reset_question_is_asked_without_a_location_too() {
    let db = database(Backend::Sqlite);
    let store = store!(db);
    // A keg in the cart.
    let mine = guest_browser(&db, 21, 1).await.cookie();
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
