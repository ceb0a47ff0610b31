//! Safe by default: every call the registry declares [`framework::Access::Public`] (kept in the shared
//! cache, loaded by any page) answers a member and a guest alike, byte for byte, and none of them
//! reads the session (one that did would answer 500: the answer of a shared call must not depend
//! on who asks). A new public call with a parameter this test cannot fill fails here until it is
//! given a sample value. And every answer of the API, refusals included, says how long it may be
//! kept.

use crate::support;

use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use framework::Access;
use support::{bearer, database, Backend, MAKATI, MAKATI_CITY};

/// A real value for each parameter name of the public calls (seeded data: Makati's Bel-Air).
fn sample(name: &str) -> String {
    match name {
        "barangay" | "barangayId" => MAKATI.to_string(),
        "slug" => "tala-light-330ml".into(),
        "cityId" | "filterByCity" => MAKATI_CITY.to_string(),
        "provinceId" | "filterByProvince" => "51".into(),
        "fulfillmentId" => "1".into(),
        "packaging" => "1".into(),
        "key" => "policy_agreement".into(),
        "testdate" => "2026-12-25".into(),
        "q" => "habagat%20lata".into(),
        "limit" | "per_page" => "24".into(),
        "style" => "IPA".into(),
        "brand" => "Tala".into(),
        "size" => "330%20ml".into(),
        "min_pesos" => "40".into(),
        "max_pesos" => "90".into(),
        "sort" => "price".into(),
        "page" => "1".into(),
        other => panic!("no sample value for the parameter {other:?} of a public call: add one"),
    }
}

/// `{name}` in a key template, filled with samples.
fn fill(template: &str) -> String {
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let close = open + rest[open..].find('}').expect("closed");
        out.push_str(&rest[..open]);
        out.push_str(&sample(&rest[open + 1..close]));
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    out
}

async fn public_calls_answer_everyone_alike(b: Backend) {
    let db = database(b);
    let (member, guest) = (support::member(&db, 1).await, support::guest(&db).await);
    let public: Vec<_> = framework::registry::endpoints()
        .iter()
        .filter(|e| e.access() == Access::Public)
        .collect();
    assert!(public.len() >= 15, "the shop's reads are public");
    for e in public {
        let uri = fill(&e.key_template());
        let ask = |token: &str| {
            TestRequest::default()
                .method(e.method().as_str().parse().unwrap())
                .uri(&uri)
                .insert_header(("authorization", bearer(token)))
                .insert_header(("content-type", "application/json"))
                .set_payload("{}")
        };
        let as_member = support::send_api(&db.pool, ask(&member)).await;
        let as_guest = support::send_api(&db.pool, ask(&guest)).await;
        assert_ne!(
            as_member.status,
            StatusCode::INTERNAL_SERVER_ERROR,
            "{} {uri}: {}",
            e.name(),
            as_member.text()
        );
        assert!(
            as_member.status.is_success(),
            "{} {uri}: the sample should reach real data: {} {}",
            e.name(),
            as_member.status,
            as_member.text()
        );
        assert_eq!(
            (as_member.status, &as_member.body),
            (as_guest.status, &as_guest.body),
            "{} {uri}: a member and a guest get the same answer",
            e.name()
        );
    }
}
both!(public_calls_answer_everyone_alike);

/// The calls of a session's own are not public: the member's answer differs from a guest's.
async fn session_calls_are_declared(b: Backend) {
    let db = database(b);
    let (member, guest) = (support::member(&db, 1).await, support::guest(&db).await);
    let ask = |token: &str| {
        TestRequest::get()
            .uri("/api/v1/user")
            .insert_header(("authorization", bearer(token)))
    };
    let as_member = support::send_api(&db.pool, ask(&member)).await;
    let as_guest = support::send_api(&db.pool, ask(&guest)).await;
    assert_eq!(as_member.status, StatusCode::OK);
    assert_eq!(as_guest.status, StatusCode::UNAUTHORIZED);
    let user = framework::registry::endpoints()
        .iter()
        .find(|e| e.name() == "user")
        .unwrap();
    assert_eq!(user.access(), Access::Session);
}
both!(session_calls_are_declared);

/// Every answer of the API says how long it may be kept (a phone on prepaid data must neither
/// download a catalog twice nor keep what it should not): each call sent by a guest as a careless
/// client would (`{}`, ids of 1), a path with no call, a method the path does not take, the
/// document. A successful read is kept for revalidation at most; nothing else is kept.
async fn every_answer_says_how_long_it_may_be_kept(b: Backend) {
    let db = database(b);
    let guest = support::guest(&db).await;
    let mut asked: Vec<(String, String)> = framework::registry::endpoints()
        .iter()
        .map(|e| {
            let template = e.key_template();
            let uri = template
                .split('/')
                .map(
                    |part| match part.strip_prefix('{').and_then(|p| p.strip_suffix('}')) {
                        Some(_) => "1",
                        None => part,
                    },
                )
                .collect::<Vec<_>>()
                .join("/");
            (
                e.method().as_str().to_string(),
                uri.split('?').next().unwrap().to_string(),
            )
        })
        .collect();
    asked.extend([
        ("GET".to_string(), "/api/v1/no-such-call".to_string()),
        ("DELETE".to_string(), "/api/v1/products".to_string()),
        ("GET".to_string(), "/api/openapi.json".to_string()),
    ]);
    for (method, uri) in asked {
        let req = TestRequest::default()
            .method(method.parse().unwrap())
            .uri(&uri)
            .insert_header(("authorization", bearer(&guest)))
            .insert_header(("content-type", "application/json"))
            .set_payload("{}");
        let res = support::send_api(&db.pool, req).await;
        let kept = res
            .headers
            .get("cache-control")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_else(|| panic!("{method} {uri} ({}) says nothing of keeping", res.status));
        let read =
            method == "GET" && (res.status.is_success() || res.status == StatusCode::NOT_MODIFIED);
        assert!(
            kept.contains("no-store") || (read && kept.contains("no-cache")),
            "{method} {uri} ({}): cache-control {kept}",
            res.status
        );
    }
}
both!(every_answer_says_how_long_it_may_be_kept);

/// A write another site's page sends with the shopper's cookie is refused before any call runs,
/// and that refusal says it may be kept nowhere too.
async fn a_cross_site_refusal_is_kept_nowhere(b: Backend) {
    let db = database(b);
    let guest = support::guest(&db).await;
    let req = TestRequest::post()
        .uri("/api/v1/cart")
        .insert_header(("cookie", format!("session={guest}")))
        .insert_header(("origin", "https://evil.example"))
        .insert_header(("content-type", "application/json"))
        .set_payload("{}");
    let res = support::send_api(&db.pool, req).await;
    assert_eq!(res.status, StatusCode::FORBIDDEN, "{}", res.text());
    assert_eq!(
        res.headers
            .get("cache-control")
            .and_then(|v| v.to_str().ok()),
        Some("no-store")
    );
}
both!(a_cross_site_refusal_is_kept_nowhere);
