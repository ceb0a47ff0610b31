//! The shop-front API over HTTP, against SQLite and PostgreSQL.

use crate::support;

use actix_web::http::StatusCode;
use serde_json::{json, Value};
use support::{database, send_json, Backend, BACOOR, CALOOCAN, MAKATI, MAKATI_CITY, SANTA_MARIA};

/// The API alone over a test database, called without credentials.
struct Api {
    db: support::TestDb,
}

impl Api {
    fn new(b: Backend) -> Self {
        Self { db: database(b) }
    }

    /// The answer's status and JSON (which it must be).
    async fn answer(&self, method: &str, uri: &str, body: Option<Value>) -> (StatusCode, Value) {
        let body = body.unwrap_or(Value::Null);
        let r = send_json(&self.db, method, uri, "", body).await;
        (r.status, r.json())
    }

    async fn ok(&self, method: &str, uri: &str) -> Value {
        let (s, v) = self.answer(method, uri, None).await;
        assert_eq!(s, StatusCode::OK, "{uri}: {v}");
        v
    }

    async fn error(&self, method: &str, uri: &str, status: u16) -> String {
        let (s, v) = self.answer(method, uri, None).await;
        assert_eq!(s.as_u16(), status, "{uri}: {v}");
        v["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{uri}: {v}"))
            .to_string()
    }

    /// Each GET fails with its status, and its error says the text ("" for any error).
    async fn errors(&self, cases: &[(&str, u16, &str)]) {
        for (uri, status, says) in cases {
            let error = self.error("GET", uri, *status).await;
            assert!(error.contains(says), "{uri}: {error}");
        }
    }
}

fn list<'a>(v: &'a Value, field: &str) -> Vec<&'a str> {
    v["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x[field].as_str().unwrap())
        .collect()
}

async fn fulfillment_types_and_provinces(b: Backend) {
    let api = Api::new(b);
    let v = api.ok("GET", "/api/v3/fulfillment-types").await;
    assert_eq!(
        v["results"],
        json!([{"id": 1, "name": "Delivery"}, {"id": 2, "name": "Pickup"}])
    );
    let v = api.ok("GET", "/api/v1/provinces").await;
    assert_eq!(
        v["results"][0],
        json!({"id": 51, "province_name": "Metro Manila"})
    );
    assert_eq!(
        list(&v, "province_name"),
        ["Metro Manila", "Bulacan", "Cavite", "Rizal"]
    );
}
both!(fulfillment_types_and_provinces);

async fn cities_by_province_and_fulfillment(b: Backend) {
    let api = Api::new(b);
    let v = api
        .ok(
            "GET",
            "/api/v3/locations/provinces/51/fulfillments/1/cities",
        )
        .await;
    let locations = v["results"]["locations"].as_array().unwrap();
    assert_eq!(locations.len(), 17, "every Metro Manila city and Pateros");
    let makati = locations
        .iter()
        .find(|c| c["city_name"] == "Makati City")
        .unwrap();
    assert_eq!(
        makati,
        &json!({"city_id": MAKATI_CITY, "city_province": 51, "city_name": "Makati City", "province_name": "Metro Manila"})
    );
    // Cavite: delivery to Bacoor, Imus, Dasmariñas; pickup only in Bacoor.
    let v = api
        .ok(
            "GET",
            "/api/v3/locations/provinces/53/fulfillments/1/cities",
        )
        .await;
    let names: Vec<&str> = v["results"]["locations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["city_name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Bacoor City", "Dasmariñas City", "Imus City"]);
    let v = api
        .ok(
            "GET",
            "/api/v3/locations/provinces/53/fulfillments/2/cities",
        )
        .await;
    assert_eq!(v["results"]["locations"].as_array().unwrap().len(), 1);
    api.errors(&[
        (
            "/api/v3/locations/provinces/99/fulfillments/1/cities",
            404,
            "Province 99",
        ),
        (
            "/api/v3/locations/provinces/51/fulfillments/9/cities",
            404,
            "Fulfillment type 9",
        ),
        (
            "/api/v3/locations/provinces/abc/fulfillments/1/cities",
            400,
            "provinceId",
        ),
    ])
    .await;
}
both!(cities_by_province_and_fulfillment);

async fn cities_for_kegs(b: Backend) {
    let api = Api::new(b);
    let (s, v) = api.answer("POST", "/api/v3/locations/cities", None).await;
    assert_eq!(s, StatusCode::OK);
    let cities = v["results"].as_array().unwrap();
    assert_eq!(cities.len(), 17, "kegs are sold in Metro Manila only");
    assert!(cities.iter().all(|c| c["province_name"] == "Metro Manila"));
    let (_, v) = api
        .answer(
            "POST",
            "/api/v3/locations/cities",
            Some(json!({"province_id": 53})),
        )
        .await;
    assert!(v["results"].as_array().unwrap().is_empty());
    let (s, v) = api
        .answer(
            "POST",
            "/api/v3/locations/cities",
            Some(json!({"province_id": 404})),
        )
        .await;
    assert_eq!(s, StatusCode::NOT_FOUND, "{v}");
    let (s, _) = api
        .answer(
            "POST",
            "/api/v3/locations/cities",
            Some(json!({"province_id": "x"})),
        )
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST);
}
both!(cities_for_kegs);

