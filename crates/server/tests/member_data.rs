//! A member's data: "Download my data" behind the current password (the API call, and
//! the page's form without JavaScript, as the page or as a file), never kept by a cache; and a
//! manager erasing a guest's personal data by email or mobile, through the API and the command
//! line, recorded in the audit log. On SQLite and PostgreSQL.

// A test tells one story from start to end: it may run past a screen.
#![allow(clippy::too_many_lines)]

use crate::support;

use actix_web::http::StatusCode;
use diesel::prelude::*;
use serde_json::{json, Value};
use support::calls::{a_case, add_to_cart, call_api, checkout, guest_with_a_case, view_cart, Auth};
use support::process::{stdout, store_command, store_ok, store_refused};
use support::seed::{MAKATI, OPEN, PALE_PILSEN, SHOP};
use support::staff::Staff;
use support::{assert_private, csrf_of, database, form_body, log_in_member, Backend, TestDb};

/// The password [`support::member_who_logs_in`] gives.
const PASSWORD: &str = "Tala beer 2026 ok";

/// Member `n` as [`support::member_who_logs_in`] makes them, with the password as their own
/// (chosen, not a social provider's account, which has none to confirm with).
async fn member_who_chose(db: &TestDb, n: u8) {
    use db::schema::users::dsl::*;
    support::member_who_logs_in(db, n).await;
    let mut conn = db.pool.get().unwrap();
    diesel::update(users.filter(email.eq(format!("member{n}@example.com"))))
        .set(password_set.eq(true))
        .execute(&mut conn)
        .unwrap();
}

/// `POST /api/v1/user/my-data` from the session `token` with `password`.
async fn my_data(db: &TestDb, token: &str, password: &str) -> support::Res {
    support::calls::send_json(
        db,
        "POST",
        "/api/v1/user/my-data",
        Auth::Cookie(format!("session={token}")),
        json!({ "current_password": password }),
    )
    .await
}

/// Places the cart of `auth` (a case of bottles for Makati) with `mobile` and `email`: its id.
async fn order(db: &TestDb, auth: Auth, mobile: &str, email: &str) -> i64 {
    let query = format!("?testdate={OPEN}");
    let (_, cart) = view_cart(db, &auth, MAKATI, &query).await;
    let mut form = checkout(&cart);
    form["mobile"] = json!(mobile);
    form["email"] = json!(email);
    form["notes"] = json!("Ring twice");
    let (s, placed) = call_api(db, "POST", "/api/v1/orders", auth, form).await;
    assert_eq!(s, StatusCode::CREATED, "{placed}");
    placed["order"]["id"].as_i64().unwrap()
}

/// A guest's order (a case of bottles for Makati) with `mobile` and `email`: its id.
async fn guest_order(db: &TestDb, mobile: &str, email: &str) -> i64 {
    let (token, _) = guest_with_a_case(db).await;
    order(db, Auth::from(token.as_str()), mobile, email).await
}

