//! The staff commands of the `store` binary, run as staff run them: the built binary against a test
//! database (SQLite, and PostgreSQL for every command that touches data), some while `store serve`
//! serves the same database. Each command has `--help`; the catalog goes out and back in unchanged,
//! an edited file shows on a running store within a second and a bad one changes nothing and names
//! its records; an order moves only along its steps, each step in its history, mailed to the
//! shopper and shown on its page; maintenance reaches a running store within a second; a backup of
//! a serving SQLite store is a valid copy.

// A test tells one story from start to end: it may run past a screen.
#![allow(clippy::too_many_lines)]

use crate::support;

use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::time::Duration;

use actix_web::http::StatusCode;
use diesel::prelude::*;
use serde_json::{json, Value};
use support::process::{
    free_port, http, serve_with, status_of, stderr, stdout, store_command, store_ok, store_refused,
    within,
};
use support::{a_case, call_api, database, Backend, TestDb, MAKATI, MAKATI_CITY, OPEN};

/// How soon a running store must follow a change: its watch reads the database four times a second;
/// the rest is slack for a busy 2-core machine.
const FOLLOWS_WITHIN: Duration = Duration::from_millis(1500);

fn data_version(db: &TestDb) -> i64 {
    let mut conn = db.pool.get().unwrap();
    db::catalog_io::data_version(&mut conn).unwrap()
}

#[test]
fn every_command_has_help() {
    let help = |args: &[&str]| {
        let o = Command::new(env!("CARGO_BIN_EXE_store"))
            .args(args)
            .arg("--help")
            .output()
            .unwrap();
        assert!(o.status.success(), "{args:?} --help: {}", stderr(&o));
        stdout(&o)
    };
    let top = help(&[]);
    for command in ["catalog", "maintenance", "orders", "backup", "staff"] {
        assert!(top.contains(command), "store --help names {command}: {top}");
    }
    for (args, words) in [
        (&["catalog"][..], "export"),
        (
            &["catalog", "export"][..],
            "store catalog export --out catalog.json",
        ),
        (&["catalog", "import"][..], "nothing changes"),
        (&["catalog", "import"][..], "made not orderable"),
        (&["maintenance"][..], "store maintenance on"),
        (&["orders"][..], "set-status"),
        (&["orders", "list"][..], "--since <DATE>"),
        (&["orders", "list"][..], "--status <STATUS>"),
        (
            &["orders", "set-status"][..],
            "store orders set-status TB-000042 confirmed",
        ),
        (&["orders", "set-status"][..], "placed -> confirmed"),
        (&["backup"][..], "pg_dump"),
        (&["staff"][..], "set-role"),
        (
            &["staff", "add"][..],
            "store staff add ben@tala.ph --role rider",
        ),
        (&["staff", "add"][..], "authenticator app"),
    ] {
        let text = help(args);
        assert!(
            text.contains(words),
            "store {args:?} --help says {words:?}: {text}"
        );
    }
}

/// A folder for the files of a test.
fn folder() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

