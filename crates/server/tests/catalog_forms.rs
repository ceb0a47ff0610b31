//! The catalog in a manager's hands, through the API, on SQLite and PostgreSQL: one product's
//! name, description, prices, stock and cities changed by the catalog import's rules (every
//! problem on its field, nothing written on a problem), each change in the audit log with its
//! fields before and after; the cities of many products shown before they are saved; two
//! managers saving at once lose neither's change; nobody else reaches any of it.

// A test tells one story from start to end: it may run past a screen.
#![allow(clippy::too_many_lines)]

use crate::support;

use actix_web::http::StatusCode;
use diesel::prelude::*;
use serde_json::{json, Value};
use support::staff::Staff;
use support::{database, Backend, TestDb};

const KEG: &str = "/api/v1/staff/catalog/products/21";
const MAKATI: i64 = 1380300000;
const CALOOCAN: i64 = 1380100000;
const LAS_PINAS: i64 = 1380200000;

/// The audit records of catalog changes: subject, before, after.
fn changes_recorded(db: &TestDb) -> Vec<(String, Value, Value)> {
    recorded(db, &["product.change"])
}

/// The audit records of `actions`: subject, before, after.
fn recorded(db: &TestDb, actions: &[&str]) -> Vec<(String, Value, Value)> {
    use db::schema::audit_log::dsl::*;
    audit_log
        .filter(action.eq_any(actions))
        .order(id.asc())
        .select((subject, before_state, after_state))
        .load::<(String, Option<String>, Option<String>)>(&mut db.pool.get().unwrap())
        .unwrap()
        .into_iter()
        .map(|(s, b, a)| {
            let v = |t: Option<String>| serde_json::from_str(&t.unwrap()).unwrap();
            (s, v(b), v(a))
        })
        .collect()
}

fn product(db: &TestDb, id: i32) -> db::models::Product {
    db::carts::product(&mut db.pool.get().unwrap(), domain::ProductId::from_db(id))
        .unwrap()
        .unwrap()
}

fn cities_of(db: &TestDb, id: i32) -> Vec<i64> {
    use db::schema::product_areas::dsl::*;
    product_areas
        .filter(product_id.eq(id))
        .order(city_id)
        .select(city_id)
        .load(&mut db.pool.get().unwrap())
        .unwrap()
}

fn version(db: &TestDb) -> i64 {
    db::catalog_io::data_version(&mut db.pool.get().unwrap()).unwrap()
}