/// Signs `email` up for the newsletter (waiting for its link).
async fn subscribe(db: &TestDb, email: &str) {
    let (s, a) = call_api(
        db,
        "POST",
        "/api/v1/mail/subscribe",
        "",
        json!({ "email": email }),
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{a}");
}

/// Member `n` logged in (the session's token), with a saved address, an order and a Go-to Case.
async fn member_with_things(db: &TestDb, n: u8, line: &str) -> String {
    member_who_chose(db, n).await;
    let (_, token) = log_in_member(db, n, "").await;
    let auth = Auth::Cookie(format!("session={token}"));
    let address = json!({"address": line, "barangay_id": MAKATI, "street_id": 1});
    let (s, a) = call_api(db, "POST", "/api/v1/user/addresses", auth.clone(), address).await;
    assert_eq!(s, StatusCode::CREATED, "{a}");
    let (s, a) = call_api(db, "POST", "/api/v1/cart", auth.clone(), a_case()).await;
    assert_eq!(s, StatusCode::OK, "{a}");
    order(db, auth.clone(), &format!("0917555000{n}"), "").await;
    let (s, a) = add_to_cart(db, auth.clone(), PALE_PILSEN, 24, MAKATI).await;
    assert_eq!(s, StatusCode::OK, "{a}");
    let case =
        json!({"name": format!("Weekend {n}"), "cart_items": [PALE_PILSEN], "barangay": MAKATI});
    let (s, a) = call_api(db, "POST", "/api/v1/user/goto-case", auth, case).await;
    assert_eq!(s, StatusCode::OK, "{a}");
    token
}

fn session_hashes(db: &TestDb) -> Vec<String> {
    use db::schema::sessions::dsl::*;
    let mut conn = db.pool.get().unwrap();
    sessions.select(token_hash).load(&mut conn).unwrap()
}

/// The right password answers every part of what the store holds about the member, and nothing
/// of another member's; no token, hash or password hash is in it; never kept by a cache.
async fn a_member_downloads_their_data(b: Backend) {
    let db = database(b);
    let ana = member_with_things(&db, 1, "Unit 5B, 12 Jupiter St.").await;
    let ben = member_with_things(&db, 2, "Penthouse, 99 Ben's Tower").await;
    subscribe(&db, "member1@example.com").await;
    guest_order(&db, "09179990000", "guest.elsewhere@example.com").await;

    let r = my_data(&db, &ana, PASSWORD).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_private(&r, "the member's data");
    let d = r.json();
    let p = &d["profile"];
    assert_eq!(
        (
            &p["first_name"],
            &p["email"],
            &p["mobile"],
            &p["birth_date"]
        ),
        (
            &json!("Member1"),
            &json!("member1@example.com"),
            &json!("09170000001"),
            &json!("1990-01-01")
        )
    );
    assert_eq!(d["addresses"].as_array().unwrap().len(), 1);
    assert_eq!(d["addresses"][0]["address"], "Unit 5B, 12 Jupiter St.");
    let orders = d["orders"].as_array().unwrap();
    assert_eq!(orders.len(), 1, "{d}");
    let o = &orders[0];
    assert_eq!(o["status"], "placed");
    assert_eq!(o["contact_name"], "Ana Santos");
    assert_eq!(o["mobile"], "09175550001");
    assert_eq!(o["email"], "member1@example.com");
    assert_eq!(o["address"], "Unit 5B, 12 Jupiter St.");
    assert_eq!(o["notes"], "Ring twice");
    assert!(o["total"].as_i64().unwrap() > 0 && !o["items"].as_array().unwrap().is_empty());
    assert_eq!(o["history"][0]["status"], "placed");
    assert_eq!(d["goto_cases"].as_array().unwrap().len(), 1);
    assert_eq!(d["goto_cases"][0]["case_name"], "Weekend 1");
    assert_eq!(d["newsletter"]["status"], "waiting");
    let sessions = d["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 1, "{d}");
    assert_eq!(sessions[0]["this_session"], true);
    assert!(!sessions[0]["began_at"].as_str().unwrap().is_empty());
    assert!(!sessions[0]["last_used_at"].as_str().unwrap().is_empty());

    // Nothing of Ben's, nor of the guest's; no token, hash or password hash.
    let text = r.text();
    for theirs in [
        "member2@example.com",
        "09170000002",
        "Ben's Tower",
        "Weekend 2",
        "09175550002",
        "guest.elsewhere@example.com",
        "09179990000",
        "$argon2",
    ] {
        assert!(!text.contains(theirs), "{theirs} in {text}");
    }
    for secret in session_hashes(&db)
        .into_iter()
        .chain([ana.clone(), ben.clone()])
    {
        assert!(!text.contains(&secret), "a session's token or hash");
    }
    // Ben's own is his.
    let r = my_data(&db, &ben, PASSWORD).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(r.json()["profile"]["email"], "member2@example.com");
    assert_eq!(r.json()["newsletter"]["status"], "not subscribed");
    assert!(!r.text().contains("member1@example.com"));
    // A guest has no data to download; a bearer token works as the cookie does.
    let (s, _) = call_api(
        &db,
        "POST",
        "/api/v1/user/my-data",
        "",
        json!({"current_password": PASSWORD}),
    )
    .await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    let (s, _) = call_api(
        &db,
        "POST",
        "/api/v1/user/my-data",
        ana.as_str(),
        json!({"current_password": PASSWORD}),
    )
    .await;
    assert_eq!(s, StatusCode::OK);
}
both!(a_member_downloads_their_data);

/// A wrong password is refused in words, on its field; the sixth try in ten minutes is refused
/// whatever the password; every answer is kept nowhere.
async fn a_wrong_password_is_refused_and_limited(b: Backend) {
    let db = database(b);
    member_who_chose(&db, 1).await;
    let (_, ana) = log_in_member(&db, 1, "").await;
    for _ in 0..5 {
        let r = my_data(&db, &ana, "Tala beer 2025 no").await;
        assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text());
        assert_eq!(
            r.json()["errors"]["current_password"][0],
            "The current password is not correct."
        );
        assert_private(&r, "a refusal");
        assert!(!r.text().contains("member1@example.com"));
    }
    let r = my_data(&db, &ana, PASSWORD).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS, "{}", r.text());
    assert!(r.headers.get("retry-after").is_some());
    assert_private(&r, "the limit");
    assert!(!r.text().contains("member1@example.com"));
}
both!(a_wrong_password_is_refused_and_limited);

