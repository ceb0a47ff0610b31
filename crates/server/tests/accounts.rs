//! Members over HTTP on SQLite and PostgreSQL: registration through the emailed link, login by
//! email or mobile, logout, the member's `GET /user`; wrong, forged, reused and expired
//! credentials; rate limits; nothing tells whether an account exists.

// A test tells one story from start to end: it may run past a screen.
#![allow(clippy::too_many_lines)]

use crate::support;

use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use diesel::prelude::*;
use serde_json::{json, Value};
use support::{
    access_token, an_address, bearer, database, guest_browser, link_token, member_with_a_cart,
    registration_form, request, view_cart, Auth, Backend, Res, TestDb, Visitor, EVIL, MAKATI, OWN,
    SANTA_MARIA,
};

/// A visitor of the API with a mail outbox of their own, and what the accounts' tests ask of it.
struct Member<'a>(Visitor<'a>);

impl<'a> std::ops::Deref for Member<'a> {
    type Target = Visitor<'a>;

    fn deref(&self) -> &Visitor<'a> {
        &self.0
    }
}

impl<'a> Member<'a> {
    fn new(db: &'a TestDb) -> Self {
        Self(Visitor::new(db))
    }

    /// The answer to `GET /api/v1/user` for a session token (JSON, which it must be).
    async fn user(&self, token: &str) -> (StatusCode, Value, Res) {
        let auth = bearer(token);
        let r = self
            .send(request(
                "GET",
                "/api/v1/user",
                None,
                &[("authorization", &auth)],
            ))
            .await;
        (r.status, r.json(), r)
    }

    /// The answer to a pre-registration form.
    async fn pre_register(&self, body: Value) -> (StatusCode, Value, Res) {
        self.post("/api/v1/pre-register", body, &[]).await
    }

    /// The answer's status to a POST of `body`.
    async fn status(&self, uri: &str, body: Value) -> StatusCode {
        self.post(uri, body, &[]).await.0
    }
}

/// Juan's registration form with the password `Pulutan2026`.
fn form(email: &str, mobile: &str) -> Value {
    registration_form(email, mobile, "Pulutan2026")
}

/// A member registered through the link in her mail; answers her session token.
async fn register(m: &Member<'_>, email: &str, mobile: &str) -> String {
    let r = support::register(m.db, m.outbox(), form(email, mobile)).await;
    let v: Value = serde_json::from_slice(&r.body).unwrap();
    assert_eq!(v["data"]["first_name"], "Juan");
    access_token(&r)
}

/// A pre-registration; answers the token of the link mailed for it.
async fn link_for(m: &Member<'_>, email: &str, mobile: &str) -> String {
    let (s, v, _) = m.pre_register(form(email, mobile)).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    let to = format!("To: {}", email.to_ascii_lowercase());
    link_token(
        m.mails()
            .iter()
            .find(|x| x.contains(&to) && x.contains("Finish"))
            .expect("link mail"),
    )
}

/// The answer to a registration with the link's token (and the password `Pulutan2026`).
async fn register_with(m: &Member<'_>, token: &str) -> (StatusCode, Value, Res) {
    m.post(
        "/api/v1/registration",
        json!({ "password": "Pulutan2026" }),
        &[("registration-token", token)],
    )
    .await
}

