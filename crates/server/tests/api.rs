//! The catalog API over HTTP, against SQLite and PostgreSQL.

use crate::support;

use actix_web::http::StatusCode;
use serde_json::Value;
use support::{database, Backend, TestDb, BACOOR, CALOOCAN, MAKATI, SANTA_MARIA};

/// A call to the API alone without credentials, whose answer must say it is JSON and be JSON: its
/// status and JSON.
async fn json_answer(db: &TestDb, method: &str, uri: &str) -> (StatusCode, Value) {
    let res = support::send_json(db, method, uri, "", Value::Null).await;
    let ct = res
        .headers
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    assert!(
        ct.starts_with("application/json"),
        "{uri}: content-type {ct:?}"
    );
    let json = serde_json::from_slice(&res.body).unwrap_or_else(|e| panic!("{uri}: {e}"));
    (res.status, json)
}

fn names(v: &Value, field: &str) -> Vec<String> {
    v[field]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["product_name"].as_str().unwrap().to_string())
        .collect()
}

async fn lists_every_product_without_a_barangay(b: Backend) {
    let (status, v) = json_answer(&database(b), "GET", "/api/v1/products?per_page=48").await;
    assert_eq!(status, StatusCode::OK);
    let products = v["products"].as_array().unwrap();
    assert_eq!(products.len(), 26);
    let p = &products[0];
    for field in [
        "id",
        "slug",
        "product_name",
        "sku",
        "price",
        "price_per_case",
        "unit_per_case",
        "types",
        "packaging",
        "product_image",
        "description",
        "custom_description",
        "orderable",
    ] {
        assert!(p.get(field).is_some(), "product has {field}");
    }
    assert_eq!(p["product_name"], "Tala Pale Pilsen 320 ml");
    assert_eq!(p["price"], 5200);
    assert_eq!(p["price_per_case"], 118800);
    assert_eq!(p["unit_per_case"], 24);
    assert_eq!(p["types"]["name"], "Full Goods");
    assert_eq!(p["packaging"]["name"], "BOTTLES");
    assert!(
        v["recommended_products"].as_array().unwrap().is_empty(),
        "guests get none"
    );
    assert!(names(&v, "best_sellers").contains(&"Bangkal IPA 330 ml".to_string()));
    assert_eq!(
        v["brands"],
        serde_json::json!(["Amihan", "Bangkal", "Habagat", "Tala"])
    );
    let filter_values: Vec<&str> = v["filter_types"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["value"].as_str().unwrap())
        .collect();
    assert_eq!(filter_values, ["bottle", "can", "keg"]);
    let kegs: Vec<&Value> = products
        .iter()
        .filter(|p| p["types"]["name"] == "Keg")
        .collect();
    assert!(kegs.iter().all(|k| k["unit_per_case"] == 1));
    assert!(products.iter().any(|p| p["orderable"] == false));
}
both!(lists_every_product_without_a_barangay);

async fn narrows_products_to_the_barangay(b: Backend) {
    let db = database(b);
    let (_, makati) = json_answer(
        &db,
        "GET",
        &format!("/api/v1/products?barangay={MAKATI}&per_page=48"),
    )
    .await;
    let (_, caloocan) = json_answer(
        &db,
        "GET",
        &format!("/api/v1/products?barangay={CALOOCAN}&per_page=48"),
    )
    .await;
    let (_, bacoor) = json_answer(
        &db,
        "GET",
        &format!("/api/v1/products?barangay={BACOOR}&per_page=48"),
    )
    .await;
    let makati = names(&makati, "products");
    let caloocan = names(&caloocan, "products");
    let bacoor = names(&bacoor, "products");
    let dipa = "Bangkal Double IPA Can 473 ml".to_string();
    let keg = "Tala Pale Pilsen Keg 30 L".to_string();
    assert!(makati.contains(&dipa), "sold in Makati");
    assert!(!caloocan.contains(&dipa), "not sold in Caloocan");
    assert!(caloocan.contains(&keg), "kegs are sold across Metro Manila");
    assert!(!bacoor.contains(&keg), "no kegs outside Metro Manila");
    assert_eq!(makati.len(), 26);
    assert_eq!(caloocan.len(), 25);
    assert_eq!(bacoor.len(), 19);
}
both!(narrows_products_to_the_barangay);