/// Without JavaScript: the page's form answers the page showing the data, or the same as a file
/// to keep; a wrong password comes back on the page; a form without the session's token is
/// refused; every answer private.
async fn the_page_form_works_without_javascript(b: Backend) {
    let db = database(b);
    let store = store!(db);
    let ana = member_with_things(&db, 1, "Unit 5B, 12 Jupiter St.").await;
    let cookie = format!("session={ana}; member=1");
    let r = send!(store, support::get("/my-account/my-data", &cookie));
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_private(&r, "the page");
    let csrf = csrf_of(&r.text());
    assert!(!r.text().contains("Unit 5B"), "no data before the password");
    let post = |pairs: &[(&str, &str)]| {
        support::post_form("/my-account/my-data", &cookie, &form_body(pairs))
            .insert_header(("origin", SHOP))
    };

    let r = send!(
        store,
        post(&[
            ("csrf", &csrf),
            ("current_password", "Wrong 2026 pass"),
            ("format", "page")
        ])
    );
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.text().contains("The current password is not correct."));
    assert!(!r.text().contains("Unit 5B"));
    assert_private(&r, "a refusal");

    let r = send!(
        store,
        post(&[
            ("csrf", &csrf),
            ("current_password", PASSWORD),
            ("format", "page")
        ])
    );
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_private(&r, "the readable page");
    let html = r.text();
    for part in [
        "Your data as of",
        "member1@example.com",
        "Unit 5B, 12 Jupiter St.",
        "Weekend 1",
        "Logged-in sessions",
        "Ring twice",
        "Placed",
    ] {
        assert!(html.contains(part), "{part} on the page");
    }

    let r = send!(
        store,
        post(&[
            ("csrf", &csrf),
            ("current_password", PASSWORD),
            ("format", "json")
        ])
    );
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_private(&r, "the file");
    let disposition = support::disposition(&r);
    assert!(
        disposition.starts_with("attachment; filename=\"tala-my-data-")
            && disposition.ends_with(".json\""),
        "{disposition}"
    );
    let file: Value = serde_json::from_str(&r.text()).unwrap();
    assert_eq!(file["profile"]["email"], "member1@example.com");
    assert_eq!(file["orders"].as_array().unwrap().len(), 1);

    // Another site's post, or one without the session's token, is refused.
    let r = send!(
        store,
        support::post_form(
            "/my-account/my-data",
            &cookie,
            &form_body(&[("current_password", PASSWORD), ("format", "json")])
        )
        .insert_header(("origin", SHOP))
    );
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert!(!r.text().contains("member1@example.com"));
    // A guest is sent to log in.
    let r = send!(store, support::get("/my-account/my-data", ""));
    assert_eq!(r.status, StatusCode::FOUND);
}
both!(the_page_form_works_without_javascript);

/// An order's personal fields: contact name, mobile, email, address, notes.
fn contact_of(db: &TestDb, id: i64) -> [String; 5] {
    use db::schema::orders::dsl as o;
    let mut conn = db.pool.get().unwrap();
    let (a, b, c, d, e): (String, String, String, String, String) = o::orders
        .find(id)
        .select((o::contact_name, o::mobile, o::email, o::address, o::notes))
        .first(&mut conn)
        .unwrap();
    [a, b, c, d, e]
}

fn subscribed(db: &TestDb) -> Vec<String> {
    use db::schema::newsletter_subscriptions::dsl::*;
    let mut conn = db.pool.get().unwrap();
    newsletter_subscriptions
        .order(email)
        .select(email)
        .load(&mut conn)
        .unwrap()
}

fn totals(db: &TestDb) -> Vec<(i64, i64)> {
    use db::schema::orders::dsl::*;
    let mut conn = db.pool.get().unwrap();
    orders
        .order(id)
        .select((id, total))
        .load(&mut conn)
        .unwrap()
}

/// The newest audit entry: who, what, and what it says after.
fn last_audit(db: &TestDb) -> (Option<i64>, String, String, String) {
    use db::schema::audit_log::dsl::*;
    let mut conn = db.pool.get().unwrap();
    let (s, a, act, after): (Option<i64>, String, String, Option<String>) = audit_log
        .order(id.desc())
        .select((staff_id, actor, action, after_state))
        .first(&mut conn)
        .unwrap();
    (s, a, act, after.unwrap_or_default())
}

