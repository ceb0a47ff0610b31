//! Server-rendered pages over HTTP, with the real UI build and QuickJS, against SQLite and
//! PostgreSQL. Needs `make build` (ui/dist and ssr-bundle/dist); fails without it.

mod support;

use actix_web::http::StatusCode;
use support::{database, root as rendered, Backend};

struct Page {
    status: StatusCode,
    html: String,
    headers: actix_web::http::header::HeaderMap,
}

/// A page with these cookies ("" for none), from a store built by `store!` (a future).
macro_rules! get {
    ($store:expr, $uri:expr, $cookie:expr $(,)?) => {
        async {
            let res = send!($store, support::get($uri, $cookie));
            Page {
                status: res.status,
                html: res.text(),
                headers: res.headers,
            }
        }
    };
}

async fn buy_beer_renders_every_product_on_the_server(b: Backend) {
    let db = database(b);
    let store = store!(db);
    let p = get!(store, "/buy-beer", "").await;
    assert_eq!(p.status, StatusCode::OK);
    let body = rendered(&p.html);
    assert!(body.contains("Tala Pale Pilsen 320 ml"));
    assert!(body.contains("P52.00"));
    assert!(body.contains("P1,392.00"), "cans at the box price");
    assert!(body.contains("P7,250.00"));
    assert!(body.contains(r#"href="/single-product/tala-pale-pilsen-320ml""#));
    assert!(body.contains(r#"id="browse-cont""#));
    assert_eq!(body.matches(r#"class="card""#).count(), 26);
    assert!(p
        .html
        .contains("<title>Buy Beer | Tala Brewing Co.</title>"));
    assert!(p
        .html
        .contains(r#"<link rel="canonical" href="https://shop.example/buy-beer">"#));
    assert!(
        p.html.contains(r#""ssr":true"#),
        "hydrates, not client-rendered"
    );
    assert!(p.html.contains(r#"/assets/client-"#));
    assert!(p
        .headers
        .get("content-security-policy")
        .unwrap()
        .to_str()
        .unwrap()
        .contains("frame-ancestors 'none'"));
    assert_eq!(p.headers.get("x-content-type-options").unwrap(), "nosniff");
}
both!(buy_beer_renders_every_product_on_the_server);

async fn a_barangay_cookie_narrows_the_list(b: Backend) {
    let db = database(b);
    let store = store!(db);
    let p = get!(store, "/buy-beer", "locationGateBarangayId=402103004").await;
    assert_eq!(p.status, StatusCode::OK);
    let body = rendered(&p.html);
    assert_eq!(body.matches(r#"class="card""#).count(), 19);
    assert!(
        !body.contains("Keg 30 L") && !body.contains("Keg 20 L"),
        "no kegs in Bacoor"
    );
    assert!(
        p.html.contains(r#"/api/v1/products?barangay=402103004"#),
        "state keyed like the client"
    );
}
both!(a_barangay_cookie_narrows_the_list);

async fn category_cookie_and_filter_by_type_pick_the_packaging(b: Backend) {
    let db = database(b);
    let store = store!(db);
    let p = get!(store, "/buy-beer", "categoryGateId=3").await;
    assert_eq!(rendered(&p.html).matches(r#"class="card""#).count(), 6);
    // filterByType wins over the category cookie.
    let p = get!(store, "/buy-beer?filterByType=can", "categoryGateId=3").await;
    let body = rendered(&p.html);
    assert_eq!(body.matches(r#"class="card""#).count(), 9);
    assert!(body.contains("Tala Pale Pilsen Can 330 ml"));
    assert!(p
        .html
        .contains(r#"href="https://shop.example/buy-beer?filterByType=can""#));
    let p = get!(store, "/buy-beer?filterByType=keg", "").await;
    assert_eq!(rendered(&p.html).matches(r#"class="card""#).count(), 6);
}
both!(category_cookie_and_filter_by_type_pick_the_packaging);

async fn bad_gate_cookies_count_as_unset(b: Backend) {
    let db = database(b);
    let store = store!(db);
    for cookie in [
        "locationGateBarangayId=abc; categoryGateId=%%%",
        "locationGateBarangayId=999; categoryGateId=77",
        "locationGateBarangayId=-1",
    ] {
        let p = get!(store, "/buy-beer?filterByType=nonsense", cookie).await;
        assert_eq!(p.status, StatusCode::OK, "{cookie}");
        assert_eq!(
            rendered(&p.html).matches(r#"class="card""#).count(),
            26,
            "{cookie}: unset"
        );
    }
}
both!(bad_gate_cookies_count_as_unset);

async fn other_paths_are_404_pages(b: Backend) {
    let db = database(b);
    let store = store!(db);
    for path in [
        "/nope",
        "/buy-beer/extra",
        "/single-product/a/b",
        "/atomic-design/x",
    ] {
        let p = get!(store, path, "").await;
        assert_eq!(p.status, StatusCode::NOT_FOUND, "{path}");
        assert!(rendered(&p.html).contains("Page not found"), "{path}");
        assert!(p.html.contains(r#"<meta name="robots" content="noindex">"#));
    }
}
both!(other_paths_are_404_pages);

async fn serves_hashed_assets_and_images(b: Backend) {
    let db = database(b);
    let store = store!(db);
    let p = get!(store, "/buy-beer", "").await;
    let start = p.html.find("/assets/client-").unwrap();
    let end = start + p.html[start..].find('"').unwrap();
    let asset = get!(store, &p.html[start..end], "").await;
    assert_eq!(asset.status, StatusCode::OK);
    assert!(asset
        .headers
        .get("cache-control")
        .unwrap()
        .to_str()
        .unwrap()
        .contains("immutable"));
    let img = get!(store, "/img/products/tala-pale-pilsen-320ml.svg", "").await;
    assert_eq!(img.status, StatusCode::OK);
    assert!(img.html.starts_with("<svg"));
}
both!(serves_hashed_assets_and_images);

/// The chunks a page's HTML preloads (`<link rel="modulepreload">`), in order.
fn preloads(html: &str) -> Vec<String> {
    let tag = r#"<link rel="modulepreload" href=""#;
    html.match_indices(tag)
        .map(|(i, _)| {
            let rest = &html[i + tag.len()..];
            rest[..rest.find('"').unwrap()].to_string()
        })
        .collect()
}

/// Each page's first load fetches the entry, the chunks it shares with every page and its own
/// page's, all listed in the HTML so none waits for the script that imports it; never another
/// page's.
#[actix_web::test]
async fn a_page_preloads_its_own_chunks_only() {
    let db = database(Backend::Sqlite);
    let store = store!(db);
    let buy = preloads(&get!(store, "/buy-beer", "").await.html);
    let cart = preloads(&get!(store, "/cart", "").await.html);
    let faqs = preloads(&get!(store, "/faqs", "").await.html);
    let missing = get!(store, "/no-such-page", "").await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    let missing = preloads(&missing.html);
    let has = |list: &[String], page: &str| {
        list.iter()
            .any(|u| u.starts_with(&format!("/assets/{page}-")))
    };
    assert!(has(&buy, "BuyBeer") && !has(&buy, "CartPage"), "{buy:?}");
    assert!(has(&cart, "CartPage") && !has(&cart, "BuyBeer"), "{cart:?}");
    assert!(has(&faqs, "Faqs") && !has(&faqs, "Checkout"), "{faqs:?}");
    assert!(has(&missing, "NotFound"), "{missing:?}");
    // After the page: the first 14,600 bytes (a first round trip) hold the inline CSS, the
    // header and the start of main; the preloads follow the page (DESIGN's first-load budget).
    let page = get!(store, "/buy-beer", "").await.html;
    let at = |needle: &str| page.find(needle).map(|i| i + needle.len()).unwrap();
    assert!(
        at("<main") <= 14_600,
        "<main> starts at byte {}",
        at("<main")
    );
    assert!(at("</header>") <= 14_600 && at("</style>") <= 14_600);
    assert!(page.find("modulepreload").unwrap() > page.find("<main").unwrap());
    // The chunk every page shares comes first, the same on each.
    assert_eq!(buy[0], cart[0]);
    assert_eq!(buy[0], faqs[0]);
    let shared = send!(
        store,
        support::get(&buy[0], "").insert_header(("accept-encoding", "br"))
    );
    assert_eq!(shared.headers.get("content-encoding").unwrap(), "br");
    for url in buy.iter().chain(&cart) {
        assert!(url.starts_with("/assets/") && url.ends_with(".js"), "{url}");
        let req = support::get(url, "").insert_header(("accept-encoding", "br"));
        let asset = send!(store, req);
        assert_eq!(asset.status, StatusCode::OK, "{url}");
        // Sent in the brotli form the build made (a file under 512 bytes as it is).
        match asset.headers.get("content-encoding") {
            Some(encoding) => assert_eq!(encoding, "br", "{url}"),
            None => assert!(asset.body.len() < 512, "{url} uncompressed"),
        }
        let cache = asset
            .headers
            .get("cache-control")
            .unwrap()
            .to_str()
            .unwrap();
        assert!(cache.contains("immutable"), "{url}: {cache}");
        assert!(asset
            .headers
            .get("content-type")
            .unwrap()
            .to_str()
            .unwrap()
            .starts_with("text/javascript"));
    }
}
