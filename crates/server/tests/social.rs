//! Social registration against stand-in providers on loopback (the real ones answer the same
//! shapes), on SQLite and PostgreSQL: a token is taken only when the provider vouches for it for
//! this store's app with a verified email; everything else is refused, a provider that fails is
//! a 502, and without settings the call is a 422 (`accounts.rs`).

use crate::support;

use std::io::{Read, Write};
use std::net::TcpListener;

use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use diesel::prelude::*;
use serde_json::{json, Value};
use support::{bearer, database, json_request, request, Backend, Res, TestDb, Visitor};

const FAR: &str = "4102444800";

/// What the stand-in providers answer for a path and query.
fn answer(target: &str) -> (u16, Value) {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let q: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
        .into_owned()
        .collect();
    let get = |k: &str| {
        q.iter()
            .find(|(n, _)| n == k)
            .map(|(_, v)| v.as_str())
            .unwrap_or("")
    };
    let google = |aud: &str, verified: &str, exp: &str| {
        json!({
            "iss": "https://accounts.google.com", "aud": aud, "exp": exp,
            "email": "gina@example.com", "email_verified": verified,
            "given_name": "Gina", "family_name": "Reyes"
        })
    };
    match (
        path,
        get("id_token"),
        get("input_token"),
        get("access_token"),
    ) {
        ("/google/tokeninfo", "good", _, _) => (200, google("client-1", "true", FAR)),
        ("/google/tokeninfo", "other-aud", _, _) => (200, google("someone-else", "true", FAR)),
        ("/google/tokeninfo", "unverified", _, _) => (200, google("client-1", "false", FAR)),
        ("/google/tokeninfo", "expired", _, _) => (200, google("client-1", "true", "1000")),
        ("/google/tokeninfo", "down", _, _) => (500, json!({})),
        ("/google/tokeninfo", _, _, _) => (400, json!({"error": "invalid_token"})),
        ("/facebook/debug_token", _, input, "app-1|secret-1") => match input {
            "fb-good" => (
                200,
                json!({"data": {"is_valid": true, "app_id": "app-1", "user_id": "42"}}),
            ),
            "fb-other-app" => (
                200,
                json!({"data": {"is_valid": true, "app_id": "app-2", "user_id": "42"}}),
            ),
            "fb-no-email" => (
                200,
                json!({"data": {"is_valid": true, "app_id": "app-1", "user_id": "43"}}),
            ),
            _ => (200, json!({"data": {"is_valid": false}})),
        },
        ("/facebook/me", _, _, "fb-good") => (
            200,
            json!({"id": "42", "email": "fred@example.com", "first_name": "Fred", "last_name": "Tan"}),
        ),
        ("/facebook/me", _, _, "fb-no-email") => (200, json!({"id": "43", "first_name": "No"})),
        _ => (404, json!({"error": "unknown"})),
    }
}

/// Stand-in Google and Facebook on a loopback port; answers their base address.
fn providers() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut s) = stream else { continue };
            let mut buf = vec![0u8; 16 * 1024];
            let n = s.read(&mut buf).unwrap_or(0);
            let head = String::from_utf8_lossy(&buf[..n]).to_string();
            let target = head.split_whitespace().nth(1).unwrap_or("/").to_string();
            let (status, body) = answer(&target);
            let body = body.to_string();
            let _ = write!(
                s,
                "HTTP/1.1 {status} X\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                body.len()
            );
        }
    });
    format!("http://{addr}")
}

/// The API with the stand-in providers at `base` (Google's client `client-1`, Facebook's app
/// `app-1`), otherwise as configured by default.
fn with_providers<'a>(db: &'a TestDb, base: &str) -> Visitor<'a> {
    let mut config = framework::ApiConfig::default();
    config.settings.insert(api::accounts::social::SocialConfig {
        google_client_id: Some("client-1".into()),
        google_url: format!("{base}/google"),
        facebook_app: Some(("app-1".into(), "secret-1".into())),
        facebook_url: format!("{base}/facebook"),
    });
    Visitor::configured(db, config)
}

/// A registration with the provider's `header` token and `body`.
fn register(header: &str, token: &str, body: Value) -> TestRequest {
    request(
        "POST",
        "/api/v1/registration",
        Some(body),
        &[(header, token)],
    )
}

fn details(source: &str, mobile: &str) -> Value {
    json!({"socialSource": source, "userAccessToken": "x", "mobile": mobile,
           "birth_date": "1991-03-04", "accept_terms": true})
}

fn users(db: &TestDb) -> Vec<(String, String)> {
    use db::schema::users::dsl::*;
    users
        .select((email, first_name))
        .order(email)
        .load(&mut db.pool.get().unwrap())
        .unwrap()
}

/// A sign-up with the provider's `header` token and the details of `source` and `mobile`.
async fn sign_up(app: &Visitor<'_>, header: &str, token: &str, source: &str, mobile: &str) -> Res {
    app.send(register(header, token, details(source, mobile)))
        .await
}