/// A manager finds a guest by mobile: their guest orders (not a member's with the same mobile,
/// not another guest's) are listed; the look changes nothing; the erasure blanks exactly those
/// orders' personal fields, keeps the rows and totals, removes the guest's newsletter signup and
/// is in the audit log without what it erased. A dispatcher, a shopper and a guest cannot.
async fn a_manager_erases_a_guest(b: Backend) {
    let db = database(b);
    let juan1 = guest_order(&db, "09170000101", "juan@example.com").await;
    let juan2 = guest_order(&db, "0917 000 0101", "juan.other@example.com").await;
    let maria = guest_order(&db, "09170000102", "maria@example.com").await;
    member_who_chose(&db, 1).await;
    let (_, ana) = log_in_member(&db, 1, "").await;
    let (s, a) = call_api(&db, "POST", "/api/v1/cart", ana.as_str(), a_case()).await;
    assert_eq!(s, StatusCode::OK, "{a}");
    let member_order = order(&db, Auth::from(ana.as_str()), "09170000101", "").await;
    subscribe(&db, "juan.other@example.com").await;
    subscribe(&db, "maria@example.com").await;
    let before = totals(&db);

    let manager = Staff::signed_in(&db, "boss@tala.example", "manager").await;
    let dispatcher = Staff::signed_in(&db, "disp@tala.example", "dispatcher").await;
    let find = "/api/v1/staff/guest-data?contact=0917-000-0101";
    let erase = "/api/v1/staff/guest-data/erase";
    let body = json!({"contact": "09170000101"});
    // Others cannot: a dispatcher is told there is no such thing; a shopper and a guest have no
    // staff session.
    assert_eq!(
        dispatcher.send("GET", find, None).await.status,
        StatusCode::NOT_FOUND
    );
    let r = dispatcher.send("POST", erase, Some(body.clone())).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text());
    let (s, _) = call_api(&db, "POST", erase, ana.as_str(), body.clone()).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    assert_eq!(totals(&db), before);
    assert_eq!(contact_of(&db, juan1)[2], "juan@example.com");

    // The look: the guest's two orders, by number and day, and one newsletter signup.
    let r = manager.send("GET", find, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_private(&r, "the look");
    let found = r.json();
    assert_eq!(found["contact"], "09170000101");
    assert_eq!(found["count"], 2);
    let ids: Vec<i64> = found["orders"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, [juan1, juan2]);
    assert_eq!(found["orders"][0]["number"], format!("TB-{juan1:06}"));
    assert!(!found["orders"][0]["placed_at"].as_str().unwrap().is_empty());
    assert_eq!(found["newsletter"], 1);
    assert!(
        !r.text().contains("juan"),
        "the look shows nothing personal"
    );
    let r = manager
        .send("GET", "/api/v1/staff/guest-data?contact=juan%40", None)
        .await;
    assert_eq!(r.status, StatusCode::OK);
    assert!(r.json()["problem"].is_string());
    assert_eq!(totals(&db), before);
    assert_eq!(contact_of(&db, juan1)[2], "juan@example.com");

    // The erasure.
    let r = manager.send("POST", erase, Some(body.clone())).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(
        (r.json()["orders"].clone(), r.json()["newsletter"].clone()),
        (json!(2), json!(1))
    );
    for id in [juan1, juan2] {
        assert_eq!(contact_of(&db, id), [""; 5].map(String::from), "order {id}");
    }
    assert_eq!(contact_of(&db, maria)[1], "09170000102");
    assert_eq!(contact_of(&db, maria)[2], "maria@example.com");
    let kept = contact_of(&db, member_order);
    assert_eq!(
        (kept[0].as_str(), kept[1].as_str()),
        ("Ana Santos", "09170000101")
    );
    assert_eq!(totals(&db), before, "the orders stay for the books");
    assert_eq!(subscribed(&db), ["maria@example.com"]);

    let (staff, actor, action, after) = last_audit(&db);
    assert_eq!((staff, action.as_str()), (Some(manager.id), "guest.erase"));
    assert!(actor.contains("boss@tala.example"));
    let after: Value = serde_json::from_str(&after).unwrap();
    assert_eq!(after["orders"], 2);
    assert_eq!(after["order_ids"], json!([juan1, juan2]));
    let entry = after.to_string();
    assert!(
        !entry.contains("juan") && !entry.contains("0917") && !entry.contains("Ana"),
        "{entry}"
    );

    // Erased once, found no more.
    let r = manager.send("POST", erase, Some(body)).await;
    assert_eq!(r.json()["orders"], 0);
    let r = manager
        .send("POST", erase, Some(json!({"contact": "not a contact"})))
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text());
}
both!(a_manager_erases_a_guest);