async fn an_unserved_barangay_has_no_products(b: Backend) {
    let (status, v) = json_answer(
        &database(b),
        "GET",
        &format!("/api/v1/products?barangay={SANTA_MARIA}"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert!(v["products"].as_array().unwrap().is_empty());
    assert!(v["best_sellers"].as_array().unwrap().is_empty());
}
both!(an_unserved_barangay_has_no_products);

async fn filters_products_by_packaging(b: Backend) {
    let db = database(b);
    let (status, v) = json_answer(&db, "GET", "/api/v1/products?packaging=3").await;
    assert_eq!(status, StatusCode::OK);
    let products = v["products"].as_array().unwrap();
    assert_eq!(products.len(), 6);
    assert!(products
        .iter()
        .all(|p| p["packaging"]["name"] == "DRAFT BEER IN KEG"));
    let (_, v) = json_answer(
        &db,
        "GET",
        &format!("/api/v1/products?packaging=3&barangay={BACOOR}"),
    )
    .await;
    assert!(v["products"].as_array().unwrap().is_empty());
    let (_, v) = json_answer(&db, "GET", "/api/v1/products?packaging=2").await;
    assert!(v["products"]
        .as_array()
        .unwrap()
        .iter()
        .all(|p| p["types"]["name"] == "Cans"));
}
both!(filters_products_by_packaging);

async fn malformed_or_unknown_input_is_a_4xx(b: Backend) {
    let db = database(b);
    for (uri, status, needle) in [
        ("/api/v1/products?barangay=abc", 400, "barangay"),
        ("/api/v1/products?barangay=-5", 400, "barangay"),
        ("/api/v1/products?barangay=1.5", 400, "barangay"),
        ("/api/v1/products?packaging=x", 400, "packaging"),
        (
            "/api/v1/products?barangay=99999999999999999999",
            400,
            "barangay",
        ),
        ("/api/v1/products?barangay=%ZZ", 400, "barangay"),
        ("/api/v1/products?barangay=999", 404, "Barangay 999"),
        ("/api/v1/products?packaging=99", 404, "Packaging 99"),
    ] {
        let (s, v) = json_answer(&db, "GET", uri).await;
        assert_eq!(s.as_u16(), status, "{uri}: {v}");
        let msg = v["error"].as_str().unwrap_or_else(|| panic!("{uri}: {v}"));
        assert!(msg.contains(needle), "{uri}: {msg}");
    }
    // A call reads its query strictly (as the OpenAPI document says): an empty value or a
    // parameter named twice is a 400 naming it; left out, a parameter is simply absent.
    for (uri, needle) in [
        ("/api/v1/products?barangay=&packaging=", "barangay is empty"),
        (
            "/api/v1/products?packaging=1&packaging=2",
            "packaging is given more than once",
        ),
        (
            "/api/v1/philippine-holiday?testdate=2026-02-30",
            "testdate is not valid",
        ),
        // A blank value is a value (the fuzzer's `%0B` was read as no testdate at all).
        (
            "/api/v1/philippine-holiday?testdate=%0B",
            "testdate is not valid",
        ),
    ] {
        let (s, v) = json_answer(&db, "GET", uri).await;
        assert_eq!(s, StatusCode::BAD_REQUEST, "{uri}: {v}");
        assert!(v["error"].as_str().unwrap().contains(needle), "{uri}: {v}");
    }
    let (s, v) = json_answer(&db, "GET", "/api/v1/products").await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(v["total"], 26);
}
both!(malformed_or_unknown_input_is_a_4xx);

async fn lists_packagings(b: Backend) {
    let (status, v) = json_answer(&database(b), "POST", "/api/v3/packagings").await;
    assert_eq!(status, StatusCode::OK);
    let results = v["results"].as_array().unwrap();
    let names: Vec<&str> = results
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["BOTTLES", "CANS", "DRAFT BEER IN KEG"]);
    for p in results {
        for field in ["id", "name", "image", "custom_description"] {
            assert!(p.get(field).is_some(), "packaging has {field}");
        }
    }
}
both!(lists_packagings);

async fn lists_banners(b: Backend) {
    let (status, v) = json_answer(&database(b), "GET", "/api/v1/banners").await;
    assert_eq!(status, StatusCode::OK);
    let results = v["results"].as_array().unwrap();
    assert_eq!(results.len(), 3);
    for banner in results {
        assert!(banner["desktop_image"]
            .as_str()
            .unwrap()
            .ends_with("-desktop.svg"));
        assert!(banner["mobile_image"]
            .as_str()
            .unwrap()
            .ends_with("-mobile.svg"));
    }
}
both!(lists_banners);

async fn wrong_methods_and_unknown_calls_answer_json(b: Backend) {
    let db = database(b);
    let (s, v) = json_answer(&db, "GET", "/api/v3/packagings").await;
    assert_eq!(s, StatusCode::METHOD_NOT_ALLOWED);
    assert!(v["error"].as_str().unwrap().contains("GET"));
    let (s, _) = json_answer(&db, "DELETE", "/api/v1/products").await;
    assert_eq!(s, StatusCode::METHOD_NOT_ALLOWED);
    let (s, v) = json_answer(&db, "GET", "/api/v1/nope").await;
    assert_eq!(s, StatusCode::NOT_FOUND);
    assert!(v["error"].as_str().unwrap().contains("/api/v1/nope"));
}
both!(wrong_methods_and_unknown_calls_answer_json);

async fn migrations_and_seed_run_once(b: Backend) {
    let db = database(b);
    let mut conn = db.pool.get().unwrap();
    assert_eq!(
        db::migrate(&mut conn).unwrap(),
        0,
        "nothing left to migrate"
    );
    assert!(
        db::seed::seed(&mut conn).unwrap().is_none(),
        "a seeded catalog is left alone"
    );
}
both!(migrations_and_seed_run_once);

/// The served contract is the kept one, with every registered call (registration happens in each
/// call's own module; this checks it survives linking into the store).
#[actix_web::test]
async fn the_openapi_document_is_served_and_kept() {
    let db = database(Backend::Sqlite);
    let res = support::send_json(&db, "GET", "/api/openapi.json", "", Value::Null).await;
    assert_eq!(res.status, StatusCode::OK);
    let kept = std::fs::read_to_string(
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../api/openapi.json"),
    )
    .unwrap();
    assert_eq!(res.text(), kept);
    let doc: Value = serde_json::from_str(&kept).unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
    let operations: usize = doc["paths"]
        .as_object()
        .unwrap()
        .values()
        .map(|p| p.as_object().unwrap().len())
        .sum();
    assert_eq!(operations, framework::registry::endpoints().len());
    // Each operation is tagged by its feature (its folder in crates/api), so a reader or a
    // generated client sees the calls by feature; the staff's apart from the shop's.
    let mut tags = std::collections::BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let tag = op["tags"][0]
                .as_str()
                .unwrap_or_else(|| panic!("{method} {path} has no tag"));
            assert_eq!(
                path.starts_with("/api/v1/staff"),
                tag.starts_with("staff"),
                "{method} {path}: {tag}"
            );
            tags.insert(tag.to_string());
        }
    }
    for feature in [
        "cart",
        "orders",
        "staff orders",
        "staff runs",
        "staff catalog",
        "accounts",
    ] {
        assert!(tags.contains(feature), "no {feature} among {tags:?}");
    }
    // The photo calls take their file as a browser's form data sends it: one part, `photo`, of
    // binary content, and nothing else; given by PUT, taken away by DELETE, by managers.
    for path in [
        "/api/v1/staff/catalog/products/{sku}/photo",
        "/api/v1/staff/catalog/banners/{bannerId}/photo",
    ] {
        let item = &doc["paths"][path];
        let methods: Vec<&String> = item.as_object().unwrap().keys().collect();
        assert_eq!(methods, ["delete", "put"], "{path}");
        let put = &item["put"];
        assert_eq!(put["tags"][0], "staff catalog", "{path}");
        assert_eq!(put["security"][0]["staff_session"], serde_json::json!([]));
        let body = &put["requestBody"];
        assert_eq!(body["required"], true, "{path}");
        let content = body["content"].as_object().unwrap();
        assert_eq!(content.keys().collect::<Vec<_>>(), ["multipart/form-data"]);
        let schema = &content["multipart/form-data"]["schema"];
        assert_eq!(schema["type"], "object");
        assert_eq!(schema["required"], serde_json::json!(["photo"]));
        assert_eq!(schema["additionalProperties"], false);
        assert_eq!(schema["properties"]["photo"]["type"], "string");
        assert_eq!(schema["properties"]["photo"]["format"], "binary");
        for status in ["200", "401", "403", "404", "413", "415", "422"] {
            assert!(put["responses"].get(status).is_some(), "{path}: {status}");
        }
        assert!(put["responses"]["413"]["description"]
            .as_str()
            .unwrap()
            .contains("10 MB"));
        assert_eq!(item["delete"]["tags"][0], "staff catalog");
        assert!(item["delete"].get("requestBody").is_none());
    }
}