/// Refused: another app's token, an unverified or expired one, one the provider rejects.
async fn an_unverified_social_token_is_refused(b: Backend) {
    let db = database(b);
    let app = with_providers(&db, &providers());
    let google = ["other-aud", "unverified", "expired", "forged", "", "a b"];
    let facebook = ["fb-other-app", "fb-no-email", "fb-unknown"];
    let tries = (google.iter().map(|t| ("google-token", *t, "google")))
        .chain(facebook.iter().map(|t| ("fb-token", *t, "facebook")));
    for (header, token, source) in tries {
        let r = sign_up(&app, header, token, source, "09170000001").await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{token:?}: {}",
            r.text()
        );
        if source == "google" {
            assert_eq!(
                r.json_or_null()["errors"]["userAccessToken"][0],
                "We could not verify your Google sign-in. Please sign in with Google again."
            );
            assert!(r.headers.get("access-token").is_none());
        }
    }
}
both!(an_unverified_social_token_is_refused);

/// A provider that fails, or cannot be reached, is not a yes.
async fn a_provider_that_fails_is_not_a_yes(b: Backend) {
    let db = database(b);
    let app = with_providers(&db, &providers());
    let r = sign_up(&app, "google-token", "down", "google", "09170000001").await;
    assert_eq!(r.status, StatusCode::BAD_GATEWAY);
    let closed = {
        let l = TcpListener::bind("127.0.0.1:0").unwrap();
        format!("http://{}", l.local_addr().unwrap())
    };
    let r = sign_up(
        &with_providers(&db, &closed),
        "google-token",
        "good",
        "google",
        "09170000001",
    )
    .await;
    assert_eq!(r.status, StatusCode::BAD_GATEWAY, "{}", r.text());
    assert!(users(&db).is_empty());
}
both!(a_provider_that_fails_is_not_a_yes);

/// A verified token still needs the details a provider does not vouch for.
async fn a_verified_token_still_needs_the_details(b: Backend) {
    let db = database(b);
    let app = with_providers(&db, &providers());
    let r = app
        .send(register(
            "google-token",
            "good",
            json!({"socialSource": "google"}),
        ))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    let v = r.json_or_null();
    for field in ["mobile", "birth_date", "accept_terms"] {
        assert!(v["errors"][field][0].is_string(), "{field}: {v}");
    }
    let r = sign_up(&app, "google-token", "good", "facebook", "09170000001").await;
    assert_eq!(
        r.json_or_null()["errors"]["socialSource"][0],
        "socialSource must be google."
    );
}
both!(a_verified_token_still_needs_the_details);

/// Verified: the account is made and logged in, once per address.
async fn a_verified_token_makes_the_account_once(b: Backend) {
    let db = database(b);
    let app = with_providers(&db, &providers());
    let r = sign_up(&app, "google-token", "good", "google", "09170000001").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(r.json_or_null()["data"]["first_name"], "Gina");
    let token = support::access_token(&r);
    let r = app
        .send(json_request("GET", "/api/v1/user", &token, Value::Null))
        .await;
    assert_eq!(r.json_or_null()["data"]["email"], "gina@example.com");
    // Twice: the address has its account.
    let r = sign_up(&app, "google-token", "good", "google", "09170000002").await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.json_or_null()["errors"]["email"][0]
        .as_str()
        .unwrap()
        .contains("already has an account"));

    let r = sign_up(&app, "fb-token", "fb-good", "facebook", "09170000003").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(
        users(&db),
        vec![
            ("fred@example.com".to_string(), "Fred".to_string()),
            ("gina@example.com".to_string(), "Gina".to_string())
        ]
    );
}
both!(a_verified_token_makes_the_account_once);

/// A social member has no password of their own: deleting the account (or a new mobile) mails
/// them a reset link to choose one, and the account stays; with the chosen one it goes.
async fn a_social_member_confirms_by_a_mailed_link(b: Backend) {
    let db = database(b);
    let app = with_providers(&db, &providers());
    let r = sign_up(&app, "google-token", "good", "google", "09170000001").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let token = support::access_token(&r);
    let delete = |token: &str, body: Value| {
        let auth = bearer(token);
        request(
            "DELETE",
            "/api/v1/user",
            Some(body),
            &[("authorization", &auth)],
        )
    };
    let r = app
        .send(delete(
            &token,
            json!({"current_password": "anything-at-all"}),
        ))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text());
    assert!(r.json_or_null()["errors"]["current_password"][0]
        .as_str()
        .unwrap()
        .contains("We sent a link to gina@example.com"));
    assert_eq!(users(&db).len(), 1, "the account stays");
    let mails = app.mails();
    assert_eq!(mails.len(), 1);
    let suid = support::link_in(&mails[0], "reset-password?suid=");
    let r = app
        .send(json_request(
            "POST",
            "/api/v1/reset/password",
            "",
            json!({"suid": suid, "password": "Gina-Lager-0304"}),
        ))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let r = app
        .send(json_request(
            "POST",
            "/api/v1/login",
            "",
            json!({"login": "gina@example.com", "password": "Gina-Lager-0304"}),
        ))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let token = support::access_token(&r);
    let r = app
        .send(delete(
            &token,
            json!({"current_password": "Gina-Lager-0304"}),
        ))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert!(users(&db).is_empty());
}
both!(a_social_member_confirms_by_a_mailed_link);