/// `store staff erase-guest`: the dry run lists the guest's orders and changes nothing; the
/// erasure blanks them and is recorded as the command line's; a contact of the wrong kind is
/// refused.
async fn the_command_line_erases_a_guest(b: Backend) {
    let db = database(b);
    let pedro = guest_order(&db, "09170000201", "pedro@example.com").await;
    let other = guest_order(&db, "09170000202", "other@example.com").await;
    subscribe(&db, "pedro@example.com").await;

    let out = store_ok(
        &db,
        &[
            "staff",
            "erase-guest",
            "--email",
            "Pedro@Example.com",
            "--dry-run",
        ],
    );
    assert!(out.contains(&format!("TB-{pedro:06}")), "{out}");
    assert!(!out.contains(&format!("TB-{other:06}")), "{out}");
    assert!(out.contains("1 guest order(s) would be erased"), "{out}");
    assert!(
        out.contains("1 newsletter signup(s) would be removed"),
        "{out}"
    );
    assert_eq!(contact_of(&db, pedro)[2], "pedro@example.com");
    assert_eq!(subscribed(&db), ["pedro@example.com"]);

    let out = store_ok(
        &db,
        &["staff", "erase-guest", "--email", "pedro@example.com"],
    );
    assert!(out.contains("1 guest order(s) were erased"), "{out}");
    assert_eq!(contact_of(&db, pedro), [""; 5].map(String::from));
    assert_eq!(contact_of(&db, other)[2], "other@example.com");
    assert!(subscribed(&db).is_empty());
    let (staff, actor, action, after) = last_audit(&db);
    assert_eq!(
        (staff, actor.as_str(), action.as_str()),
        (None, "command line", "guest.erase")
    );
    assert!(!after.contains("pedro"), "{after}");

    let out = store_ok(
        &db,
        &[
            "staff",
            "erase-guest",
            "--mobile",
            "0917 000 0202",
            "--dry-run",
        ],
    );
    assert!(out.contains(&format!("TB-{other:06}")), "{out}");
    let err = store_refused(
        &db,
        &["staff", "erase-guest", "--mobile", "other@example.com"],
    );
    assert!(err.contains("not a mobile number"), "{err}");
    let err = store_refused(&db, &["staff", "erase-guest", "--email", "pedro"]);
    assert!(err.contains("--email"), "{err}");
    let o = store_command(&db, &["staff", "erase-guest"], None);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert_eq!(contact_of(&db, other)[2], "other@example.com");
}
both!(the_command_line_erases_a_guest);

/// The back office's page without JavaScript: a manager finds the guest (the confirmation lists
/// their orders by number), erases them from the page's form and is told so; a dispatcher is
/// sent away from the page.
async fn the_back_office_page_erases_a_guest(b: Backend) {
    let db = database(b);
    let store = store!(db);
    let rosa = guest_order(&db, "09170000301", "rosa@example.com").await;
    let manager = Staff::signed_in(&db, "boss@tala.example", "manager").await;
    let dispatcher = Staff::signed_in(&db, "disp@tala.example", "dispatcher").await;
    let jar = |s: &Staff| {
        support::Jar(vec![(
            api::staff::COOKIE.to_string(),
            s.cookie.clone().unwrap(),
        )])
    };
    let page = "/staff/guest-data?contact=rosa%40example.com";
    let r = send!(store, support::get(page, &jar(&dispatcher).header()));
    assert_eq!(r.status, StatusCode::FOUND, "{}", r.text());
    let mut boss = jar(&manager);
    let r = send!(store, support::get(page, &boss.header()));
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_private(&r, "the back office's page");
    // The page's forms ride the browser's own session (its CSRF token).
    boss.keep(&r);
    let html = r.text();
    assert!(html.contains(&format!("TB-{rosa:06}")), "{html}");
    assert!(html.contains("Erase This Guest"), "{html}");
    let form = form_body(&[
        ("_call", "staffEraseGuest"),
        ("csrf", &csrf_of(&html)),
        ("contact", "rosa@example.com"),
    ]);
    let r = send!(
        store,
        support::post_form("/staff/guest-data", &boss.header(), &form)
            .insert_header(("origin", SHOP))
    );
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    assert_eq!(support::location(&r), "/staff/guest-data?done=erased");
    assert_eq!(contact_of(&db, rosa), [""; 5].map(String::from));
    let r = send!(
        store,
        support::get("/staff/guest-data?done=erased", &boss.header())
    );
    assert!(r.text().contains("The audit log records it."));
}
both!(the_back_office_page_erases_a_guest);
