//! The account pages and their no-JS forms over HTTP, on SQLite and PostgreSQL (issue 8): the
//! guards as real redirects, the forms' CSRF token and Origin check, errors on the re-rendered
//! form (never a password), a member's pages kept apart from the guests' shared cache, and a
//! session that ends showing a guest again.

mod support;

use actix_web::http::StatusCode;
use actix_web::test::{self, TestRequest};
use serde_json::json;
use support::{database, Backend, Res};

const ORIGIN: &str = "https://shop.example";

async fn read<B: actix_web::body::MessageBody>(res: actix_web::dev::ServiceResponse<B>) -> Res {
    let (status, headers) = (res.status(), res.headers().clone());
    let body = test::read_body(res).await.to_vec();
    Res {
        status,
        headers,
        body,
    }
}

/// The `name=value` pairs a response sets, as a `Cookie` header would send them back (removals
/// left out).
fn set_cookies(r: &Res) -> Vec<(String, String)> {
    r.headers
        .get_all("set-cookie")
        .filter_map(|v| v.to_str().ok())
        .filter(|v| !v.contains("Max-Age=0"))
        .filter_map(|v| {
            let pair = v.split(';').next()?;
            let (k, val) = pair.split_once('=')?;
            Some((k.to_string(), val.to_string()))
        })
        .collect()
}

fn removed(r: &Res, name: &str) -> bool {
    r.headers
        .get_all("set-cookie")
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.starts_with(&format!("{name}=;")) && v.contains("Max-Age=0"))
}

/// A browser's cookie jar, just enough of one.
#[derive(Default, Clone)]
struct Jar(Vec<(String, String)>);

impl Jar {
    fn keep(&mut self, r: &Res) {
        for (k, v) in set_cookies(r) {
            self.0.retain(|(n, _)| *n != k);
            self.0.push((k, v));
        }
        for name in ["session", "member"] {
            if removed(r, name) {
                self.0.retain(|(n, _)| n != name);
            }
        }
    }