/// The document's examples are the seeded store's (a client, and the fuzzer, start from them):
/// Makati's Bel-Air, one of its streets, its city and province, delivery, bottles, Tala Pale
/// Pilsen 320 ml sold there.
async fn the_documents_examples_are_real(b: Backend) {
    let doc: Value = serde_json::from_str(framework::openapi::json()).unwrap();
    let example = |name: &str| {
        doc["components"]["schemas"][name]["examples"][0]
            .as_i64()
            .unwrap()
    };
    let (barangay, street, city) = (
        example("BarangayId"),
        example("StreetId"),
        example("CityId"),
    );
    let db = database(b);
    let ids = |v: &Value, key: &str| -> Vec<i64> {
        v["results"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r[key].as_i64().unwrap())
            .collect()
    };
    let (_, v) = json_answer(
        &db,
        "GET",
        &format!("/api/v3/locations/barangay/{barangay}/streets"),
    )
    .await;
    assert!(ids(&v, "id").contains(&street), "{v}");
    let (_, v) = json_answer(
        &db,
        "GET",
        &format!("/api/v3/locations/city/{city}/barangays"),
    )
    .await;
    assert!(ids(&v, "id").contains(&barangay), "{v}");
    let (_, v) = json_answer(&db, "GET", "/api/v1/provinces").await;
    assert!(ids(&v, "id").contains(&example("ProvinceId")), "{v}");
    let (_, v) = json_answer(&db, "GET", "/api/v3/fulfillment-types").await;
    assert!(ids(&v, "id").contains(&example("FulfillmentId")), "{v}");
    let (_, v) = json_answer(&db, "GET", &format!("/api/v1/products?barangay={barangay}")).await;
    let product = v["products"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"].as_i64() == Some(example("ProductId")))
        .unwrap_or_else(|| panic!("{v}"));
    assert_eq!(
        product["packaging"]["id"].as_i64(),
        Some(example("PackagingId"))
    );
}
both!(the_documents_examples_are_real);
