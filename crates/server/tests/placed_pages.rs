//! Pages shared by the barangays of a city (`web::shared_by_city`): a barangay's page made from
//! the page its city's places share is, byte for byte, the page rendered for it alone.

use crate::support;

use actix_web::http::StatusCode;
use serde_json::{json, Value};
use support::{
    database, exec, get, guest_browser, page_state, send_json, Auth, Backend, MAKATI, PAST_GATES,
};

/// Two barangays of Makati City (Carmona, Dasmariñas) without streets of their own.
const CARMONA: i64 = 1380300005;
const DASMARINAS: i64 = 1380300006;

/// Every shop page a guest reads, and a few more: lists sorted, filtered and paged, a product,
/// a search, the cart, a page of texts; a price range and a page past the last (not kept).
const ADDRESSES: [&str; 16] = [
    "/",
    "/buy-beer",
    "/buy-beer?sort=newest",
    "/buy-beer?filterByType=can&sort=price",
    "/buy-beer?filterByType=keg&sort=name",
    "/promos",
    "/whats-new",
    "/search?q=tala",
    "/single-product/tala-pale-pilsen-320ml",
    "/single-product/tala-pale-pilsen-keg-30l",
    "/cart",
    "/delivery-areas",
    "/faqs",
    "/buy-beer?gate=location",
    "/buy-beer?sort=price&min=50&max=80",
    "/buy-beer?page=9",
];

/// How many pages a store's renderer has rendered (not answered from its memo).
fn renders(metrics: &str) -> f64 {
    metrics
        .lines()
        .find_map(|l| l.strip_prefix("store_render_memo_misses_total "))
        .and_then(|v| v.parse().ok())
        .expect("the render misses in the metrics")
}

macro_rules! renders_of {
    ($store:expr) => {
        renders(&send!($store, get("/metrics", "")).text())
    };
}

/// A page's body as the browser reads it, whatever its encoding.
fn decoded(r: &support::Res) -> String {
    use std::io::Read;
    let coding = r
        .headers
        .get("content-encoding")
        .map_or("", |v| v.to_str().unwrap());
    let mut out = String::new();
    match coding {
        "br" => brotli::Decompressor::new(&r.body[..], 4096)
            .read_to_string(&mut out)
            .expect("a brotli page"),
        "gzip" => flate2::read::GzDecoder::new(&r.body[..])
            .read_to_string(&mut out)
            .expect("a gzip page"),
        _ => return r.text(),
    };
    out
}

/// The page with its CSRF tokens blanked: a page with forms given to a guest without a session
/// starts one (a new token each time).
fn without_csrf(page: &str) -> String {
    let mut out = page.to_string();
    for before in ["\"csrf\":\"", "name=\"csrf\" value=\""] {
        let mut from = 0;
        while let Some(at) = out[from..].find(before) {
            let start = from + at + before.len();
            let end = start + out[start..].find('"').unwrap_or(0);
            out.replace_range(start..end, "");
            from = start;
        }
    }
    out
}

/// Asserts two pages are the same bytes (their CSRF tokens apart), showing where they part
/// when not.
fn same(made: &str, alone: &str, address: &str) {
    let (made, alone) = (&without_csrf(made), &without_csrf(alone));
    if made != alone {
        let at = made
            .bytes()
            .zip(alone.bytes())
            .position(|(a, b)| a != b)
            .unwrap_or(made.len().min(alone.len()));
        let from = made.floor_char_boundary(at.saturating_sub(200));
        let around = |s: &str| s[from..s.ceil_char_boundary((at + 200).min(s.len()))].to_string();
        panic!(
            "{address}: shared and alone part at byte {at}\nshared: {}\nalone:  {}",
            around(made),
            around(alone)
        );
    }
}

fn gates(barangay: i64) -> String {
    format!(
        "cookieAccepted=1; privacyVerification=1; categoryGateId=1; locationGateFulfillmentId=1; locationGateBarangayId={barangay}"
    )
}

