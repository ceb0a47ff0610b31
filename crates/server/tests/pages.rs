//! Server-rendered pages over HTTP, with the real UI build and QuickJS, against SQLite and
//! PostgreSQL. Needs `make build` (ui/dist and ssr-bundle/dist); fails without it.

use crate::support;

use actix_web::http::StatusCode;
use support::{database, get, root as rendered, Backend, BACOOR};

async fn buy_beer_renders_every_product_on_the_server(b: Backend) {
    let db = database(b);
    let store = store!(db);
    let p = send!(store, get("/buy-beer", ""));
    assert_eq!(p.status, StatusCode::OK);
    let html = p.text();
    let body = rendered(&html);
    assert!(body.contains("Tala Pale Pilsen 320 ml"));
    assert!(body.contains("P52.00"));
    assert!(body.contains("P1,392.00"), "cans at the box price");
    assert!(body.contains("P7,250.00"));
    assert!(body.contains(r#"href="/single-product/tala-pale-pilsen-320ml""#));
    assert!(body.contains(r#"id="browse-cont""#));
    // The first page of the 26: 24, and a link to the next.
    assert_eq!(body.matches(r#"class="card""#).count(), 24);
    assert!(body.contains("Showing 1–24 of 26 products"));
    assert!(body.contains(r#"href="/buy-beer?page=2#browse-cont" rel="next""#));
    assert!(p
        .text()
        .contains("<title>Buy Beer | Tala Brewing Co.</title>"));
    assert!(p
        .text()
        .contains(r#"<link rel="canonical" href="https://shop.example/buy-beer">"#));
    assert!(
        p.text().contains(r#""ssr":true"#),
        "hydrates, not client-rendered"
    );
    assert!(p.text().contains(r#"/assets/client-"#));
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

/// A crowd asking at once for a page nobody has yet costs the renders of one visit: one asker
/// renders the page (and the parts it fills in), the others wait for it.
async fn a_crowd_asking_for_a_new_page_costs_one_render(b: Backend) {
    let db = database(b);
    let renders = |metrics: &str| -> f64 {
        metrics
            .lines()
            .find_map(|l| l.strip_prefix("store_render_memo_misses_total "))
            .and_then(|v| v.parse().ok())
            .expect("the render misses in the metrics")
    };
    let cookie = format!("locationGateBarangayId={BACOOR}; locationGateFulfillmentId=1");
    // Each store has its own renderer: one visit to one store, six at once to another.
    let one = store!(db);
    let before = renders(&send!(one, get("/metrics", "")).text());
    assert_eq!(send!(one, get("/buy-beer", &cookie)).status, StatusCode::OK);
    let one_visit = renders(&send!(one, get("/metrics", "")).text()) - before;
    assert!(one_visit >= 1.0);

    let crowd = store!(db);
    let before = renders(&send!(crowd, get("/metrics", "")).text());
    let asks = (0..6).map(|_| support::call(&crowd, get("/buy-beer", &cookie).to_request()));
    let answers = futures_util::future::join_all(asks).await;
    assert!(answers.iter().all(|a| a.status == StatusCode::OK));
    assert!(answers.iter().all(|a| a.text() == answers[0].text()));
    let six_visits = renders(&send!(crowd, get("/metrics", "")).text()) - before;
    assert_eq!(
        six_visits, one_visit,
        "six visits at once, the renders of one"
    );
}
both!(a_crowd_asking_for_a_new_page_costs_one_render);

async fn a_barangay_cookie_narrows_the_list(b: Backend) {
    let db = database(b);
    let store = store!(db);
    let p = send!(
        store,
        get("/buy-beer", &format!("locationGateBarangayId={BACOOR}"))
    );
    assert_eq!(p.status, StatusCode::OK);
    let html = p.text();
    let body = rendered(&html);
    assert_eq!(body.matches(r#"class="card""#).count(), 19);
    assert!(
        !body.contains("Keg 30 L") && !body.contains("Keg 20 L"),
        "no kegs in Bacoor"
    );
    assert!(
        p.text()
            .contains(&format!("/api/v1/products?barangay={BACOOR}")),
        "state keyed like the client"
    );
}
both!(a_barangay_cookie_narrows_the_list);

async fn category_cookie_and_filter_by_type_pick_the_packaging(b: Backend) {
    let db = database(b);
    let store = store!(db);
    let p = send!(store, get("/buy-beer", "categoryGateId=3"));
    assert_eq!(rendered(&p.text()).matches(r#"class="card""#).count(), 6);
    // filterByType wins over the category cookie.
    let p = send!(store, get("/buy-beer?filterByType=can", "categoryGateId=3"));
    let html = p.text();
    let body = rendered(&html);
    assert_eq!(body.matches(r#"class="card""#).count(), 9);
    assert!(body.contains("Tala Pale Pilsen Can 330 ml"));
    assert!(p
        .text()
        .contains(r#"href="https://shop.example/buy-beer?filterByType=can""#));
    let p = send!(store, get("/buy-beer?filterByType=keg", ""));
    assert_eq!(rendered(&p.text()).matches(r#"class="card""#).count(), 6);
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
        // A filter the page cannot read is left out: sent on to the list's one address.
        let p = send!(store, get("/buy-beer?filterByType=nonsense", cookie));
        assert_eq!(p.status, StatusCode::FOUND, "{cookie}");
        assert_eq!(p.headers.get("location").unwrap(), "/buy-beer");
        let p = send!(store, get("/buy-beer", cookie));
        assert_eq!(p.status, StatusCode::OK, "{cookie}");
        assert_eq!(
            rendered(&p.text()).matches(r#"class="card""#).count(),
            24,
            "{cookie}: unset (the first page of the 26)"
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
        let p = send!(store, get(path, ""));
        assert_eq!(p.status, StatusCode::NOT_FOUND, "{path}");
        assert!(rendered(&p.text()).contains("Page not found"), "{path}");
        assert!(p
            .text()
            .contains(r#"<meta name="robots" content="noindex">"#));
    }
}
both!(other_paths_are_404_pages);

async fn serves_hashed_assets_and_images(b: Backend) {
    let db = database(b);
    let store = store!(db);
    let html = send!(store, get("/buy-beer", "")).text();
    let start = html.find("/assets/client-").unwrap();
    let end = start + html[start..].find('"').unwrap();
    let asset = send!(store, get(&html[start..end], ""));
    assert_eq!(asset.status, StatusCode::OK);
    assert!(asset
        .headers
        .get("cache-control")
        .unwrap()
        .to_str()
        .unwrap()
        .contains("immutable"));
    let img = send!(store, get("/img/products/tala-pale-pilsen-320ml.webp", ""));
    assert_eq!(img.status, StatusCode::OK);
    assert_eq!(img.headers.get("content-type").unwrap(), "image/webp");
    assert!(img.body.starts_with(b"RIFF") && img.body[8..12] == *b"WEBP");
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
    let buy = preloads(&send!(store, get("/buy-beer", "")).text());
    let cart = preloads(&send!(store, get("/cart", "")).text());
    let faqs = preloads(&send!(store, get("/faqs", "")).text());
    let missing = send!(store, get("/no-such-page", ""));
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
    let missing = preloads(&missing.text());
    let has = |list: &[String], page: &str| {
        list.iter()
            .any(|u| u.starts_with(&format!("/assets/{page}-")))
    };
    assert!(has(&buy, "BuyBeer") && !has(&buy, "CartPage"), "{buy:?}");
    assert!(has(&cart, "CartPage") && !has(&cart, "BuyBeer"), "{cart:?}");
    assert!(has(&faqs, "Faqs") && !has(&faqs, "Checkout"), "{faqs:?}");
    assert!(has(&missing, "NotFound"), "{missing:?}");
    // After the page: the first round trip holds the inline CSS, the header and the start of
    // main; the preloads follow the page (a page's first load shows it from the first round
    // trip). A round trip is the first 14,600 bytes on the wire (ten TCP segments, RFC 6928's
    // initial window): the answer's head, then the page compressed (every browser asks for br or
    // gzip; gzip counted, the larger), for a visitor before the gates and one past them.
    for cookie in ["", support::PAST_GATES] {
        let r = send!(store, get("/buy-beer", cookie));
        let head: usize = r
            .headers
            .iter()
            .map(|(k, v)| k.as_str().len() + v.len() + 4)
            .sum::<usize>()
            + "HTTP/1.1 200 OK\r\n\r\n".len();
        let page = r.text();
        let at = |needle: &str| page.find(needle).map(|i| i + needle.len()).unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        std::io::Write::write_all(&mut gz, &page.as_bytes()[..at("<main")]).unwrap();
        let wire = head + gz.finish().unwrap().len();
        assert!(
            wire <= 14_600,
            "<main> starts after {wire} bytes on the wire ({cookie:?})"
        );
        assert!(at("</style>") < at("</header>") && at("</header>") < at("<main"));
    }
    let page = send!(store, get("/buy-beer", "")).text();
    // In the head, beside the entry: fetched before the page's pictures take the connections.
    assert!(page.find("modulepreload").unwrap() < page.find("</head>").unwrap());
    // The chunk every page shares comes first, the same on each.
    assert_eq!(buy[0], cart[0]);
    assert_eq!(buy[0], faqs[0]);
    let shared = send!(
        store,
        get(&buy[0], "").insert_header(("accept-encoding", "br"))
    );
    assert_eq!(shared.headers.get("content-encoding").unwrap(), "br");
    for url in buy.iter().chain(&cart) {
        assert!(url.starts_with("/assets/") && url.ends_with(".js"), "{url}");
        let req = get(url, "").insert_header(("accept-encoding", "br"));
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

/// A flood of made-up addresses renders 404 pages but keeps none of them: they must not evict the
/// pages that exist.
async fn made_up_addresses_are_not_kept(b: Backend) {
    let db = database(b);
    let (api, store) = store!(db, support::store_config(&db.url, false), with api);
    for i in 0..20 {
        let uri = format!("/no-such-page-{i}");
        assert_eq!(
            send!(store, support::get(&uri, "")).status,
            StatusCode::NOT_FOUND
        );
    }
    assert_eq!(api.cache.weight(), 0, "no 404 page is kept");
    assert_eq!(
        send!(store, support::get("/faqs", "")).status,
        StatusCode::OK
    );
    assert!(api.cache.weight() > 0, "a page that exists is kept");
}
both!(made_up_addresses_are_not_kept);