async fn catalog_round_trip(backend: Backend) {
    let db = database(backend);
    let dir = folder();
    let first = dir.path().join("first.json");
    let out = first.to_str().unwrap();
    store_ok(&db, &["catalog", "export", "--out", out]);
    let text = std::fs::read_to_string(&first).unwrap();
    let file: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(file["format"], "store-catalog/1");
    assert_eq!(file["products"].as_array().unwrap().len(), 26);
    // Standard output holds the same bytes.
    assert_eq!(store_ok(&db, &["catalog", "export"]), text);

    // The same file back: nothing to change, and the export is the same.
    let said = store_ok(&db, &["catalog", "import", out]);
    assert!(said.contains("the file matches the store"), "{said}");
    assert_eq!(store_ok(&db, &["catalog", "export"]), text);

    // An edited file: a price, a new product sold in one city, a product left out, a banner
    // removed, a promo's title, a delivery fee.
    let mut edited = file.clone();
    let products = edited["products"].as_array_mut().unwrap();
    products[2]["price"] = json!(5900);
    let mut new = products[0].clone();
    new["slug"] = json!("tala-calamansi-radler-330ml");
    new["sku"] = json!("TBC-BTL-099");
    new["product_name"] = json!("Tala Calamansi Radler 330 ml");
    new["cities"] = json!([MAKATI_CITY]);
    products.push(new);
    let left_out = products.remove(1);
    assert_eq!(left_out["slug"], "tala-pale-pilsen-500ml");
    // Its deposit goes with it (a deposit names a product of the file).
    edited["deposits"]
        .as_array_mut()
        .unwrap()
        .retain(|d| d["product"] != "tala-pale-pilsen-500ml");
    edited["promos"]
        .as_array_mut()
        .unwrap()
        .retain(|p| p["product"] != "tala-pale-pilsen-500ml");
    edited["banners"].as_array_mut().unwrap().pop();
    edited["promos"][0]["title"] = json!("Two cases, one ice bucket");
    edited["delivery_fees"][0]["amount"] = json!(30000);
    let path = dir.path().join("edited.json");
    std::fs::write(&path, serde_json::to_string_pretty(&edited).unwrap()).unwrap();
    let path = path.to_str().unwrap();

    // Checked first, nothing written.
    let before = data_version(&db);
    let said = store_ok(&db, &["catalog", "import", "--dry-run", path]);
    assert!(said.contains("nothing was written"), "{said}");
    // Every change, record by record.
    assert!(
        said.contains("  products tala-light-330ml (changed): price P55.00 -> P59.00"),
        "{said}"
    );
    assert!(
        said.contains("  products tala-pale-pilsen-500ml (left out, made not orderable): orderable true -> false"),
        "{said}"
    );
    assert_eq!(store_ok(&db, &["catalog", "export"]), text);
    assert_eq!(data_version(&db), before);

    let said = store_ok(&db, &["catalog", "import", path]);
    assert!(
        said.contains("products: 1 new, 1 changed, 24 unchanged, 1 left out of the file"),
        "{said}"
    );
    assert!(
        said.contains("made not orderable: tala-pale-pilsen-500ml"),
        "{said}"
    );
    assert!(said.contains("banners: 2 unchanged, 1 removed"), "{said}");
    assert!(data_version(&db) > before, "the data version moves");

    let after: Value = serde_json::from_str(&store_ok(&db, &["catalog", "export"])).unwrap();
    let product = |slug: &str| {
        after["products"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["slug"] == slug)
            .cloned()
            .unwrap_or_else(|| panic!("{slug} exported"))
    };
    assert_eq!(product("tala-light-330ml")["price"], 5900);
    assert_eq!(
        product("tala-calamansi-radler-330ml")["cities"],
        json!([MAKATI_CITY])
    );
    // Left out: kept (orders and carts refer to it), no longer orderable.
    assert_eq!(product("tala-pale-pilsen-500ml")["orderable"], false);
    assert_eq!(after["banners"].as_array().unwrap().len(), 2);
    assert_eq!(after["promos"][0]["title"], "Two cases, one ice bucket");
    assert_eq!(after["delivery_fees"][0]["amount"], 30000);

    // What the API answers follows (no running store here: the app reads the database).
    let uri = format!("/api/v2/products/tala-light-330ml/barangay/{MAKATI}");
    let r = support::send_json(&db, "GET", &uri, "", Value::Null).await;
    assert_eq!(r.status, StatusCode::OK);
    assert_eq!(r.json()["product_single"]["price"], 5900, "{}", r.text());

    // Round trip of what is there now: export, import, export: the same bytes.
    let again = dir.path().join("again.json");
    let again_s = again.to_str().unwrap();
    store_ok(&db, &["catalog", "export", "--out", again_s]);
    let said = store_ok(&db, &["catalog", "import", again_s]);
    assert!(said.contains("the file matches the store"), "{said}");
    assert_eq!(
        store_ok(&db, &["catalog", "export"]),
        std::fs::read_to_string(&again).unwrap()
    );
}
both!(catalog_round_trip);

