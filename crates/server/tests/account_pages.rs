//! The account pages and their no-JS forms over HTTP, on SQLite and PostgreSQL: the guards as real
//! redirects, the forms' CSRF token and Origin check, errors on the re-rendered form (never a
//! password), a member's pages kept apart from the guests' shared cache, and a session that ends
//! showing a guest again.

use crate::support;

use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use serde_json::json;
use support::{
    assert_private, csrf_of, database, form_body, location, removed, Backend, Jar, SHOP,
};

/// Registers Rosa through the API (the JSON path the forms share; another app server on the same
/// database) and the link in her mail; answers her cookies.
async fn register_rosa(db: &support::TestDb, outbox: &std::path::Path) -> Jar {
    let form = json!({
        "first_name": "Rosa", "last_name": "Santos", "email": "rosa@example.com",
        "mobile": "09181234567", "birth_date": "1988-08-08", "password": "Pulutan2026",
        "accept_terms": true
    });
    let r = support::register(db, outbox, form).await;
    let mut jar = Jar::default();
    jar.keep(&r);
    assert!(jar.get("session").is_some() && jar.get("member") == Some("1"));
    jar
}

/// The store (one render pool) mailing to a fresh outbox, and Rosa registered through it:
/// `(db, outbox, store, rosa)`.
macro_rules! rosas_store {
    ($b:expr) => {{
        let db = database($b);
        let outbox = tempfile::tempdir().unwrap();
        let mut cfg = support::store_config(&db.url, false);
        cfg.mail_outbox = outbox.path().to_path_buf();
        let store = store!(db, cfg);
        let rosa = register_rosa(&db, outbox.path()).await;
        (db, outbox, store, rosa)
    }};
}

fn get(uri: &str, jar: &Jar) -> TestRequest {
    support::get(uri, &jar.header())
}

/// A form posted with the cookies of `jar`, from `origin` ("" for none).
fn post(uri: &str, jar: &Jar, origin: &str, pairs: &[(&str, &str)]) -> TestRequest {
    let req = support::post_form(uri, &jar.header(), &form_body(pairs));
    if origin.is_empty() {
        req
    } else {
        req.insert_header(("origin", origin.to_string()))
    }
}

/// The fields of Rosa's profile form, renaming her Rosario (no CSRF token).
const PROFILE: [(&str, &str); 4] = [
    ("first_name", "Rosario"),
    ("last_name", "Santos"),
    ("mobile", "09181234567"),
    ("birth_date", "1988-08-08"),
];

/// The CSRF token on her account page, read as she opens it.
macro_rules! account_csrf {
    ($store:expr, $jar:expr) => {{
        let r = send!($store, get("/my-account", &$jar));
        csrf_of(&r.text())
    }};
}

async fn a_guest_is_sent_to_log_in_from_a_member_page(b: Backend) {
    let db = database(b);
    let store = store!(db);
    for uri in [
        "/my-account",
        "/my-account/orders",
        "/my-account/go-to-cases",
        "/my-account/addresses",
        "/my-account/delete-account",
        "/setup-address",
        "/change-password",
    ] {
        let r = send!(store, get(uri, &Jar::default()));
        assert_eq!(r.status, StatusCode::FOUND, "{uri}");
        assert_eq!(location(&r), "/login", "{uri}");
    }
}
both!(a_guest_is_sent_to_log_in_from_a_member_page);

