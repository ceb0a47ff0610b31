//! The back office's pages without JavaScript, on SQLite and PostgreSQL: a visitor without a
//! staff session is sent to sign in and sees nothing of a staff page's data; the sign-in, the
//! second factor (its QR code and recovery codes drawn in the page) and signing out are forms
//! that work as posted; staff pages are never kept, never indexed; a manager reads the staff and
//! the audit log, a rider is sent back to the back office's home.

// A test tells one story from start to end: it may run past a screen.
#![allow(clippy::too_many_lines)]

use crate::support;

use actix_web::http::StatusCode;
use diesel::prelude::*;
use support::{assert_private, csrf_of, database, form_body, location, Backend, Jar, TestDb, SHOP};

const PASSWORD: &str = "keg-run-at-dawn-42";

/// A member of staff whose password is set (as if they had used their link).
fn staff_member(db: &TestDb, email: &str, role: &str) {
    let mut conn = db.pool.get().unwrap();
    let now = domain::calendar::unix_now();
    let name = email.split('@').next().unwrap();
    let id = db::team::add(&mut conn, email, name, role, now).unwrap();
    diesel::update(db::schema::staff::table.find(id))
        .set(db::schema::staff::password_hash.eq(api::accounts::hash_password(PASSWORD).unwrap()))
        .execute(&mut conn)
        .unwrap();
}

/// The store's configuration over `db`, its mail written to `outbox` (once delivered).
fn mailing_to(db: &TestDb, outbox: &std::path::Path) -> server::Config {
    let mut cfg = support::store_config(&db.url, false);
    cfg.mail_outbox = outbox.to_path_buf();
    cfg
}

fn get(uri: &str, jar: &Jar) -> actix_web::test::TestRequest {
    support::get(uri, &jar.header())
}

fn post(uri: &str, jar: &Jar, pairs: &[(&str, &str)]) -> actix_web::test::TestRequest {
    support::post_form(uri, &jar.header(), &form_body(pairs)).insert_header(("origin", SHOP))
}

/// The text of the page's `<code>` elements.
fn codes(html: &str) -> Vec<String> {
    html.split("<code>")
        .skip(1)
        .map(|c| c.split("</code>").next().unwrap().to_string())
        .collect()
}

/// Signs in through the pages as a browser without JavaScript: the sign-in form, then the
/// second factor (set up at the first sign-in with the code of the key shown on the page).
/// Answers the jar and the page's key (when it was set up).
macro_rules! sign_in {
    ($store:expr, $email:expr, $code:expr) => {{
        let mut jar = Jar::default();
        let page = send!($store, get("/staff/login", &jar));
        jar.keep(&page);
        let csrf = csrf_of(&page.text());
        let r = send!(
            $store,
            post(
                "/staff/login",
                &jar,
                &[
                    ("_call", "staffLogin"),
                    ("csrf", &csrf),
                    ("email", $email),
                    ("password", PASSWORD)
                ]
            )
        );
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
        assert_eq!(location(&r), "/staff/second-factor");
        jar.keep(&r);
        let page = send!($store, get("/staff/second-factor", &jar));
        assert_eq!(page.status, StatusCode::OK, "{}", page.text());
        let html = page.text();
        let key = codes(&html)
            .into_iter()
            .find(|c| c.len() == 39 && c.contains(' '))
            .map(|k| k.replace(' ', ""));
        let code: String = match (&key, $code) {
            (Some(k), _) => domain::staff::code_at(k, domain::calendar::unix_now()).unwrap(),
            (None, Some(c)) => c,
            (None, None) => panic!("neither a key to set up nor a code: {html}"),
        };
        let r = send!(
            $store,
            post(
                "/staff/second-factor",
                &jar,
                &[
                    ("_call", "staffSecondFactor"),
                    ("csrf", &csrf_of(&html)),
                    ("code", &code)
                ]
            )
        );
        assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
        assert_eq!(location(&r), "/staff?done=signed-in");
        jar.keep(&r);
        (jar, html)
    }};
}

