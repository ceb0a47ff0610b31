//! Sessions on SQLite and PostgreSQL: guest tokens, stored only as their hash, carried by cookie
//! or bearer header, extended when half-used, replaced when forged or expired.

use crate::support;

use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use diesel::prelude::*;
use support::{bearer, database, Backend, Res};

fn token_of(r: &Res) -> Option<String> {
    r.headers
        .get("access-token")
        .map(|v| v.to_str().unwrap().to_string())
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs() as i64
}

fn expiry(db: &support::TestDb, token: &str) -> Option<i64> {
    use db::schema::sessions::dsl::*;
    sessions
        .filter(token_hash.eq(framework::session::hash(token)))
        .select(expires_at)
        .first(&mut db.pool.get().unwrap())
        .optional()
        .unwrap()
}

/// A new guest token: a session cookie, a stored hash, an hour to live.
async fn a_guest_token_is_a_cookie_and_only_its_hash_is_stored(b: Backend) {
    let db = database(b);
    let r = support::send_api(&db.pool, TestRequest::post().uri("/api/v1/guest-token")).await;
    assert_eq!(r.status, StatusCode::OK);
    let token = token_of(&r).expect("access-token header");
    assert_eq!(token.len(), 43);
    let cookie = r
        .headers
        .get("set-cookie")
        .unwrap()
        .to_str()
        .unwrap()
        .to_string();
    assert!(cookie.starts_with(&format!("session={token}")), "{cookie}");
    for part in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=3600"] {
        assert!(cookie.contains(part), "{cookie}: {part}");
    }
    assert!(!cookie.contains("Secure"), "tests run on http");
    // Only the hash is stored.
    {
        use db::schema::sessions::dsl::*;
        let hashes: Vec<String> = sessions
            .select(token_hash)
            .load(&mut db.pool.get().unwrap())
            .unwrap();
        assert_eq!(hashes, vec![framework::session::hash(&token)]);
        assert!(!hashes.contains(&token));
    }
    let left = expiry(&db, &token).unwrap() - now();
    assert!((3590..=3600).contains(&left), "{left}");
}
both!(a_guest_token_is_a_cookie_and_only_its_hash_is_stored);

/// A guest's token, made through the API.
async fn guest_token(db: &support::TestDb) -> String {
    let r = support::send_api(&db.pool, TestRequest::post().uri("/api/v1/guest-token")).await;
    token_of(&r).expect("access-token header")
}

/// `GET /user` with this header, if any.
async fn user(db: &support::TestDb, auth: (&'static str, String)) -> Res {
    support::send_api(
        &db.pool,
        TestRequest::get().uri("/api/v1/user").insert_header(auth),
    )
    .await
}

/// Moves a session's end to `at`.
fn expire_at(db: &support::TestDb, token: &str, at: i64) {
    use db::schema::sessions::dsl::*;
    diesel::update(sessions.filter(token_hash.eq(framework::session::hash(token))))
        .set(expires_at.eq(at))
        .execute(&mut db.pool.get().unwrap())
        .unwrap();
}

/// A fresh token, by header or by cookie: still a guest (401), no new token; half-used:
/// extended, the same token sent back.
async fn a_guest_session_slides_when_half_used(b: Backend) {
    let db = database(b);
    let token = guest_token(&db).await;
    for auth in [
        ("authorization", bearer(&token)),
        ("cookie", format!("session={token}")),
    ] {
        let r = user(&db, auth).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED);
        assert_eq!(token_of(&r), None, "nothing to refresh yet");
        let v: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
        assert_eq!(v["error"], "Unauthenticated.");
    }
    expire_at(&db, &token, now() + 100);
    let r = user(&db, ("authorization", bearer(&token))).await;
    assert_eq!(token_of(&r).as_deref(), Some(token.as_str()));
    assert!(expiry(&db, &token).unwrap() - now() > 3500);
}
both!(a_guest_session_slides_when_half_used);

/// Forged, malformed or expired: a new guest token, never the presented one; expired sessions
/// are swept by housekeeping.
async fn a_forged_or_expired_token_is_replaced_never_kept(b: Backend) {
    let db = database(b);
    let token = guest_token(&db).await;
    let forged = framework::session::new_token();
    for presented in [
        forged.clone(),
        "x".repeat(43),
        "'; DROP TABLE sessions; --".into(),
    ] {
        let r = user(&db, ("authorization", bearer(&presented))).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED);
        let new = token_of(&r).expect("a new token");
        assert_ne!(new, presented);
        assert!(expiry(&db, &new).is_some());
    }
    assert_eq!(expiry(&db, &forged), None, "a forged token is never stored");
    expire_at(&db, &token, now() - 1);
    let r = user(&db, ("cookie", format!("session={token}"))).await;
    let new = token_of(&r).expect("a new token for an expired one");
    assert_ne!(new, token);
    let swept = db::housekeeping::run(
        &db.pool,
        now(),
        &db::housekeeping::Retention::default(),
        false,
    )
    .unwrap();
    assert_eq!(swept.count(db::housekeeping::Kind::Sessions), 1);
}
both!(a_forged_or_expired_token_is_replaced_never_kept);

/// A token that carries a live session's id with another secret is no session: its presenter
/// gets a guest token of their own, and logging out with it ends nothing of the real session.
async fn a_live_sessions_id_with_another_secret_is_no_session(b: Backend) {
    let db = database(b);
    let token = guest_token(&db).await;
    // The first 11 characters hold the id's 64 bits (and 2 of the secret's).
    let forged = format!("{}{}", &token[..11], &framework::session::new_token()[11..]);
    assert_ne!(forged, token);
    assert_eq!(
        framework::session::token_id(&forged),
        framework::session::token_id(&token)
    );
    let r = user(&db, ("authorization", bearer(&forged))).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    let new = token_of(&r).expect("a new token");
    assert!(new != forged && new != token, "{new}");
    let r = support::send_api(
        &db.pool,
        TestRequest::post()
            .uri("/api/v1/logout")
            .insert_header(("authorization", bearer(&forged))),
    )
    .await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(expiry(&db, &token).is_some(), "the real session lives on");
    expire_at(&db, &token, now() + 100);
    let r = user(&db, ("authorization", bearer(&token))).await;
    assert_eq!(
        token_of(&r).as_deref(),
        Some(token.as_str()),
        "and is still the holder's"
    );
}
both!(a_live_sessions_id_with_another_secret_is_no_session);