/// A forged member hint is only a hint: a guest page, and the hint cleared.
async fn a_forged_member_hint_shows_a_guest_page_and_is_cleared(b: Backend) {
    let db = database(b);
    let store = store!(db);
    let forged = Jar(vec![
        ("member".into(), "1".into()),
        ("session".into(), framework::session::new_token()),
    ]);
    let r = send!(store, get("/", &forged));
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.text().contains(r#"<summary aria-label="My Account">"#));
    assert!(removed(&r, "member") && removed(&r, "session"));
}
both!(a_forged_member_hint_shows_a_guest_page_and_is_cleared);

/// The guests' home is kept and shared; a member's page has her name and her CSRF token and is
/// never served to anyone else.
async fn a_members_page_is_never_served_to_a_guest(b: Backend) {
    let db = database(b);
    let store = store!(db);
    let guest = Jar::default();
    let r = send!(store, get("/", &guest));
    assert_eq!(r.status, StatusCode::OK);
    let guest_home = r.text();
    assert!(!guest_home.contains("Rosa"));
    assert!(!guest_home.contains(r#"<meta name="robots" content="noindex">"#));
    assert!(
        !guest_home.contains(r#"<link rel="stylesheet" href="/assets/accounts-"#),
        "a guest's shop page carries only the critical CSS"
    );

    let outbox = tempfile::tempdir().unwrap();
    let rosa = register_rosa(&db, outbox.path()).await;
    let r = send!(store, get("/", &rosa));
    assert_eq!(r.status, StatusCode::OK);
    let home = r.text();
    assert!(
        home.contains(r#"aria-label="My Account, Rosa""#),
        "member header"
    );
    assert!(home.contains("RECOMMENDED FOR YOU"));
    assert!(home.contains(r#"<link rel="stylesheet" href="/assets/accounts-"#));
    assert!(home.contains(r#"action="/logout""#));
    let r = send!(store, get("/", &guest));
    assert_eq!(r.text(), guest_home, "a guest gets the guests' page");
    assert!(!guest_home.contains("RECOMMENDED FOR YOU"));
}
both!(a_members_page_is_never_served_to_a_guest);

/// A member accepts the policy once (the no-JS consent form); another device of hers, with no
/// consent cookie, never shows the modal again.
async fn a_member_accepts_the_policy_once_for_every_device(b: Backend) {
    let (_db, _outbox, store, rosa) = rosas_store!(b);
    let home = send!(store, get("/", &rosa)).text();
    assert!(home.contains("PRIVACY / COOKIE POLICY"));
    let consent = |csrf: &str| {
        post(
            "/gate/consent",
            &rosa,
            SHOP,
            &[("return_to", "/"), ("csrf", csrf)],
        )
    };
    // Without her session's token the acceptance is only this browser's cookie.
    let r = send!(store, consent("forged"));
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let r = send!(store, get("/", &rosa));
    assert!(r.text().contains("PRIVACY / COOKIE POLICY"));
    let r = send!(store, consent(&csrf_of(&home)));
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let r = send!(store, get("/", &rosa));
    assert!(!r.text().contains("PRIVACY / COOKIE POLICY"));
}
both!(a_member_accepts_the_policy_once_for_every_device);

/// Guest-only pages send her home; hers are open, and never kept.
async fn a_member_is_sent_home_from_guest_pages_and_sees_her_own(b: Backend) {
    let (_db, _outbox, store, rosa) = rosas_store!(b);
    for uri in ["/login", "/registration"] {
        let r = send!(store, get(uri, &rosa));
        assert_eq!((r.status, location(&r)), (StatusCode::FOUND, "/"), "{uri}");
        // Where a guard sends depends on the session: no cache keeps it.
        assert_private(&r, uri);
    }
    let r = send!(store, get("/my-account", &rosa));
    assert_eq!(r.status, StatusCode::OK);
    assert_private(&r, "/my-account");
    let page = r.text();
    assert!(page.contains(r#"value="09181234567""#), "her profile");
    csrf_of(&page);
}
both!(a_member_is_sent_home_from_guest_pages_and_sees_her_own);

/// The profile form is refused without the token, with another site's origin (forged Host and
/// X-Forwarded-Host do not help), and with another session's token.
async fn the_profile_form_needs_her_token_and_the_stores_origin(b: Backend) {
    let (_db, _outbox, store, rosa) = rosas_store!(b);
    let csrf = account_csrf!(store, rosa);
    let r = send!(store, post("/my-account", &rosa, SHOP, &PROFILE));
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert!(r
        .text()
        .contains("This form has expired. Please try again."));
    let mut with_token = PROFILE.to_vec();
    with_token.push(("csrf", &csrf));
    let mut evil = post("/my-account", &rosa, "http://evil.com", &with_token).to_request();
    evil.headers_mut()
        .insert(actix_web::http::header::HOST, "evil.com".parse().unwrap());
    evil.headers_mut().insert(
        actix_web::http::header::HeaderName::from_static("x-forwarded-host"),
        "evil.com".parse().unwrap(),
    );
    let r = support::call(&store, evil).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    // A client that sends neither Origin nor Referer (privacy settings strip them) is held by
    // the token alone.
    let r = send!(store, post("/my-account", &rosa, "", &PROFILE));
    assert_eq!(r.status, StatusCode::FORBIDDEN, "no Origin and no token");
    let mut forged_token = PROFILE.to_vec();
    let other = framework::session::csrf_token(&framework::session::new_token());
    forged_token.push(("csrf", &other));
    let r = send!(store, post("/my-account", &rosa, "", &forged_token));
    assert_eq!(r.status, StatusCode::FORBIDDEN, "another session's token");
}
both!(the_profile_form_needs_her_token_and_the_stores_origin);

/// A bad field comes back on the page with what was typed; control characters are refused and
/// none is echoed; the right form renames her.
async fn a_profile_form_is_checked_then_saved(b: Backend) {
    let (_db, _outbox, store, rosa) = rosas_store!(b);
    let csrf = account_csrf!(store, rosa);
    let mut with_token = PROFILE.to_vec();
    with_token.push(("csrf", &csrf));
    let mut bad = with_token.clone();
    bad[2] = ("mobile", "12345");
    let r = send!(store, post("/my-account", &rosa, SHOP, &bad));
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    let page = r.text();
    assert!(page.contains("The mobile number must start with 09"));
    assert!(page.contains(r#"value="Rosario""#), "what was typed stays");
    let mut nul = with_token.clone();
    nul[0] = ("first_name", "Ro\u{0}sa\r\n");
    let r = send!(store, post("/my-account", &rosa, SHOP, &nul));
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(!r.body.contains(&0) && !r.text().contains("\r\n"));
    assert!(r.text().contains(r#"value="Rosa""#));
    let r = send!(store, post("/my-account", &rosa, SHOP, &with_token));
    assert_eq!(
        (r.status, location(&r)),
        (StatusCode::SEE_OTHER, "/my-account?done=profile")
    );
    let r = send!(store, get("/", &rosa));
    assert!(r.text().contains(r#"aria-label="My Account, Rosario""#));
}
both!(a_profile_form_is_checked_then_saved);

/// Logout ends the session; her old cookie then shows a guest and is cleared.
async fn logout_ends_the_session_and_its_cookie_shows_a_guest(b: Backend) {
    let (_db, _outbox, store, rosa) = rosas_store!(b);
    let csrf = account_csrf!(store, rosa);
    let r = send!(store, post("/logout", &rosa, SHOP, &[("csrf", &csrf)]));
    assert_eq!(
        (r.status, location(&r)),
        (StatusCode::SEE_OTHER, "/login?done=logout")
    );
    assert!(removed(&r, "session") && removed(&r, "member"));
    let r = send!(store, get("/", &rosa));
    assert!(!r.text().contains("Rosa"), "an ended session shows a guest");
    let r = send!(store, get("/my-account", &rosa));
    assert_eq!((r.status, location(&r)), (StatusCode::FOUND, "/login"));
}
both!(logout_ends_the_session_and_its_cookie_shows_a_guest);

/// Login: the page starts a guest session for its token; a wrong password keeps the typed login,
/// never the password; the right one goes to /checkout when login began there, with a new token.
async fn login_keeps_the_login_never_the_password_and_returns_to_checkout(b: Backend) {
    let (_db, _outbox, store, _) = rosas_store!(b);
    let mut rosa = Jar::default();
    let r = send!(store, get("/login?from=checkout", &rosa));
    assert_eq!(r.status, StatusCode::OK);
    assert!(
        r.text()
            .contains(r#"<meta name="robots" content="noindex">"#),
        "a visitor's own form page is not for an index"
    );
    assert!(r
        .text()
        .contains(r#"<link rel="stylesheet" href="/assets/accounts-"#));
    rosa.keep(&r);
    let guest_session = rosa.get("session").expect("a guest session").to_string();
    let csrf = csrf_of(&r.text());
    let wrong = [
        ("csrf", csrf.as_str()),
        ("login", "rosa@example.com"),
        ("password", "NotHers2026"),
        ("from", "checkout"),
    ];
    let r = send!(store, post("/login", &rosa, SHOP, &wrong));
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    let page = r.text();
    assert!(page.contains("These credentials do not match our records."));
    assert!(page.contains(r#"value="rosa@example.com""#));
    assert!(
        !page.contains("NotHers2026"),
        "a password is never sent back"
    );
    let mut right = wrong;
    right[2] = ("password", "Pulutan2026");
    let r = send!(store, post("/login", &rosa, SHOP, &right));
    assert_eq!(
        (r.status, location(&r)),
        (StatusCode::SEE_OTHER, "/checkout")
    );
    rosa.keep(&r);
    assert_ne!(
        rosa.get("session"),
        Some(guest_session.as_str()),
        "a new token on login"
    );
    assert_eq!(rosa.get("member"), Some("1"));
}
both!(login_keeps_the_login_never_the_password_and_returns_to_checkout);

/// Deleting needs the confirmation and the current password; a second click after it is gone is
/// sent to log in.
async fn deleting_an_account_needs_the_confirmation_and_works_once(b: Backend) {
    let (_db, _outbox, store, rosa) = rosas_store!(b);
    let r = send!(store, get("/my-account/delete-account", &rosa));
    let csrf = csrf_of(&r.text());
    let delete = |fields: &[(&str, &str)]| post("/my-account/delete-account", &rosa, SHOP, fields);
    let r = send!(store, delete(&[("csrf", &csrf)]));
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    // Ticked, but without her password (a session alone deletes nothing).
    let guess = [
        ("csrf", csrf.as_str()),
        ("confirm", "1"),
        ("current_password", "Guess2026"),
    ];
    let r = send!(store, delete(&guess));
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.text().contains("The current password is not correct."));
    let confirm = [
        ("csrf", csrf.as_str()),
        ("confirm", "1"),
        ("current_password", "Pulutan2026"),
    ];
    let r = send!(store, delete(&confirm));
    assert_eq!(
        (r.status, location(&r)),
        (StatusCode::SEE_OTHER, "/?accountSuccessDelete=yes")
    );
    let r = send!(store, delete(&confirm));
    assert!(
        r.status == StatusCode::FORBIDDEN || location(&r) == "/login",
        "the second click: {}",
        r.status
    );
    let r = send!(store, get("/?accountSuccessDelete=yes", &Jar::default()));
    assert!(r.text().contains("ACCOUNT DELETED") && r.text().contains("CONTINUE AS GUEST"));
}
both!(deleting_an_account_needs_the_confirmation_and_works_once);

async fn hostile_inputs_are_harmless(b: Backend) {
    let db = database(b);
    let store = store!(db);
    // Links with forged, malformed or huge tokens show their page and say the link is not good
    // once used; nothing breaks.
    for uri in [
        "/registration?token=%zz",
        "/registration?token=../../etc/passwd",
        "/reset-password?suid=%00",
        "/reset-password?suid=x&suid=y",
        "/login?from=%0d%0aSet-Cookie:x",
    ] {
        let r = send!(store, TestRequest::get().uri(uri));
        assert_eq!(r.status, StatusCode::OK, "{uri}");
        assert!(!r.text().contains("Set-Cookie:x\r"), "{uri}");
    }
    // A form post of an account page from another site is refused before anything runs.
    let r = send!(
        store,
        TestRequest::post()
            .uri("/login")
            .insert_header(("origin", "http://evil.com"))
            .insert_header(("sec-fetch-site", "cross-site"))
            .insert_header(("content-type", "application/x-www-form-urlencoded"))
            .set_payload("login=a%40b.c&password=x")
    );
    assert_eq!(r.status, StatusCode::FORBIDDEN);
}

both!(hostile_inputs_are_harmless);

/// The link's form without JavaScript: a weak password comes back with its message and the link
/// keeps working; the chosen password makes the account; the same form sent again (a double
/// click) makes nothing more and says the account is ready.
async fn the_link_form_takes_the_password_once(b: Backend) {
    let db = database(b);
    let outbox = tempfile::tempdir().unwrap();
    let store = store!(db);
    let r = support::send_api(
        &db.pool,
        TestRequest::post()
            .uri("/api/v1/pre-register")
            .set_json(json!({
                "first_name": "Rosa", "last_name": "Santos", "email": "rosa@example.com",
                "mobile": "09181234567", "birth_date": "1988-08-08", "accept_terms": true
            })),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK);
    let mail = support::read_outbox(&db.pool, outbox.path()).remove(0);
    let token = support::link_token(&mail);
    let page = format!("/registration?token={token}");
    let mut jar = Jar::default();
    let r = send!(store, get(&page, &jar));
    jar.keep(&r);
    // Without JavaScript too, the page shows the details the account is made with.
    assert!(r.text().contains(
        "It is made with the details given when the link was asked for: Rosa Santos, mobile 09181234567"
    ));
    let csrf = csrf_of(&r.text());
    let fields = |password: &'static str| {
        [
            ("_call", "registration"),
            ("csrf", csrf.as_str()),
            ("token", token.as_str()),
            ("password", password),
        ]
        .map(|(k, v)| (k, v.to_string()))
    };
    let send_form = |password: &'static str, jar: &Jar| {
        let pairs = fields(password);
        let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (*k, v.as_str())).collect();
        post(&page, jar, SHOP, &pairs)
    };
    let r = send!(store, send_form("beer2026", &jar));
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r
        .text()
        .contains("The password must be at least 10 characters."));
    assert!(
        !r.text().contains("beer2026"),
        "a password is never sent back"
    );
    let r = send!(store, send_form("Pulutan2026", &jar));
    assert_eq!(
        (r.status, location(&r)),
        (StatusCode::SEE_OTHER, "/setup-address?done=welcome")
    );
    // The double click: the browser still holds the guest's cookies.
    let r = send!(store, send_form("Pulutan2026", &jar));
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(
        r.text().contains("your account is ready. Log in"),
        "{}",
        r.text()
    );
}
both!(the_link_form_takes_the_password_once);

/// A page number My Orders does not have (0, or past 1,000,000, which the call refuses) shows
/// page 1, never a page left loading (a review found `?page=0` stuck on "Loading your orders").
async fn my_orders_out_of_range_is_page_one(b: Backend) {
    let db = database(b);
    let store = store!(db);
    support::member_who_logs_in(&db, 1).await;
    let (_, session) = support::log_in_member(&db, 1, "").await;
    let jar = Jar(vec![
        ("session".into(), session),
        ("member".into(), "1".into()),
    ]);
    for uri in [
        "/my-account/orders?page=0",
        "/my-account/orders?page=2000000",
    ] {
        let r = send!(store, get(uri, &jar));
        assert_eq!(r.status, StatusCode::OK, "{uri}");
        assert!(!r.text().contains("Loading your orders"), "{uri}");
    }
}
both!(my_orders_out_of_range_is_page_one);
