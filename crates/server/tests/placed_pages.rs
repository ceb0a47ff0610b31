//! Pages shared by the barangays of a city (`web::placed`): a barangay's page made from the page
//! its city's places share is, byte for byte, the page rendered for it alone.

use crate::support;

use actix_web::http::StatusCode;
use support::{database, exec, get, Backend, MAKATI};

/// Two barangays of Makati City (Carmona, Dasmariñas) without streets of their own.
const CARMONA: i64 = 1380300005;
const DASMARINAS: i64 = 1380300006;

/// Every shop page a guest reads, and a few more: lists sorted, filtered and paged, a product,
/// a search, the cart, a page of texts.
const ADDRESSES: [&str; 14] = [
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
];

fn renders(metrics: &str) -> f64 {
    metrics
        .lines()
        .find_map(|l| l.strip_prefix("store_render_memo_misses_total "))
        .and_then(|v| v.parse().ok())
        .expect("the render misses in the metrics")
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
        let before = renders(&send!(shared, get("/metrics", "")).text());
        for address in ADDRESSES {
            let first = send!(shared, get(address, &format!("{}{own}", gates(CARMONA))));
            assert_eq!(first.status, StatusCode::OK, "{address}");
        }
        let carmona = renders(&send!(shared, get("/metrics", "")).text()) - before;
        for address in ADDRESSES {
            let cookie = format!("{}{own}", gates(DASMARINAS));
            let made = send!(shared, get(address, &cookie));
            let own_render = send!(alone, get(address, &cookie));
            assert_eq!(made.status, own_render.status, "{address}");
            same(&made.text(), &own_render.text(), address);
            assert!(
                made.text().contains(
                    "Dasmariñas &amp; &quot;Village&quot; &lt;O&#x27;Hara&gt;, Makati City"
                ),
                "{address}: the place in the header: {}",
                &made.text()[made
                    .text()
                    .find("Makati City")
                    .map_or(0, |i| i.saturating_sub(120))..][..200]
            );
            assert!(made
                .text()
                .contains(&format!("\"barangayId\":{DASMARINAS}")));
            assert!(
                !made.text().contains('\u{E000}'),
                "{address}: no sentinel left"
            );
        }
        let both = renders(&send!(shared, get("/metrics", "")).text()) - before;
        // The second barangay's pages were the first's: only a page whose data differs, or the
        // open location picker (not shared), is rendered again.
        assert!(
            both - carmona <= 2.0,
            "{carmona} renders for Carmona, {} more for Dasmariñas",
            both - carmona
        );
        if round == 0 {
            assert!(carmona >= 10.0, "{carmona}");
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