async fn every_bad_registration_field_is_named_at_once(b: Backend) {
    let db = database(b);
    let m = Member::new(&db);
    let (s, v, _) = m
        .pre_register(
            json!({"email": "x", "mobile": "123", "birth_date": "2015-01-01", "password": "short"}),
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    for field in [
        "first_name",
        "last_name",
        "email",
        "mobile",
        "birth_date",
        "accept_terms",
    ] {
        assert!(v["errors"][field][0].is_string(), "{field}: {v}");
    }
    // The password is chosen behind the link, not here.
    assert!(v["errors"]["password"].is_null(), "{v}");
    assert_eq!(
        v["errors"]["birth_date"][0],
        "You must be 18 or older to create an account."
    );
}
both!(every_bad_registration_field_is_named_at_once);

/// A good form: a link by mail, the link's token stored only as a hash, checked before use.
async fn a_registration_link_is_mailed_and_stored_only_as_a_hash(b: Backend) {
    let db = database(b);
    let m = Member::new(&db);
    let (s, v, _) = m
        .pre_register(form("Juan@Example.com", "0917-123-4567"))
        .await;
    assert_eq!(s, StatusCode::OK);
    assert!(v["data"]["success"]
        .as_str()
        .unwrap()
        .contains("juan@example.com"));
    let mails = m.mails();
    assert_eq!(mails.len(), 1);
    assert!(mails[0].contains("To: juan@example.com"));
    assert!(mails[0].contains("text/plain") && mails[0].contains("text/html"));
    let token = link_token(&mails[0]);
    assert_eq!(token.len(), 43);
    {
        use db::schema::registrations::dsl::*;
        let (h, pw): (String, String) = registrations
            .select((token_hash, password_hash))
            .first(&mut db.pool.get().unwrap())
            .unwrap();
        assert_eq!(h, framework::session::hash(&token));
        assert_eq!(pw, "", "no password is kept before the link is opened");
    }
    let check = |t: &str| {
        let req = TestRequest::get()
            .uri("/api/v1/check-registration-token")
            .insert_header(("registration-token", t.to_string()));
        m.send(req)
    };
    let r = check(&token).await;
    assert_eq!(r.status, StatusCode::OK);
    let v: Value = serde_json::from_slice(&r.body).unwrap();
    assert_eq!(v["data"]["email"], "juan@example.com");
    assert_eq!(
        check(&framework::session::new_token()).await.status,
        StatusCode::NOT_FOUND
    );
    assert_eq!(check("").await.status, StatusCode::NOT_FOUND);
}
both!(a_registration_link_is_mailed_and_stored_only_as_a_hash);

/// The link creates the account and logs it in; a used link, a second click, does nothing more.
async fn a_registration_link_works_once(b: Backend) {
    let db = database(b);
    let m = Member::new(&db);
    let token = link_for(&m, "Juan@Example.com", "0917-123-4567").await;
    let (s, _, r) = register_with(&m, &token).await;
    assert_eq!(s, StatusCode::OK);
    let session = access_token(&r);
    let (s, v, _) = m.user(&session).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["data"]["firstname"], "Juan");
    assert_eq!(v["data"]["mobile"], "09171234567");
    assert!(v["data"]["policy_agreement_text"].as_str().unwrap().len() > 10);
    // A second click: nothing more is made, and the answer says the account is ready.
    let (s, v, _) = register_with(&m, &token).await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert_eq!(v["error"], api::accounts::LINK_USED);
}
both!(a_registration_link_works_once);

/// Registering a known address answers the same and tells the owner by mail instead.
async fn registering_a_known_address_tells_its_owner_by_mail(b: Backend) {
    let db = database(b);
    let m = Member::new(&db);
    register(&m, "Juan@Example.com", "0917-123-4567").await;
    let (s, v2, _) = m
        .pre_register(form("juan@example.com", "09179999999"))
        .await;
    assert_eq!(s, StatusCode::OK);
    assert!(v2["data"]["success"]
        .as_str()
        .unwrap()
        .contains("We sent a link"));
    assert!(m
        .mails()
        .iter()
        .any(|x| x.contains("You already have an account")));
}
both!(registering_a_known_address_tells_its_owner_by_mail);

async fn an_expired_registration_link_is_gone(b: Backend) {
    let db = database(b);
    let m = Member::new(&db);
    let maria = link_for(&m, "maria@example.com", "09170000001").await;
    {
        use db::schema::registrations::dsl::*;
        diesel::update(registrations.find(framework::session::hash(&maria)))
            .set(expires_at.eq(0))
            .execute(&mut db.pool.get().unwrap())
            .unwrap();
    }
    assert_eq!(register_with(&m, &maria).await.0, StatusCode::NOT_FOUND);
}
both!(an_expired_registration_link_is_gone);

/// Ana, registered; a member of the store with her password.
async fn ana(m: &Member<'_>) {
    register(m, "ana@example.com", "09181234567").await;
}

/// A wrong password and an unknown account read the same.
async fn a_wrong_password_reads_as_an_unknown_account(b: Backend) {
    let db = database(b);
    let m = Member::new(&db);
    ana(&m).await;
    let (s1, v1, _) = m
        .post(
            "/api/v1/login",
            json!({"login": "ana@example.com", "password": "Wrong2026"}),
            &[],
        )
        .await;
    let (s2, v2, _) = m
        .post(
            "/api/v1/login",
            json!({"login": "nobody@example.com", "password": "Wrong2026"}),
            &[],
        )
        .await;
    assert_eq!(
        (s1, s2),
        (
            StatusCode::UNPROCESSABLE_ENTITY,
            StatusCode::UNPROCESSABLE_ENTITY
        )
    );
    assert_eq!(v1, v2);
    assert_eq!(v1["message"], api::accounts::LOGIN_FAILED);
}
both!(a_wrong_password_reads_as_an_unknown_account);