async fn a_city_s_places_share_a_page_byte_for_byte_as_rendered_alone(b: Backend) {
    let db = database(b);
    // A name that needs escaping, in the HTML and in the page state alike.
    exec(
        &db.pool,
        &format!("UPDATE barangays SET barangay_name = 'Dasmariñas & \"Village\" <O''Hara>' WHERE id = {DASMARINAS}"),
    );
    let shared = store!(db);
    // A store of its own (its own page cache and renderer) that renders each place's page alone.
    let cfg = support::store_config(&db.url, false);
    let api = server::api_state(db.pool.clone(), &cfg).expect("api state");
    let mut alone = server::web_state(&api, &cfg).expect("web state");
    alone.share_by_city = false;
    let alone = actix_web::web::Data::new(alone);
    let api = actix_web::web::Data::new(api);
    let alone = actix_web::test::init_service(server::app(&api, &alone)).await;
    let guest = support::guest_browser(&db, support::PALE_PILSEN, 2).await;

    // Two shoppers: a guest with nothing of their own (the page filled once for everyone) and a
    // guest with a session and a cart (the page filled for them).
    for (round, own) in ["".to_string(), format!("; {}", guest.cookie())]
        .iter()
        .enumerate()
    {
        let mut counts = Vec::new();
        for barangay in [CARMONA, DASMARINAS] {
            let before = [renders_of!(shared), renders_of!(alone)];
            let cookie = format!("{}{own}", gates(barangay));
            for address in ADDRESSES {
                let made = send!(shared, get(address, &cookie));
                let own_render = send!(alone, get(address, &cookie));
                let want = if address.ends_with("page=9") {
                    StatusCode::NOT_FOUND
                } else {
                    StatusCode::OK
                };
                assert_eq!(made.status, want, "{address}");
                assert_eq!(own_render.status, want, "{address}");
                same(&made.text(), &own_render.text(), address);
                assert!(
                    !made.text().contains('\u{E000}'),
                    "{address}: no sentinel left"
                );
                assert!(made.text().contains(&format!("\"barangayId\":{barangay}")));
                if barangay == DASMARINAS {
                    assert!(
                        made.text().contains(
                            "Dasmariñas &amp; &quot;Village&quot; &lt;O&#x27;Hara&gt;, Makati City"
                        ),
                        "{address}: the place in the header"
                    );
                }
                // Compressed as a browser takes it: brotli for everyone's page, gzip spliced
                // for a visitor's own.
                let encoded = send!(
                    shared,
                    get(address, &cookie).insert_header(("accept-encoding", "gzip, br"))
                );
                same(&decoded(&encoded), &own_render.text(), address);
            }
            counts.push([
                renders_of!(shared) - before[0],
                renders_of!(alone) - before[1],
            ]);
        }
        // The second barangay's pages were the first's: rendered again are only the open
        // location picker (not shared) and the cart page (a page with forms: each guest without
        // a session who asks for it starts one, twice here); the store rendering alone rendered
        // them all again.
        let [[carmona, _], [dasmarinas, alone_dasmarinas]] = [counts[0], counts[1]];
        assert!(
            dasmarinas <= 3.0,
            "{carmona} renders for Carmona, {dasmarinas} more for Dasmariñas"
        );
        if round == 0 {
            assert!(carmona >= 10.0, "{carmona}");
            assert!(alone_dasmarinas >= 10.0, "{alone_dasmarinas}");
        }
    }

    // Bel-Air has streets: its pages name them, and a street chosen shapes the page. Its page is
    // its own; answered right all the same.
    let bel_air = format!("{}; locationGateStreetId=1", gates(MAKATI));
    for address in ADDRESSES {
        let made = send!(shared, get(address, &bel_air));
        let own_render = send!(alone, get(address, &bel_air));
        same(&made.text(), &own_render.text(), address);
    }
}
both!(a_city_s_places_share_a_page_byte_for_byte_as_rendered_alone);