async fn a_bad_catalog_changes_nothing(backend: Backend) {
    let db = database(backend);
    let dir = folder();
    let text = store_ok(&db, &["catalog", "export"]);
    let version = data_version(&db);
    let mut file: Value = serde_json::from_str(&text).unwrap();
    // Good changes mixed with bad ones: none of them is applied.
    file["products"][0]["price"] = json!(1);
    file["products"][2]["price"] = json!(-5);
    file["products"][3]["price_per_case"] = json!(52.5);
    file["products"][4]["packaging"] = json!("crate");
    file["products"][5]["prcie"] = json!(100);
    file["products"][6]["sku"] = file["products"][0]["sku"].clone();
    file["products"][7]["cities"] = json!([42]);
    file["products"][8]
        .as_object_mut()
        .unwrap()
        .remove("created_on");
    file["deposits"][1]["product"] = json!("no-such-beer");
    file["delivery_fees"][0]["city_name"] = json!("Cebu City");
    file["banners"][0]["desktop_image"] = json!("javascript:alert(1)");
    file["promos"][0]["ends_on"] = json!("2020-01-01");
    let path = dir.path().join("bad.json");
    std::fs::write(&path, serde_json::to_string_pretty(&file).unwrap()).unwrap();
    let said = store_refused(&db, &["catalog", "import", path.to_str().unwrap()]);
    for problem in [
        "nothing was changed; 11 problem(s)",
        "products[2] (slug tala-light-330ml): price must be a whole number of centavos >= 0 (not -5)",
        "products[3] (slug tala-dark-lager-330ml): price_per_case must be a whole number of centavos >= 0 (not 52.5)",
        "products[4] (slug habagat-strong-lager-330ml): packaging must be one of bottle, can, keg (not \"crate\")",
        "products[5] (slug habagat-extra-strong-500ml): prcie is not a field here",
        "products[6] (slug amihan-wheat-330ml): sku is listed twice (also products[0])",
        "products[7] (slug amihan-mango-ale-330ml): cities holds 42, which is not a city's PSGC code",
        "products[8] (slug bangkal-ipa-330ml): created_on is missing",
        "deposits[1] (id 2): product \"no-such-beer\" is not the slug of a product in the file",
        "delivery_fees[0] (city 301410000, Delivery): city_name \"Cebu City\" is not the name of city 301410000",
        "banners[0] (id 1): desktop_image must be a path on the store",
        "promos[0] (id 1): ends_on 2020-01-01 is before starts_on",
    ] {
        assert!(said.contains(problem), "names {problem:?}:\n{said}");
    }
    assert_eq!(
        store_ok(&db, &["catalog", "export"]),
        text,
        "nothing changed"
    );
    assert_eq!(data_version(&db), version, "the data version did not move");

    // Files that are not catalogs at all.
    for (content, words) in [
        ("{", "the file is not JSON"),
        ("[]", "must be a JSON object"),
        (
            r#"{"format": "store-catalog/2"}"#,
            "format must be \"store-catalog/1\"",
        ),
        (r#"{"products": []}"#, "format is missing"),
        (
            r#"{"format": "store-catalog/1", "products": [], "deposits": [], "delivery_fees": [], "banners": []}"#,
            "promos is missing",
        ),
        (
            r#"{"format": "store-catalog/1", "products": [], "deposits": [], "delivery_fees": [], "banners": [], "promos": []}"#,
            "products is empty",
        ),
    ] {
        std::fs::write(&path, content).unwrap();
        let said = store_refused(&db, &["catalog", "import", path.to_str().unwrap()]);
        assert!(said.contains(words), "{content}: {said}");
    }
    let said = store_refused(&db, &["catalog", "import", "/nonexistent/catalog.json"]);
    assert!(said.contains("/nonexistent/catalog.json"), "{said}");
    assert_eq!(
        store_ok(&db, &["catalog", "export"]),
        text,
        "nothing changed"
    );
    assert_eq!(data_version(&db), version);
}
both!(a_bad_catalog_changes_nothing);

/// The order as its page's API call answers it to the shopper.
async fn order_seen(db: &TestDb, link: &str) -> Value {
    let (s, v) = call_api(
        db,
        "GET",
        &link.replace("/active-order/", "/api/v1/orders/"),
        "",
        Value::Null,
    )
    .await;
    assert_eq!(s, StatusCode::OK, "{v}");
    v
}

/// The counts the board shows (`status_counts`, kept by the orders' triggers) are what counting
/// the orders by status finds.
fn counts_agree(db: &TestDb) -> Vec<(String, i64)> {
    use db::schema::orders;
    let mut conn = db.pool.get().unwrap();
    let mut kept = db::staff::status_counts(&mut conn).unwrap();
    kept.sort();
    let counted: Vec<(String, i64)> = orders::table
        .group_by(orders::status)
        .select((orders::status, diesel::dsl::count_star()))
        .order(orders::status)
        .load(&mut *conn)
        .unwrap();
    assert_eq!(kept, counted);
    kept
}

async fn order_status_moves_step_by_step(backend: Backend) {
    let db = database(backend);
    let outbox = folder();
    let (id, link) = support::guest_order(&db, 1, "ana@example.com").await;
    let number = format!("TB-{id:06}");
    let (pickup, pickup_link) = support::guest_order(&db, 2, "ben@example.com").await;
    let pickup_number = format!("TB-{pickup:06}");

    // The list: newest first, money as the shop shows it, Manila time.
    let list = store_ok(&db, &["orders", "list"]);
    let lines: Vec<&str> = list.lines().collect();
    assert!(
        lines[0].starts_with("NUMBER") && lines[0].contains("PLACED (MANILA)"),
        "{list}"
    );
    assert!(lines[1].starts_with(&pickup_number), "{list}");
    assert!(lines[2].starts_with(&number), "{list}");
    let today = domain::calendar::manila_minute(domain::calendar::unix_now());
    assert!(lines[2].contains(&today[..10]), "{list}");
    for words in [
        "placed",
        "P1,578.00",
        "Delivery",
        "Ana Santos, 09171234567, ana@example.com",
    ] {
        assert!(lines[2].contains(words), "{words}: {list}");
    }
    assert!(
        lines[1].contains("Pickup") && lines[1].contains("P1,428.00"),
        "{list}"
    );
    assert_eq!(lines[3], "2 orders", "{list}");

    // Only allowed steps: no skipping, no going back, each fulfillment its own.
    let set = |order: &str, status: &str| {
        store_command(
            &db,
            &["orders", "set-status", order, status],
            Some(outbox.path()),
        )
    };
    let o = set(&number, "completed");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains(&format!(
            "Order {number} (Delivery) is placed: it can become confirmed or cancelled, not completed."
        )),
        "{}",
        stderr(&o)
    );
    let o = set(&number, "confirmed");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains(&format!(
            "{number}: placed -> confirmed (Delivery, Ana Santos)"
        )),
        "{}",
        stdout(&o)
    );
    assert!(
        stdout(&o).contains("mail to ana@example.com queued"),
        "{}",
        stdout(&o)
    );
    let o = set(&id.to_string(), "confirmed");
    assert!(
        stderr(&o).contains("is already confirmed"),
        "{}",
        stderr(&o)
    );
    let o = set(&number.to_lowercase(), "ready_for_pickup");
    assert!(
        stderr(&o).contains("can become out for delivery or cancelled, not ready for pickup"),
        "{}",
        stderr(&o)
    );
    assert!(set(&number, "out-for-delivery").status.success());
    assert!(set(&number, "Completed").status.success());
    let o = set(&number, "cancelled");
    assert!(
        stderr(&o).contains("is completed, which is final: it cannot become cancelled"),
        "{}",
        stderr(&o)
    );
    for (order, status, words) in [
        ("TB-999999", "confirmed", "There is no order TB-999999"),
        ("TB-12x", "confirmed", "is not an order"),
        ("0", "confirmed", "is not an order"),
        (number.as_str(), "shipped", "\"shipped\" is not a status"),
    ] {
        let o = set(order, status);
        assert_eq!(o.status.code(), Some(1), "{order} {status}");
        assert!(
            stderr(&o).contains(words),
            "{order} {status}: {}",
            stderr(&o)
        );
    }
    // Pickup has its own step; an order not completed may be cancelled.
    let o = set(&pickup_number, "out_for_delivery");
    assert!(
        stderr(&o).contains("can become confirmed or cancelled"),
        "{}",
        stderr(&o)
    );
    assert!(set(&pickup.to_string(), "confirmed").status.success());
    let o = set(&pickup_number, "out_for_delivery");
    assert!(
        stderr(&o).contains("(Pickup) is confirmed: it can become ready for pickup or cancelled"),
        "{}",
        stderr(&o)
    );
    assert!(set(&pickup_number, "ready_for_pickup").status.success());
    // A cancellation says why.
    let o = set(&pickup_number, "cancelled");
    assert!(
        stderr(&o).contains("Say why the order is cancelled"),
        "{}",
        stderr(&o)
    );
    let o = store_command(
        &db,
        &[
            "orders",
            "set-status",
            &pickup_number,
            "cancelled",
            "--reason",
            "Out of kegs",
        ],
        Some(outbox.path()),
    );
    assert!(o.status.success(), "{}", stderr(&o));

    // The shopper sees each step on the order's page (its API call), oldest first.
    let seen = order_seen(&db, &link).await;
    assert_eq!(seen["status"], "completed");
    assert_eq!(seen["status_label"], "Completed");
    let steps: Vec<&str> = seen["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["status"].as_str().unwrap())
        .collect();
    assert_eq!(
        steps,
        ["placed", "confirmed", "out_for_delivery", "completed"]
    );
    let seen = order_seen(&db, &pickup_link).await;
    assert_eq!(seen["status_label"], "Cancelled");
    assert_eq!(seen["history"].as_array().unwrap().len(), 4);

    // A mail for each step, queued with it; delivered into the outbox folder.
    let mails = support::read_outbox(&db.pool, outbox.path());
    let to_ana: Vec<&String> = mails
        .iter()
        .filter(|m| m.contains("To: ana@example.com") && !m.contains("is placed"))
        .collect();
    assert_eq!(to_ana.len(), 3, "{mails:?}");
    for (subject, words) in [
        ("is confirmed", "We have confirmed your order"),
        ("is out for delivery", "Our rider is on the way"),
        ("is completed", "Your order was delivered."),
    ] {
        let mail = to_ana
            .iter()
            .find(|m| m.contains(&format!("Subject: Your order {number} {subject}")))
            .unwrap_or_else(|| panic!("a mail {subject}: {to_ana:?}"));
        assert!(mail.contains(words), "{mail}");
        // A guest's page needs the key of the confirmation's link, which the store keeps only
        // hashed: the mail points there.
        assert!(
            mail.contains("with the link in your order confirmation"),
            "{mail}"
        );
    }
    assert!(mails.iter().any(|m| m.contains("To: ben@example.com")
        && m.contains(&format!(
            "Subject: Your order {pickup_number} is ready for pickup"
        ))));
    assert!(mails
        .iter()
        .any(|m| m.contains("To: ben@example.com") && m.contains("Your order is cancelled.")));

    // The list follows, narrowed by status and day.
    let list = store_ok(&db, &["orders", "list", "--status", "completed"]);
    assert!(
        list.contains(&number) && !list.contains(&pickup_number),
        "{list}"
    );
    assert!(list.ends_with("1 order with status completed\n"), "{list}");
    let list = store_ok(&db, &["orders", "list", "--status", "placed"]);
    assert_eq!(list, "no orders with status placed\n");
    let list = store_ok(&db, &["orders", "list", "--since", &today[..10]]);
    assert!(
        list.contains(&number) && list.contains(&pickup_number),
        "{list}"
    );
    let list = store_ok(&db, &["orders", "list", "--since", "2999-01-01"]);
    assert_eq!(list, "no orders since 2999-01-01\n");
    let list = store_ok(&db, &["orders", "list", "--limit", "1"]);
    assert!(
        list.contains(&pickup_number) && !list.contains(&number) && list.contains("1 of 2 orders"),
        "{list}"
    );
    assert!(
        store_refused(&db, &["orders", "list", "--since", "24/11/2026"]).contains("YYYY-MM-DD")
    );
    assert!(store_refused(&db, &["orders", "list", "--status", "lost"]).contains("is not a status"));
    counts_agree(&db);
}
both!(order_status_moves_step_by_step);