async fn the_back_office_works_without_javascript(b: Backend) {
    let db = database(b);
    let store = store!(db);
    staff_member(&db, "boss@tala.example", "manager");
    staff_member(&db, "ben@tala.example", "rider");

    // Without a staff session every staff page sends to the sign-in, with nothing of its data.
    let member = support::member(&db, 1).await;
    for cookie in [String::new(), format!("session={member}; member=1")] {
        for uri in [
            "/staff",
            "/staff/team",
            "/staff/audit",
            "/staff/second-factor",
        ] {
            let r = send!(store, support::get(uri, &cookie));
            assert_eq!(r.status, StatusCode::FOUND, "{uri}: {}", r.text());
            assert_eq!(location(&r), "/staff/login", "{uri}");
            assert!(!r.text().contains("Signed in as"), "{uri}");
        }
    }
    // Crawlers are asked to keep out; the sign-in page: never kept, never indexed.
    let robots = send!(store, get("/robots.txt", &Jar::default())).text();
    assert!(robots.contains("Disallow: /staff\n"), "{robots}");
    let page = send!(store, get("/staff/login", &Jar::default()));
    assert_eq!(page.status, StatusCode::OK);
    assert_private(&page, "the staff's sign-in");
    let html = page.text();
    assert!(
        html.contains(r#"<meta name="robots" content="noindex"#),
        "noindex"
    );
    assert!(html.contains(r#"name="_call" value="staffLogin""#));

    // A wrong password comes back on the page with the one message; nothing is signed in.
    let mut jar = Jar::default();
    jar.keep(&page);
    let r = send!(
        store,
        post(
            "/staff/login",
            &jar,
            &[
                ("_call", "staffLogin"),
                ("csrf", &csrf_of(&html)),
                ("email", "boss@tala.example"),
                ("password", "wrong-password-1")
            ]
        )
    );
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.text().contains(api::staff::login::SIGN_IN_FAILED));
    // A form from another site is refused.
    let r = send!(
        store,
        support::post_form(
            "/staff/login",
            &jar.header(),
            &form_body(&[
                ("_call", "staffLogin"),
                ("csrf", &csrf_of(&html)),
                ("email", "boss@tala.example"),
                ("password", PASSWORD)
            ])
        )
        .insert_header(("origin", "https://evil.example"))
    );
    assert_eq!(r.status, StatusCode::FORBIDDEN);

    // The first sign-in sets up the second factor: the QR code and ten recovery codes in the page.
    let (boss, setup) = sign_in!(store, "boss@tala.example", None::<String>);
    assert!(
        setup.contains("<svg") && setup.contains("QR code of your account"),
        "{setup}"
    );
    let recovery: Vec<String> = codes(&setup).into_iter().filter(|c| c.len() == 9).collect();
    assert_eq!(recovery.len(), 10, "{recovery:?}");
    let home = send!(store, get("/staff?done=signed-in", &boss));
    assert_eq!(home.status, StatusCode::OK, "{}", home.text());
    assert_private(&home, "the back office");
    let html = home.text();
    assert!(
        html.contains("Signed in as <strong>boss</strong>"),
        "{html}"
    );
    assert!(html.contains("You are signed in."));
    assert!(html.contains(r#"href="/staff/audit""#), "a manager's links");

    let team = send!(store, get("/staff/team", &boss)).text();
    assert!(
        team.contains("ben@tala.example") && team.contains("Rider"),
        "{team}"
    );
    let log = send!(store, get("/staff/audit?action=staff.second_factor", &boss)).text();
    assert!(
        log.contains("boss (boss@tala.example)") && log.contains("staff.second_factor"),
        "{log}"
    );
    let none = send!(store, get("/staff/audit?action=staff.role", &boss)).text();
    assert!(none.contains("Nothing recorded here."), "{none}");

    // A rider signs in with a recovery code of their own once set up; the manager's pages send
    // them home.
    let (ben, _) = sign_in!(store, "ben@tala.example", None::<String>);
    for uri in ["/staff/team", "/staff/audit"] {
        let r = send!(store, get(uri, &ben));
        assert_eq!(r.status, StatusCode::FOUND, "{uri}");
        assert_eq!(location(&r), "/staff");
    }
    let html = send!(store, get("/staff", &ben)).text();
    assert!(!html.contains(r#"href="/staff/audit""#), "a rider's links");

    // The manager signs in again elsewhere with a recovery code.
    let (again, _) = sign_in!(store, "boss@tala.example", Some(recovery[0].clone()));
    let home = send!(store, get("/staff", &again)).text();
    assert!(home.contains("Recovery codes left: 9"), "{home}");

    // Signing out from any staff page ends the session.
    let csrf = csrf_of(&home);
    let r = send!(
        store,
        post(
            "/staff",
            &again,
            &[("_call", "staffLogout"), ("csrf", &csrf)]
        )
    );
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    assert_eq!(location(&r), "/staff/login?done=signed-out");
    let mut out = again;
    out.keep(&r);
    let r = send!(store, get("/staff", &out));
    assert_eq!(location(&r), "/staff/login");
    // A staff form sent on the ended session (a second tab, a session gone idle) goes to the
    // staff's sign-in, not the shopper's.
    let r = send!(
        store,
        post(
            "/staff/maintenance",
            &out,
            &[
                ("_call", "staffMaintenanceSet"),
                ("csrf", &csrf),
                ("on", "false")
            ]
        )
    );
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    assert_eq!(location(&r), "/staff/login");
    // The other session of the manager still holds.
    assert_eq!(send!(store, get("/staff", &boss)).status, StatusCode::OK);
}
both!(the_back_office_works_without_javascript);

/// The orders board without JavaScript: a dispatcher finds the new orders (counts per status, a
/// filter, an order's number), moves two at once, opens one, notes it and cancels it with a
/// reason the shopper is told; a rider never sees the board.
async fn a_dispatcher_works_the_board_without_javascript(b: Backend) {
    let (db, outbox) = (database(b), tempfile::tempdir().unwrap());
    let store = store!(db, mailing_to(&db, outbox.path()));
    staff_member(&db, "dora@tala.example", "dispatcher");
    staff_member(&db, "ben@tala.example", "rider");
    let (first, _) = support::guest_order(&db, 1, "ana@example.com").await;
    let (second, _) = support::guest_order(&db, 2, "cora@example.com").await;
    let (third, _) = support::guest_order(&db, 1, "dan@example.com").await;
    let (dora, _) = sign_in!(store, "dora@tala.example", None::<String>);

    // The back office's home: the orders waiting, the last 30 days drawn and told in a table.
    let home = send!(store, get("/staff", &dora)).text();
    assert!(
        home.contains("Placed: 3") && home.contains("Confirmed: 0"),
        "{home}"
    );
    assert!(
        home.contains("Revenue a day over the last 30 days") && home.contains("<rect"),
        "{home}"
    );
    assert!(
        home.contains("Tala Pale Pilsen"),
        "the top products: {home}"
    );

    let board = send!(store, get("/staff/orders", &dora));
    assert_eq!(board.status, StatusCode::OK, "{}", board.text());
    assert_private(&board, "the orders board");
    // No answer of the back office is indexed, pages, calls and sign-in alike; the shop's are.
    for uri in [
        "/staff/orders",
        "/staff",
        "/staff/login",
        "/api/v1/staff/me",
    ] {
        let r = send!(store, get(uri, &dora));
        assert_eq!(
            r.headers.get("x-robots-tag").map(|v| v.to_str().unwrap()),
            Some("noindex"),
            "{uri}"
        );
    }
    for uri in ["/buy-beer", "/api/v1/products"] {
        let r = send!(store, get(uri, &dora));
        assert!(r.headers.get("x-robots-tag").is_none(), "{uri}");
    }
    let html = board.text();
    assert!(html.contains("Placed (3)"), "{html}");
    for id in [first, second, third] {
        assert!(
            html.contains(&format!(r#"href="/staff/orders/{id}""#)),
            "{id}"
        );
    }
    // A filter: pickup only; a number.
    let pickup = send!(store, get("/staff/orders?how=2", &dora)).text();
    assert!(
        pickup.contains(&format!("/staff/orders/{second}\""))
            && !pickup.contains(&format!("/staff/orders/{first}\""))
    );
    let by_number = send!(store, get(&format!("/staff/orders?q=TB-{third:06}"), &dora)).text();
    assert!(
        by_number.contains(&format!("/staff/orders/{third}\""))
            && !by_number.contains(&format!("/staff/orders/{first}\""))
    );
    // By city (every served one offered), then by a barangay of it (offered once the city is
    // chosen: without JavaScript the form is sent twice).
    assert!(
        html.contains(r#"<option value="1380300000">"#) && !html.contains(r#"id="board-barangay""#),
        "{html}"
    );
    let makati = send!(store, get("/staff/orders?city=1380300000", &dora)).text();
    assert!(
        makati.contains(r#"id="board-barangay""#)
            && makati.contains(&format!("/staff/orders/{first}\"")),
        "{makati}"
    );
    let barangay = send!(
        store,
        get("/staff/orders?city=1380300000&barangay=1380300002", &dora)
    )
    .text();
    assert!(
        barangay.contains(&format!("/staff/orders/{first}\"")),
        "{barangay}"
    );
    let manila = send!(store, get("/staff/orders?city=1380600000", &dora)).text();
    assert!(manila.contains("No orders here."), "{manila}");
    // Any text is a search: one that starts inside a character is no order number.
    let odd = send!(store, get("/staff/orders?q=%F1%8E%B3%9D", &dora));
    assert_eq!(odd.status, StatusCode::OK, "{}", odd.text());
    let none = send!(store, get("/staff/orders?q=nobody-here", &dora)).text();
    assert!(none.contains("No orders here."), "{none}");

    // Two ticked orders move together (the form sends the box twice).
    let csrf = csrf_of(&html);
    // The board's form: the ticked orders, the status they go to, no reason.
    let moving = |ids: [i64; 2], status: &'static str| {
        let ids = ids.map(|id| id.to_string());
        let mut fields = vec![("_call", "staffOrderStatus"), ("csrf", csrf.as_str())];
        fields.extend(ids.iter().map(|id| ("order_ids", id.as_str())));
        fields.extend([("status", status), ("reason", "")]);
        post("/staff/orders", &dora, &fields)
    };
    let r = send!(store, moving([first, third], "confirmed"));
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    assert_eq!(location(&r), "/staff/orders?done=moved");
    let html = send!(store, get("/staff/orders?done=moved", &dora)).text();
    assert!(
        html.contains("Placed (1)") && html.contains("Confirmed (2)"),
        "{html}"
    );
    // All or none: a move one of them cannot take moves neither.
    let r = send!(store, moving([first, second], "out_for_delivery"));
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text());
    assert!(
        r.text().contains(
            "(Pickup) is placed: it can become confirmed or cancelled, not out for delivery"
        ),
        "{}",
        r.text()
    );

    // An order's page: its next steps, a note, then a cancellation without and with a reason.
    let second_s = second.to_string();
    let here = format!("/staff/orders/{second}");
    let page = send!(store, get(&here, &dora));
    assert_eq!(page.status, StatusCode::OK, "{}", page.text());
    let html = page.text();
    assert!(
        html.contains("Mark Confirmed") && html.contains("Cancel Order"),
        "{html}"
    );
    let csrf = csrf_of(&html);
    let r = send!(
        store,
        post(
            &here,
            &dora,
            &[
                ("_call", "staffOrderNote"),
                ("csrf", &csrf),
                ("orderId", &second_s),
                ("body", "Called: she picks up at 5")
            ]
        )
    );
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    assert_eq!(location(&r), format!("{here}?done=noted"));
    let r = send!(
        store,
        post(
            &here,
            &dora,
            &[
                ("_call", "staffOrderStatus"),
                ("csrf", &csrf),
                ("order_ids", &second_s),
                ("status", "cancelled")
            ]
        )
    );
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.text().contains("Say why the order is cancelled"),
        "{}",
        r.text()
    );
    let r = send!(
        store,
        post(
            &here,
            &dora,
            &[
                ("_call", "staffOrderStatus"),
                ("csrf", &csrf),
                ("order_ids", &second_s),
                ("status", "cancelled"),
                ("reason", "Out of kegs")
            ]
        )
    );
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    // The button sends the call's fields only (no orderId): it lands on its order's page.
    assert_eq!(location(&r), format!("{here}?done=moved"));
    let html = send!(store, get(&format!("{here}?done=moved"), &dora)).text();
    assert!(
        html.contains("Cancelled: Out of kegs") && html.contains("dora: Called: she picks up at 5"),
        "{html}"
    );
    assert!(
        !html.contains("Cancel Order"),
        "a cancelled order has no next step"
    );
    let mail = support::read_outbox(&db.pool, outbox.path())
        .into_iter()
        .find(|m| m.contains("To: cora@example.com") && m.contains("is cancelled"))
        .expect("the shopper's mail");
    assert!(mail.contains("Why: Out of kegs"), "{mail}");

    // A rider is sent back home from the board and from an order, whether or not it exists,
    // with nothing of it.
    let (ben, _) = sign_in!(store, "ben@tala.example", None::<String>);
    let r = send!(store, get("/staff/orders", &ben));
    assert_eq!((r.status, location(&r)), (StatusCode::FOUND, "/staff"));
    let home = send!(store, get("/staff", &ben));
    assert_eq!(home.status, StatusCode::OK);
    assert!(!home.text().contains("Placed: ") && !home.text().contains("Tala Pale Pilsen"));
    let r = send!(store, get(&here, &ben));
    assert_eq!((r.status, location(&r)), (StatusCode::FOUND, "/staff"));
    assert!(!r.text().contains("cora@example.com") && !r.text().contains("Out of kegs"));
    let r = send!(store, get("/staff/orders/999999", &dora));
    assert_eq!(r.status, StatusCode::NOT_FOUND);
}
both!(a_dispatcher_works_the_board_without_javascript);

/// A manager keeps the staff from the page without JavaScript: adds a dispatcher (mailed a
/// link), gives them another role, disables them; never their own role or standing; each change
/// in the audit log.
/// A `multipart/form-data` body of `parts` (name, file name if a file, bytes), and its type.
fn multipart(parts: &[(&str, Option<&str>, &[u8])]) -> (String, Vec<u8>) {
    const BOUNDARY: &str = "----store-test-boundary-7f3a";
    let mut body = Vec::new();
    for (name, file, bytes) in parts {
        body.extend(format!("--{BOUNDARY}\r\n").as_bytes());
        let disposition = match file {
            Some(f) => format!("form-data; name=\"{name}\"; filename=\"{f}\"\r\nContent-Type: application/octet-stream"),
            None => format!("form-data; name=\"{name}\""),
        };
        body.extend(format!("Content-Disposition: {disposition}\r\n\r\n").as_bytes());
        body.extend(*bytes);
        body.extend(b"\r\n");
    }
    body.extend(format!("--{BOUNDARY}--\r\n").as_bytes());
    (format!("multipart/form-data; boundary={BOUNDARY}"), body)
}

fn post_files(
    uri: &str,
    jar: &Jar,
    parts: &[(&str, Option<&str>, &[u8])],
) -> actix_web::test::TestRequest {
    let (kind, body) = multipart(parts);
    support::get(uri, &jar.header())
        .method(actix_web::http::Method::POST)
        .insert_header(("content-type", kind))
        .insert_header(("origin", SHOP))
        .set_payload(body)
}

/// A manager gives a keg a photo from the catalog page and takes it away, without JavaScript (the
/// form posts the file to the page's address); bad files, a stale form, another site and a
/// dispatcher are refused in the page's words.
async fn a_manager_gives_a_product_a_photo_without_javascript(b: Backend) {
    let db = database(b);
    let media = tempfile::tempdir().unwrap();
    let mut cfg = support::store_config(&db.url, false);
    cfg.media_dir = media.path().to_path_buf();
    let store = store!(db, cfg);
    staff_member(&db, "boss@tala.example", "manager");
    let (boss, _) = sign_in!(store, "boss@tala.example", None::<String>);
    let page = send!(store, get("/staff/catalog", &boss));
    assert_eq!(page.status, StatusCode::OK, "{}", page.text());
    let html = page.text();
    assert!(
        html.contains("Upload Photo") && html.contains("Tala Pale Pilsen Keg 30 L"),
        "{html}"
    );
    // React writes the attribute as `encType` (HTML's attribute names ignore case).
    assert!(html.contains(r#"encType="multipart/form-data""#));
    let csrf = csrf_of(&html);
    let keg = |db: &TestDb| {
        db::catalog::product_by_sku(&mut db.pool.get().unwrap(), "TBC-KEG-021")
            .unwrap()
            .unwrap()
    };
    let photo = media::testing::jpeg(1200, 900);
    let give = |csrf: &str, file: &[u8]| {
        post_files(
            "/staff/catalog",
            &boss,
            &[
                ("csrf", None, csrf.as_bytes()),
                ("sku", None, b"TBC-KEG-021"),
                ("photo", Some("keg.jpg"), file),
            ],
        )
    };
    let r = send!(store, give(&csrf, &photo));
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    assert_eq!(
        location(&r),
        "/staff/catalog?done=photo#product-TBC-KEG-021"
    );
    assert_private(&r, "the photo form's answer");
    let given = keg(&db);
    assert_eq!(
        (given.photo_width, given.photo_height),
        (Some(1200), Some(900))
    );
    let by: Vec<String> = db::schema::audit_log::table
        .filter(db::schema::audit_log::action.eq("product.photo"))
        .select(db::schema::audit_log::actor)
        .load(&mut db.pool.get().unwrap())
        .unwrap();
    assert_eq!(by.len(), 1);
    assert!(by[0].contains("boss@tala.example"), "{by:?}");
    let after = send!(store, get("/staff/catalog?done=photo", &boss)).text();
    assert!(after.contains("The photo is saved"), "{after}");
    assert!(after.contains("Photo, 1200 x 900 px") && after.contains("Remove Photo"));

    // A renamed text file: the page again, the message beside the keg's form; nothing changed.
    let r = send!(store, give(&csrf, b"SKU,price\nTBC-KEG-021,725000\n"));
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r
        .text()
        .contains("This file is not a photo: upload a JPEG, PNG or WebP image."));
    // With JavaScript: where to go, or the messages (a second upload of the same photo is the
    // same file, given again).
    let js = send!(
        store,
        give(&csrf, &photo).insert_header(("accept", "application/json"))
    );
    assert_eq!(js.status, StatusCode::OK, "{}", js.text());
    assert_eq!(
        js.json()["location"],
        "/staff/catalog?done=photo#product-TBC-KEG-021"
    );
    let js = send!(
        store,
        give(&csrf, b"not a photo").insert_header(("accept", "application/json"))
    );
    assert_eq!(js.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(js.json()["errors"]["photo"][0]
        .as_str()
        .unwrap()
        .starts_with("This file is not a photo"));
    // No file chosen, a stale form, another site, files to a page that takes none.
    let r = send!(store, give(&csrf, b""));
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.text().contains("Choose a photo to upload."));
    let r = send!(store, give("stale", &photo));
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    assert!(r.text().contains("This form has expired."));
    let r = send!(
        store,
        give(&csrf, &photo).insert_header(("origin", "https://evil.example"))
    );
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    let r = send!(
        store,
        post_files("/staff/team", &boss, &[("csrf", None, csrf.as_bytes())])
    );
    assert_eq!(r.status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
    // Bodies no photo form sends: two photos, too many parts, more than a photo may be.
    let twice = post_files(
        "/staff/catalog",
        &boss,
        &[
            ("csrf", None, csrf.as_bytes()),
            ("sku", None, b"TBC-KEG-021"),
            ("photo", Some("a.jpg"), &photo),
            ("photo", Some("b.jpg"), &photo),
        ],
    );
    let r = send!(store, twice);
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    assert!(r.text().contains("This form could not be read."));
    let many: Vec<(&str, Option<&str>, &[u8])> = (0..9).map(|_| ("sku", None, &b"x"[..])).collect();
    let r = send!(store, post_files("/staff/catalog", &boss, &many));
    assert_eq!(r.status, StatusCode::BAD_REQUEST);
    let huge = vec![0xffu8; 11 << 20];
    let r = send!(store, give(&csrf, &huge));
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(r.text().contains("larger than the 10 MB a photo may be"));
    // Without a staff session the body is not read: sent to sign in.
    let shopper = Jar::default();
    let r = send!(
        store,
        post_files(
            "/staff/catalog",
            &shopper,
            &[("photo", Some("k.jpg"), &photo)]
        )
    );
    assert_eq!(r.status, StatusCode::FOUND);
    assert_eq!(location(&r), "/staff/login");
    assert_eq!(
        keg(&db).photo,
        given.photo,
        "nothing changed by the refused posts"
    );

    // Taken away: the drawing again.
    let remove = post_files(
        "/staff/catalog",
        &boss,
        &[
            ("csrf", None, csrf.as_bytes()),
            ("sku", None, b"TBC-KEG-021"),
            ("remove", None, b"true"),
        ],
    );
    let r = send!(store, remove);
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    assert_eq!(
        location(&r),
        "/staff/catalog?done=removed#product-TBC-KEG-021"
    );
    assert_eq!(keg(&db).photo, None);

    // A dispatcher has no catalog page and cannot post its form.
    staff_member(&db, "dora@tala.example", "dispatcher");
    let (dora, _) = sign_in!(store, "dora@tala.example", None::<String>);
    let theirs = send!(store, get("/staff/catalog", &dora));
    assert_ne!(theirs.status, StatusCode::OK);
    let csrf = csrf_of(&send!(store, get("/staff", &dora)).text());
    let r = send!(
        store,
        post_files(
            "/staff/catalog",
            &dora,
            &[
                ("csrf", None, csrf.as_bytes()),
                ("sku", None, b"TBC-KEG-021"),
                ("photo", Some("keg.jpg"), &photo)
            ],
        )
    );
    // Refused as the page is to them: sent to the back office's home.
    assert_eq!(r.status, StatusCode::FOUND, "{}", r.text());
    assert_eq!(location(&r), "/staff");
    assert_eq!(keg(&db).photo, None);
}
both!(a_manager_gives_a_product_a_photo_without_javascript);

/// A manager gives a home page banner a photo from the banners page and takes it away, without
/// JavaScript: the home page shows the photo in place of the banner's images; a banner that is
/// not there, a text file and a dispatcher are refused; each change is in the audit log.
async fn a_manager_gives_a_banner_a_photo_without_javascript(b: Backend) {
    let db = database(b);
    let media = tempfile::tempdir().unwrap();
    let mut cfg = support::store_config(&db.url, false);
    cfg.media_dir = media.path().to_path_buf();
    let store = store!(db, cfg.clone());
    staff_member(&db, "boss@tala.example", "manager");
    let (boss, _) = sign_in!(store, "boss@tala.example", None::<String>);
    let html = send!(store, get("/staff/catalog/banners", &boss)).text();
    assert!(
        html.contains("Photo of Draft beer in kegs, delivered across Metro Manila"),
        "{html}"
    );
    assert!(html.contains(r#"action="/staff/catalog/banners" encType="multipart/form-data""#));
    let csrf = csrf_of(&html);
    let banner = |db: &TestDb| {
        db::catalog::banner(&mut db.pool.get().unwrap(), 2)
            .unwrap()
            .unwrap()
    };
    let photo = media::testing::jpeg(1500, 500);
    let give = |id: &'static [u8], file: &[u8]| {
        post_files(
            "/staff/catalog/banners",
            &boss,
            &[
                ("csrf", None, csrf.as_bytes()),
                ("bannerId", None, id),
                ("form", None, b"banner-2-photo"),
                ("photo", Some("kegs.jpg"), file),
            ],
        )
    };
    let r = send!(store, give(b"2", &photo));
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    assert_eq!(location(&r), "/staff/catalog/banners?done=photo#banner-2");
    let given = banner(&db);
    assert_eq!(
        (given.photo_width, given.photo_height),
        (Some(1500), Some(500))
    );
    let hash = given.photo.clone().unwrap();
    let after = send!(store, get("/staff/catalog/banners?done=photo", &boss)).text();
    assert!(after.contains("The photo is saved: the home page shows it within a second."));
    assert!(
        after.contains("Photo, 1500 x 500 px, on every screen.") && after.contains("Remove Photo")
    );

    // The shop (a new server: pages are kept under the data version read four times a second): the
    // photo at every width made, its size for the layout, the first slide not lazy.
    let shop = store!(db, cfg.clone());
    let home = send!(shop, get("/", &Jar::default())).text();
    assert!(
        home.contains(&format!("/media/{hash}-1280.webp 1280w")),
        "{home}"
    );
    assert!(home.contains(r#"width="1500" height="500""#));
    let answer = send!(shop, get("/api/v1/banners", &Jar::default())).json();
    let shown = answer["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["id"] == 2)
        .unwrap()
        .clone();
    assert_eq!(shown["photo"]["width"], 1500);
    assert_eq!(
        shown["photo"]["src"],
        format!("/media/{hash}-480.jpg"),
        "{shown}"
    );
    let size = send!(
        shop,
        get(&format!("/media/{hash}-320.webp"), &Jar::default())
    );
    assert_eq!(size.status, StatusCode::OK);

    // Refused, the message beside the banner's form, nothing changed: a text file, a banner that
    // is not there, a banner id that is none.
    let r = send!(store, give(b"2", b"SKU,price\n"));
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r
        .text()
        .contains("This file is not a photo: upload a JPEG, PNG or WebP image."));
    for id in [
        &b"999"[..],
        b"0",
        b"-1",
        b"+2",
        b" 2",
        b"two",
        b"2147483648",
    ] {
        let r = send!(store, give(id, &photo));
        assert_eq!(
            r.status,
            StatusCode::NOT_FOUND,
            "{:?}",
            String::from_utf8_lossy(id)
        );
        assert!(r.text().contains("No such banner."));
    }
    // A body too large to read names no form: said at the top of the page.
    let huge = vec![0xffu8; 11 << 20];
    let r = send!(store, give(b"2", &huge));
    assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(
        r.text()
            .contains(r#"role="alert">This photo is larger than the 10 MB a photo may be"#),
        "shown, not only carried in the page's data: {}",
        r.text()
    );
    assert_eq!(banner(&db).photo, Some(hash.clone()));

    // A dispatcher cannot post it.
    staff_member(&db, "dora@tala.example", "dispatcher");
    let (dora, _) = sign_in!(store, "dora@tala.example", None::<String>);
    let theirs = csrf_of(&send!(store, get("/staff", &dora)).text());
    let r = send!(
        store,
        post_files(
            "/staff/catalog/banners",
            &dora,
            &[
                ("csrf", None, theirs.as_bytes()),
                ("bannerId", None, b"2"),
                ("remove", None, b"true"),
            ],
        )
    );
    assert_eq!(r.status, StatusCode::FOUND);
    assert_eq!(banner(&db).photo, Some(hash));

    // Taken away: the images again.
    let remove = post_files(
        "/staff/catalog/banners",
        &boss,
        &[
            ("csrf", None, csrf.as_bytes()),
            ("bannerId", None, b"2"),
            ("form", None, b"banner-2-remove"),
            ("remove", None, b"true"),
        ],
    );
    let r = send!(store, remove);
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    assert_eq!(location(&r), "/staff/catalog/banners?done=removed#banner-2");
    assert_eq!(banner(&db).photo, None);
    let shop = store!(db, cfg);
    let home = send!(shop, get("/", &Jar::default())).text();
    assert!(!home.contains("/media/"), "{home}");
    let records: Vec<(String, String)> = db::schema::audit_log::table
        .filter(db::schema::audit_log::action.eq("banner.photo"))
        .select((db::schema::audit_log::actor, db::schema::audit_log::subject))
        .load(&mut db.pool.get().unwrap())
        .unwrap();
    assert_eq!(records.len(), 2, "{records:?}");
    assert!(records
        .iter()
        .all(|(by, subject)| by.contains("boss@tala.example")
            && subject == "banner 2 (Draft beer in kegs, delivered across Metro Manila)"));
}
both!(a_manager_gives_a_banner_a_photo_without_javascript);

/// A manager adds a banner with its photo and days, without JavaScript: refused field by field as
/// the catalog import refuses it (nothing kept), then added, scheduled, shown on its first day
/// with its photo, its images in the catalog file the photo's own, each step in the audit log.
async fn a_manager_adds_a_banner_without_javascript(b: Backend) {
    let db = database(b);
    let media = tempfile::tempdir().unwrap();
    let mut cfg = support::store_config(&db.url, false);
    cfg.media_dir = media.path().to_path_buf();
    cfg.testdate = None;
    let store = store!(db, cfg.clone());
    staff_member(&db, "boss@tala.example", "manager");
    let (boss, _) = sign_in!(store, "boss@tala.example", None::<String>);
    let html = send!(store, get("/staff/catalog/banners", &boss)).text();
    assert!(
        html.contains("Add a Banner") && html.contains(r#"name="add""#),
        "{html}"
    );
    let csrf = csrf_of(&html);
    let photo = media::testing::jpeg(1500, 500);
    let count = |db: &TestDb| -> i64 {
        db::schema::banners::table
            .count()
            .get_result(&mut db.pool.get().unwrap())
            .unwrap()
    };
    let before = count(&db);
    let add = |fields: &[(&str, &str)], file: Option<&[u8]>| {
        let mut parts: Vec<(&str, Option<&str>, &[u8])> = vec![
            ("csrf", None, csrf.as_bytes()),
            ("add", None, b"true"),
            ("form", None, b"banner-add"),
        ];
        for (k, v) in fields {
            parts.push((k, None, v.as_bytes()));
        }
        if let Some(f) = file {
            parts.push(("photo", Some("rainy.jpg"), f));
        }
        post_files("/staff/catalog/banners", &boss, &parts)
    };
    // Refused as the import refuses, each beside its field; what was typed comes back.
    let r = send!(
        store,
        add(
            &[
                ("title", ""),
                ("starts_on", "2099-06-30"),
                ("ends_on", "2099-06-01"),
                ("sort_order", "")
            ],
            Some(&photo)
        )
    );
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text());
    let text = r.text();
    assert!(
        text.contains("The last day 2099-06-01 is before the first day 2099-06-30"),
        "{text}"
    );
    assert!(text.contains("The title"), "{text}");
    assert!(
        text.contains(r#"value="2099-06-30""#),
        "typed days come back: {text}"
    );
    let r = send!(
        store,
        add(
            &[("title", "Rainy days"), ("sort_order", "first")],
            Some(&photo)
        )
    );
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.text().contains("The place must be a whole number."));
    let r = send!(store, add(&[("title", "Rainy days")], None));
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.text().contains("Choose a photo to upload."));
    let r = send!(store, add(&[("title", "Rainy days")], Some(b"not a photo")));
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.text().contains("This file is not a photo"));
    assert_eq!(count(&db), before, "nothing added");

    // Added, scheduled from a day ahead.
    let r = send!(
        store,
        add(
            &[
                ("title", "Rainy days: kegs to your door"),
                ("starts_on", "2099-06-01"),
                ("ends_on", "2099-06-30")
            ],
            Some(&photo)
        )
    );
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    let to = location(&r);
    let id: i32 = to
        .strip_prefix("/staff/catalog/banners?done=added#banner-")
        .unwrap_or_else(|| panic!("{to}"))
        .parse()
        .unwrap();
    assert_eq!(count(&db), before + 1);
    let added = db::catalog::banner(&mut db.pool.get().unwrap(), id)
        .unwrap()
        .unwrap();
    let hash = added.photo.clone().unwrap();
    assert_eq!(added.title, "Rainy days: kegs to your door");
    assert_eq!(
        (added.starts_on.as_deref(), added.ends_on.as_deref()),
        (Some("2099-06-01"), Some("2099-06-30"))
    );
    assert_eq!(added.desktop_image, format!("/media/{hash}-1280.jpg"));
    assert_eq!(added.mobile_image, format!("/media/{hash}-480.jpg"));
    let page = send!(store, get("/staff/catalog/banners?done=added", &boss)).text();
    assert!(page.contains("Added: the home page shows it within a second, on its days."));
    assert!(
        page.contains("2099-06-01 to 2099-06-30 · Not shown today"),
        "{page}"
    );
    // The shop: not before its first day, on it with its photo.
    let shop = store!(db, cfg);
    let on = |day: &str| get(&format!("/api/v1/banners?testdate={day}"), &Jar::default());
    let shown = send!(shop, on("2099-05-31")).json();
    assert!(!shown["results"]
        .as_array()
        .unwrap()
        .iter()
        .any(|b| b["id"] == id));
    let shown = send!(shop, on("2099-06-01")).json();
    let ours = shown["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["id"] == id)
        .cloned()
        .unwrap();
    assert_eq!(ours["photo"]["width"], 1500);
    // The catalog file names it, its images the photo's own sizes.
    let file = db::catalog_io::export(&mut db.pool.get().unwrap()).unwrap();
    assert!(file
        .banners
        .iter()
        .any(|b| b.id == id && b.desktop_image.contains(&hash)));
    let actions: Vec<String> = db::schema::audit_log::table
        .filter(db::schema::audit_log::subject.like(format!("banner {id}%")))
        .select(db::schema::audit_log::action)
        .order(db::schema::audit_log::id)
        .load(&mut db.pool.get().unwrap())
        .unwrap();
    assert_eq!(actions, ["banner.add", "banner.photo"]);
}
both!(a_manager_adds_a_banner_without_javascript);

/// A product's form and the cities of many products, as a browser without JavaScript sends them:
/// the form filled from the catalog, a refused post typed back with its message by its field
/// (ticked cities and the description's lines kept), a save back on the product's page; ticked
/// products and cities shown on a page of their own before they are saved.
async fn a_manager_edits_the_catalog_without_javascript(b: Backend) {
    let db = database(b);
    let store = store!(db);
    staff_member(&db, "boss@tala.example", "manager");
    let (boss, _) = sign_in!(store, "boss@tala.example", None::<String>);
    let catalog = send!(store, get("/staff/catalog", &boss)).text();
    assert!(
        catalog.contains(r#"href="/staff/catalog/products/21""#),
        "each product links its form"
    );
    assert!(catalog.contains("Sold in these cities") && catalog.contains("Show the Changes"));
    let page = send!(store, get("/staff/catalog/products/21", &boss));
    assert_eq!(page.status, StatusCode::OK, "{}", page.text());
    assert_private(&page, "a product's form");
    let html = page.text();
    assert!(
        html.contains(r#"value="P7,250.00""#),
        "the price in pesos: {html}"
    );
    assert!(html.contains("Save Product") && html.contains("Makati City"));
    let csrf = csrf_of(&html);
    let opened = html
        .split(r#"name="version" value=""#)
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .expect("the form carries its version")
        .to_string();
    let save = |pairs: &[(&str, &str)]| {
        let mut all = vec![
            ("_call", "staffProductSave"),
            ("csrf", csrf.as_str()),
            ("productId", "21"),
        ];
        all.extend_from_slice(pairs);
        post("/staff/catalog/products/21", &boss, &all)
    };
    // A price too high: the page again, the message by the price, what was typed kept.
    let r = send!(
        store,
        save(&[
            ("price", "2,000,000"),
            ("description", "Thirty litres.\r\nCold."),
            ("sold", "these_cities"),
            ("cities", "1380300000"),
            ("cities", "402103000"),
        ])
    );
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    let html = r.text();
    assert!(html.contains("The price must be at most"), "{html}");
    assert!(html.contains(r#"value="2,000,000""#));
    assert!(
        html.contains("Thirty litres.\nCold."),
        "the lines kept: {html}"
    );
    assert!(
        html.contains(r#"checked="" value="402103000""#),
        "the ticked cities kept: {html}"
    );
    assert_eq!(
        db::carts::product(&mut db.pool.get().unwrap(), domain::ProductId::from_db(21))
            .unwrap()
            .unwrap()
            .price,
        725_000
    );
    let r = send!(
        store,
        save(&[
            ("product_name", "Tala Pale Pilsen Keg 30 L"),
            ("price", "7,450"),
            ("price_per_case", "7,450"),
            ("orderable", "false"),
            ("sold", "these_cities"),
            ("cities", "1380300000"),
            ("cities", "402103000"),
        ])
    );
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    assert_eq!(location(&r), "/staff/catalog/products/21?done=saved");
    let html = send!(store, get("/staff/catalog/products/21?done=saved", &boss)).text();
    assert!(html.contains("Saved: the shop shows it within a second."));
    assert!(html.contains(r#"value="P7,450.00""#), "{html}");
    // The shop shows it: out of stock, the new price.
    let shop = send!(
        store,
        support::get("/single-product/tala-pale-pilsen-keg-30l", "")
    )
    .text();
    assert!(
        shop.contains("Out Of Stock") && shop.contains("7,450.00"),
        "{shop}"
    );
    // The page opened before that save, sent again: refused, said why, nothing overwritten, what
    // was typed kept.
    let r = send!(
        store,
        save(&[
            ("price", "7,000"),
            ("orderable", "true"),
            ("version", &opened)
        ])
    );
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text());
    let html = r.text();
    assert!(
        html.contains("Someone else changed this since you opened the page"),
        "{html}"
    );
    assert!(html.contains(r#"value="7,000""#), "{html}");
    assert_eq!(
        db::carts::product(&mut db.pool.get().unwrap(), domain::ProductId::from_db(21))
            .unwrap()
            .unwrap()
            .price,
        745_000
    );

    // Ticked products and cities: the changes on a page of their own, then saved.
    let r = send!(
        store,
        post(
            "/staff/catalog",
            &boss,
            &[
                ("_call", "staffCitiesSave"),
                ("csrf", &csrf),
                ("form", "cities"),
                ("products", "17"),
                ("products", "1"),
                ("how", "add"),
                ("cities", "1380100000"),
            ]
        )
    );
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    let preview = location(&r);
    assert_eq!(
        preview,
        "/staff/catalog/cities?products=17,1&cities=1380100000&how=add"
    );
    let html = send!(store, get(preview, &boss)).text();
    assert!(html.contains("What will change when you save"), "{html}");
    assert!(html.contains("bangkal-double-ipa-can-473ml") && html.contains("Save These Changes"));
    let r = send!(
        store,
        post(
            "/staff/catalog/cities",
            &boss,
            &[
                ("_call", "staffCitiesSave"),
                ("csrf", &csrf_of(&html)),
                ("products", "17,1"),
                ("cities", "1380100000"),
                ("how", "add"),
                ("confirm", "true"),
            ]
        )
    );
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    assert_eq!(location(&r), "/staff/catalog?done=cities");
    let sold: Vec<i64> = db::schema::product_areas::table
        .filter(db::schema::product_areas::product_id.eq(17))
        .select(db::schema::product_areas::city_id)
        .load(&mut db.pool.get().unwrap())
        .unwrap();
    assert!(sold.contains(&1380100000), "{sold:?}");
    // Nothing ticked: the catalog again, the message by the products, the photo forms quiet.
    let r = send!(
        store,
        post(
            "/staff/catalog",
            &boss,
            &[
                ("_call", "staffCitiesSave"),
                ("csrf", &csrf),
                ("form", "cities"),
                ("how", "add"),
                ("cities", "1380100000"),
            ]
        )
    );
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    let html = r.text();
    assert_eq!(
        html.matches(">Tick at least one product.<").count(),
        1,
        "shown once, by the products: {html}"
    );
    assert_eq!(
        html.matches(">Please correct the fields marked below.<")
            .count(),
        1,
        "the cities form points to it; the photo forms keep quiet"
    );
}

both!(a_manager_edits_the_catalog_without_javascript);

/// The catalog file without JavaScript: exported as a download, uploaded, its changes shown on a
/// page of their own, applied; a bad file named problem by problem and nothing kept.
async fn a_manager_imports_the_catalog_file_without_javascript(b: Backend) {
    let db = database(b);
    let store = store!(db);
    staff_member(&db, "boss@tala.example", "manager");
    let r = send!(store, get("/staff/catalog/export", &Jar::default()));
    assert_eq!(r.status, StatusCode::FOUND);
    assert_eq!(location(&r), "/staff/login");
    let (boss, _) = sign_in!(store, "boss@tala.example", None::<String>);
    let r = send!(store, get("/staff/catalog/export", &boss));
    assert_eq!(r.status, StatusCode::OK);
    assert_private(&r, "the catalog file");
    let disposition = support::disposition(&r);
    assert!(
        disposition.starts_with("attachment; filename=\"catalog-20"),
        "{disposition}"
    );
    let mut file: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
    assert_eq!(file["products"].as_array().unwrap().len(), 26);

    let page = send!(store, get("/staff/catalog/import", &boss));
    assert_eq!(page.status, StatusCode::OK, "{}", page.text());
    let html = page.text();
    assert!(html.contains("Check the File") && html.contains("/staff/catalog/export"));
    let csrf = csrf_of(&html);
    let upload = |bytes: &[u8]| {
        post_files(
            "/staff/catalog/import",
            &boss,
            &[
                ("csrf", None, csrf.as_bytes()),
                ("file", Some("catalog.json"), bytes),
            ],
        )
    };
    // Problems: each listed beside the file; nothing kept.
    let mut bad = file.clone();
    bad["products"][2]["price"] = serde_json::json!(-1);
    let r = send!(store, upload(bad.to_string().as_bytes()));
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r
        .text()
        .contains("products[2] (slug tala-light-330ml): price must be a whole number of centavos"));
    let r = send!(store, upload(&[0xff, 0xfe, 0x00, 0x01]));
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.text().contains("This is not a catalog file"));
    let r = send!(store, upload(b""));
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r.text().contains("Choose a catalog file to upload."));

    file["products"][2]["price"] = serde_json::json!(5900);
    let r = send!(store, upload(file.to_string().as_bytes()));
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    let shown = location(&r).to_string();
    assert!(shown.starts_with("/staff/catalog/import/"), "{shown}");
    let html = send!(store, get(&shown, &boss)).text();
    assert!(
        html.contains("What will change when you apply the file"),
        "{html}"
    );
    assert!(html.contains("tala-light-330ml") && html.contains("P59.00"));
    let draft = shown.rsplit('/').next().unwrap();
    let r = send!(
        store,
        post(
            &shown,
            &boss,
            &[
                ("_call", "staffDraftApply"),
                ("csrf", &csrf_of(&html)),
                ("draftId", draft),
            ]
        )
    );
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    assert_eq!(location(&r), "/staff/catalog?done=imported");
    let price: i64 = db::schema::products::table
        .find(3)
        .select(db::schema::products::price)
        .first(&mut db.pool.get().unwrap())
        .unwrap();
    assert_eq!(price, 5900);
    let html = send!(store, get("/staff/catalog?done=imported", &boss)).text();
    assert!(html.contains("Imported: the shop shows the catalog file within a second."));
}

both!(a_manager_imports_the_catalog_file_without_javascript);

/// A banner's days cleared without JavaScript: the form sends every field, and the empty days
/// open the banner again (a form path that drops empty fields would have kept them).
async fn a_banners_days_are_cleared_without_javascript(b: Backend) {
    let db = database(b);
    let store = store!(db);
    staff_member(&db, "boss@tala.example", "manager");
    diesel::update(db::schema::banners::table.find(2))
        .set((
            db::schema::banners::starts_on.eq("2031-12-01"),
            db::schema::banners::ends_on.eq("2031-12-24"),
        ))
        .execute(&mut db.pool.get().unwrap())
        .unwrap();
    let (boss, _) = sign_in!(store, "boss@tala.example", None::<String>);
    let page = send!(store, get("/staff/catalog/banners", &boss));
    assert_eq!(page.status, StatusCode::OK, "{}", page.text());
    let html = page.text();
    assert!(html.contains(r#"value="2031-12-01""#) && html.contains("Not shown today"));
    let r = send!(
        store,
        post(
            "/staff/catalog/banners",
            &boss,
            &[
                ("_call", "staffBannerSave"),
                ("csrf", &csrf_of(&html)),
                ("form", "banner-2"),
                ("bannerId", "2"),
                ("whole", "true"),
                ("title", "Draft beer in kegs, delivered across Metro Manila"),
                ("starts_on", ""),
                ("ends_on", ""),
                ("sort_order", "2"),
            ]
        )
    );
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    assert_eq!(location(&r), "/staff/catalog/banners?done=saved#banner-2");
    let days: (Option<String>, Option<String>) = db::schema::banners::table
        .find(2)
        .select((db::schema::banners::starts_on, db::schema::banners::ends_on))
        .first(&mut db.pool.get().unwrap())
        .unwrap();
    assert_eq!(days, (None, None));
}

both!(a_banners_days_are_cleared_without_javascript);

/// Deposits and delivery fees without JavaScript: every deposit and served city's fees on one
/// page, a refused amount shown by its own form only (what was typed kept), a fee a city lacked
/// set, and each save back at its form.
async fn a_manager_sets_charges_without_javascript(b: Backend) {
    let db = database(b);
    let store = store!(db);
    staff_member(&db, "boss@tala.example", "manager");
    let (boss, _) = sign_in!(store, "boss@tala.example", None::<String>);
    let page = send!(store, get("/staff/catalog/charges", &boss));
    assert_eq!(page.status, StatusCode::OK, "{}", page.text());
    assert_private(&page, "the charges");
    let html = page.text();
    assert!(html.contains("Deposits and Delivery Fees") && html.contains("Every bottle product"));
    assert!(html.contains(r#"value="P240.00""#), "{html}");
    assert!(html.contains("No fee set: pickup in Makati City is free."));
    let csrf = csrf_of(&html);
    let r = send!(
        store,
        post(
            "/staff/catalog/charges",
            &boss,
            &[
                ("_call", "staffDepositSave"),
                ("csrf", &csrf),
                ("form", "deposit-4"),
                ("depositId", "4"),
                ("name", "Keg deposit (30 L)"),
                ("amount", "-3"),
            ]
        )
    );
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    let html = r.text();
    assert!(html.contains("Give the deposit in pesos"), "{html}");
    assert!(html.contains(r#"value="-3""#), "what was typed: {html}");
    assert!(
        html.contains(r#"id="deposit-4-amount-error""#)
            && !html.contains(r#"id="deposit-1-amount-error""#),
        "by its own form only: {html}"
    );
    let r = send!(
        store,
        post(
            "/staff/catalog/charges",
            &boss,
            &[
                ("_call", "staffFeeSave"),
                ("csrf", &csrf),
                ("form", "fee-1380300000-2"),
                ("cityId", "1380300000"),
                ("fulfillmentId", "2"),
                ("amount", "35"),
            ]
        )
    );
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    assert_eq!(
        location(&r),
        "/staff/catalog/charges?done=saved#fees-1380300000"
    );
    let html = send!(store, get("/staff/catalog/charges?done=saved", &boss)).text();
    assert!(html.contains("Saved: every cart and checkout charges it within a second."));
    assert!(
        !html.contains("No fee set: pickup in Makati City"),
        "{html}"
    );
    let amount: i64 = db::schema::delivery_fees::table
        .find((1380300000_i64, 2))
        .select(db::schema::delivery_fees::amount)
        .first(&mut db.pool.get().unwrap())
        .unwrap();
    assert_eq!(amount, 3_500);
}

both!(a_manager_sets_charges_without_javascript);

async fn a_manager_keeps_the_staff_without_javascript(b: Backend) {
    let (db, outbox) = (database(b), tempfile::tempdir().unwrap());
    let store = store!(db, mailing_to(&db, outbox.path()));
    staff_member(&db, "boss@tala.example", "manager");
    let (boss, _) = sign_in!(store, "boss@tala.example", None::<String>);
    let page = send!(store, get("/staff/team", &boss));
    let html = page.text();
    assert!(html.contains("Add a member of staff"), "{html}");
    let csrf = csrf_of(&html);
    let add = |email: &'static str| {
        post(
            "/staff/team",
            &boss,
            &[
                ("_call", "staffAdd"),
                ("csrf", &csrf),
                ("email", email),
                ("name", "Dora Reyes"),
                ("role", "dispatcher"),
            ],
        )
    };
    let r = send!(store, add("dora@tala.example"));
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    assert_eq!(location(&r), "/staff/team?done=added");
    let mail = support::read_outbox(&db.pool, outbox.path())
        .into_iter()
        .find(|m| m.contains("To: dora@tala.example"))
        .expect("the link mail");
    assert!(
        mail.contains("/staff/password?token=") && mail.contains("as dispatcher"),
        "{mail}"
    );
    // The same address again: the page says so, by its field.
    let r = send!(store, add("DORA@tala.example"));
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        r.text()
            .contains("dora@tala.example is already on the staff."),
        "{}",
        r.text()
    );

    let dora = {
        let mut conn = db.pool.get().unwrap();
        db::team::by_email(&mut conn, "dora@tala.example")
            .unwrap()
            .unwrap()
            .id
            .to_string()
    };
    let change = |pairs: &[(&str, &str)]| {
        let mut all = vec![
            ("_call", "staffChange"),
            ("csrf", csrf.as_str()),
            ("staffId", dora.as_str()),
        ];
        all.extend_from_slice(pairs);
        post("/staff/team", &boss, &all)
    };
    let r = send!(store, change(&[("role", "rider")]));
    assert_eq!(location(&r), "/staff/team?done=changed", "{}", r.text());
    let r = send!(store, change(&[("disabled", "true")]));
    assert_eq!(location(&r), "/staff/team?done=changed", "{}", r.text());
    let html = send!(store, get("/staff/team?done=changed", &boss)).text();
    assert!(
        html.contains("Saved.") && html.contains("Rider") && html.contains("Disabled"),
        "{html}"
    );

    // Not their own role or standing.
    let me = {
        let mut conn = db.pool.get().unwrap();
        db::team::by_email(&mut conn, "boss@tala.example")
            .unwrap()
            .unwrap()
            .id
            .to_string()
    };
    let r = send!(
        store,
        post(
            "/staff/team",
            &boss,
            &[
                ("_call", "staffChange"),
                ("csrf", &csrf),
                ("staffId", &me),
                ("role", "rider")
            ]
        )
    );
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(r
        .text()
        .contains("Your own role and standing are changed by another manager."));

    let log = send!(store, get("/staff/audit", &boss)).text();
    for action in ["staff.add", "staff.role", "staff.disable"] {
        assert!(log.contains(action), "{action}: {log}");
    }
}
both!(a_manager_keeps_the_staff_without_javascript);

/// The staff's reads are kept until what they show changes (`make bench` 8): an unchanged board
/// reloaded is the same page; an order placed by a shopper, a status moved from elsewhere (another
/// app server, the command line: straight in the database), a place renamed in the catalog, each
/// shows at the next reload; a member of staff disabled is signed out even while their page is
/// kept. The API's answers the same.
async fn the_staff_see_every_change_at_once(b: Backend) {
    let db = database(b);
    let store = store!(db, support::store_config(&db.url, false));
    staff_member(&db, "dora@tala.example", "dispatcher");
    let (first, _) = support::guest_order(&db, 1, "ana@example.com").await;
    let (dora, _) = sign_in!(store, "dora@tala.example", None::<String>);
    let board = |html: &str, what: &str| -> bool { html.contains(what) };

    let once = send!(store, get("/staff/orders", &dora)).text();
    let again = send!(store, get("/staff/orders", &dora)).text();
    assert!(board(&once, "Placed (1)"), "{once}");
    assert_eq!(once, again, "nothing changed: the same page");
    let api = send!(store, get("/api/v1/staff/orders", &dora)).text();
    assert_eq!(api, send!(store, get("/api/v1/staff/orders", &dora)).text());

    // A shopper orders.
    let (second, _) = support::guest_order(&db, 2, "cora@example.com").await;
    let html = send!(store, get("/staff/orders", &dora)).text();
    assert!(
        board(&html, "Placed (2)") && html.contains(&format!("/staff/orders/{second}\"")),
        "{html}"
    );
    // Another app server moves the first order on.
    {
        let mut conn = db.pool.get().unwrap();
        let now = domain::calendar::unix_now();
        assert!(db::staff::set_status(&mut conn, first, "placed", "confirmed", now, "").unwrap());
    }
    let html = send!(store, get("/staff/orders", &dora)).text();
    assert!(
        board(&html, "Placed (1)") && board(&html, "Confirmed (1)"),
        "{html}"
    );
    let order = send!(store, get(&format!("/api/v1/staff/orders/{first}"), &dora)).text();
    assert!(order.contains(r#""status":"confirmed""#), "{order}");
    // The catalog renames a city the board offers.
    {
        use db::schema::cities;
        let mut conn = db.pool.get().unwrap();
        diesel::update(cities::table.filter(cities::id.eq(1_380_300_000_i64)))
            .set(cities::city_name.eq("Makati City (renamed)"))
            .execute(&mut conn)
            .unwrap();
    }
    let html = send!(store, get("/staff/orders", &dora)).text();
    assert!(html.contains("Makati City (renamed)"), "{html}");
    // Disabled: the next reload is the sign-in, not the kept board.
    {
        let mut conn = db.pool.get().unwrap();
        let id: i64 = db::schema::staff::table
            .filter(db::schema::staff::email.eq("dora@tala.example"))
            .select(db::schema::staff::id)
            .first(&mut conn)
            .unwrap();
        db::team::set_disabled(&mut conn, id, Some(1), domain::calendar::unix_now()).unwrap();
    }
    let r = send!(store, get("/staff/orders", &dora));
    assert!(
        r.status == StatusCode::FOUND || r.status == StatusCode::SEE_OTHER,
        "{}: {}",
        r.status,
        r.text()
    );
    assert!(location(&r).starts_with("/staff/login"), "{}", location(&r));
    let r = send!(store, get("/api/v1/staff/orders", &dora));
    assert_eq!(r.status, StatusCode::UNAUTHORIZED, "{}", r.text());
}
both!(the_staff_see_every_change_at_once);

/// The maintenance switch from the back office, without JavaScript: closing the store shows
/// shoppers the maintenance page (and the shop's calls 503) within a second while the back office
/// stays open (and nothing else), so the same manager opens it again; each switch in the audit
/// log. A server started with MAINTENANCE=on closes the back office too.
async fn a_manager_closes_and_opens_the_store(b: Backend) {
    let db = database(b);
    let store = store!(db);
    staff_member(&db, "boss@tala.example", "manager");
    let (boss, _) = sign_in!(store, "boss@tala.example", None::<String>);
    let page = send!(store, get("/staff/maintenance", &boss));
    assert_eq!(page.status, StatusCode::OK, "{}", page.text());
    let html = page.text();
    assert!(html.contains("The store is open") && html.contains("Close the Store for Maintenance"));
    let switch = |on: &str| {
        post(
            "/staff/maintenance",
            &boss,
            &[
                ("_call", "staffMaintenanceSet"),
                ("csrf", &csrf_of(&html)),
                ("on", on),
            ],
        )
    };
    let status_of = |uri: &'static str| support::get(uri, "");
    let r = send!(store, switch("true"));
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    assert_eq!(location(&r), "/staff/maintenance?done=true");
    // Within a second (the watch reads the row four times a second); a few are allowed here.
    let mut waited = 0;
    while send!(store, status_of("/buy-beer")).status != StatusCode::SERVICE_UNAVAILABLE {
        assert!(waited < 50, "the shop never closed");
        waited += 1;
        actix_web::rt::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let shop = send!(store, status_of("/buy-beer")).text();
    assert!(shop.contains("Brewing Something For You"), "{shop}");
    assert_eq!(
        send!(store, status_of("/api/v1/banners")).status,
        StatusCode::SERVICE_UNAVAILABLE
    );
    // The back office stays open: its pages, its calls, its forms.
    let page = send!(store, get("/staff/maintenance?done=true", &boss));
    assert_eq!(page.status, StatusCode::OK, "{}", page.text());
    let html = page.text();
    assert!(html.contains("Closed: shoppers see the maintenance page within a second."));
    assert!(
        html.contains("The store is closed for maintenance")
            && html.contains("Open the Store Again")
    );
    assert_eq!(
        send!(store, get("/staff/orders", &boss)).status,
        StatusCode::OK
    );
    let r = send!(store, get("/api/v1/staff/maintenance", &boss));
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(r.json(), serde_json::json!({"on": true}));
    // Nothing else opens with it: a shop's form, addresses beside the back office's.
    let r = send!(
        store,
        post(
            "/newsletter",
            &boss,
            &[("_call", "subscribe"), ("email", "a@example.com")]
        )
    );
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "{}", r.text());
    for uri in ["/staffing", "/api/v1/staffx", "/staff/../buy-beer"] {
        assert_ne!(send!(store, status_of(uri)).status, StatusCode::OK, "{uri}");
    }
    assert_eq!(
        send!(store, status_of("/api/v1/staffx")).status,
        StatusCode::SERVICE_UNAVAILABLE
    );
    let r = send!(store, switch("false"));
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    assert_eq!(location(&r), "/staff/maintenance?done=false");
    let mut waited = 0;
    while send!(store, status_of("/buy-beer")).status != StatusCode::OK {
        assert!(waited < 50, "the shop never opened");
        waited += 1;
        actix_web::rt::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    // Switching to where it stands records nothing.
    let r = send!(store, switch("false"));
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    let recorded: Vec<String> = db::schema::audit_log::table
        .filter(db::schema::audit_log::action.like("maintenance.%"))
        .order(db::schema::audit_log::id)
        .select(db::schema::audit_log::action)
        .load(&mut db.pool.get().unwrap())
        .unwrap();
    assert_eq!(recorded, ["maintenance.on", "maintenance.off"]);

    // MAINTENANCE=on (a restore, a migration): the back office is closed too.
    let forced = store!(db, support::store_config(&db.url, true));
    for uri in [
        "/buy-beer",
        "/staff/login",
        "/staff/maintenance",
        "/api/v1/staff/me",
    ] {
        assert_eq!(
            send!(forced, status_of(uri)).status,
            StatusCode::SERVICE_UNAVAILABLE,
            "{uri}"
        );
    }
}

both!(a_manager_closes_and_opens_the_store);

/// A staff form is bound to the staff session, not the shopper's: a shopper cookie planted beside
/// the staff session (a token the forger knows) posts nothing, even from the store's own origin;
/// the token the staff page gives does.
async fn a_staff_form_is_bound_to_the_staff_session(b: Backend) {
    let db = database(b);
    staff_member(&db, "boss@tala.example", "manager");
    let store = store!(db, support::store_config(&db.url, false));
    let (jar, _) = sign_in!(store, "boss@tala.example", None::<String>);
    let staff_token = jar
        .get("staff_session")
        .expect("a staff session")
        .to_string();
    let html = send!(store, get("/staff/maintenance", &jar)).text();
    let csrf = csrf_of(&html);
    assert_eq!(csrf, framework::session::csrf_token(&staff_token));

    let known = framework::session::new_token();
    let mut planted = jar.clone();
    planted.0.retain(|(n, _)| n != "session");
    planted.0.push(("session".into(), known.clone()));
    let mut forged = vec![framework::session::csrf_token(&known)];
    // The shopper session the browser holds beside the staff one (begun by the sign-in page) is
    // no key either.
    let shopper = jar
        .get("session")
        .expect("a shopper's session beside the staff one");
    forged.push(framework::session::csrf_token(shopper));
    for token in &forged {
        for cookies in [&planted, &jar] {
            let r = send!(
                store,
                post(
                    "/staff/maintenance",
                    cookies,
                    &[
                        ("_call", "staffMaintenanceSet"),
                        ("csrf", token),
                        ("on", "true")
                    ]
                )
            );
            assert_eq!(r.status, StatusCode::FORBIDDEN, "{}", r.text());
            assert!(r.text().contains("This form has expired."), "{}", r.text());
        }
    }
    assert_eq!(
        send!(store, get("/buy-beer", &Jar::default())).status,
        StatusCode::OK
    );

    let r = send!(
        store,
        post(
            "/staff/maintenance",
            &jar,
            &[
                ("_call", "staffMaintenanceSet"),
                ("csrf", &csrf),
                ("on", "false")
            ]
        )
    );
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    assert!(
        location(&r).starts_with("/staff/maintenance?done="),
        "{}",
        location(&r)
    );
}

both!(a_staff_form_is_bound_to_the_staff_session);

/// A page of some roles answers every other role alike, whatever it shows and whether or not
/// what it names exists: a rider and a dispatcher are sent to the back office's home from each
/// manager's page (the Catalog File page too, which reads nothing of its own), a rider from the
/// dispatchers' pages; the roles it is for open it.
async fn a_page_of_some_roles_answers_the_others_alike(b: Backend) {
    let db = database(b);
    for (email, role) in [
        ("boss@tala.example", "manager"),
        ("dina@tala.example", "dispatcher"),
        ("ben@tala.example", "rider"),
    ] {
        staff_member(&db, email, role);
    }
    let store = store!(db, support::store_config(&db.url, false));
    let (boss, _) = sign_in!(store, "boss@tala.example", None::<String>);
    let (dina, _) = sign_in!(store, "dina@tala.example", None::<String>);
    let (ben, _) = sign_in!(store, "ben@tala.example", None::<String>);
    let managers = [
        "/staff/team",
        "/staff/audit",
        "/staff/catalog",
        "/staff/catalog/products/1",
        "/staff/catalog/products/999999",
        "/staff/catalog/cities?products=1&cities=1&how=add",
        "/staff/catalog/banners",
        "/staff/catalog/promos",
        "/staff/catalog/calendar",
        "/staff/catalog/charges",
        "/staff/catalog/import",
        "/staff/catalog/import/1",
        "/staff/maintenance",
        "/staff/guest-data",
    ];
    let dispatchers = [
        "/staff/orders",
        "/staff/orders/1",
        "/staff/orders/999999",
        "/staff/day",
    ];
    let refused = |jar: &Jar, uri: &str| {
        let uri = uri.to_string();
        let req = get(&uri, jar);
        (uri, req)
    };
    for (jar, uris) in [
        (&dina, managers.to_vec()),
        (&ben, [managers.to_vec(), dispatchers.to_vec()].concat()),
    ] {
        for uri in uris {
            let (uri, req) = refused(jar, uri);
            let r = send!(store, req);
            assert_eq!(r.status, StatusCode::FOUND, "{uri}: {}", r.text());
            assert_eq!(location(&r), "/staff", "{uri}");
        }
    }
    for (jar, uri) in [
        (&boss, "/staff/catalog/import"),
        (&boss, "/staff/audit"),
        (&dina, "/staff/orders"),
        (&dina, "/staff/day"),
        (&ben, "/staff/runs"),
    ] {
        let r = send!(store, get(uri, jar));
        assert_eq!(r.status, StatusCode::OK, "{uri}: {}", r.text());
    }
}

both!(a_page_of_some_roles_answers_the_others_alike);
