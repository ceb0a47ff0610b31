//! Sessions on SQLite and PostgreSQL: guest tokens, stored only as their hash, carried by cookie
//! or bearer header, extended when half-used, replaced when forged or expired.

mod support;

use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use diesel::prelude::*;
use support::{database, Backend, Res};

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
        .find(api::session::hash(token))
        .select(expires_at)
        .first(&mut db.pool.get().unwrap())
        .optional()
        .unwrap()
}

async fn guest_sessions_are_hashed_sliding_and_never_forged(b: Backend) {
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
        assert_eq!(hashes, vec![api::session::hash(&token)]);
        assert!(!hashes.contains(&token));
    }
    let left = expiry(&db, &token).unwrap() - now();
    assert!((3590..=3600).contains(&left), "{left}");

    let user = |auth: Option<(&'static str, String)>| {
        let mut req = TestRequest::get().uri("/api/v1/user");
        if let Some(h) = auth {
            req = req.insert_header(h);
        }
        support::send_api(&db.pool, req)
    };
    // A fresh token, by header or by cookie: still a guest (401), no new token.
    for auth in [
        ("authorization", format!("Bearer {token}")),
        ("cookie", format!("session={token}")),
    ] {
        let r = user(Some(auth)).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED);
        assert_eq!(token_of(&r), None, "nothing to refresh yet");
        let v: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
        assert_eq!(v["error"], "Unauthenticated.");
    }
    // Half-used: extended, the same token sent back.
    {
        use db::schema::sessions::dsl::*;
        diesel::update(sessions.find(api::session::hash(&token)))
            .set(expires_at.eq(now() + 100))
            .execute(&mut db.pool.get().unwrap())
            .unwrap();
    }
    let r = user(Some(("authorization", format!("Bearer {token}")))).await;
    assert_eq!(token_of(&r).as_deref(), Some(token.as_str()));
    assert!(expiry(&db, &token).unwrap() - now() > 3500);
    // Forged, malformed or expired: a new guest token, never the presented one.
    let forged = api::session::new_token();
    for presented in [
        forged.clone(),
        "x".repeat(43),
        "'; DROP TABLE sessions; --".into(),
    ] {
        let r = user(Some(("authorization", format!("Bearer {presented}")))).await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED);
        let new = token_of(&r).expect("a new token");
        assert_ne!(new, presented);
        assert!(expiry(&db, &new).is_some());
    }
    assert_eq!(expiry(&db, &forged), None, "a forged token is never stored");
    {
        use db::schema::sessions::dsl::*;
        diesel::update(sessions.find(api::session::hash(&token)))
            .set(expires_at.eq(now() - 1))
            .execute(&mut db.pool.get().unwrap())
            .unwrap();
    }
    let r = user(Some(("cookie", format!("session={token}")))).await;
    let new = token_of(&r).expect("a new token for an expired one");
    assert_ne!(new, token);
    // Expired sessions are purged.
    assert_eq!(
        db::sessions::purge_sessions(&mut db.pool.get().unwrap(), now()).unwrap(),
        1
    );
}
both!(guest_sessions_are_hashed_sliding_and_never_forged);