async fn a_manager_changes_a_product_by_the_catalogs_rules(b: Backend) {
    let db = database(b);
    let boss = Staff::signed_in(&db, "boss@tala.example", "manager").await;
    let r = boss.send("GET", KEG, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let keg = r.json();
    assert_eq!(keg["sku"], "TBC-KEG-021");
    assert_eq!(keg["price"], 725_000);
    assert_eq!(keg["every_city"], false);
    assert_eq!(keg["cities"].as_array().unwrap().len(), 17);
    assert_eq!(
        keg["choices"].as_array().unwrap().len(),
        26,
        "the served cities"
    );
    assert_eq!(keg["anchor"], "product-TBC-KEG-021");

    // A new price as typed, out of stock, two more cities, a description of two lines.
    let before = version(&db);
    let mut cities: Vec<Value> = keg["cities"].as_array().unwrap().clone();
    cities.extend([json!(402103000), json!(301410000)]);
    let r = boss
        .send(
            "POST",
            KEG,
            Some(json!({
                "price": "P7,450.00",
                "orderable": false,
                "sold": "these_cities",
                "cities": cities,
                "description": "Thirty litres.\r\nChilled on the day.",
            })),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let saved = r.json();
    assert_eq!(saved["product"]["price"], 745_000);
    assert_eq!(saved["product"]["orderable"], false);
    let fields: Vec<&str> = saved["changes"][0]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["price", "orderable", "cities", "description"]);
    assert_eq!(saved["changes"][0]["fields"][0]["before"], "P7,250.00");
    assert_eq!(saved["changes"][0]["fields"][0]["after"], "P7,450.00");
    let keg = product(&db, 21);
    assert_eq!((keg.price, keg.orderable), (745_000, false));
    assert_eq!(keg.description, "Thirty litres.\nChilled on the day.");
    let sold = cities_of(&db, 21);
    assert!(sold.contains(&402103000) && sold.contains(&301410000) && sold.len() == 19);
    assert!(
        version(&db) > before,
        "every app server follows the data version"
    );
    let recorded = changes_recorded(&db);
    assert_eq!(recorded.len(), 1);
    let (subject, was, is) = &recorded[0];
    assert_eq!(subject, "product 21 (TBC-KEG-021)");
    assert_eq!(was["price"], 725_000);
    assert_eq!(is["price"], 745_000);
    assert_eq!(
        (was["orderable"].clone(), is["orderable"].clone()),
        (json!(true), json!(false))
    );
    assert_eq!(is["cities"].as_array().unwrap().len(), 19);

    // The same again: nothing changes, nothing is recorded.
    let r = boss
        .send(
            "POST",
            KEG,
            Some(json!({"price": "7450", "orderable": false})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(r.json()["changes"], json!([]));
    assert_eq!(changes_recorded(&db).len(), 1);

    // Problems, each on its field, in the import's words; nothing is written.
    for (body, field, words) in [
        (
            json!({"price": "1,000,000.01"}),
            "price",
            "The price must be at most",
        ),
        (json!({"price": "-5"}), "price", "in pesos"),
        (
            json!({"price_per_case": "12.345"}),
            "price_per_case",
            "in pesos",
        ),
        (
            json!({"product_name": "   "}),
            "product_name",
            "The name must not be blank",
        ),
        (
            json!({"product_name": "x".repeat(201)}),
            "product_name",
            "at most 200 characters",
        ),
        (
            json!({"description": "a\u{7}b"}),
            "description",
            "control characters",
        ),
        (json!({"sold": "these_cities"}), "cities", "Tick the cities"),
        (json!({"cities": [999]}), "cities", "not a city's PSGC code"),
        (
            json!({"cities": "1380300000,1380300000"}),
            "cities",
            "lists 1380300000 twice",
        ),
    ] {
        let r = boss.send("POST", KEG, Some(body.clone())).await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{body}: {}",
            r.text()
        );
        let said = r.json()["errors"][field][0]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(said.contains(words), "{body}: {}", r.text());
    }
    // Not JSON's types: refused before anything is read.
    for body in [
        json!({"orderable": "maybe"}),
        json!({"cities": "1,x"}),
        json!({"price": 7450}),
    ] {
        let r = boss.send("POST", KEG, Some(body.clone())).await;
        assert!(r.status.is_client_error(), "{body}: {}", r.status);
    }
    assert_eq!(product(&db, 21).price, 745_000);
    assert_eq!(changes_recorded(&db).len(), 1);

    // A page's form that left the price, or the name, empty: refused on it, not ignored.
    let r = boss
        .send(
            "POST",
            KEG,
            Some(json!({"whole": true, "product_name": "Keg", "price_per_case": "7450"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text());
    assert!(
        r.json()["errors"]["price"][0]
            .as_str()
            .unwrap()
            .contains("in pesos"),
        "{}",
        r.text()
    );
    let r = boss
        .send(
            "POST",
            KEG,
            Some(json!({"whole": true, "price": "7450", "price_per_case": "7450"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text());
    assert!(
        r.json()["errors"]["product_name"][0]
            .as_str()
            .unwrap()
            .contains("must not be blank"),
        "{}",
        r.text()
    );
    assert_eq!(product(&db, 21).price, 745_000);

    // Sold in every city again: the list goes.
    let r = boss
        .send("POST", KEG, Some(json!({"sold": "everywhere"})))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert!(product(&db, 21).sold_in_all_areas);
    assert!(cities_of(&db, 21).is_empty());

    // No such product; another role; nobody signed in.
    let r = boss
        .send("GET", "/api/v1/staff/catalog/products/9999", None)
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let r = boss
        .send(
            "POST",
            "/api/v1/staff/catalog/products/9999",
            Some(json!({"price": "1"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let dora = Staff::signed_in(&db, "dora@tala.example", "dispatcher").await;
    for (method, body) in [("GET", None), ("POST", Some(json!({"price": "1"})))] {
        let r = dora.send(method, KEG, body).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{method}");
    }
    let nobody = Staff::added(&db, "eve@tala.example", "manager");
    let r = nobody.send("POST", KEG, Some(json!({"price": "1"}))).await;
    assert_eq!(r.status, StatusCode::UNAUTHORIZED);
    assert_eq!(product(&db, 21).price, 745_000);
}

both!(a_manager_changes_a_product_by_the_catalogs_rules);

async fn the_cities_of_many_products_are_shown_then_saved(b: Backend) {
    let db = database(b);
    let boss = Staff::signed_in(&db, "boss@tala.example", "manager").await;
    let r = boss.send("GET", "/api/v1/staff/catalog/areas", None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(r.json()["results"].as_array().unwrap().len(), 26);

    // Product 17 is sold in four cities, product 1 in every one: adding two cities changes 17.
    let was = cities_of(&db, 17);
    let plan =
        format!("/api/v1/staff/catalog/cities?products=17,1&cities={CALOOCAN},{LAS_PINAS}&how=add");
    let r = boss.send("GET", &plan, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let shown = r.json();
    assert_eq!(shown["applied"], false);
    assert_eq!(shown["changes"].as_array().unwrap().len(), 1, "{shown}");
    assert_eq!(shown["changes"][0]["key"], "bangkal-double-ipa-can-473ml");
    assert_eq!(shown["changes"][0]["fields"][0]["field"], "cities");
    assert_eq!(shown["products"][1]["sku"], "TBC-BTL-001");
    assert_eq!(shown["cities"][0]["name"], "Caloocan City");
    // Shown, or asked without confirm: nothing is written.
    let form = json!({"products": [17, 1], "cities": [CALOOCAN, LAS_PINAS], "how": "add"});
    let r = boss
        .send("POST", "/api/v1/staff/catalog/cities", Some(form.clone()))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(r.json()["changes"], shown["changes"]);
    assert_eq!(
        r.json()["link"],
        format!("/staff/catalog/cities?products=17,1&cities={CALOOCAN},{LAS_PINAS}&how=add")
    );
    assert_eq!(cities_of(&db, 17), was);
    assert!(changes_recorded(&db).is_empty());

    let mut confirmed = form.clone();
    confirmed["confirm"] = json!(true);
    let r = boss
        .send("POST", "/api/v1/staff/catalog/cities", Some(confirmed))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(r.json()["applied"], true);
    assert_eq!(r.json()["link"], "/staff/catalog?done=cities");
    let now = cities_of(&db, 17);
    assert_eq!(now.len(), 6);
    assert!(now.contains(&CALOOCAN) && now.contains(&LAS_PINAS));
    assert_eq!(changes_recorded(&db).len(), 1);

    // Taken away from a product sold everywhere: every other served city stays.
    let r = boss
        .send(
            "POST",
            "/api/v1/staff/catalog/cities",
            Some(json!({"products": "1", "cities": MAKATI.to_string(), "how": "remove", "confirm": true})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert!(!product(&db, 1).sold_in_all_areas);
    let left = cities_of(&db, 1);
    assert_eq!(left.len(), 25);
    assert!(!left.contains(&MAKATI));

    // What cannot be: each refused, nothing written.
    for (uri, body) in [
        (
            "/api/v1/staff/catalog/cities",
            json!({"products": [17], "cities": [999], "how": "add"}),
        ),
        (
            "/api/v1/staff/catalog/cities",
            json!({"products": [9999], "cities": [MAKATI], "how": "add"}),
        ),
        (
            "/api/v1/staff/catalog/cities",
            json!({"products": [], "cities": [MAKATI], "how": "add"}),
        ),
        (
            "/api/v1/staff/catalog/cities",
            json!({"products": [17], "cities": [MAKATI]}),
        ),
    ] {
        let r = boss.send("POST", uri, Some(body.clone())).await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{body}: {}",
            r.text()
        );
    }
    for query in [
        "products=x&cities=1&how=add",
        "products=17&cities=-1&how=add",
        "products=17&cities=1&how=sideways",
    ] {
        let r = boss
            .send(
                "GET",
                &format!("/api/v1/staff/catalog/cities?{query}"),
                None,
            )
            .await;
        assert!(r.status.is_client_error(), "{query}: {}", r.status);
    }
    assert_eq!(changes_recorded(&db).len(), 2);
    let dora = Staff::signed_in(&db, "dora@tala.example", "dispatcher").await;
    let r = dora.send("GET", &plan, None).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
}

both!(the_cities_of_many_products_are_shown_then_saved);

/// Two managers saving two products at once: each edit starts from what the other left, so
/// neither's change is lost.
async fn two_managers_saving_at_once_lose_nothing(b: Backend) {
    let db = database(b);
    let boss = {
        let mut conn = db.pool.get().unwrap();
        let id = db::team::add(&mut conn, "boss@tala.example", "Boss", "manager", 0).unwrap();
        db::team::by_id(&mut conn, id).unwrap().unwrap()
    };
    let handles: Vec<_> = [3_i32, 4]
        .into_iter()
        .map(|id| {
            let pool = db.pool.clone();
            let boss = boss.clone();
            std::thread::spawn(move || {
                let mut conn = pool.get().unwrap();
                let slug = db::carts::product(&mut conn, domain::ProductId::from_db(id))
                    .unwrap()
                    .unwrap()
                    .slug;
                for price in 1..=8_i64 {
                    let s = slug.clone();
                    let record = api::staff::catalog::FormRecord {
                        section: "products",
                        key: "",
                        fields: &[],
                    };
                    api::staff::catalog::edit(&mut conn, &boss, true, record, |f| {
                        let r = f.products.iter_mut().find(|r| r.slug == s).unwrap();
                        r.price = price * 100;
                        Ok(())
                    })
                    .unwrap();
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }
    assert_eq!((product(&db, 3).price, product(&db, 4).price), (800, 800));
    assert_eq!(changes_recorded(&db).len(), 16);
}

both!(two_managers_saving_at_once_lose_nothing);

/// The catalog file uploaded in the browser: checked at once (a bad file is not kept and names
/// its problems), its every change shown to its uploader only, applied once in one transaction
/// with one audit record, then gone.
async fn a_catalog_file_is_checked_shown_then_applied(b: Backend) {
    let db = database(b);
    let boss = Staff::signed_in(&db, "boss@tala.example", "manager").await;
    let row = db::team::by_id(&mut db.pool.get().unwrap(), boss.id)
        .unwrap()
        .unwrap();
    let file = db::catalog_io::export(&mut db.pool.get().unwrap()).unwrap();
    let mut text: Value =
        serde_json::from_str(&api::staff::catalog::import::to_json(&file)).unwrap();
    text["products"][2]["price"] = json!(5900);
    text["banners"].as_array_mut().unwrap().pop();
    let drafts = |db: &TestDb| -> i64 {
        db::schema::catalog_drafts::table
            .count()
            .get_result(&mut db.pool.get().unwrap())
            .unwrap()
    };

    // A file with problems: named by record and field, nothing kept.
    let mut bad = text.clone();
    bad["products"][2]["price"] = json!(-1);
    bad["deposits"][0]["amount"] = json!("a lot");
    let upload = |t: &str| {
        api::staff::catalog::import::upload(&mut db.pool.get().unwrap(), &row, "catalog.json", t)
    };
    let Err(framework::ApiError::Fields(errors)) = upload(&bad.to_string()) else {
        panic!("refused")
    };
    assert_eq!(errors["file"].len(), 2, "{errors:?}");
    assert!(errors["file"][0].starts_with("products[2] (slug tala-light-330ml): price must be"));
    assert!(upload("not json").is_err() && upload("").is_err());
    assert_eq!(drafts(&db), 0);

    let id = upload(&text.to_string()).unwrap();
    let uri = format!("/api/v1/staff/catalog/drafts/{id}");
    let r = boss.send("GET", &uri, None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let shown = r.json();
    assert_eq!(shown["problems"], json!([]));
    let changes = shown["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 2, "{shown}");
    assert_eq!(
        (
            changes[0]["key"].as_str(),
            changes[0]["fields"][0]["after"].as_str()
        ),
        (Some("tala-light-330ml"), Some("P59.00"))
    );
    assert_eq!(
        (changes[1]["section"].as_str(), changes[1]["kind"].as_str()),
        (Some("banners"), Some("removed"))
    );
    assert_eq!(
        changes[1]["fields"][1]["before"], "Amihan Wheat: brewed for cool evenings",
        "a removed record shows what it held"
    );
    assert_eq!(shown["summary"][0], "products: 1 changed, 25 unchanged");
    assert_eq!(product(&db, 3).price, 5500, "a dry run writes nothing");

    // Only its uploader sees or applies it.
    let other = Staff::signed_in(&db, "other@tala.example", "manager").await;
    let dora = Staff::signed_in(&db, "dora@tala.example", "dispatcher").await;
    for who in [&other, &dora] {
        assert_eq!(
            who.send("GET", &uri, None).await.status,
            StatusCode::NOT_FOUND
        );
        let r = who
            .send("POST", &format!("{uri}/apply"), Some(json!({})))
            .await;
        assert_eq!(r.status, StatusCode::NOT_FOUND);
    }
    let r = boss
        .send("GET", "/api/v1/staff/catalog/drafts/not-a-draft", None)
        .await;
    assert!(r.status.is_client_error());

    let r = boss
        .send("POST", &format!("{uri}/apply"), Some(json!({})))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(r.json()["changes"].as_array().unwrap().len(), 2);
    assert_eq!(product(&db, 3).price, 5900);
    let banners: i64 = db::schema::banners::table
        .count()
        .get_result(&mut db.pool.get().unwrap())
        .unwrap();
    assert_eq!(banners, 2);
    let (subject, after): (String, Option<String>) = db::schema::audit_log::table
        .filter(db::schema::audit_log::action.eq("catalog.import"))
        .select((
            db::schema::audit_log::subject,
            db::schema::audit_log::after_state,
        ))
        .first(&mut db.pool.get().unwrap())
        .unwrap();
    assert_eq!(subject, "catalog file catalog.json");
    let after: Value = serde_json::from_str(&after.unwrap()).unwrap();
    assert_eq!(after["products tala-light-330ml"]["price"], 5900);
    // Applied once: gone.
    assert_eq!(drafts(&db), 0);
    assert_eq!(
        boss.send("GET", &uri, None).await.status,
        StatusCode::NOT_FOUND
    );
    let r = boss
        .send("POST", &format!("{uri}/apply"), Some(json!({})))
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);

    // A manager keeps at most ten files waiting: the eleventh forgets one of the oldest.
    for _ in 0..11 {
        upload(&text.to_string()).unwrap();
    }
    assert_eq!(drafts(&db), 10);

    // A file left a day is gone too.
    let id = upload(&text.to_string()).unwrap();
    diesel::update(db::schema::catalog_drafts::table.find(&id))
        .set(db::schema::catalog_drafts::created_at.eq(domain::calendar::unix_now() - 86_401))
        .execute(&mut db.pool.get().unwrap())
        .unwrap();
    let r = boss
        .send("GET", &format!("/api/v1/staff/catalog/drafts/{id}"), None)
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(
        r.json()["error"]
            .as_str()
            .unwrap()
            .contains("Upload it again"),
        "{}",
        r.text()
    );
}

both!(a_catalog_file_is_checked_shown_then_applied);

/// A banner scheduled by a manager shows on its days only (the shop's banners call asked on
/// several days), its dates checked by the import's rules, each change in the audit log; the
/// catalog file carries its days.
async fn a_banner_is_scheduled(b: Backend) {
    let db = database(b);
    let boss = Staff::signed_in(&db, "boss@tala.example", "manager").await;
    let r = boss
        .send("GET", "/api/v1/staff/catalog/banners", None)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let all = r.json()["results"].clone();
    assert_eq!(all.as_array().unwrap().len(), 3);
    assert!(all
        .as_array()
        .unwrap()
        .iter()
        .all(|b| b["shown_today"] == true));
    let shown = |day: &'static str| {
        let pool = db.pool.clone();
        async move {
            let r = support::send_api(
                &pool,
                actix_web::test::TestRequest::get().uri(&format!("/api/v1/banners?testdate={day}")),
            )
            .await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.text());
            r.json()["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|b| b["id"].as_i64().unwrap())
                .collect::<Vec<_>>()
        }
    };
    let r = boss
        .send(
            "POST",
            "/api/v1/staff/catalog/banners/2",
            Some(json!({"starts_on": "2031-12-01", "ends_on": "2031-12-24", "title": "Kegs for Christmas"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let saved = r.json();
    assert_eq!(saved["banners"][1]["starts_on"], "2031-12-01");
    assert_eq!(saved["banners"][1]["shown_today"], false);
    let fields: Vec<&str> = saved["changes"][0]["fields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["field"].as_str().unwrap())
        .collect();
    assert_eq!(fields, ["title", "starts_on", "ends_on"]);
    assert_eq!(shown("2031-11-30").await, [1, 3]);
    assert_eq!(shown("2031-12-01").await, [1, 2, 3]);
    assert_eq!(shown("2031-12-24").await, [1, 2, 3]);
    assert_eq!(shown("2031-12-25").await, [1, 3]);
    let recorded: Vec<String> = db::schema::audit_log::table
        .filter(db::schema::audit_log::action.eq("banner.change"))
        .select(db::schema::audit_log::subject)
        .load(&mut db.pool.get().unwrap())
        .unwrap();
    assert_eq!(recorded, ["banner 2"]);
    let file = api::staff::catalog::import::to_json(
        &db::catalog_io::export(&mut db.pool.get().unwrap()).unwrap(),
    );
    assert!(file.contains(r#""starts_on": "2031-12-01""#), "{file}");

    // Problems on their fields; nothing written.
    for (body, field, words) in [
        (
            json!({"ends_on": "2031-11-01"}),
            "ends_on",
            "is before the first day 2031-12-01",
        ),
        (
            json!({"starts_on": "2031-02-30"}),
            "starts_on",
            "must be a date",
        ),
        (
            json!({"title": " "}),
            "title",
            "The title must not be blank",
        ),
    ] {
        let r = boss
            .send(
                "POST",
                "/api/v1/staff/catalog/banners/2",
                Some(body.clone()),
            )
            .await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{body}: {}",
            r.text()
        );
        let said = r.json()["errors"][field][0]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert!(said.contains(words), "{body}: {}", r.text());
    }
    let r = boss
        .send("POST", "/api/v1/staff/catalog/banners/99", Some(json!({})))
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    // A page's form sends every field; one it left empty is empty: the days open, the title
    // refused.
    let r = boss
        .send(
            "POST",
            "/api/v1/staff/catalog/banners/2",
            Some(json!({"whole": true, "sort_order": 2})),
        )
        .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY, "{}", r.text());
    assert!(r.json()["errors"]["title"][0]
        .as_str()
        .unwrap()
        .contains("must not be blank"));
    // Open again: shown every day.
    let r = boss
        .send(
            "POST",
            "/api/v1/staff/catalog/banners/2",
            Some(json!({"starts_on": "", "ends_on": ""})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(shown("2031-11-30").await, [1, 2, 3]);
    let dora = Staff::signed_in(&db, "dora@tala.example", "dispatcher").await;
    let r = dora
        .send(
            "POST",
            "/api/v1/staff/catalog/banners/2",
            Some(json!({"title": "x"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
}

both!(a_banner_is_scheduled);

/// Two managers open the same product (or banner) page and both save: the first's change is kept,
/// the second is told someone changed it since their page was opened and nothing of theirs is
/// written; a client that sends no version (an API client changing one field) is not checked, and
/// a save answers the new version, so saving twice from the same page works.
async fn a_stale_page_overwrites_nothing(b: Backend) {
    let db = database(b);
    let boss = Staff::signed_in(&db, "boss@tala.example", "manager").await;
    let other = Staff::signed_in(&db, "other@tala.example", "manager").await;
    let opened = boss.send("GET", KEG, None).await.json()["version"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(opened.len(), 16);
    let theirs = other.send("GET", KEG, None).await.json()["version"].clone();
    assert_eq!(theirs, opened.as_str());

    let r = other
        .send(
            "POST",
            KEG,
            Some(json!({"price": "7,100", "version": theirs})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let now = r.json()["product"]["version"].as_str().unwrap().to_string();
    assert_ne!(now, opened);
    let audits = changes_recorded(&db).len();

    let r = boss
        .send(
            "POST",
            KEG,
            Some(json!({"price": "6,900", "orderable": false, "version": opened})),
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text());
    assert_eq!(
        r.json()["error"],
        api::staff::catalog::STALE_MESSAGE,
        "{}",
        r.text()
    );
    assert_eq!(product(&db, 21).price, 710_000);
    assert!(product(&db, 21).orderable);
    assert_eq!(changes_recorded(&db).len(), audits);

    // The answered version saves again; no version is no check; an empty one neither.
    let r = other
        .send("POST", KEG, Some(json!({"price": "7,200", "version": now})))
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    for version in [json!(null), json!("")] {
        let mut body = json!({"description": "Thirty litres."});
        if version.is_string() {
            body["version"] = version;
        }
        let r = boss.send("POST", KEG, Some(body)).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    }
    // A field the form does not show (its photo, its sort order) leaves the version as it was.
    let before = boss.send("GET", KEG, None).await.json()["version"].clone();
    diesel::update(db::schema::products::table.find(21))
        .set(db::schema::products::sort_order.eq(99))
        .execute(&mut db.pool.get().unwrap())
        .unwrap();
    assert_eq!(boss.send("GET", KEG, None).await.json()["version"], before);

    // The same for a banner.
    let banners = boss
        .send("GET", "/api/v1/staff/catalog/banners", None)
        .await
        .json();
    let opened = banners["results"][0]["version"].clone();
    let r = other
        .send(
            "POST",
            "/api/v1/staff/catalog/banners/1",
            Some(json!({"title": "Theirs", "version": opened})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let r = boss
        .send(
            "POST",
            "/api/v1/staff/catalog/banners/1",
            Some(json!({"title": "Mine", "version": opened})),
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text());
    let file = api::staff::catalog::import::to_json(
        &db::catalog_io::export(&mut db.pool.get().unwrap()).unwrap(),
    );
    assert!(file.contains(r#""title": "Theirs""#), "{file}");
}

both!(a_stale_page_overwrites_nothing);

/// The fee of `city` for fulfillment `f`, if set.
fn fee(db: &TestDb, city: i64, f: i32) -> Option<i64> {
    use db::schema::delivery_fees::dsl as d;
    d::delivery_fees
        .filter(d::city_id.eq(city).and(d::fulfillment_type_id.eq(f)))
        .select(d::amount)
        .first(&mut db.pool.get().unwrap())
        .optional()
        .unwrap()
}

/// Deposits and delivery fees: a deposit's name and amount, a served city's fee for a fulfillment
/// (one it lacked added), each by the catalog's rules, recorded before and after; a stale page, an
/// unserved city and a missing deposit refused.
async fn a_manager_sets_deposits_and_delivery_fees(b: Backend) {
    let db = database(b);
    let boss = Staff::signed_in(&db, "boss@tala.example", "manager").await;
    // Pickup has no fee anywhere (free) in the seed.
    assert_eq!(fee(&db, MAKATI, 2), None);
    let r = boss
        .send("GET", "/api/v1/staff/catalog/charges", None)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let charges = r.json();
    let deposit = charges["deposits"][0].clone();
    assert_eq!(deposit["charged_on"], "Every bottle product", "{deposit}");
    assert_eq!(deposit["amount"], 24_000);
    let fees = charges["fees"].as_array().unwrap();
    assert_eq!(fees.len(), 52, "every served city, delivery and pickup");
    let makati_pickup = fees
        .iter()
        .find(|f| f["city_id"] == MAKATI && f["fulfillment_id"] == 2)
        .unwrap();
    assert_eq!(makati_pickup["amount"], Value::Null);
    let makati_delivery = fees
        .iter()
        .find(|f| f["city_id"] == MAKATI && f["fulfillment_id"] == 1)
        .unwrap()
        .clone();

    let r = boss
        .send(
            "POST",
            "/api/v1/staff/catalog/deposits/1",
            Some(json!({"name": "Bottles and crate (24)", "amount": "P260", "version": deposit["version"]})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let saved = r.json();
    assert_eq!(saved["charges"]["deposits"][0]["amount"], 26_000);
    assert_eq!(saved["changes"][0]["section"], "deposits");
    let amount: i64 = db::schema::deposits::table
        .find(1)
        .select(db::schema::deposits::amount)
        .first(&mut db.pool.get().unwrap())
        .unwrap();
    assert_eq!(amount, 26_000);

    let delivery = format!("/api/v1/staff/catalog/fees/{MAKATI}/1");
    let r = boss
        .send(
            "POST",
            &delivery,
            Some(json!({"amount": "95", "version": makati_delivery["version"]})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(fee(&db, MAKATI, 1), Some(9_500));
    let r = boss
        .send(
            "POST",
            &format!("/api/v1/staff/catalog/fees/{MAKATI}/2"),
            Some(json!({"amount": "0", "version": makati_pickup["version"]})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(fee(&db, MAKATI, 2), Some(0));
    let charges = || recorded(&db, &["deposit.change", "fee.change"]);
    let recorded = charges();
    let subjects: Vec<&str> = recorded.iter().map(|(s, ..)| s.as_str()).collect();
    assert_eq!(
        subjects,
        [
            "deposit 1",
            "delivery fee 1380300000 Delivery",
            "delivery fee 1380300000 Pickup"
        ],
        "{recorded:?}"
    );
    assert_eq!(recorded[0].1["amount"], 24_000);
    assert_eq!(recorded[0].2["amount"], 26_000);

    // Refused on the field, in the catalog's words or the form's; nothing written.
    for (uri, body, field, words) in [
        (
            "/api/v1/staff/catalog/deposits/1",
            json!({"amount": "-5"}),
            "amount",
            "in pesos",
        ),
        (
            "/api/v1/staff/catalog/deposits/1",
            json!({"amount": "2,000,000"}),
            "amount",
            "The amount must be at most P1,000,000.00",
        ),
        (
            "/api/v1/staff/catalog/deposits/1",
            json!({"name": ""}),
            "name",
            "The name",
        ),
        (
            delivery.as_str(),
            json!({"amount": "abc"}),
            "amount",
            "in pesos",
        ),
    ] {
        let r = boss.send("POST", uri, Some(body.clone())).await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{body}: {}",
            r.text()
        );
        let text = r.json()["errors"][field].to_string();
        assert!(text.contains(words), "{body}: {text}");
    }
    let r = boss
        .send(
            "POST",
            &delivery,
            Some(json!({"amount": "80", "version": makati_delivery["version"]})),
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "a stale page: {}", r.text());
    for (uri, body) in [
        ("/api/v1/staff/catalog/deposits/99", json!({"amount": "1"})),
        (
            "/api/v1/staff/catalog/deposits/99",
            json!({"amount": "lots"}),
        ),
        (
            "/api/v1/staff/catalog/fees/999999999/1",
            json!({"amount": "1"}),
        ),
        (
            "/api/v1/staff/catalog/fees/1380300000/9",
            json!({"amount": "1"}),
        ),
    ] {
        let r = boss.send("POST", uri, Some(body)).await;
        assert_eq!(r.status, StatusCode::NOT_FOUND, "{uri}: {}", r.text());
    }
    assert_eq!(fee(&db, MAKATI, 1), Some(9_500));
    assert_eq!(charges().len(), 3);
    let dora = Staff::signed_in(&db, "dora@tala.example", "dispatcher").await;
    let r = dora
        .send("GET", "/api/v1/staff/catalog/charges", None)
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text());
}

both!(a_manager_sets_deposits_and_delivery_fees);

/// A promo's title, words and days, by the catalog's rules: the shop's promos show it on its days
/// only; problems on their fields; a stale page and a missing promo refused; recorded.
async fn a_promo_is_moved_to_other_days(b: Backend) {
    let db = database(b);
    let boss = Staff::signed_in(&db, "boss@tala.example", "manager").await;
    let r = boss.send("GET", "/api/v1/staff/catalog/promos", None).await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let promo = r.json()["results"][0].clone();
    assert_eq!(promo["product_slug"], "tala-pale-pilsen-320ml", "{promo}");
    let shown = |day: &'static str| {
        let pool = db.pool.clone();
        async move {
            let r = support::send_api(
                &pool,
                actix_web::test::TestRequest::get()
                    .uri(&format!("/api/v1/products/promos?testdate={day}")),
            )
            .await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.text());
            r.json()["results"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["id"].as_i64().unwrap())
                .collect::<Vec<_>>()
        }
    };
    let r = boss
        .send(
            "POST",
            "/api/v1/staff/catalog/promos/1",
            Some(json!({
                "title": " Two cases, one ice bucket ",
                "description": "Order two cases.\r\nGet a bucket.",
                "starts_on": "2032-03-01",
                "ends_on": "2032-03-31",
                "version": promo["version"],
            })),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let saved = r.json();
    assert_eq!(saved["promos"][0]["title"], "Two cases, one ice bucket");
    assert_eq!(
        saved["promos"][0]["description"],
        "Order two cases.\nGet a bucket."
    );
    assert_eq!(saved["promos"][0]["shown_today"], false);
    assert!(!shown("2032-02-29").await.contains(&1));
    assert!(shown("2032-03-01").await.contains(&1));
    assert!(shown("2032-03-31").await.contains(&1));
    assert!(!shown("2032-04-01").await.contains(&1));
    assert_eq!(recorded(&db, &["promo.change"]).len(), 1);

    for (body, field, words) in [
        (
            json!({"ends_on": "2032-02-01"}),
            "ends_on",
            "is before the first day 2032-03-01",
        ),
        (
            json!({"starts_on": "2032-02-30"}),
            "starts_on",
            "must be a date",
        ),
        (json!({"title": ""}), "title", "The title"),
    ] {
        let r = boss
            .send("POST", "/api/v1/staff/catalog/promos/1", Some(body.clone()))
            .await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{body}: {}",
            r.text()
        );
        let text = r.json()["errors"][field].to_string();
        assert!(text.contains(words), "{body}: {text}");
    }
    let r = boss
        .send(
            "POST",
            "/api/v1/staff/catalog/promos/1",
            Some(json!({"title": "Stale", "version": promo["version"]})),
        )
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text());
    let r = boss
        .send(
            "POST",
            "/api/v1/staff/catalog/promos/99",
            Some(json!({"title": "x"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text());
    assert_eq!(recorded(&db, &["promo.change"]).len(), 1);
}

both!(a_promo_is_moved_to_other_days);

/// Holidays and notices kept by a manager: added, changed and removed, each checked on its fields,
/// a stale page refused, recorded; the shop's holiday and notice calls follow on their days.
async fn a_manager_keeps_holidays_and_notices(b: Backend) {
    let db = database(b);
    let boss = Staff::signed_in(&db, "boss@tala.example", "manager").await;
    let r = boss
        .send("GET", "/api/v1/staff/catalog/calendar", None)
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let calendar = r.json();
    assert_eq!(calendar["holidays"].as_array().unwrap().len(), 40);
    assert_eq!(calendar["notices"][0]["past"], true, "{calendar}");
    let on = |uri: &'static str, day: &'static str| {
        let pool = db.pool.clone();
        async move {
            let r = support::send_api(
                &pool,
                actix_web::test::TestRequest::get().uri(&format!("{uri}?testdate={day}")),
            )
            .await;
            assert_eq!(r.status, StatusCode::OK, "{}", r.text());
            r.json()
        }
    };
    assert_eq!(
        on("/api/v1/philippine-holiday", "2031-12-26").await["holiday"],
        false
    );

    // Added: the store counts its days as a holiday.
    let r = boss
        .send(
            "POST",
            "/api/v1/staff/catalog/holidays",
            Some(json!({"name": " Depot inventory ", "starts_on": "2031-12-26", "ends_on": "2031-12-27"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let added = r.json();
    let id = added["id"].as_i64().unwrap();
    let holiday = added["calendar"]["holidays"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["id"] == id)
        .unwrap()
        .clone();
    assert_eq!(holiday["name"], "Depot inventory");
    assert_eq!(
        on("/api/v1/philippine-holiday", "2031-12-27").await["holiday"],
        true
    );
    assert_eq!(
        on("/api/v1/philippine-holiday", "2031-12-28").await["holiday"],
        false
    );

    // Changed from the page's version; the same page again is stale.
    let change = json!({"id": id, "name": "Depot inventory", "starts_on": "2031-12-27", "ends_on": "2031-12-28", "version": holiday["version"]});
    let r = boss
        .send(
            "POST",
            "/api/v1/staff/catalog/holidays",
            Some(change.clone()),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(
        on("/api/v1/philippine-holiday", "2031-12-26").await["holiday"],
        false
    );
    let r = boss
        .send("POST", "/api/v1/staff/catalog/holidays", Some(change))
        .await;
    assert_eq!(r.status, StatusCode::CONFLICT, "{}", r.text());

    // Problems on their fields; nothing written.
    for (body, field, words) in [
        (
            json!({"name": "", "starts_on": "2031-01-01", "ends_on": "2031-01-01"}),
            "name",
            "Enter the holiday's name.",
        ),
        (
            json!({"name": "x", "starts_on": "2031-02-30", "ends_on": "2031-03-01"}),
            "starts_on",
            "as a date",
        ),
        (
            json!({"name": "x", "starts_on": "2031-03-02", "ends_on": "2031-03-01"}),
            "ends_on",
            "is before the first day",
        ),
        (
            json!({"name": "Depot\u{202e}day", "starts_on": "2031-03-01", "ends_on": "2031-03-01"}),
            "name",
            "no invisible",
        ),
        (
            json!({"name": "x".repeat(201), "starts_on": "2031-03-01", "ends_on": "2031-03-01"}),
            "name",
            "at most 200",
        ),
    ] {
        let r = boss
            .send("POST", "/api/v1/staff/catalog/holidays", Some(body.clone()))
            .await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{body}: {}",
            r.text()
        );
        let text = r.json()["errors"][field].to_string();
        assert!(text.contains(words), "{body}: {text}");
    }
    let r = boss
        .send("POST", "/api/v1/staff/catalog/holidays", Some(json!({"id": 9999, "name": "x", "starts_on": "2031-03-01", "ends_on": "2031-03-01"})))
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text());

    // A notice: added, shown on its days, removed.
    let r = boss
        .send(
            "POST",
            "/api/v1/staff/catalog/notices",
            Some(json!({"title": "Liquor ban", "body": "No deliveries on election day.\r\nOrders resume the day after.", "starts_on": "2031-05-10", "ends_on": "2031-05-12"})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let notice_id = r.json()["id"].as_i64().unwrap();
    let shown = on("/api/v1/notice", "2031-05-11").await;
    assert_eq!(shown["notice"]["title"], "Liquor ban", "{shown}");
    assert_eq!(
        shown["notice"]["body"],
        "No deliveries on election day.\nOrders resume the day after."
    );
    let r = boss
        .send(
            "POST",
            "/api/v1/staff/catalog/notices/remove",
            Some(json!({"id": notice_id})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(
        on("/api/v1/notice", "2031-05-11").await["notice"],
        Value::Null
    );
    let r = boss
        .send(
            "POST",
            "/api/v1/staff/catalog/holidays/remove",
            Some(json!({"id": id, "version": "0000000000000000"})),
        )
        .await;
    assert_eq!(
        r.status,
        StatusCode::CONFLICT,
        "a stale remove: {}",
        r.text()
    );
    let r = boss
        .send(
            "POST",
            "/api/v1/staff/catalog/holidays/remove",
            Some(json!({"id": id})),
        )
        .await;
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    assert_eq!(
        on("/api/v1/philippine-holiday", "2031-12-27").await["holiday"],
        false
    );
    let r = boss
        .send(
            "POST",
            "/api/v1/staff/catalog/holidays/remove",
            Some(json!({"id": id})),
        )
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text());
    let actions: Vec<String> = db::schema::audit_log::table
        .filter(
            db::schema::audit_log::action
                .like("holiday.%")
                .or(db::schema::audit_log::action.like("notice.%")),
        )
        .order(db::schema::audit_log::id)
        .select(db::schema::audit_log::action)
        .load(&mut db.pool.get().unwrap())
        .unwrap();
    assert_eq!(
        actions,
        [
            "holiday.add",
            "holiday.change",
            "notice.add",
            "notice.remove",
            "holiday.remove"
        ]
    );
    let dora = Staff::signed_in(&db, "dora@tala.example", "dispatcher").await;
    let r = dora
        .send("GET", "/api/v1/staff/catalog/calendar", None)
        .await;
    assert_eq!(r.status, StatusCode::NOT_FOUND, "{}", r.text());
}

both!(a_manager_keeps_holidays_and_notices);