/// A member logs in by email (any case) or by mobile; a guest's token is replaced, never kept;
/// logout ends that session only, and clears the cookie.
async fn members_log_in_by_email_or_mobile_and_out_of_one_session(b: Backend) {
    let db = database(b);
    let m = Member::new(&db);
    ana(&m).await;
    let guest = m.guest().await;
    let auth = bearer(&guest);
    let (s, v, r) = m
        .post(
            "/api/v1/login",
            json!({"email": "ANA@example.com", "password": "Pulutan2026"}),
            &[("authorization", &auth)],
        )
        .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["data"]["cart_conflict"], false);
    let member = access_token(&r);
    assert_ne!(member, guest);
    let (s, _, r) = m.user(&guest).await;
    assert_eq!(
        s,
        StatusCode::UNAUTHORIZED,
        "the guest session ended at login"
    );
    assert_ne!(access_token(&r), guest);
    let (s, by_mobile) = m.login("0918 123 4567", "Pulutan2026").await;
    assert_eq!(s, StatusCode::OK);
    let by_mobile = by_mobile.expect("access-token");
    assert_eq!(m.user(&member).await.0, StatusCode::OK);
    assert_eq!(m.user(&by_mobile).await.0, StatusCode::OK);
    // Logout ends that session only, and clears the cookie.
    let auth = bearer(&member);
    let (s, _, r) = m
        .post("/api/v1/logout", Value::Null, &[("authorization", &auth)])
        .await;
    assert_eq!(s, StatusCode::OK);
    let cookie = r.headers.get("set-cookie").unwrap().to_str().unwrap();
    assert!(
        cookie.starts_with("session=;") && cookie.contains("Max-Age=0"),
        "{cookie}"
    );
    assert_eq!(m.user(&member).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(m.user(&by_mobile).await.0, StatusCode::OK);
}
both!(members_log_in_by_email_or_mobile_and_out_of_one_session);

/// Guessing one account's password is stopped after five wrong tries.
async fn guessing_a_password_is_stopped_after_five_tries(b: Backend) {
    let db = database(b);
    let m = Member::new(&db);
    ana(&m).await;
    for _ in 0..5 {
        let (s, _) = m.login("ana@example.com", "Guess2026").await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    }
    let (s, v, r) = m
        .post(
            "/api/v1/login",
            json!({"login": "ana@example.com", "password": "Pulutan2026"}),
            &[],
        )
        .await;
    assert_eq!(s, StatusCode::TOO_MANY_REQUESTS, "{v}");
    assert!(r.headers.get("retry-after").is_some());
}
both!(guessing_a_password_is_stopped_after_five_tries);

impl Member<'_> {
    /// The answer to a call with the bearer `token` and `body` as its JSON.
    async fn with_token(
        &self,
        method: &str,
        uri: &str,
        token: &str,
        body: Value,
    ) -> (StatusCode, Value, Res) {
        let auth = bearer(token);
        self.ask(request(
            method,
            uri,
            Some(body),
            &[("authorization", &auth)],
        ))
        .await
    }

    async fn login(&self, login: &str, password: &str) -> (StatusCode, Option<String>) {
        let (s, _, r) = self
            .post(
                "/api/v1/login",
                json!({"login": login, "password": password}),
                &[],
            )
            .await;
        (
            s,
            r.headers
                .get("access-token")
                .map(|v| v.to_str().unwrap().to_string()),
        )
    }
}

/// Lea and Ben, registered; answers Lea's session token.
async fn lea_and_ben(m: &Member<'_>) -> String {
    let me = register(m, "lea@example.com", "09191234567").await;
    register(m, "ben@example.com", "09197654321").await;
    me
}

/// The profile: members only, every field checked, a mobile is one member's.
async fn the_profile_is_the_members_and_every_field_is_checked(b: Backend) {
    let db = database(b);
    let m = Member::new(&db);
    let me = lea_and_ben(&m).await;
    let guest = m.guest().await;
    let profile = json!({"first_name": "Lea", "last_name": "Salonga", "mobile": "0919-123-4567", "birth_date": "1971-02-22"});
    assert_eq!(
        m.with_token("PUT", "/api/v1/user", &guest, profile.clone())
            .await
            .0,
        StatusCode::UNAUTHORIZED
    );
    let (s, v, _) = m.with_token("PUT", "/api/v1/user", &me, profile).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    assert_eq!(v["data"]["lastname"], "Salonga");
    let (s, v, _) = m
        .with_token("PUT", "/api/v1/user", &me, json!({"first_name": "", "last_name": "S", "mobile": "123", "birth_date": "2020-01-01"}))
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(v["errors"].as_object().unwrap().len(), 3, "{v}");
    let (s, v, _) = m
        .with_token("PUT", "/api/v1/user", &me, json!({"first_name": "Lea", "last_name": "S", "mobile": "09197654321", "birth_date": "1971-02-22", "current_password": "Pulutan2026"}))
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(v["errors"]["mobile"][0]
        .as_str()
        .unwrap()
        .contains("already used"));
}
both!(the_profile_is_the_members_and_every_field_is_checked);

