//! The staff's accounts: added from the command line with a mailed link to choose a password,
//! signed in with the password and a second factor (TOTP, enrolled at the first sign-in, with
//! one-time recovery codes), sessions of their own that a shopper's never opens (nor the other
//! way round), ending after 12 hours, 30 idle minutes or a change of the member; roles that
//! hide what they may not reach; every staff write in the audit log. On SQLite and PostgreSQL.

// A test tells one story from start to end: it may run past a screen.
#![allow(clippy::too_many_lines)]

use crate::support;

use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use diesel::prelude::*;
use serde_json::json;
use support::process::{stdout, store_command, store_ok, store_refused};
use support::staff::Staff;
use support::{database, read_outbox, send_api_mailing, Backend, TestDb};

fn audit_actions(db: &TestDb) -> Vec<(Option<i64>, String, String)> {
    use db::schema::audit_log::dsl::*;
    let mut conn = db.pool.get().unwrap();
    audit_log
        .order(id.asc())
        .select((staff_id, actor, action))
        .load(&mut conn)
        .unwrap()
}

/// One entry of the audit log as stored.
#[derive(Debug, Queryable)]
#[allow(dead_code)]
struct Logged {
    id: i64,
    at: i64,
    staff_id: Option<i64>,
    actor: String,
    action: String,
    subject: String,
    before: Option<String>,
    after: Option<String>,
}

/// The audit log, oldest first.
fn audit_log(db: &TestDb) -> Vec<Logged> {
    use db::schema::audit_log::dsl::*;
    let mut conn = db.pool.get().unwrap();
    audit_log
        .order(id.asc())
        .select((
            id,
            at,
            staff_id,
            actor,
            action,
            subject,
            before_state,
            after_state,
        ))
        .load(&mut conn)
        .unwrap()
}

/// The entries of `kind`.
fn logged<'a>(log: &'a [Logged], kind: &str) -> Vec<&'a Logged> {
    log.iter().filter(|e| e.action == kind).collect()
}