/// `web::page_with_slots::Page::respond_filled`: every encoding but identity is answered as a
/// spliced gzip stream, so a client that accepts only Brotli (or refuses gzip with `q=0`) gets
/// `Content-Encoding: gzip`, which it said it cannot decode. `respond` negotiates properly.
#[actix_web::test]
async fn a_filled_page_is_never_gzip_for_a_client_that_refuses_gzip() {
    let db = database(Backend::Sqlite);
    let store = store!(db);
    let mine = guest_browser(&db, 1, 24).await.cookie();
    for accept in ["br", "br, gzip;q=0"] {
        let r = send!(
            store,
            get("/buy-beer", &format!("{PAST_GATES}; {mine}"))
                .insert_header(("accept-encoding", accept))
        );
        assert_eq!(r.status, StatusCode::OK);
        let encoding = r
            .headers
            .get("content-encoding")
            .map(|v| v.to_str().unwrap().to_string());
        assert_ne!(
            encoding.as_deref(),
            Some("gzip"),
            "Accept-Encoding: {accept} was answered with gzip"
        );
    }
}

/// Text a visitor typed never becomes a slot: `web::page_with_slots::SlottedBody::new` makes every
/// sentinel of the rendered page a slot, so the order form (`api::orders::place`'s `check_form`)
/// refuses the private-use characters the sentinels are made of, beside control characters. An
/// order's notes holding the visitor sentinel would make its /active-order page's state script
/// invalid JSON (the slot takes the two characters around it for quotes), and the page could not
/// hydrate.
#[actix_web::test]
async fn typed_text_never_becomes_a_slot() {
    let db = database(Backend::Sqlite);
    let store = store!(db);
    let mine = guest_browser(&db, 1, 24).await.cookie();
    let uri = format!("/api/v1/cart/{MAKATI}");
    let cart = send_json(&db, "GET", &uri, Auth::Cookie(mine.clone()), Value::Null)
        .await
        .json();
    let order = send_json(
        &db,
        "POST",
        "/api/v1/orders",
        Auth::Cookie(mine.clone()),
        json!({
                "contact_name": "Ana Santos",
                "mobile": "09171234567",
                "email": "ana@example.com",
                "address": "12 Rizal St., Unit 3",
                "barangay": MAKATI,
                "fulfillment": 1,
                "notes": "x\u{E000}visitor\u{E000}y \u{E000}csrf\u{E000}",
                "revision": cart["revision"],
                "expected_total": cart["cart_order_summary"]["subtotal"],
                "testdate": "2026-11-23T10:00",
        }),
    )
    .await;
    if order.status == StatusCode::UNPROCESSABLE_ENTITY {
        // The form refuses the characters: nothing typed can become a slot.
        assert!(
            order.json()["errors"]["notes"].is_array(),
            "{}",
            order.text()
        );
        return;
    }
    assert_eq!(order.status, StatusCode::CREATED, "{}", order.text());
    let link = order.json()["link"].as_str().unwrap().to_string();
    let r = send!(store, get(&link, &format!("{PAST_GATES}; {mine}")));
    assert_eq!(r.status, StatusCode::OK, "{link}");
    let html = r.text();
    let s = page_state(&html).expect("the order page's state script is valid JSON");
    let shown = serde_json::to_string(&s).unwrap();
    assert!(
        shown.contains("\u{E000}visitor\u{E000}") || shown.contains("\\ue000visitor\\ue000"),
        "the notes are shown as typed"
    );
}

/// crates/web/src/page_with_slots.rs: a query parameter a page puts in its state (here the location
/// gate's steps and the order key are ids; `testdate`, `token`, `key`, `from` are text) can carry
/// a sentinel; the page must still carry valid JSON and no visitor's parts in its place.
#[actix_web::test]
async fn a_query_parameter_never_becomes_a_slot() {
    let db = database(Backend::Sqlite);
    let store = store!(db);
    let mine = guest_browser(&db, 1, 24).await.cookie();
    let sentinel = "x%EE%80%80visitor%EE%80%80y";
    let mut broken = Vec::new();
    for uri in [
        format!("/active-order/1?key={sentinel}"),
        format!("/buy-beer?testdate={sentinel}"),
        format!("/reset-password?token={sentinel}"),
        format!("/login?from={sentinel}"),
    ] {
        let r = send!(store, get(&uri, &format!("{PAST_GATES}; {mine}")));
        if page_state(&r.text()).is_none() {
            broken.push(uri);
        }
    }
    assert!(
        broken.is_empty(),
        "pages whose state script is not valid JSON: {broken:?}"
    );
}