/// The website policy, once accepted, is the member's on every device.
async fn an_accepted_policy_holds_on_every_device(b: Backend) {
    let db = database(b);
    let m = Member::new(&db);
    let me = lea_and_ben(&m).await;
    let (s, v, _) = m
        .with_token(
            "PUT",
            "/api/v1/user/website-policy",
            &me,
            json!({"policy_agreement_accepted": true}),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["data"]["policy_agreement_accepted"], true);
    let (_, other_device) = m.login("lea@example.com", "Pulutan2026").await;
    let other_device = other_device.unwrap();
    assert_eq!(
        m.user(&other_device).await.1["data"]["policy_agreement_accepted"],
        true
    );
}
both!(an_accepted_policy_holds_on_every_device);

/// Changing the password needs the current one and ends the other sessions.
async fn changing_the_password_needs_the_current_one_and_ends_other_sessions(b: Backend) {
    let db = database(b);
    let m = Member::new(&db);
    let me = lea_and_ben(&m).await;
    let (_, other_device) = m.login("lea@example.com", "Pulutan2026").await;
    let other_device = other_device.unwrap();
    let change = |cur: &str, new: &str| {
        m.with_token(
            "POST",
            "/api/v1/user/change-password",
            &me,
            json!({"current_password": cur, "password": new}),
        )
    };
    for (current, new) in [("Wrong2026", "Sisig-2027x"), ("Pulutan2026", "weak")] {
        let (s, _, _) = change(current, new).await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{current} -> {new}");
    }
    let (s, _, r) = change("Pulutan2026", "Sisig-2027x").await;
    assert_eq!(s, StatusCode::OK);
    let me = access_token(&r);
    assert_eq!(
        m.user(&other_device).await.0,
        StatusCode::UNAUTHORIZED,
        "other sessions ended"
    );
    assert_eq!(m.user(&me).await.0, StatusCode::OK, "this one goes on");
    assert_eq!(
        m.login("lea@example.com", "Pulutan2026").await.0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
}
both!(changing_the_password_needs_the_current_one_and_ends_other_sessions);

/// A forgotten password: the same answer for any address, a link only for an account; the link
/// ends every session and works once.
async fn a_password_reset_link_tells_nothing_and_works_once(b: Backend) {
    let db = database(b);
    let m = Member::new(&db);
    let me = lea_and_ben(&m).await;
    let before = m.mails().len();
    let get_link = |email: &str| {
        m.post(
            "/api/v1/reset/password/get-link",
            json!({ "email": email }),
            &[],
        )
    };
    let (s, unknown, _) = get_link("nobody@example.com").await;
    assert_eq!(s, StatusCode::OK);
    // The same work either way: the unknown address is told it has no account, without a link.
    let mails = m.mails();
    assert_eq!(mails.len(), before + 1);
    let note = mails
        .iter()
        .find(|x| x.contains("To: nobody@example.com"))
        .expect("a note to the unknown address");
    assert!(note.contains("no account uses it") && !note.contains("suid="));
    // The note goes once a day: the store is no way to mail a stranger again and again.
    let (s, again, _) = get_link("nobody@example.com").await;
    assert_eq!((s, &again), (StatusCode::OK, &unknown));
    let to_nobody = m
        .mails()
        .iter()
        .filter(|x| x.contains("To: nobody@example.com"))
        .count();
    assert_eq!(to_nobody, 1);
    let (s, known, _) = get_link("LEA@example.com").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(unknown, known);
    let mail = m
        .mails()
        .into_iter()
        .find(|x| x.contains("Reset your password") && x.contains("To: lea@example.com"))
        .unwrap();
    let suid = support::link_in(&mail, "reset-password?suid=");
    let forged = framework::session::new_token();
    for (uri, body, status) in [
        (
            "/api/v1/reset/password/verify-link",
            json!({ "suid": suid }),
            StatusCode::OK,
        ),
        (
            "/api/v1/reset/password/verify-link",
            json!({ "suid": forged }),
            StatusCode::NOT_FOUND,
        ),
        (
            "/api/v1/reset/password",
            json!({"suid": suid, "password": "weak"}),
            StatusCode::UNPROCESSABLE_ENTITY,
        ),
        (
            "/api/v1/reset/password",
            json!({"suid": suid, "password": "Lechon2028"}),
            StatusCode::OK,
        ),
    ] {
        assert_eq!(m.status(uri, body.clone()).await, status, "{uri} {body}");
    }
    assert_eq!(
        m.user(&me).await.0,
        StatusCode::UNAUTHORIZED,
        "a reset ends every session"
    );
    assert_eq!(
        m.status(
            "/api/v1/reset/password",
            json!({"suid": suid, "password": "Again-2029x"})
        )
        .await,
        StatusCode::NOT_FOUND,
        "a link works once"
    );
    let (s, me) = m.login("lea@example.com", "Lechon2028").await;
    assert_eq!(s, StatusCode::OK);
    me.unwrap();
}
both!(a_password_reset_link_tells_nothing_and_works_once);

/// Deleting the account: its data, sessions and newsletter signup go; another member is
/// untouched.
async fn a_deleted_account_takes_only_its_own_data_and_sessions(b: Backend) {
    let db = database(b);
    let m = Member::new(&db);
    lea_and_ben(&m).await;
    support::exec(
        &db.pool,
        "INSERT INTO newsletter_subscriptions (email, created_at, confirmed_at) VALUES \
           ('lea@example.com', '2026-11-01', '2026-11-01'), \
           ('ben@example.com', '2026-11-01', '2026-11-01')",
    );
    let (s, me) = m.login("lea@example.com", "Pulutan2026").await;
    assert_eq!(s, StatusCode::OK);
    let me = me.unwrap();
    let (s, _, r) = m
        .with_token(
            "DELETE",
            "/api/v1/user",
            &me,
            json!({"current_password": "Pulutan2026"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    assert!(r
        .headers
        .get("set-cookie")
        .unwrap()
        .to_str()
        .unwrap()
        .contains("Max-Age=0"));
    assert_eq!(m.user(&me).await.0, StatusCode::UNAUTHORIZED);
    assert_eq!(
        m.login("lea@example.com", "Pulutan2026").await.0,
        StatusCode::UNPROCESSABLE_ENTITY
    );
    {
        use db::schema::users::dsl::*;
        let left: Vec<String> = users
            .select(email)
            .load(&mut db.pool.get().unwrap())
            .unwrap();
        assert_eq!(left, vec!["ben@example.com".to_string()]);
        use db::schema::newsletter_subscriptions::dsl as n;
        let signed_up: Vec<String> = n::newsletter_subscriptions
            .select(n::email)
            .load(&mut db.pool.get().unwrap())
            .unwrap();
        assert_eq!(signed_up, vec!["ben@example.com".to_string()]);
    }
    assert_eq!(
        m.login("ben@example.com", "Pulutan2026").await.0,
        StatusCode::OK
    );
}
both!(a_deleted_account_takes_only_its_own_data_and_sessions);

/// Lea's and Ben's session tokens, both registered.
async fn lea_and_ben_tokens(m: &Member<'_>) -> (String, String) {
    let lea = register(m, "lea@example.com", "09191234567").await;
    let ben = register(m, "ben@example.com", "09197654321").await;
    (lea, ben)
}

/// The addresses of the member with `token`.
async fn address_list(m: &Member<'_>, token: &str) -> (StatusCode, Value) {
    let (s, v, _) = m
        .with_token("GET", "/api/v1/user/addresses/list", token, Value::Null)
        .await;
    (s, v)
}

/// Lea adds her address in Bel-Air; answers its id.
async fn lea_adds_her_address(m: &Member<'_>, lea: &str) -> i64 {
    let (s, v, _) = m
        .with_token("POST", "/api/v1/user/addresses", lea, an_address())
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    assert_eq!(v["barangay_name"], "Bel-Air");
    assert_eq!(v["city_name"], "Makati City");
    assert_eq!(v["street_name"], "Jupiter Street");
    let id = v["id"].as_i64().unwrap();
    assert_eq!(address_list(m, lea).await.1["results"][0]["id"], id);
    id
}

/// Addresses are for members; the line, a served barangay, and its street where it has streets
/// are checked.
async fn addresses_are_for_members_and_checked(b: Backend) {
    let db = database(b);
    let m = Member::new(&db);
    let (lea, _) = lea_and_ben_tokens(&m).await;
    let guest = m.guest().await;
    assert_eq!(address_list(&m, &guest).await.0, StatusCode::UNAUTHORIZED);
    let (s, v) = address_list(&m, &lea).await;
    assert_eq!(
        (s, v["results"].as_array().unwrap().len()),
        (StatusCode::OK, 0)
    );
    for (body, field) in [
        (
            json!({"address": "12", "barangay_id": MAKATI, "street_id": 1}),
            "address",
        ),
        (
            json!({"address": "12 Jupiter St.", "barangay_id": SANTA_MARIA}),
            "barangay_id",
        ),
        (
            json!({"address": "12 Jupiter St.", "barangay_id": MAKATI}),
            "street_id",
        ),
        (
            json!({"address": "12 Jupiter St.", "barangay_id": MAKATI, "street_id": 999}),
            "street_id",
        ),
        (json!({"address": "12 Jupiter St."}), "barangay_id"),
    ] {
        let (s, v, _) = m
            .with_token("POST", "/api/v1/user/addresses", &lea, body.clone())
            .await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{body}: {v}");
        assert!(v["errors"][field].is_array(), "{body}: {v}");
    }
    lea_adds_her_address(&m, &lea).await;
}
both!(addresses_are_for_members_and_checked);

/// Another member's address is missing, like an unknown one; its owner edits and deletes it,
/// once.
async fn an_address_is_its_members_alone(b: Backend) {
    let db = database(b);
    let m = Member::new(&db);
    let (lea, ben) = lea_and_ben_tokens(&m).await;
    let id = lea_adds_her_address(&m, &lea).await;
    assert_eq!(
        address_list(&m, &ben).await.1["results"]
            .as_array()
            .unwrap()
            .len(),
        0
    );
    let edit = json!({"address": "Unit 9, 12 Jupiter St.", "barangay_id": MAKATI, "street_id": 1});
    let hers = format!("/api/v1/user/addresses/{id}");
    let unknown = "/api/v1/user/addresses/999999".to_string();
    for (who, target) in [(&ben, &hers), (&ben, &unknown), (&lea, &unknown)] {
        let (s1, v1, _) = m.with_token("PUT", target, who, edit.clone()).await;
        let (s2, _, _) = m.with_token("DELETE", target, who, Value::Null).await;
        assert_eq!(
            (s1, s2),
            (StatusCode::NOT_FOUND, StatusCode::NOT_FOUND),
            "{target}"
        );
        assert!(v1["error"].as_str().unwrap().ends_with("not found"));
    }
    let (s, v, _) = m.with_token("PUT", &hers, &lea, edit).await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["address"], "Unit 9, 12 Jupiter St.");
    for status in [StatusCode::OK, StatusCode::NOT_FOUND] {
        let (s, _, _) = m.with_token("DELETE", &hers, &lea, Value::Null).await;
        assert_eq!(s, status);
    }
}
both!(an_address_is_its_members_alone);

/// An account's addresses go with it.
async fn an_accounts_addresses_go_with_it(b: Backend) {
    let db = database(b);
    let m = Member::new(&db);
    let (_, ben) = lea_and_ben_tokens(&m).await;
    let (s, v, _) = m
        .with_token(
            "POST",
            "/api/v1/user/addresses",
            &ben,
            json!({"address": "3 Kalayaan Ave.", "barangay_id": MAKATI, "street_id": 4}),
        )
        .await;
    assert_eq!(s, StatusCode::CREATED, "{v}");
    let (s, _, _) = m
        .with_token(
            "DELETE",
            "/api/v1/user",
            &ben,
            json!({"current_password": "Pulutan2026"}),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    let left: i64 = db::schema::addresses::table
        .count()
        .get_result(&mut db.pool.get().unwrap())
        .unwrap();
    assert_eq!(left, 0);
}
both!(an_accounts_addresses_go_with_it);

async fn cookie_writes_from_another_site_are_refused(b: Backend) {
    let db = database(b);
    let m = Member::new(&db);
    let token = register(&m, "lea@example.com", "09191234567").await;
    let cookie = format!("session={token}");
    let address = an_address();
    // Another site's page cannot use the member's cookie to write, whatever it says of the host.
    for headers in [
        vec![("origin", EVIL)],
        vec![
            ("origin", EVIL),
            ("host", "evil.example"),
            ("x-forwarded-host", "localhost:8080"),
        ],
        vec![("referer", "https://evil.example/trap")],
        vec![("origin", OWN), ("sec-fetch-site", "cross-site")],
    ] {
        let mut h: Vec<(&str, &str)> = vec![("cookie", &cookie)];
        h.extend(headers.iter().copied());
        let (s, v, _) = m.post("/api/v1/user/addresses", address.clone(), &h).await;
        assert_eq!(s, StatusCode::FORBIDDEN, "{headers:?}: {v}");
        assert!(v["error"].as_str().unwrap().contains("store's own pages"));
    }
    let (s, _, _) = m
        .post(
            "/api/v1/logout",
            Value::Null,
            &[("cookie", &cookie), ("origin", EVIL)],
        )
        .await;
    assert_eq!(s, StatusCode::FORBIDDEN);
    assert_eq!(m.user(&token).await.0, StatusCode::OK, "still logged in");
    // The store's own pages, a bearer client and a client without Origin may.
    let (s, _, _) = m
        .post(
            "/api/v1/user/addresses",
            address.clone(),
            &[("cookie", &cookie), ("origin", OWN)],
        )
        .await;
    assert_eq!(s, StatusCode::CREATED);
    let auth = bearer(&token);
    let (s, _, _) = m
        .post(
            "/api/v1/user/addresses",
            address.clone(),
            &[("authorization", &auth), ("origin", EVIL)],
        )
        .await;
    assert_eq!(s, StatusCode::CREATED);
    let (s, _, _) = m
        .post("/api/v1/user/addresses", address, &[("cookie", &cookie)])
        .await;
    assert_eq!(s, StatusCode::CREATED);
}
both!(cookie_writes_from_another_site_are_refused);

async fn newsletter_needs_its_link(b: Backend) {
    let db = database(b);
    let m = Member::new(&db);
    let subscribe = json!({"email": "Lola@Example.com"});
    let (s, first, _) = m
        .post("/api/v1/mail/subscribe", subscribe.clone(), &[])
        .await;
    assert_eq!(s, StatusCode::OK);
    let mails = m.mails();
    assert_eq!(mails.len(), 1);
    assert!(mails[0].contains("To: lola@example.com"));
    let link = |mail: &str| {
        let at = mail.find("/newsletter/confirm?token=").expect("a link") + 26;
        mail[at..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .collect::<String>()
    };
    // Asked again before confirming: the same answer, a new link; the old one stops working.
    let (_, again, _) = m
        .post("/api/v1/mail/subscribe", subscribe.clone(), &[])
        .await;
    assert_eq!(again, first);
    let mails = m.mails();
    assert_eq!(mails.len(), 2);
    let tokens: Vec<String> = mails.iter().map(|x| link(x)).collect();
    assert_ne!(tokens[0], tokens[1]);
    let confirm = |t: &str| m.post("/api/v1/mail/confirm", json!({ "token": t }), &[]);
    for bad in ["", "forged", &framework::session::new_token()] {
        assert_eq!(confirm(bad).await.0, StatusCode::NOT_FOUND, "{bad:?}");
    }
    let mut results = vec![];
    for t in &tokens {
        results.push(confirm(t).await);
    }
    let ok: Vec<_> = results.iter().filter(|r| r.0 == StatusCode::OK).collect();
    assert_eq!(ok.len(), 1, "only the newest link works");
    assert_eq!(
        ok[0].1["data"]["success"],
        "Your email has been added to our mailing list and will receive our latest news."
    );
    for t in &tokens {
        assert_eq!(
            confirm(t).await.0,
            StatusCode::NOT_FOUND,
            "a link works once"
        );
    }
    // A confirmed address: the same answer again, and no more mail.
    let (_, known, _) = m.post("/api/v1/mail/subscribe", subscribe, &[]).await;
    assert_eq!(known, first);
    assert_eq!(m.mails().len(), 2);
}
both!(newsletter_needs_its_link);

async fn social_tokens_are_never_taken_unverified(b: Backend) {
    let db = database(b);
    let m = Member::new(&db);
    for (header, provider) in [("fb-token", "Facebook"), ("google-token", "Google")] {
        let (s, v, r) = m
            .post(
                "/api/v1/registration",
                json!({"socialSource": provider.to_lowercase(), "userAccessToken": "EAAB-forged"}),
                &[(header, "EAAB-forged")],
            )
            .await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
        assert_eq!(
            v["errors"]["userAccessToken"][0],
            format!("Signing up with {provider} is not available. Create your account with your email address instead.")
        );
        assert!(
            r.headers.get("access-token").is_none(),
            "no session for an unverified token"
        );
    }
    use db::schema::users::dsl::*;
    let n: i64 = users
        .count()
        .get_result(&mut db.pool.get().unwrap())
        .unwrap();
    assert_eq!(n, 0);
}
both!(social_tokens_are_never_taken_unverified);

/// A link's registration does not use the mobile and birth date a social registration asks for,
/// but given, they are checked (the contract test found a malformed mobile accepted).
async fn a_links_registration_refuses_malformed_details_it_does_not_use(b: Backend) {
    let db = database(b);
    let m = Member::new(&db);
    for (field, body) in [
        (
            "mobile",
            json!({"password": "Tala Keg Night 2026!", "mobile": "12345"}),
        ),
        (
            "birth_date",
            json!({"password": "Tala Keg Night 2026!", "birth_date": "1990-13-01"}),
        ),
    ] {
        let (s, v, _) = m
            .post("/api/v1/registration", body, &[("registration-token", "x")])
            .await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{field}: {v}");
        assert!(v["errors"][field].is_array(), "{field}: {v}");
    }
}
both!(a_links_registration_refuses_malformed_details_it_does_not_use);

/// A login with a NUL (or another control character) matches no account: on PostgreSQL, which
/// cannot compare a NUL, it was a 500 (found by `make fuzz`). So are a product's slug and a
/// site text's key with one.
async fn text_with_a_nul_is_no_match(b: Backend) {
    let db = database(b);
    let m = Member::new(&db);
    let (s, v, _) = m
        .post(
            "/api/v1/login",
            json!({"login": "ana\u{0}@example.com", "password": "whatever it is"}),
            &[],
        )
        .await;
    assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{v}");
    for uri in [
        "/api/v2/products/tala%00/barangay/0",
        "/api/v1/site-texts/about%00",
    ] {
        let r = m.send(TestRequest::get().uri(uri)).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{uri}");
    }
}
both!(text_with_a_nul_is_no_match);

/// Member cart: 600 Pale Pilsen; guest cart on another browser: 600 Pale Pilsen; logging in
/// there answered `{"data":{"first_name":"Mara","cart_conflict":false}}` and the cart then held
/// 999, with `message: ""` and `conflict: null`: 201 bottles gone and nobody told
/// (`db::carts::merge` clamps to 999 and its list of what did not fit is thrown away). Nothing
/// is to be dropped from a cart silently.
async fn a_login_merge_says_what_did_not_fit(backend: Backend) {
    let db = database(backend);
    let (s, v) = member_with_a_cart(&db, 1, 600).await;
    assert_eq!(s, StatusCode::OK, "{v}");
    // A guest browser with 600 of the same.
    let browser = guest_browser(&db, 1, 600).await;
    let (session, jar) = (&browser.session, browser.cart());
    let (login, member) =
        support::log_in_member(&db, 1, &format!("session={session}; cart={jar}")).await;
    let (_, cart) = view_cart(
        &db,
        Auth::Cookie(format!("session={member}; cart={jar}; member=1")),
        MAKATI,
        "",
    )
    .await;
    assert_eq!(cart["shopping_cart"][0]["items"][0]["quantity"], 999);
    let told = login.to_string().contains("Tala Pale Pilsen 320 ml")
        || cart["message"]
            .as_str()
            .is_some_and(|m| m.contains("Tala Pale Pilsen 320 ml"))
        || !cart["conflict"].is_null();
    assert!(
        told,
        "1,200 bottles became 999 without a word: login {login}, cart message {}",
        cart["message"]
    );
}
both!(a_login_merge_says_what_did_not_fit);

/// Concurrent newsletter signups (each reads the address, then inserts it) answered 500 on SQLite:
/// a transaction that began by reading held a snapshot older than another writer's commit, and
/// SQLite refuses such a transaction its write at once ("database is locked"), without waiting.
/// Transactions that write now begin IMMEDIATE (`db::transaction`).
async fn concurrent_signups_all_land(backend: Backend) {
    let db = database(backend);
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let pool = db.pool.clone();
            std::thread::spawn(move || {
                for i in 0..25 {
                    let mut conn = pool.get().expect("connection");
                    let email = format!("signup{t}x{i}@example.com");
                    db::content::subscribe(&mut conn, &email, "2026-11-24 14:00:00", &email, 1)
                        .unwrap_or_else(|e| panic!("{email}: {e}"));
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("no signup failed");
    }
}
both!(concurrent_signups_all_land);
