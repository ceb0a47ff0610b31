//! The visitor's parts of shared pages (issue 15): a page is rendered once for everyone with the
//! same data and each answer carries its visitor's own CSRF token, first name and cart; no
//! visitor ever sees another's, and no sentinel reaches a browser.

mod support;

use actix_web::http::StatusCode;
use serde_json::{json, Value};
use support::{database, get, Backend};

const SHOPPER: &str =
    "cookieAccepted=1; privacyVerification=1; categoryGateId=1; locationGateBarangayId=1380300002";

/// The page state a page carries (what the client hydrates from).
fn state(html: &str) -> Value {
    let open = r#"<script type="application/json" id="__STATE__">"#;
    let start = html.find(open).expect("state") + open.len();
    let end = start + html[start..].find("</script>").unwrap();
    serde_json::from_str(&html[start..end].replace("\\u003c", "<")).expect("state JSON")
}

fn gunzip(body: &[u8]) -> String {
    use std::io::Read;
    let mut out = String::new();
    flate2::read::GzDecoder::new(body)
        .read_to_string(&mut out)
        .expect("gzip");
    out
}

async fn visitors_see_their_own_parts(b: Backend) {
    let db = database(b);
    let store = store!(db);
    // A guest without a session or cart: the page for everyone, kept and validated.
    let r = send!(store, get("/buy-beer", SHOPPER));
    assert_eq!(r.status, StatusCode::OK);
    let html = r.text();
    assert!(!html.contains('\u{E000}'), "no sentinel reaches a browser");
    let s = state(&html);
    assert_eq!(
        s["visitor"],
        json!({"cart_count": 0, "cart": null, "cart_revision": 0})
    );
    assert_eq!(s["csrf"], "");
    assert!(r.headers.get("etag").is_some());

    // A guest with a cart: their count and cart, and their session's CSRF token.
    let token = support::guest(&db).await;
    let api = support::send_api(
        &db.pool,
        actix_web::test::TestRequest::post()
            .uri("/api/v1/cart")
            .insert_header(("cookie", format!("session={token}")))
            .set_json(json!({"product_id": 1, "quantity": 24, "barangay": 1380300002})),
    )
    .await;
    assert_eq!(api.status, StatusCode::OK);
    let jar: Vec<(String, String)> = support::set_cookies(&api);
    let cart = &jar.iter().find(|(k, _)| k == "cart").unwrap().1;
    let version = &jar.iter().find(|(k, _)| k == "cart_v").unwrap().1;
    let mine = format!("{SHOPPER}; session={token}; cart={cart}; cart_v={version}");
    let r = send!(
        store,
        get("/buy-beer", &mine).insert_header(("accept-encoding", "gzip"))
    );
    assert_eq!(r.headers.get("content-encoding").unwrap(), "gzip");
    assert_eq!(r.headers.get("cache-control").unwrap(), "private, no-store");
    let html = gunzip(&r.body);
    assert!(!html.contains('\u{E000}'));
    let s = state(&html);
    assert_eq!(s["visitor"]["cart_count"], 1);
    assert_eq!(
        s["visitor"]["cart"]["cart_order_summary"]["items_total"],
        118_800
    );
    assert_eq!(s["csrf"], framework::session::csrf_token(&token));

    // Everyone else still gets the page for everyone.
    let r = send!(store, get("/buy-beer", SHOPPER));
    assert_eq!(state(&r.text())["visitor"]["cart_count"], 0);

    // Two members share the rendered page and each sees their own name.
    for n in [1u8, 2] {
        let t = support::member(&db, n).await;
        let r = send!(
            store,
            get("/buy-beer", &format!("{SHOPPER}; session={t}; member=1"))
        );
        let html = r.text();
        assert!(!html.contains('\u{E000}'));
        assert!(html.contains(&format!(">Member{n}<")), "member {n}");
        assert!(!html.contains(&format!(">Member{}<", 3 - n)));
        assert_eq!(state(&html)["member"]["firstname"], format!("Member{n}"));
        assert_eq!(state(&html)["csrf"], framework::session::csrf_token(&t));
    }
}
both!(visitors_see_their_own_parts);

/// A member who logs in holding a guest cart of the other family chooses on the cart page which
/// cart to keep, without JavaScript too.
async fn the_cart_page_settles_a_conflict(b: Backend) {
    let db = database(b);
    let store = store!(db);
    support::member_who_logs_in(&db, 1).await;
    let api_call = |cookie: String, uri: &'static str, body: Value| {
        support::send_api(
            &db.pool,
            actix_web::test::TestRequest::post()
                .uri(uri)
                .insert_header(("cookie", cookie))
                .set_json(body),
        )
    };
    // The member's own cart: bottles.
    let (_, first) = support::log_in_member(&db, 1, "").await;
    let add = |p: i64, q: i64| json!({"product_id": p, "quantity": q, "barangay": 1380300002});
    api_call(format!("session={first}"), "/api/v1/cart", add(1, 24)).await;
    // A keg as a guest on another browser, then logging in there.
    let guest = support::guest(&db).await;
    let r = api_call(format!("session={guest}"), "/api/v1/cart", add(21, 1)).await;
    let cart = support::set_cookies(&r)
        .into_iter()
        .find(|(k, _)| k == "cart")
        .unwrap()
        .1;
    let (login, member) =
        support::log_in_member(&db, 1, &format!("session={guest}; cart={cart}")).await;
    assert_eq!(login["data"]["cart_conflict"], true);
    let jar = format!("{SHOPPER}; session={member}; member=1; cart={cart}");
    let page = send!(store, get("/cart", &jar));
    let html = page.text();
    assert!(
        html.contains("Which cart do you keep?"),
        "the cart page asks"
    );
    assert!(html.contains("Tala Pale Pilsen Keg 30 L x 1"));
    let body = support::form_body(&[
        ("_call", "keepCart"),
        ("csrf", &support::csrf_of(&html)),
        ("keep", "guest"),
        ("barangay", "1380300002"),
    ]);
    let r = send!(
        store,
        support::post_form("/cart", &jar, &body).insert_header(("origin", "https://shop.example"))
    );
    assert_eq!(r.status, StatusCode::SEE_OTHER, "{}", r.text());
    assert_eq!(support::location(&r), "/cart?done=kept");
    let html = send!(store, get("/cart?done=kept", &jar)).text();
    assert!(html.contains("Your cart is ready."));
    assert!(!html.contains("Which cart do you keep?"));
    assert!(state(&html)["state"]["queries"]
        .to_string()
        .contains("Tala Pale Pilsen Keg 30 L"));
}
both!(the_cart_page_settles_a_conflict);