async fn barangays_streets_and_legacy_calls(b: Backend) {
    let api = Api::new(b);
    let v = api
        .ok(
            "GET",
            &format!("/api/v3/locations/city/{MAKATI_CITY}/barangays"),
        )
        .await;
    let names = list(&v, "barangay_name");
    assert!(names.contains(&"Bel-Air") && names.contains(&"Poblacion"));
    assert!(names.windows(2).all(|w| w[0] <= w[1]), "sorted by name");
    let v = api
        .ok(
            "GET",
            &format!("/api/v3/locations/barangay/{MAKATI}/streets"),
        )
        .await;
    assert_eq!(
        list(&v, "street_name"),
        [
            "Jupiter Street",
            "Kalayaan Avenue",
            "Makati Avenue",
            "Polaris Street"
        ]
    );
    let v = api
        .ok(
            "GET",
            &format!("/api/v3/locations/barangay/{CALOOCAN}/streets"),
        )
        .await;
    assert!(
        v["results"].as_array().unwrap().is_empty(),
        "no streets needed"
    );
    api.errors(&[
        ("/api/v3/locations/city/7/barangays", 404, "City 7"),
        ("/api/v3/locations/barangay/7/streets", 404, "Barangay 7"),
        ("/api/v3/locations/city/-1/barangays", 400, ""),
    ])
    .await;
    // Legacy calls.
    let v = api.ok("GET", "/api/v1/cities?filterByProvince=54").await;
    assert_eq!(list(&v, "city_name"), ["Antipolo City", "Cainta", "Taytay"]);
    let v = api
        .ok(
            "GET",
            &format!("/api/v1/barangay?filterByCity={MAKATI_CITY}"),
        )
        .await;
    assert!(list(&v, "barangay_name").contains(&"San Lorenzo"));
    api.errors(&[
        ("/api/v1/cities", 400, "filterByProvince is required"),
        ("/api/v1/barangay?filterByCity=x", 400, "filterByCity"),
        ("/api/v1/cities?filterByProvince=5", 404, ""),
    ])
    .await;
}
both!(barangays_streets_and_legacy_calls);

async fn single_product_with_you_might_also_like(b: Backend) {
    let api = Api::new(b);
    let v = api
        .ok(
            "GET",
            &format!("/api/v2/products/tala-pale-pilsen-keg-30l/barangay/{MAKATI}"),
        )
        .await;
    assert_eq!(
        v["product_single"]["product_name"],
        "Tala Pale Pilsen Keg 30 L"
    );
    assert_eq!(v["available_in_area"], true);
    let also = v["you_might_also_like"].as_array().unwrap();
    assert!(!also.is_empty() && also.len() <= 8);
    assert!(also
        .iter()
        .all(|p| p["packaging"]["name"] == "DRAFT BEER IN KEG"));
    assert!(also.iter().all(|p| p["slug"] != "tala-pale-pilsen-keg-30l"));
    // Not sold in Bacoor: the product still answers, flagged, with nothing to also like.
    let v = api
        .ok(
            "GET",
            &format!("/api/v2/products/tala-pale-pilsen-keg-30l/barangay/{BACOOR}"),
        )
        .await;
    assert_eq!(v["available_in_area"], false);
    assert!(v["you_might_also_like"].as_array().unwrap().is_empty());
    // Barangay 0: no location chosen yet.
    let v = api
        .ok("GET", "/api/v2/products/tala-light-330ml/barangay/0")
        .await;
    assert_eq!(v["available_in_area"], Value::Null);
    assert_eq!(v["you_might_also_like"].as_array().unwrap().len(), 8);
    api.errors(&[
        ("/api/v2/products/nope/barangay/0", 404, "nope"),
        (
            "/api/v2/products/tala-light-330ml/barangay/5",
            404,
            "Barangay 5",
        ),
        ("/api/v2/products/tala-light-330ml/barangay/x", 400, ""),
    ])
    .await;
}
both!(single_product_with_you_might_also_like);

