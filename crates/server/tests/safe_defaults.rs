//! Safe by default: every call the registry declares [`framework::Access::Public`] (kept in the shared
//! cache, loaded by any page) answers a member and a guest alike, byte for byte, and none of them
//! reads the session (one that did would answer 500: the answer of a shared call must not depend
//! on who asks). A new public call with a parameter this test cannot fill fails here until it is
//! given a sample value.

mod support;

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