    fn header(&self) -> String {
        self.0
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

fn csrf_of(html: &str) -> String {
    let at = html.find(r#"name="csrf" value=""#).expect("a CSRF field") + 19;
    html[at..].split('"').next().unwrap().to_string()
}

fn location(r: &Res) -> &str {
    r.headers
        .get("location")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
}

fn form_body(pairs: &[(&str, &str)]) -> String {
    form_urlencoded::Serializer::new(String::new())
        .extend_pairs(pairs)
        .finish()
}

/// Registers Rosa through the API (the JSON path the forms share; another app server on the same
/// database) and reads her link from the outbox; answers her session cookie.
async fn register_rosa(db: &support::TestDb, outbox: &std::path::Path) -> Jar {
    let form = json!({
        "first_name": "Rosa", "last_name": "Santos", "email": "rosa@example.com",
        "mobile": "09181234567", "birth_date": "1988-08-08", "password": "Pulutan2026",
        "accept_terms": true
    });
    let r = support::send_api_mailing(
        &db.pool,
        outbox,
        TestRequest::post()
            .uri("/api/v1/pre-register")
            .set_json(form),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let mail = std::fs::read_dir(outbox)
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .map(|m| m.replace("=\r\n", "").replace("=3D", "="))
        .find(|m| m.contains("To: rosa@example.com"))
        .expect("link mail");
    let at = mail.find("registration?token=").unwrap() + 19;
    let token: String = mail[at..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    let r = support::send_api_mailing(
        &db.pool,
        outbox,
        TestRequest::post()
            .uri("/api/v1/registration")
            .insert_header(("registration-token", token)),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let mut jar = Jar::default();
    jar.keep(&r);
    assert!(jar.get("session").is_some() && jar.get("member") == Some("1"));
    jar
}

async fn pages_and_forms(b: Backend) {
    let db = database(b);
    let outbox = tempfile::tempdir().unwrap();
    let mut cfg = support::store_config(&db.url, false);
    cfg.mail_outbox = outbox.path().to_path_buf();
    let api = server::api_state(db.pool.clone(), &cfg).expect("api state");
    let pages = actix_web::web::Data::new(server::web_state(&api, &cfg).expect("web state"));
    let api = actix_web::web::Data::new(api);
    let app = test::init_service(server::app(&api, &pages)).await;
    let get = |uri: &str, jar: &Jar| {
        let mut req = TestRequest::get().uri(uri);
        if !jar.0.is_empty() {
            req = req.insert_header(("cookie", jar.header()));
        }
        req.to_request()
    };
    let post = |uri: &str, jar: &Jar, origin: &str, pairs: &[(&str, &str)]| {
        let mut req = TestRequest::post()
            .uri(uri)
            .insert_header(("content-type", "application/x-www-form-urlencoded"))
            .set_payload(form_body(pairs));
        if !origin.is_empty() {
            req = req.insert_header(("origin", origin.to_string()));
        }
        if !jar.0.is_empty() {
            req = req.insert_header(("cookie", jar.header()));
        }
        req.to_request()
    };
    let guest = Jar::default();

    // Guards: real redirects for a guest.
    for uri in [
        "/my-account",
        "/my-account/orders",
        "/my-account/go-to-cases",
        "/my-account/addresses",
        "/my-account/delete-account",
        "/setup-address",
        "/change-password",
    ] {
        let r = read(test::call_service(&app, get(uri, &guest)).await).await;
        assert_eq!(r.status, StatusCode::FOUND, "{uri}");
        assert_eq!(location(&r), "/login", "{uri}");
    }
    // A forged member hint is only a hint: a guest page, and the hint cleared.
    let forged = Jar(vec![
        ("member".into(), "1".into()),
        ("session".into(), api::session::new_token()),
    ]);
    let r = read(test::call_service(&app, get("/", &forged)).await).await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.text().contains("<summary>My Account</summary>"));
    assert!(removed(&r, "member") && removed(&r, "session"));

    // The guests' home is kept and shared.
    let r = read(test::call_service(&app, get("/", &guest)).await).await;
    assert_eq!(r.status, StatusCode::OK);
    let guest_home = r.text();
    assert!(!guest_home.contains("Rosa"));
    assert!(!guest_home.contains(r#"<meta name="robots" content="noindex">"#));
    assert!(
        !guest_home.contains(r#"<link rel="stylesheet" href="/assets/accounts-"#),
        "a guest's shop page carries only the critical CSS"
    );

    let mut rosa = register_rosa(&db, outbox.path()).await;
    // A member's page: her name, her CSRF token, never served to anyone else.
    let r = read(test::call_service(&app, get("/", &rosa)).await).await;
    assert_eq!(r.status, StatusCode::OK);
    let home = r.text();
    assert!(
        home.contains(r#"aria-label="My Account, Rosa""#),
        "member header"
    );
    assert!(home.contains("RECOMMENDED FOR YOU"));
    assert!(home.contains(r#"<link rel="stylesheet" href="/assets/accounts-"#));
    assert!(home.contains(r#"action="/logout""#));
    let r = read(test::call_service(&app, get("/", &guest)).await).await;
    assert_eq!(r.text(), guest_home, "a guest gets the guests' page");
    assert!(!guest_home.contains("RECOMMENDED FOR YOU"));
    // SPEC 4: she accepts the policy once (the no-JS consent form); another device of hers, with
    // no consent cookie, never shows the modal again.
    assert!(home.contains("PRIVACY / COOKIE POLICY"));
    let consent = |csrf: &str| {
        post(
            "/gate/consent",
            &rosa,
            ORIGIN,
            &[("return_to", "/"), ("csrf", csrf)],
        )
    };
    // Without her session's token the acceptance is only this browser's cookie.
    let r = read(test::call_service(&app, consent("forged")).await).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let r = read(test::call_service(&app, get("/", &rosa)).await).await;
    assert!(r.text().contains("PRIVACY / COOKIE POLICY"));
    let r = read(test::call_service(&app, consent(&csrf_of(&home))).await).await;
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    let r = read(test::call_service(&app, get("/", &rosa)).await).await;
    assert!(!r.text().contains("PRIVACY / COOKIE POLICY"));
    // Guest-only pages send her home; hers are open.
    for uri in ["/login", "/registration"] {
        let r = read(test::call_service(&app, get(uri, &rosa)).await).await;
        assert_eq!((r.status, location(&r)), (StatusCode::FOUND, "/"), "{uri}");
    }
    let r = read(test::call_service(&app, get("/my-account", &rosa)).await).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.headers.get("cache-control").unwrap(), "no-store");
    let page = r.text();
    assert!(page.contains(r#"value="09181234567""#), "her profile");
    let csrf = csrf_of(&page);

    // The profile form: without the token, with another site's origin (forged Host and
    // X-Forwarded-Host do not help), with a bad field, then right.
    let fields = [
        ("first_name", "Rosario"),
        ("last_name", "Santos"),
        ("mobile", "09181234567"),
        ("birth_date", "1988-08-08"),
    ];
    let r = read(test::call_service(&app, post("/my-account", &rosa, ORIGIN, &fields)).await).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert!(r
        .text()
        .contains("This form has expired. Please try again."));
    let mut with_token = fields.to_vec();
    with_token.push(("csrf", &csrf));
    let mut evil = post("/my-account", &rosa, "http://evil.com", &with_token);
    evil.headers_mut()
        .insert(actix_web::http::header::HOST, "evil.com".parse().unwrap());
    evil.headers_mut().insert(
        actix_web::http::header::HeaderName::from_static("x-forwarded-host"),
        "evil.com".parse().unwrap(),
    );
    let r = read(test::call_service(&app, evil).await).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    // A client that sends neither Origin nor Referer (privacy settings strip them) is held by
    // the token alone.
    let r = read(test::call_service(&app, post("/my-account", &rosa, "", &fields)).await).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "no Origin and no token");
    let mut forged_token = fields.to_vec();
    let other = api::session::csrf_token(&api::session::new_token());
    forged_token.push(("csrf", &other));
    let r =
        read(test::call_service(&app, post("/my-account", &rosa, "", &forged_token)).await).await;
    assert_eq!(r.status, StatusCode::FORBIDDEN, "another session's token");
    let mut bad = with_token.clone();
    bad[2] = ("mobile", "12345");
    let r = read(test::call_service(&app, post("/my-account", &rosa, ORIGIN, &bad)).await).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    let page = r.text();
    assert!(page.contains("The mobile number must start with 09"));
    assert!(page.contains(r#"value="Rosario""#), "what was typed stays");
    // Control characters are refused, and none is echoed into the page.
    let mut nul = with_token.clone();
    nul[0] = ("first_name", "Ro\u{0}sa\r\n");
    let r = read(test::call_service(&app, post("/my-account", &rosa, ORIGIN, &nul)).await).await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(!r.body.contains(&0) && !r.text().contains("\r\n"));
    assert!(r.text().contains(r#"value="Rosa""#));
    let r =
        read(test::call_service(&app, post("/my-account", &rosa, ORIGIN, &with_token)).await).await;
    assert_eq!(
        (r.status, location(&r)),
        (StatusCode::SEE_OTHER, "/my-account?done=profile")
    );
    let r = read(test::call_service(&app, get("/", &rosa)).await).await;
    assert!(r.text().contains(r#"aria-label="My Account, Rosario""#));

    // Logout ends the session; her old cookie then shows a guest and is cleared.
    let old = rosa.clone();
    let r =
        read(test::call_service(&app, post("/logout", &rosa, ORIGIN, &[("csrf", &csrf)])).await)
            .await;
    assert_eq!(
        (r.status, location(&r)),
        (StatusCode::SEE_OTHER, "/login?done=logout")
    );
    assert!(removed(&r, "session") && removed(&r, "member"));
    rosa.keep(&r);
    let r = read(test::call_service(&app, get("/", &old)).await).await;
    assert!(
        !r.text().contains("Rosario"),
        "an ended session shows a guest"
    );
    let r = read(test::call_service(&app, get("/my-account", &old)).await).await;
    assert_eq!((r.status, location(&r)), (StatusCode::FOUND, "/login"));

    // Login: the page starts a guest session for its token; a wrong password keeps the typed
    // login, never the password; the right one goes to /checkout when login began there.
    let r = read(test::call_service(&app, get("/login?from=checkout", &rosa)).await).await;
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
    let r = read(test::call_service(&app, post("/login", &rosa, ORIGIN, &wrong)).await).await;
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
    let r = read(test::call_service(&app, post("/login", &rosa, ORIGIN, &right)).await).await;
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

    // Deleting needs the confirmation; a second click after it is gone is sent to log in.
    let r = read(test::call_service(&app, get("/my-account/delete-account", &rosa)).await).await;
    let csrf = csrf_of(&r.text());
    let r = read(
        test::call_service(
            &app,
            post(
                "/my-account/delete-account",
                &rosa,
                ORIGIN,
                &[("csrf", &csrf)],
            ),
        )
        .await,
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    let confirm = [("csrf", csrf.as_str()), ("confirm", "1")];
    let before = rosa.clone();
    let r = read(
        test::call_service(
            &app,
            post("/my-account/delete-account", &rosa, ORIGIN, &confirm),
        )
        .await,
    )
    .await;
    assert_eq!(
        (r.status, location(&r)),
        (StatusCode::SEE_OTHER, "/?accountSuccessDelete=yes")
    );
    let r = read(
        test::call_service(
            &app,
            post("/my-account/delete-account", &before, ORIGIN, &confirm),
        )
        .await,
    )
    .await;
    assert!(
        r.status == StatusCode::FORBIDDEN || location(&r) == "/login",
        "the second click: {}",
        r.status
    );
    let r = read(test::call_service(&app, get("/?accountSuccessDelete=yes", &guest)).await).await;
    assert!(r.text().contains("ACCOUNT DELETED") && r.text().contains("CONTINUE AS GUEST"));
}

both!(pages_and_forms_hold, pages_and_forms);

async fn hostile_inputs(b: Backend) {
    let db = database(b);
    let cfg = support::store_config(&db.url, false);
    // Links with forged, malformed or huge tokens show their page and say the link is not good
    // once used; nothing breaks.
    for uri in [
        "/registration?token=%zz",
        "/registration?token=../../etc/passwd",
        "/reset-password?suid=%00",
        "/reset-password?suid=x&suid=y",
        "/login?from=%0d%0aSet-Cookie:x",
    ] {
        let r = support::send_store(&db, &cfg, TestRequest::get().uri(uri)).await;
        assert_eq!(r.status, StatusCode::OK, "{uri}");
        assert!(!r.text().contains("Set-Cookie:x\r"), "{uri}");
    }
    // A form post of an account page from another site is refused before anything runs.
    let r = support::send_store(
        &db,
        &cfg,
        TestRequest::post()
            .uri("/login")
            .insert_header(("origin", "http://evil.com"))
            .insert_header(("sec-fetch-site", "cross-site"))
            .insert_header(("content-type", "application/x-www-form-urlencoded"))
            .set_payload("login=a%40b.c&password=x"),
    )
    .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);
}

both!(hostile_inputs_are_harmless, hostile_inputs);