/// From the mailed link to a whole session: the password is chosen once, the first sign-in
/// shows the second factor to set up (a QR code, the secret, ten recovery codes), a wrong code
/// is refused, the right one makes the session whole; the next sign-in asks a code, which is
/// taken once; a recovery code works once instead; signing out ends the session. Every step is
/// in the audit log: a sign-in, a failed one, a wrong code, the enrolment, a recovery code used.
async fn a_member_of_staff_signs_in_with_two_factors(b: Backend) {
    let db = database(b);
    let mut ana = Staff::added(&db, "ana@tala.example", "dispatcher");
    let token = ana.link();
    // A password the rules refuse, then one they take; the link works once.
    let r = ana.choose_password("password").await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text());
    let r = ana.choose_password("keg-run-at-dawn-42").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let r = ana
        .send(
            "POST",
            "/api/v1/staff/password",
            Some(json!({"token": token, "password": "another-keg-run-42"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        r.json()["errors"]["token"][0],
        api::staff::password::LINK_GONE
    );

    // A wrong password, then the right one: the session can only give the second factor.
    let r = ana.sign_in("keg-run-at-noon-42").await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text());
    let r = ana.sign_in("keg-run-at-dawn-42").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(r.json()["next"], "enroll");
    let cookie = r
        .headers
        .get_all("set-cookie")
        .map(|v| v.to_str().unwrap().to_string())
        .find(|c| c.starts_with("staff_session="))
        .unwrap();
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"),
        "{cookie}"
    );
    let r = ana.send("GET", "/api/v1/staff/me", None).await;
    assert_eq!(
        r.status,
        StatusCode::UNAUTHORIZED,
        "half a session is not a session"
    );

    let e = ana.send("GET", "/api/v1/staff/second-factor", None).await;
    assert_eq!(e.status, StatusCode::OK, "{}", e.text());
    let state = e.json();
    assert_eq!(state["enrolled"], false);
    let enrollment = &state["enrollment"];
    assert!(enrollment["otpauth"]
        .as_str()
        .unwrap()
        .starts_with("otpauth://totp/"));
    assert!(enrollment["qr"]["size"].as_u64().unwrap() >= 21);
    assert_eq!(enrollment["recovery_codes"].as_array().unwrap().len(), 10);
    // Asked again, the same secret (until a code confirms it).
    let again = ana
        .send("GET", "/api/v1/staff/second-factor", None)
        .await
        .json();
    assert_eq!(again["enrollment"]["secret"], enrollment["secret"]);
    let secret = enrollment["secret"].as_str().unwrap().replace(' ', "");

    let r = ana.code("000000").await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        r.json()["errors"]["code"][0],
        api::staff::second_factor::WRONG_CODE
    );
    let now = domain::calendar::unix_now();
    let r = ana
        .code(&domain::staff::code_at(&secret, now).unwrap())
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(r.json()["member"]["role"], "dispatcher");
    assert_eq!(r.json()["member"]["second_factor"], true);
    assert_eq!(r.json()["recovery_codes_left"], 10);
    let me = ana.send("GET", "/api/v1/staff/me", None).await;
    assert_eq!(me.status, StatusCode::OK, "{}", me.text());
    assert_eq!(me.json()["member"]["email"], "ana@tala.example");
    assert_eq!(
        me.headers.get("cache-control").unwrap(),
        "private, no-store"
    );

    // The next sign-in asks a code; the code just used is not taken again.
    let used = domain::staff::code_at(&secret, now).unwrap();
    let r = ana.sign_in("keg-run-at-dawn-42").await;
    assert_eq!(r.json()["next"], "code");
    let r = ana.code(&used).await;
    assert_eq!(
        r.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "a code is taken once"
    );
    // A recovery code instead, once (typed loosely).
    let codes = enrollment["recovery_codes"].as_array().unwrap();
    let recovery = codes[3].as_str().unwrap().to_uppercase().replace('-', " ");
    let r = ana.code(&recovery).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(r.json()["recovery_codes_left"], 9);
    ana.sign_in("keg-run-at-dawn-42").await;
    let r = ana.code(&recovery).await;
    assert_eq!(
        r.status,
        StatusCode::UNPROCESSABLE_ENTITY,
        "a recovery code works once"
    );

    // Signing out ends the session and clears its cookie.
    ana.codes = codes[4..]
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .collect();
    ana.sign_in_whole("keg-run-at-dawn-42").await;
    let r = ana.send("POST", "/api/v1/staff/logout", None).await;
    assert_eq!(r.status, StatusCode::OK);
    let r = ana.send("GET", "/api/v1/staff/me", None).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);

    // Each step of it in the audit log, under her account, how it went in its words; never a
    // password.
    let log = audit_log(&db);
    let actions: Vec<&str> = log.iter().map(|e| e.action.as_str()).collect();
    assert_eq!(
        actions,
        [
            "staff.password",
            "staff.sign_in.failed",
            "staff.sign_in.password",
            "staff.code.wrong",
            "staff.second_factor",
            "staff.sign_in",
            "staff.sign_in.password",
            "staff.code.wrong",
            "staff.recovery_code",
            "staff.sign_in",
            "staff.sign_in.password",
            "staff.code.wrong",
            "staff.sign_in.password",
            "staff.recovery_code",
            "staff.sign_in",
            "staff.sign_out",
        ]
    );
    for e in &log {
        assert_eq!(e.staff_id, Some(ana.id), "{e:?}");
        assert_eq!(e.actor, "ana (ana@tala.example)", "{e:?}");
        assert_eq!(e.subject, format!("staff {}", ana.id), "{e:?}");
    }
    let after = |i: usize| -> serde_json::Value {
        serde_json::from_str(log[i].after.as_deref().unwrap()).unwrap()
    };
    assert_eq!(
        after(1),
        json!({"email": "ana@tala.example", "why": "wrong password"})
    );
    assert_eq!(after(2), json!({"next": "enroll"}));
    assert_eq!(after(3), json!({"why": "wrong code"}));
    assert_eq!(after(5), json!({"with": "new second factor"}));
    assert_eq!(after(6), json!({"next": "code"}));
    assert_eq!(after(7), json!({"why": "code used already"}));
    assert_eq!(after(8), json!({"recovery_codes_left": 9}));
    assert_eq!(after(9), json!({"with": "recovery code"}));
    assert_eq!(after(11), json!({"why": "wrong code"}));
    assert_eq!(after(15), json!({"whole": true}));
    let all = format!("{log:?}");
    let hidden = [
        "keg-run-at-noon-42",
        "keg-run-at-dawn-42",
        secret.as_str(),
        codes[3].as_str().unwrap(),
    ];
    for h in hidden {
        assert!(!all.contains(h), "{h} in {all}");
    }
}
both!(a_member_of_staff_signs_in_with_two_factors);

