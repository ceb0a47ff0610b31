//! The API's answers as a client reads them: one snapshot per call (and per kind of failure),
//! the same file for SQLite and PostgreSQL, so both engines must answer alike. Days that depend
//! on the clock are redacted; the rest is pinned with `testdate`. Review changes with
//! `cargo insta review` (or `INSTA_UPDATE=always cargo test -p server --test it api_snapshots::`).

use crate::support;

use actix_web::test::TestRequest;
use serde_json::Value;
use support::{database, Backend};

/// The calls, one a line: the snapshot's name, the method, the address.
const CALLS: &str = "
products_kegs_in_bel_air     GET  /api/v1/products?barangay=1380300002&packaging=3
products_unserved_city       GET  /api/v1/products?barangay=301423001
whats_new_cans_in_bel_air    GET  /api/v1/products/whats-new?barangay=1380300002&packaging=2
product_in_bel_air           GET  /api/v2/products/tala-light-330ml/barangay/1380300002
product_without_location     GET  /api/v2/products/tala-pale-pilsen-keg-30l/barangay/0
promos                       GET  /api/v1/products/promos?testdate=2026-11-21&barangay=1380300002
packagings                   POST /api/v3/packagings
banners                      GET  /api/v1/banners
fulfillment_types            GET  /api/v3/fulfillment-types
provinces                    GET  /api/v1/provinces
cities_metro_manila_delivery GET  /api/v3/locations/provinces/51/fulfillments/1/cities
keg_cities                   POST /api/v3/locations/cities
barangays_of_pateros         GET  /api/v3/locations/city/1381701000/barangays
streets_of_bel_air           GET  /api/v3/locations/barangay/1380300002/streets
legacy_cities_of_cavite      GET  /api/v1/cities?filterByProvince=53
delivery_areas               GET  /api/v1/delivery-areas
holiday_election_day         GET  /api/v1/philippine-holiday?testdate=2025-05-12
notice_in_window             GET  /api/v1/notice?testdate=2025-05-06
about_us_text                GET  /api/v1/site-texts/about_us
guest_user                   GET  /api/v1/user
error_malformed_id           GET  /api/v1/products?barangay=-5
error_unknown_barangay       GET  /api/v3/locations/barangay/7/streets
error_missing_parameter      GET  /api/v1/cities
error_wrong_method           GET  /api/v3/packagings
error_unknown_call           GET  /api/v1/nope
";

async fn answers_read_like_the_spec(b: Backend) {
    let db = database(b);
    for call in CALLS.lines().filter(|l| !l.is_empty()) {
        let [name, method, uri]: [&str; 3] = call
            .split_whitespace()
            .collect::<Vec<_>>()
            .try_into()
            .expect("name, method, address");
        let req = match method {
            "GET" => TestRequest::get(),
            _ => TestRequest::post(),
        }
        .uri(uri);
        let res = support::send_api(&db.pool, req).await;
        let body: Value = serde_json::from_slice(&res.body).expect("JSON");
        let answer = serde_json::json!({ "status": res.status.as_u16(), "body": body });
        insta::assert_json_snapshot!(name, answer, {
            ".**.created_on" => "[day]",
        });
    }
    let bad = support::send_api(
        &db.pool,
        TestRequest::post()
            .uri("/api/v1/mail/subscribe")
            .set_json(serde_json::json!({ "email": "not an address" })),
    )
    .await;
    let body: Value = serde_json::from_slice(&bad.body).expect("JSON");
    insta::assert_json_snapshot!(
        "subscribe_invalid",
        serde_json::json!({ "status": bad.status.as_u16(), "body": body })
    );
}
both!(answers_read_like_the_spec);