/// Staff moving one order at once: one of them moves it, the others are told; one step in the
/// history, one mail.
async fn one_move_at_a_time(backend: Backend) {
    let db = database(backend);
    let (id, link) = support::guest_order(&db, 1, "ana@example.com").await;
    let number = format!("TB-{id:06}");
    let runs: Vec<Child> = (0..6)
        .map(|_| {
            Command::new(env!("CARGO_BIN_EXE_store"))
                .args(["orders", "set-status", &number, "confirmed"])
                .env("DATABASE_URL", &db.url)
                .env("RUST_LOG", "error")
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let outputs: Vec<Output> = runs
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .collect();
    let moved = outputs.iter().filter(|o| o.status.success()).count();
    assert_eq!(
        moved,
        1,
        "{:?}",
        outputs.iter().map(stderr).collect::<Vec<_>>()
    );
    for o in outputs.iter().filter(|o| !o.status.success()) {
        let said = stderr(o);
        assert!(
            said.contains("is already confirmed") || said.contains("changed while this ran"),
            "{said}"
        );
    }
    let seen = order_seen(&db, &link).await;
    assert_eq!(seen["history"].as_array().unwrap().len(), 2, "{seen}");
    use db::schema::mail_outbox;
    let mut conn = db.pool.get().unwrap();
    let mails: i64 = mail_outbox::table
        .filter(mail_outbox::subject.eq(format!("Your order {number} is confirmed")))
        .count()
        .get_result(&mut *conn)
        .unwrap();
    assert_eq!(mails, 1);
    // Six tried, one moved: one order counted, as confirmed.
    assert_eq!(counts_agree(&db), vec![("confirmed".to_string(), 1)]);
}
both!(one_move_at_a_time);

/// A member's order: the mail links to the order's page, which the member opens logged in.
async fn a_members_status_mail_links_their_page(backend: Backend) {
    let db = database(backend);
    let outbox = folder();
    let token = support::member(&db, 3).await;
    let (s, cart) = call_api(&db, "POST", "/api/v1/cart", &token, a_case()).await;
    assert_eq!(s, StatusCode::OK, "{cart}");
    let (s, placed) = call_api(
        &db,
        "POST",
        "/api/v1/orders",
        &token,
        json!({
            "contact_name": "Member Three", "mobile": "09171234567", "address": "12 Jupiter St.",
            "barangay": MAKATI, "street_id": 1, "fulfillment": 1, "revision": cart["revision"],
            "expected_total": cart["cart_order_summary"]["subtotal"], "testdate": OPEN,
        }),
    )
    .await;
    assert_eq!(s, StatusCode::CREATED, "{placed}");
    let id = placed["order"]["id"].as_i64().unwrap();
    let o = store_command(
        &db,
        &["orders", "set-status", &format!("TB-{id:06}"), "confirmed"],
        Some(outbox.path()),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let mails = support::read_outbox(&db.pool, outbox.path());
    let mail = mails
        .iter()
        .find(|m| m.contains("is confirmed"))
        .expect("the status mail");
    assert!(mail.contains("To: member3@example.com"), "{mail}");
    assert!(
        mail.contains(&format!("https://shop.example/active-order/{id}")),
        "{mail}"
    );
    let (s, seen) = call_api(
        &db,
        "GET",
        &format!("/api/v1/orders/{id}"),
        &token,
        Value::Null,
    )
    .await;
    assert_eq!((s, &seen["status"]), (StatusCode::OK, &json!("confirmed")));
}
both!(a_members_status_mail_links_their_page);

/// `store serve` over the test database on a free loopback port, its links on
/// `https://shop.example`; stopped when dropped.
struct Serving {
    child: Child,
    port: u16,
}

impl Drop for Serving {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The store serving, once its API answers.
fn serve(db: &TestDb, outbox: &Path) -> Serving {
    let port = free_port();
    let env = [
        ("PUBLIC_URL", "https://shop.example".to_string()),
        ("RUST_LOG", "error".into()),
    ];
    let child = serve_with(db, port, outbox, None, &env);
    let serving = Serving { child, port };
    within(Duration::from_secs(60), "the store started", || {
        status_of(port, "/api/v1/banners") == 200
    });
    serving
}

fn price_on(port: u16, slug: &str) -> Value {
    let r = http(
        port,
        "GET",
        &format!("/api/v2/products/{slug}/barangay/{MAKATI}"),
        &[],
        "",
    );
    assert_eq!(r.status, 200, "{}", r.body);
    r.json()["product_single"]["price"].clone()
}

async fn a_running_store_follows_the_staff(backend: Backend) {
    let db = database(backend);
    let outbox = folder();
    let (id, link) = support::guest_order(&db, 1, "ana@example.com").await;
    let store_ = serve(&db, outbox.path());
    let port = store_.port;

    // An edited price: on the API within a second, though the old answer was kept in memory.
    assert_eq!(price_on(port, "tala-light-330ml"), 5500);
    assert_eq!(price_on(port, "tala-light-330ml"), 5500);
    let dir = folder();
    let mut file: Value = serde_json::from_str(&store_ok(&db, &["catalog", "export"])).unwrap();
    file["products"][2]["price"] = json!(6100);
    let path = dir.path().join("catalog.json");
    std::fs::write(&path, file.to_string()).unwrap();
    store_ok(&db, &["catalog", "import", path.to_str().unwrap()]);
    let took = within(Duration::from_secs(10), "the new price", || {
        price_on(port, "tala-light-330ml") == 6100
    });
    println!("{backend:?}: a catalog import showed after {took:?}");
    assert!(took <= FOLLOWS_WITHIN, "the new price took {took:?}");

    // Maintenance on: pages and calls answer 503 within a second; off: the store again.
    store_ok(&db, &["maintenance", "on"]);
    let took = within(Duration::from_secs(10), "maintenance on", || {
        status_of(port, "/api/v1/banners") == 503
    });
    println!("{backend:?}: maintenance on showed after {took:?}");
    assert!(took <= FOLLOWS_WITHIN, "maintenance on took {took:?}");
    let r = http(port, "GET", "/buy-beer", &[], "");
    let (status, page) = (r.status, r.body);
    assert_eq!(status, 503);
    assert!(page.contains("Brewing Something For You"), "{page}");
    assert!(store_ok(&db, &["maintenance"]).starts_with("maintenance is on"));
    store_ok(&db, &["maintenance", "off"]);
    let took = within(Duration::from_secs(10), "maintenance off", || {
        status_of(port, "/api/v1/banners") == 200
    });
    println!("{backend:?}: maintenance off showed after {took:?}");
    assert!(took <= FOLLOWS_WITHIN, "maintenance off took {took:?}");
    assert_eq!(status_of(port, "/buy-beer"), 200);
    assert!(store_ok(&db, &["maintenance"]).starts_with("maintenance is off"));

    // A new status: on the order's page at once, and the store's mail sender delivers the mail.
    let said = store_ok(
        &db,
        &["orders", "set-status", &format!("TB-{id:06}"), "confirmed"],
    );
    assert!(said.contains("placed -> confirmed"), "{said}");
    let r = http(port, "GET", &link, &[], "");
    let (status, page) = (r.status, r.body);
    assert_eq!(status, 200, "{page}");
    assert!(
        page.contains(r#"<span class="order-status">Confirmed</span>"#),
        "{page}"
    );
    let subject = format!("Subject: Your order TB-{id:06} is confirmed");
    within(
        Duration::from_secs(10),
        "the status mail in the outbox",
        || {
            std::fs::read_dir(outbox.path()).is_ok_and(|entries| {
                entries
                    .flatten()
                    .any(|e| std::fs::read_to_string(e.path()).is_ok_and(|m| m.contains(&subject)))
            })
        },
    );
}
both!(a_running_store_follows_the_staff);

#[actix_web::test]
async fn a_backup_of_a_serving_store_is_a_whole_copy() {
    let db = database(Backend::Sqlite);
    let outbox = folder();
    support::guest_order(&db, 1, "ana@example.com").await;
    support::guest_order(&db, 2, "ben@example.com").await;
    let serving = serve(&db, outbox.path());
    // Writers keep writing while the copy is made.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let writer = {
        let (pool, stop) = (db.pool.clone(), stop.clone());
        std::thread::spawn(move || {
            let mut n = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let mut conn = pool.get().unwrap();
                db::staff::set_setting(&mut conn, "backup_probe", &n.to_string()).unwrap();
                n += 1;
            }
            n
        })
    };
    let dir = folder();
    let copy = dir.path().join("store-copy.db");
    let copy_s = copy.to_str().unwrap();
    let said = store_ok(&db, &["backup", copy_s]);
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let writes = writer.join().unwrap();
    assert!(
        said.contains("2 orders, 26 products, integrity ok"),
        "{said}"
    );
    assert!(writes > 0);
    // The copy opens as a store's database, migrated, with the orders.
    let pool = db::connect(copy_s, 1).unwrap();
    let mut conn = pool.get().unwrap();
    assert_eq!(db::staff::pending_migrations(&mut conn).unwrap(), 0);
    let orders: Vec<(String, i64)> = db::schema::orders::table
        .order(db::schema::orders::id)
        .select((db::schema::orders::email, db::schema::orders::total))
        .load(&mut conn)
        .unwrap();
    assert_eq!(
        orders,
        [
            ("ana@example.com".to_string(), 157_800),
            ("ben@example.com".to_string(), 142_800)
        ]
    );
    drop(serving);
    // Never over a file; never into a folder that is not there.
    let said = store_refused(&db, &["backup", copy_s]);
    assert!(said.contains("exists: a backup never overwrites"), "{said}");
    let said = store_refused(
        &db,
        &["backup", &format!("{}/no/such/x.db", dir.path().display())],
    );
    assert!(said.contains("no such folder"), "{said}");
    // A database that is not there is not made by asking for its backup.
    let missing = dir.path().join("missing.db");
    let o = Command::new(env!("CARGO_BIN_EXE_store"))
        .args(["backup", dir.path().join("x.db").to_str().unwrap()])
        .env("DATABASE_URL", &missing)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no database at"), "{}", stderr(&o));
    assert!(!missing.exists());
}

#[actix_web::test]
async fn postgres_is_backed_up_with_pg_dump() {
    let db = database(Backend::Postgres);
    let dir = folder();
    let copy = dir.path().join("copy.db");
    let said = store_refused(&db, &["backup", copy.to_str().unwrap()]);
    assert!(said.contains("pg_dump --format=custom"), "{said}");
    assert!(!copy.exists());
}

/// Staff commands never migrate: a database behind this version of the store is refused.
#[actix_web::test]
async fn an_unmigrated_database_is_refused() {
    let dir = folder();
    let url = dir.path().join("old.db");
    std::fs::File::create(&url).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_store"))
        .args(["orders", "list"])
        .env("DATABASE_URL", &url)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("run `store migrate` first"),
        "{}",
        stderr(&o)
    );
}