/// An app's code is taken only when its step is later than the last step taken: after a code of
/// the next step (a phone's clock a little ahead), neither the step's own code nor the one before
/// opens a session; and the session the password began is not the one both factors make (its
/// token ends, the browser gets a new one).
async fn codes_go_forward_and_a_whole_session_is_a_new_one(b: Backend) {
    let db = database(b);
    let mut ana = Staff::added(&db, "ana@tala.example", "manager");
    ana.choose_password("keg-run-at-dawn-42").await;
    let secret = ana.sign_in_whole("keg-run-at-dawn-42").await;
    // Clear of a step's end, so that "now" stays one step through the test.
    let mut now = domain::calendar::unix_now();
    if now % 30 > 20 {
        actix_web::rt::time::sleep(std::time::Duration::from_secs(31 - (now % 30) as u64)).await;
        now = domain::calendar::unix_now();
    }
    let code = |at: i64| domain::staff::code_at(&secret, at).unwrap();

    ana.sign_in("keg-run-at-dawn-42").await;
    let half = ana.cookie.clone().unwrap();
    let r = ana.code(&code(now + 30)).await;
    assert_eq!(
        r.status,
        StatusCode::OK,
        "the next step's code: {}",
        r.text()
    );
    let whole = ana.cookie.clone().unwrap();
    assert_ne!(half, whole, "both factors make a new session");
    let me = ana.send("GET", "/api/v1/staff/me", None).await;
    assert_eq!(me.status, StatusCode::OK, "{}", me.text());
    // The token the password alone opened is no session at all now.
    ana.cookie = Some(half);
    let me = ana.send("GET", "/api/v1/staff/me", None).await;
    assert_eq!(me.status, StatusCode::UNAUTHORIZED);
    let e = ana.send("GET", "/api/v1/staff/second-factor", None).await;
    assert_eq!(e.status, StatusCode::UNAUTHORIZED, "nor half a one");

    for (at, which) in [(now, "this step's"), (now - 30, "the last step's")] {
        ana.sign_in("keg-run-at-dawn-42").await;
        let r = ana.code(&code(at)).await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{which} code after the next step's was taken"
        );
        // Said as what it is: the right code, given again.
        assert_eq!(
            r.json()["errors"]["code"][0],
            api::staff::second_factor::CODE_USED
        );
    }
}
both!(codes_go_forward_and_a_whole_session_is_a_new_one);