async fn promotions_and_whats_new(b: Backend) {
    let api = Api::new(b);
    let v = api
        .ok("GET", "/api/v1/products/promos?testdate=2026-11-21")
        .await;
    assert_eq!(list(&v, "title").len(), 3);
    let v = api
        .ok("GET", "/api/v1/products/promos?testdate=2026-05-01")
        .await;
    assert_eq!(list(&v, "title"), ["Mango season special"]);
    let v = api
        .ok(
            "GET",
            &format!("/api/v1/products/promos?testdate=2026-11-21&barangay={BACOOR}"),
        )
        .await;
    assert_eq!(
        list(&v, "title").len(),
        2,
        "no keg promo outside Metro Manila"
    );
    let v = api
        .ok(
            "GET",
            &format!("/api/v1/products/promos?barangay={SANTA_MARIA}&testdate=2026-11-21"),
        )
        .await;
    assert!(v["results"].as_array().unwrap().is_empty(), "unserved area");
    api.errors(&[("/api/v1/products/promos?barangay=zz", 400, "")])
        .await;
    let v = api.ok("GET", "/api/v1/products/whats-new").await;
    assert_eq!(v["products"][0]["product_name"], "Tala Zero Can 330 ml");
    assert_eq!(
        v["products"][1]["product_name"],
        "Bangkal Double IPA Can 473 ml"
    );
}
both!(promotions_and_whats_new);

async fn holidays_and_the_notice_window(b: Backend) {
    let api = Api::new(b);
    let v = api
        .ok("GET", "/api/v1/philippine-holiday?testdate=2025-05-12")
        .await;
    assert_eq!(v, json!({"holiday": true, "date": "2025-05-12"}));
    let v = api
        .ok("GET", "/api/v1/philippine-holiday?testdate=2025-05-08")
        .await;
    assert_eq!(v["holiday"], false);
    let v = api.ok("GET", "/api/v1/notice?testdate=2025-05-05").await;
    assert_eq!(v["notice"]["title"], "Notice to our Members");
    assert_eq!(v["holiday"], false);
    let v = api
        .ok("GET", "/api/v1/notice?testdate=2025-05-13T07:59")
        .await;
    assert_eq!(v["notice"]["title"], "Notice to our Members");
    for outside in ["2025-05-04", "2025-05-14"] {
        let v = api
            .ok("GET", &format!("/api/v1/notice?testdate={outside}"))
            .await;
        assert_eq!(v["notice"], Value::Null, "{outside}");
    }
    // A testdate that does not parse is refused, never silently today.
    let (s, v) = api
        .answer("GET", "/api/v1/philippine-holiday?testdate=garbage", None)
        .await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
}
both!(holidays_and_the_notice_window);

async fn newsletter_signup(b: Backend) {
    let api = Api::new(b);
    let (s, v) = api
        .answer(
            "POST",
            "/api/v1/mail/subscribe",
            Some(json!({"email": "Juan@Example.PH"})),
        )
        .await;
    assert_eq!(s, StatusCode::OK);
    assert_eq!(
        v["data"]["success"],
        "Thank you! Open the link we sent to your email to confirm your subscription."
    );
    let first = v;
    let (s, v) = api
        .answer(
            "POST",
            "/api/v1/mail/subscribe",
            Some(json!({"email": " juan@example.ph "})),
        )
        .await;
    assert_eq!(s, StatusCode::OK, "a repeated address is answered kindly");
    assert_eq!(
        v, first,
        "and the same: the answer tells nothing of who signed up"
    );
    for (body, msg) in [
        (
            json!({"email": "not-an-email"}),
            "The email must be a valid email address.",
        ),
        (json!({"email": ""}), "The email field is required."),
        (json!({}), "The email field is required."),
        (
            json!({"email": 42}),
            "The email must be a valid email address.",
        ),
    ] {
        let (s, v) = api
            .answer("POST", "/api/v1/mail/subscribe", Some(body.clone()))
            .await;
        assert_eq!(s, StatusCode::UNPROCESSABLE_ENTITY, "{body}");
        assert_eq!(v["errors"]["email"][0], msg, "{body}");
    }
    let (s, v) = api.answer("POST", "/api/v1/mail/subscribe", None).await;
    assert_eq!(s, StatusCode::BAD_REQUEST, "{v}");
    let mut conn = api.db.pool.get().unwrap();
    use db::diesel::prelude::*;
    let n: i64 = db::schema::newsletter_subscriptions::table
        .count()
        .get_result(&mut *conn)
        .unwrap();
    assert_eq!(n, 1);
    let confirmed: i64 = db::schema::newsletter_subscriptions::table
        .filter(db::schema::newsletter_subscriptions::confirmed_at.is_not_null())
        .count()
        .get_result(&mut *conn)
        .unwrap();
    assert_eq!(confirmed, 0, "an address counts once its link is opened");
}
both!(newsletter_signup);

async fn guest_user_carries_the_policy_texts(b: Backend) {
    let api = Api::new(b);
    let (s, v) = api.answer("GET", "/api/v1/user", None).await;
    assert_eq!(s, StatusCode::UNAUTHORIZED);
    assert!(v["error"].is_string());
    assert_eq!(v["data"]["policy_agreement_accepted"], false);
    for field in [
        "policy_agreement_text",
        "term_and_condition_text",
        "about_us_text",
    ] {
        assert!(v["data"][field].as_str().unwrap().len() > 100, "{field}");
    }
    assert!(v["data"]["policy_agreement_text"]
        .as_str()
        .unwrap()
        .contains("18 years old"));
}
both!(guest_user_carries_the_policy_texts);