/// A shopper's session opens nothing of the staff's, and a staff session nothing of a
/// shopper's; a session ends 30 minutes after its last use, 12 hours after it began, and when
/// its member's role changes or they are disabled; codes and passwords are limited per account.
async fn staff_sessions_stand_apart_and_end(b: Backend) {
    let db = database(b);
    let mut ana = Staff::added(&db, "ana@tala.example", "manager");
    ana.choose_password("keg-run-at-dawn-42").await;
    ana.sign_in_whole("keg-run-at-dawn-42").await;

    // A member's session, as a bearer token or in the shopper's cookie, is not a staff one.
    let member = support::member(&db, 1).await;
    for header in [
        ("authorization", format!("Bearer {member}")),
        ("cookie", format!("session={member}")),
        ("cookie", format!("{}={member}", api::staff::COOKIE)),
    ] {
        let r = send_api_mailing(
            &db.pool,
            &ana.outbox,
            TestRequest::get()
                .uri("/api/v1/staff/me")
                .insert_header(header.clone()),
        )
        .await;
        assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{header:?}");
    }
    // The staff session is no shopper's session.
    let staff_cookie = ana.cookie.clone().unwrap();
    let r = send_api_mailing(
        &db.pool,
        &ana.outbox,
        TestRequest::get()
            .uri("/api/v1/user")
            .insert_header(("cookie", format!("{}={staff_cookie}", api::staff::COOKIE))),
    )
    .await;
    assert_ne!(
        r.json()["data"]["email"],
        "ana@tala.example",
        "{}",
        r.text()
    );
    // A staff write sent from another site's page is refused.
    let r = send_api_mailing(
        &db.pool,
        &ana.outbox,
        TestRequest::post()
            .uri("/api/v1/staff/logout")
            .insert_header(("origin", "https://evil.example"))
            .insert_header(("cookie", format!("{}={staff_cookie}", api::staff::COOKIE))),
    )
    .await;
    assert_eq!(r.status, StatusCode::FORBIDDEN);

    let age = |created: i64, seen: i64| {
        let mut conn = db.pool.get().unwrap();
        use db::schema::staff_sessions::dsl::*;
        diesel::update(staff_sessions)
            .set((created_at.eq(created), last_seen_at.eq(seen)))
            .execute(&mut conn)
            .unwrap();
        // The member last changed before the session began.
        diesel::update(db::schema::staff::table)
            .set(db::schema::staff::changed_at.eq(created - 1))
            .execute(&mut conn)
            .unwrap();
    };
    let now = domain::calendar::unix_now();
    // Idle for 29 minutes: it holds (and is marked used).
    age(now - 3600, now - 29 * 60);
    assert_eq!(
        ana.send("GET", "/api/v1/staff/me", None).await.status,
        StatusCode::OK
    );
    // Idle for 30 minutes: it has ended.
    age(now - 3600, now - 30 * 60);
    assert_eq!(
        ana.send("GET", "/api/v1/staff/me", None).await.status,
        StatusCode::UNAUTHORIZED
    );
    // Busy, but begun 12 hours ago: it has ended.
    ana.sign_in_whole("keg-run-at-dawn-42").await;
    age(now - 12 * 3600, now);
    assert_eq!(
        ana.send("GET", "/api/v1/staff/me", None).await.status,
        StatusCode::UNAUTHORIZED
    );

    // A role change from the command line ends the member's sessions, and is in the audit log.
    ana.sign_in_whole("keg-run-at-dawn-42").await;
    let out = store_ok(&db, &["staff", "set-role", "ANA@tala.example", "rider"]);
    assert!(out.contains("sessions have ended"), "{out}");
    assert_eq!(
        ana.send("GET", "/api/v1/staff/me", None).await.status,
        StatusCode::UNAUTHORIZED
    );
    let (_, _, action) = audit_actions(&db).pop().unwrap();
    assert_eq!(action, "staff.role");
    // Disabled: the right password no longer signs in.
    store_ok(&db, &["staff", "disable", "ana@tala.example"]);
    let r = ana.sign_in("keg-run-at-dawn-42").await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert_eq!(
        r.json()["errors"]["email"][0],
        api::staff::login::SIGN_IN_FAILED
    );
    store_ok(&db, &["staff", "enable", "ana@tala.example"]);

    // Five failed tries from a client (the one while disabled, four wrong passwords), then the
    // sixth is refused even with the right password.
    for _ in 0..4 {
        let r = ana.sign_in("not-her-password-1").await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    }
    let r = ana.sign_in("keg-run-at-dawn-42").await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.text());
    assert!(r.headers.get("retry-after").is_some());
    // In the audit log: the try while disabled, the wrong passwords, the lockout.
    let log = audit_log(&db);
    let whys: Vec<&str> = logged(&log, "staff.sign_in.failed")
        .iter()
        .map(|e| e.after.as_deref().unwrap())
        .collect();
    assert_eq!(whys.len(), 5, "{log:?}");
    assert!(whys[0].contains(r#""why":"disabled""#), "{whys:?}");
    assert!(
        whys[1..].iter().all(|w| w.contains("wrong password")),
        "{whys:?}"
    );
    assert_eq!(logged(&log, "staff.sign_in.locked").len(), 1, "{log:?}");
}
both!(staff_sessions_stand_apart_and_end);

/// Managers read the staff and the audit log; a dispatcher or a rider asking is answered as if
/// there were nothing there. The log speaks the staff's words: an order by its number, a member
/// by their name, each with its page; it is filtered by a name or email typed, any case.
async fn roles_hide_what_they_may_not_reach(b: Backend) {
    let db = database(b);
    let (order, _) = support::guest_order(&db, 1, "juan@example.com").await;
    let mut boss = Staff::added(&db, "boss@tala.example", "manager");
    boss.choose_password("keg-run-at-dawn-42").await;
    boss.sign_in_whole("keg-run-at-dawn-42").await;
    let mut ben = Staff::added(&db, "ben@tala.example", "rider");
    ben.choose_password("ben-rides-the-kegs-7").await;
    ben.sign_in_whole("ben-rides-the-kegs-7").await;
    let dora = Staff::signed_in(&db, "dora@tala.example", "dispatcher").await;

    for uri in ["/api/v1/staff/team", "/api/v1/staff/audit"] {
        for (who, s) in [("rider", &ben), ("dispatcher", &dora)] {
            let r = s.send("GET", uri, None).await;
            assert_eq!(
                r.status,
                StatusCode::NOT_FOUND,
                "{uri} as {who}: {}",
                r.text()
            );
        }
        let r = ben.send("GET", &format!("{uri}?who=boss"), None).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{uri}: {}", r.text());
        let r = boss.send("GET", uri, None).await;
        assert_eq!(r.status, StatusCode::OK, "{uri}: {}", r.text());
    }
    let team = boss.send("GET", "/api/v1/staff/team", None).await.json();
    let emails: Vec<&str> = team["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["email"].as_str().unwrap())
        .collect();
    assert_eq!(
        emails,
        ["ben@tala.example", "boss@tala.example", "dora@tala.example"]
    );
    assert!(!team.to_string().contains("hash") && !team.to_string().contains("secret"));

    // Dora moves the order; the entry names it by its number, linked to its page.
    let r = dora
        .send(
            "POST",
            "/api/v1/staff/orders/status",
            Some(json!({"order_ids": [order], "status": "confirmed"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());

    let log = boss.send("GET", "/api/v1/staff/audit", None).await.json();
    let entries = log["entries"].as_array().unwrap();
    // Each sign-up: the password chosen, its sign-in, the second factor set up, the whole
    // sign-in; then the order moved.
    assert_eq!(entries.len(), 13, "{log}");
    let moved = &entries[0];
    assert_eq!(moved["action"], "order.status", "newest first");
    assert_eq!(moved["subject"], format!("order {order}"), "as recorded");
    let number = format!("Order TB-{order:06}");
    assert_eq!(moved["subject_label"], number.as_str());
    assert_eq!(
        moved["subjects"],
        json!([{"label": number, "href": format!("/staff/orders/{order}")}])
    );
    assert_eq!(moved["actor"], "dora (dora@tala.example)");
    assert_eq!(moved["actor_name"], "dora");
    assert_eq!(moved["actor_href"], "/staff/team");
    // A member of staff as a subject is named, linked to the staff's page.
    let chosen = entries
        .iter()
        .find(|e| e["action"] == "staff.password" && e["staff_id"] == ben.id)
        .unwrap();
    assert_eq!(chosen["subject"], format!("staff {}", ben.id));
    assert_eq!(chosen["subject_label"], "ben");
    assert_eq!(chosen["subjects"][0]["href"], "/staff/team");
    let kinds = log["actions"].as_array().unwrap();
    for kind in [
        "order.status",
        "staff.password",
        "staff.second_factor",
        "staff.sign_in",
        "staff.sign_in.password",
    ] {
        assert!(kinds.contains(&json!(kind)), "{kind}: {log}");
    }

    // By name or email, any case; with a kind; a wildcard typed is a character.
    let who = |q: &str| {
        let boss = &boss;
        let q = q.to_string();
        async move {
            let r = boss
                .send("GET", &format!("/api/v1/staff/audit?{q}"), None)
                .await;
            assert_eq!(r.status, StatusCode::OK, "{q}: {}", r.text());
            r.json()["entries"]
                .as_array()
                .unwrap()
                .iter()
                .map(|e| e["actor"].as_str().unwrap().to_string())
                .collect::<Vec<_>>()
        }
    };
    let bens = who("who=BEN").await;
    assert_eq!(bens.len(), 4, "{bens:?}");
    assert!(
        bens.iter().all(|a| a == "ben (ben@tala.example)"),
        "{bens:?}"
    );
    assert_eq!(who("who=dora%40TALA&action=order.status").await.len(), 1);
    assert_eq!(who("who=%20dora%20").await.len(), 5, "trimmed");
    assert!(who("who=%25").await.is_empty());
    assert!(who("who=b_n").await.is_empty());
    assert!(who("who=nobody").await.is_empty());
    // The page, as a browser without JavaScript gets it: the order's number and the member's
    // name, linked; the form asks who by a name or email and offers the log's kinds.
    let store = store!(db);
    let cookie = format!("{}={}", api::staff::COOKIE, boss.cookie.clone().unwrap());
    let page = send!(store, support::get("/staff/audit?who=Dora", &cookie));
    assert_eq!(page.status, StatusCode::OK, "{}", page.text());
    let html = page.text();
    assert!(
        html.contains(&format!(
            r#"<a href="/staff/orders/{order}">Order TB-{order:06}</a>"#
        )),
        "{html}"
    );
    assert!(
        html.contains(r#"<a href="/staff/team">dora (dora@tala.example)</a>"#),
        "{html}"
    );
    assert!(
        !html.contains("boss (boss@tala.example)"),
        "filtered by who"
    );
    assert!(html.contains("Who (part of a name or email)"), "{html}");
    assert!(html.contains(r#"<option value="order.status">"#), "{html}");
    // The form sent empty filters nothing.
    let page = send!(store, support::get("/staff/audit?who=&action=", &cookie));
    assert_eq!(page.status, StatusCode::OK, "{}", page.text());
    assert!(page.text().contains("boss (boss@tala.example)"));
    let page = send!(
        store,
        support::get("/staff/audit?action=staff.password", &cookie)
    );
    let html = page.text();
    assert!(
        html.contains(r#"<a href="/staff/team">ben</a>"#),
        "a member as the subject, by name: {html}"
    );

    // The staff id of a link still filters.
    let only_ben = boss
        .send(
            "GET",
            &format!("/api/v1/staff/audit?staff={}&action=staff.password", ben.id),
            None,
        )
        .await
        .json();
    assert_eq!(
        only_ben["entries"].as_array().unwrap().len(),
        1,
        "{only_ben}"
    );
    let long = format!("?action={}", "x".repeat(61));
    let long_who = format!("?who={}", "x".repeat(61));
    for bad in [
        "?staff=-1",
        "?before=abc",
        "?staff=1&staff=2",
        "?action=a%00b",
        "?action=%0A",
        "?who=a%00b",
        &long,
        &long_who,
    ] {
        let r = boss
            .send("GET", &format!("/api/v1/staff/audit{bad}"), None)
            .await;
        assert_eq!(r.status, StatusCode::BAD_REQUEST, "{bad}");
    }
}

/// A failed sign-in is in the audit log, and stays though the call fails: the email as typed
/// (cut when long; that of no account under no member), why, never the password; a lockout is
/// recorded at its first refused try only, of the password as of the codes.
async fn failed_sign_ins_and_lockouts_are_recorded(b: Backend) {
    let db = database(b);
    let mut ben = Staff::added(&db, "ben@tala.example", "rider");
    ben.choose_password("ben-rides-the-kegs-7").await;
    let mut cora = Staff::added(&db, "cora@tala.example", "dispatcher");
    cora.choose_password("cora-counts-cases-9").await;

    // An email of no account, typed long.
    let typed = format!("{}@{}.example", "x".repeat(60), "y".repeat(60));
    let r = ben
        .send(
            "POST",
            "/api/v1/staff/login",
            Some(json!({"email": typed, "password": "guessed-Secret-1"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text());
    let log = audit_log(&db);
    let failed = logged(&log, "staff.sign_in.failed");
    assert_eq!(failed.len(), 1, "{log:?}");
    let kept = format!("{}…", &typed[..api::staff::audit::EMAIL_RECORDED]);
    assert_eq!(
        (failed[0].staff_id, failed[0].actor.as_str()),
        (None, kept.as_str())
    );
    let after: serde_json::Value =
        serde_json::from_str(failed[0].after.as_deref().unwrap()).unwrap();
    assert_eq!(after, json!({"email": kept, "why": "no such account"}));
    assert!(!format!("{log:?}").contains("guessed-Secret-1"));

    // A password typed into the email field is not kept: the entry says no address was typed.
    let r = ben
        .send(
            "POST",
            "/api/v1/staff/login",
            Some(json!({"email": "Kegs-At-Dawn-42", "password": "x"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text());
    let log = audit_log(&db);
    let failed = logged(&log, "staff.sign_in.failed");
    assert_eq!(failed.len(), 2, "{log:?}");
    assert_eq!(failed[1].actor, api::staff::audit::NOT_AN_EMAIL);
    assert!(
        !format!("{log:?}")
            .to_lowercase()
            .contains("kegs-at-dawn-42"),
        "{log:?}"
    );

    // Five wrong passwords on Ben's account, then the right one is refused: a lockout, recorded
    // once however many tries are refused.
    for _ in 0..5 {
        let r = ben.sign_in("not-his-password-1").await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    }
    for _ in 0..3 {
        let r = ben.sign_in("ben-rides-the-kegs-7").await;
        assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.text());
    }
    let log = audit_log(&db);
    let failed = logged(&log, "staff.sign_in.failed");
    assert_eq!(failed.len(), 7, "{log:?}");
    assert!(failed[2..]
        .iter()
        .all(|e| e.staff_id == Some(ben.id)
            && e.after.as_deref().unwrap().contains("wrong password")));
    let locked = logged(&log, "staff.sign_in.locked");
    assert_eq!(locked.len(), 1, "{log:?}");
    assert_eq!(locked[0].staff_id, Some(ben.id));
    assert_eq!(locked[0].subject, format!("staff {}", ben.id));
    assert!(locked[0]
        .after
        .as_deref()
        .unwrap()
        .contains("too many failed sign-ins"));
    assert!(logged(&log, "staff.sign_in.password").is_empty());

    // Cora's password, then five wrong codes and two refused: each wrong code and one lockout.
    let r = cora.sign_in("cora-counts-cases-9").await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    for _ in 0..5 {
        let r = cora.code("123456").await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text());
    }
    for _ in 0..2 {
        let r = cora.code("123456").await;
        assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.text());
    }
    let log = audit_log(&db);
    let wrong = logged(&log, "staff.code.wrong");
    assert_eq!(wrong.len(), 5, "{log:?}");
    assert!(wrong.iter().all(|e| e.staff_id == Some(cora.id)));
    let locked: Vec<_> = logged(&log, "staff.sign_in.locked")
        .into_iter()
        .filter(|e| e.staff_id == Some(cora.id))
        .collect();
    assert_eq!(locked.len(), 1, "{log:?}");
    assert!(locked[0]
        .after
        .as_deref()
        .unwrap()
        .contains("too many codes"));
    let signed: Vec<_> = logged(&log, "staff.sign_in.password");
    assert_eq!(signed.len(), 1);
    assert_eq!(signed[0].actor, "cora (cora@tala.example)");
}
both!(failed_sign_ins_and_lockouts_are_recorded);

both!(roles_hide_what_they_may_not_reach);

/// `store staff` adds (mailing the link), lists, refuses what it cannot do with a reason, and
/// records every change as the command line's.
#[test]
fn the_staff_commands_add_list_and_refuse() {
    for b in [Backend::Sqlite, Backend::Postgres] {
        let db = database(b);
        let outbox = tempfile::tempdir().unwrap();
        let o = store_command(
            &db,
            &[
                "staff",
                "add",
                "Ana@Tala.example",
                "--role",
                "manager",
                "--name",
                "Ana Cruz",
            ],
            Some(outbox.path()),
        );
        assert!(o.status.success(), "{}", support::process::stderr(&o));
        assert!(stdout(&o).contains("a link to choose a password is queued for ana@tala.example"));
        let mail = read_outbox(&db.pool, outbox.path())
            .into_iter()
            .find(|m| m.contains("To: ana@tala.example"))
            .expect("the link mail");
        assert!(
            mail.contains("https://shop.example/staff/password?token="),
            "{mail}"
        );
        assert!(mail.contains("as manager"), "{mail}");

        let refused = store_refused(
            &db,
            &["staff", "add", "ana@tala.example", "--role", "rider"],
        );
        assert!(refused.contains("already on the staff"), "{refused}");
        let refused = store_refused(&db, &["staff", "add", "ben@tala.example", "--role", "boss"]);
        assert!(
            refused.contains("manager, dispatcher and rider"),
            "{refused}"
        );
        let refused = store_refused(&db, &["staff", "add", "not-an-email", "--role", "rider"]);
        assert!(refused.contains("valid email"), "{refused}");
        let refused = store_refused(&db, &["staff", "disable", "nobody@tala.example"]);
        assert!(refused.contains("no member of staff"), "{refused}");

        let list = store_ok(&db, &["staff", "list"]);
        assert!(
            list.contains("ana@tala.example") && list.contains("link sent"),
            "{list}"
        );
        store_ok(&db, &["staff", "invite", "ana@tala.example"]);
        let actions: Vec<(Option<i64>, String, String)> = audit_actions(&db);
        assert_eq!(
            actions,
            [
                (None, "command line".into(), "staff.add".into()),
                (None, "command line".into(), "staff.invite".into())
            ]
        );
    }
}

/// A request of the call's own method (a photo's `PUT` and `DELETE` too).
fn request(method: &str, uri: &str) -> TestRequest {
    TestRequest::default()
        .method(actix_web::http::Method::from_bytes(method.as_bytes()).unwrap())
        .uri(uri)
}

/// What `Staff::send` sends, by any method: from the store's own pages, with their cookie.
async fn send_as(
    s: &Staff<'_>,
    method: &str,
    uri: &str,
    body: Option<serde_json::Value>,
) -> support::Res {
    let mut req = request(method, uri).insert_header(("origin", "http://localhost:8080"));
    if let Some(c) = &s.cookie {
        req = req.insert_header(("cookie", format!("{}={c}", api::staff::COOKIE)));
    }
    if let Some(b) = body {
        req = req.set_json(b);
    }
    send_api_mailing(&s.db.pool, &s.outbox, req).await
}

/// Every staff call under every role and under a shopper's session: a visitor without a whole
/// staff session is a 401 (but signing in, choosing a password by a link and signing out, which
/// anyone may try); a role is let through or answered as a thing that does not exist (404);
/// never a 500. A rider reaches their own account and their own run (its list, its sheet, its
/// stops to end); dispatchers and managers every run call. New staff calls join the walk by
/// being registered.
async fn every_staff_call_under_every_role(b: Backend) {
    let db = database(b);
    let (order, _) = support::guest_order(&db, 1, "ana@example.com").await;
    let mut walkers = Vec::new();
    for (email, role) in [
        ("ben@tala.example", "rider"),
        ("dora@tala.example", "dispatcher"),
        ("boss@tala.example", "manager"),
    ] {
        let mut s = Staff::added(&db, email, role);
        s.choose_password("keg-run-at-dawn-42").await;
        s.sign_in_whole("keg-run-at-dawn-42").await;
        walkers.push((role, s));
    }
    // A real run of the rider's, with the order on it (confirmed first).
    let (ben, dora) = (&walkers[0].1, &walkers[1].1);
    let r = dora
        .send(
            "POST",
            "/api/v1/staff/orders/status",
            Some(json!({"order_ids": [order], "status": "confirmed"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let today = dora.send("GET", "/api/v1/staff/runs", None).await.json()["today"].clone();
    let r = dora
        .send(
            "POST",
            "/api/v1/staff/runs",
            Some(json!({"rider_id": ben.id, "day": today, "order_ids": [order]})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let run = r.json()["run_id"].as_i64().unwrap();
    // A catalog file the manager uploaded, waiting for its import.
    let draft = {
        let mut conn = db.pool.get().unwrap();
        let boss = db::team::by_id(&mut conn, walkers[2].1.id)
            .unwrap()
            .unwrap();
        let file =
            api::staff::catalog::import::to_json(&db::catalog_io::export(&mut conn).unwrap());
        api::staff::catalog::import::upload(&mut conn, &boss, "catalog.json", &file).unwrap()
    };
    let sku: String = db::schema::products::table
        .find(21)
        .select(db::schema::products::sku)
        .first(&mut db.pool.get().unwrap())
        .unwrap();
    let member = support::member(&db, 1).await;
    let open = ["staffLogin", "staffPassword", "staffLogout"];
    // What each role reaches, by the call's name and path (the rest answer 404 to it).
    let reaches = |role: &str, name: &str, path: &str| match role {
        "manager" => true,
        "dispatcher" => {
            !path.contains("/team")
                && !path.contains("/audit")
                && !path.contains("/catalog")
                && !path.contains("/maintenance")
                && !path.contains("/guest-data")
                && !path.contains("/payments/")
        }
        // A rider: their own account, their runs, their run and its stops.
        _ => {
            path.ends_with("/me")
                || path.ends_with("/second-factor")
                || ["staffRuns", "staffRun", "staffRunStop"].contains(&name)
        }
    };
    let calls: Vec<_> = framework::registry::endpoints()
        .iter()
        .filter(|e| e.path().starts_with("/api/v1/staff/"))
        .filter(|e| e.name() != "staffLogout")
        .collect();
    assert!(calls.len() >= 12, "{}", calls.len());
    let runs_calls = calls
        .iter()
        .filter(|e| e.path().starts_with("/api/v1/staff/runs") || e.name() == "staffDay")
        .count();
    assert!(runs_calls >= 9, "every run call is walked: {runs_calls}");
    for e in &calls {
        let uri = e
            .path()
            .replace("{orderId}", &order.to_string())
            .replace("{staffId}", "1")
            .replace("{runId}", &run.to_string())
            .replace("{productId}", "21")
            .replace("{sku}", &sku)
            .replace("{bannerId}", "2")
            .replace("{depositId}", "1")
            .replace("{promoId}", "1")
            .replace("{cityId}", "1380300000")
            .replace("{fulfillmentId}", "1")
            .replace("{draftId}", &draft)
            .replace("{paymentId}", "pay_none")
            + match e.name() {
                "staffCitiesPlan" => "?products=17&cities=1380100000&how=add",
                _ => "",
            };
        assert!(!uri.contains('{'), "{uri}: a path parameter left to fill");
        let method = e.method().as_str();
        let body = (method != "GET").then(|| json!({}));
        // Without a staff session: a shopper's, as a bearer token or a cookie, or none.
        for auth in [
            None,
            Some(("authorization", format!("Bearer {member}"))),
            Some(("cookie", format!("session={member}"))),
        ] {
            let mut req = request(method, &uri);
            if let Some(h) = auth.clone() {
                req = req.insert_header(h);
            }
            if let Some(b) = &body {
                req = req.set_json(b);
            }
            let r = send_api_mailing(&db.pool, &walkers[0].1.outbox, req).await;
            assert_ne!(
                r.status,
                StatusCode::INTERNAL_SERVER_ERROR,
                "{uri} {auth:?}"
            );
            if !open.contains(&e.name()) {
                assert_eq!(
                    r.status,
                    StatusCode::UNAUTHORIZED,
                    "{uri} as {auth:?}: {}",
                    r.text()
                );
            }
        }
        for (role, walker) in &walkers {
            let r = send_as(walker, method, &uri, body.clone()).await;
            assert_ne!(
                r.status,
                StatusCode::INTERNAL_SERVER_ERROR,
                "{uri} as {role}: {}",
                r.text()
            );
            if open.contains(&e.name()) {
                continue;
            }
            assert_ne!(
                r.status,
                StatusCode::UNAUTHORIZED,
                "{uri} as {role}: {}",
                r.text()
            );
            if reaches(role, e.name(), &uri) {
                assert_ne!(
                    r.status,
                    StatusCode::NOT_FOUND,
                    "{uri} as {role}: {}",
                    r.text()
                );
                // A read reached is answered whole; the rider's runs hold the run.
                if method == "GET" {
                    assert_eq!(r.status, StatusCode::OK, "{uri} as {role}: {}", r.text());
                }
                if e.name() == "staffRuns" {
                    assert_eq!(r.json()["runs"][0]["id"], run, "{role}: {}", r.text());
                }
            } else {
                assert_eq!(
                    r.status,
                    StatusCode::NOT_FOUND,
                    "{uri} as {role}: {}",
                    r.text()
                );
            }
        }
    }
}
both!(every_staff_call_under_every_role);
