//! The product lists at size, against SQLite and PostgreSQL: /buy-beer and its call sort, filter
//! and page (24 a page) on the seed and among 10,000 generated products; a change to the catalog
//! shows at once; bad values are refused by the call in words and left out by the page; each page
//! of a list is its own canonical page with links to its neighbours that work without JavaScript.

use crate::support;

use std::collections::HashSet;

use actix_web::http::StatusCode;
use serde_json::Value;
use support::{database, get, root, send_json, Backend, BACOOR, MAKATI};

async fn list(db: &support::TestDb, query: &str) -> Value {
    let r = send_json(
        db,
        "GET",
        &format!("/api/v1/products?{query}"),
        "",
        Value::Null,
    )
    .await;
    assert_eq!(r.status, StatusCode::OK, "{query}: {}", r.text());
    r.json()
}

fn products(v: &Value) -> &Vec<Value> {
    v["products"].as_array().unwrap()
}

fn field<'a>(v: &'a Value, name: &str) -> Vec<&'a Value> {
    products(v).iter().map(|p| &p[name]).collect()
}

async fn the_seed_s_list_is_cut_into_pages_of_24(b: Backend) {
    let db = database(b);
    let first = list(&db, "").await;
    assert_eq!(
        (
            first["total"].as_i64(),
            first["page"].as_i64(),
            first["pages"].as_i64()
        ),
        (Some(26), Some(1), Some(2))
    );
    assert_eq!(products(&first).len(), 24);
    let second = list(&db, "page=2").await;
    assert_eq!(products(&second).len(), 2);
    let ids: HashSet<&Value> = field(&first, "id")
        .into_iter()
        .chain(field(&second, "id"))
        .collect();
    assert_eq!(ids.len(), 26, "every product once over the two pages");
    // The best sellers come with the plain first page only (the home page's strip).
    assert!(!first["best_sellers"].as_array().unwrap().is_empty());
    for other in [
        &second,
        &list(&db, "sort=name").await,
        &list(&db, "style=IPA").await,
    ] {
        assert_eq!(other["best_sellers"], serde_json::json!([]));
    }
    let past = list(&db, "page=3").await;
    assert!(products(&past).is_empty());
    assert_eq!(past["total"], 26);
    let small = list(&db, "per_page=5&page=6").await;
    assert_eq!(
        (products(&small).len(), small["pages"].as_i64()),
        (1, Some(6))
    );
    // The default order: best sellers first, then the catalog's.
    let best: Vec<bool> = products(&first)
        .iter()
        .map(|p| {
            first["best_sellers"]
                .as_array()
                .unwrap()
                .iter()
                .any(|b| b["id"] == p["id"])
        })
        .collect();
    let flips = best.windows(2).filter(|w| w[0] != w[1]).count();
    assert!(best[0] && flips == 1, "best sellers first: {best:?}");
}

async fn lists_sort_by_price_name_and_newest(b: Backend) {
    let db = database(b);
    let prices = |v: &Value| {
        field(v, "price")
            .iter()
            .map(|p| p.as_i64().unwrap())
            .collect::<Vec<_>>()
    };
    let v = list(&db, "sort=price&per_page=48").await;
    let p = prices(&v);
    assert!(p.windows(2).all(|w| w[0] <= w[1]), "{p:?}");
    let v = list(&db, "sort=price-desc&per_page=48").await;
    let p = prices(&v);
    assert!(p.windows(2).all(|w| w[0] >= w[1]), "{p:?}");
    let v = list(&db, "sort=name&per_page=48").await;
    let names: Vec<String> = field(&v, "product_name")
        .iter()
        .map(|n| n.as_str().unwrap().to_lowercase())
        .collect();
    assert!(names.windows(2).all(|w| w[0] <= w[1]), "{names:?}");
    let v = list(&db, "sort=newest&per_page=48").await;
    let days: Vec<&str> = field(&v, "created_on")
        .iter()
        .map(|d| d.as_str().unwrap())
        .collect();
    assert!(days.windows(2).all(|w| w[0] >= w[1]), "{days:?}");
    // What's new is newest first unless sorted otherwise.
    let r = send_json(
        &db,
        "GET",
        "/api/v1/products/whats-new?per_page=48",
        "",
        Value::Null,
    )
    .await;
    assert_eq!(field(&r.json(), "created_on"), field(&v, "created_on"));
}

async fn lists_filter_by_style_brewery_size_and_price(b: Backend) {
    let db = database(b);
    let all = list(&db, &format!("barangay={MAKATI}&per_page=48")).await;
    // Each facet's count is what its filter finds.
    for (name, param) in [("styles", "style"), ("brands", "brand"), ("sizes", "size")] {
        let facets = all["facets"][name].as_array().unwrap();
        assert!(facets.len() >= 3, "{name}: {facets:?}");
        for f in facets {
            let value = f["value"].as_str().unwrap();
            let q = format!("barangay={MAKATI}&{param}={}", value.replace(' ', "+"));
            let v = list(&db, &q).await;
            assert_eq!(v["total"], f["count"], "{q}");
            assert!(products(&v).iter().all(|p| p[param] == value), "{q}");
        }
    }
    // Any case, spaces around; filters combine.
    let v = list(&db, "brand=%20HABAGAT%20&size=330%20ml").await;
    assert_eq!(field(&v, "product_name"), ["Habagat Strong Lager 330 ml"]);
    let v = list(&db, "style=ipa&filterByType=can&packaging=2").await;
    assert_eq!(field(&v, "product_name"), ["Bangkal IPA Can 330 ml"]);
    // A price range in whole pesos, both ends in.
    let v = list(&db, "min_pesos=52&max_pesos=60&per_page=48").await;
    let p: Vec<i64> = field(&v, "price")
        .iter()
        .map(|p| p.as_i64().unwrap())
        .collect();
    assert!(
        !p.is_empty() && p.iter().all(|c| (5_200..=6_000).contains(c)),
        "{p:?}"
    );
    assert!(p.contains(&5_200), "the lowest end is in: {p:?}");
    // Nothing matches: an empty page, the facets still there to choose again.
    let v = list(&db, "style=Barleywine").await;
    assert_eq!((v["total"].as_i64(), products(&v).len()), (Some(0), 0));
    assert!(!v["facets"]["styles"].as_array().unwrap().is_empty());
    // A place with no kegs has no keg sizes; the price range is its own.
    let v = list(&db, &format!("barangay={BACOOR}")).await;
    let sizes: Vec<&str> = v["facets"]["sizes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["value"].as_str().unwrap())
        .collect();
    assert!(
        !sizes.iter().any(|s| s.ends_with(" L") && *s != "1 L"),
        "{sizes:?}"
    );
    assert!(v["facets"]["min_price"].as_i64() <= v["facets"]["max_price"].as_i64());
}

async fn bad_list_values_are_refused_in_words(b: Backend) {
    let db = database(b);
    for (query, field) in [
        ("min_pesos=-1", "min_pesos"),
        ("max_pesos=10000001", "max_pesos"),
        ("min_pesos=90&max_pesos=80", "max_pesos"),
        ("page=0", "page"),
        ("page=1000001", "page"),
        ("per_page=0", "per_page"),
        ("per_page=49", "per_page"),
    ] {
        let r = send_json(
            &db,
            "GET",
            &format!("/api/v1/products?{query}"),
            "",
            Value::Null,
        )
        .await;
        assert_eq!(
            r.status,
            StatusCode::UNPROCESSABLE_ENTITY,
            "{query}: {}",
            r.text()
        );
        assert!(r.text().contains(field), "{query}: {}", r.text());
    }
    let long = "a".repeat(101);
    let r = send_json(
        &db,
        "GET",
        &format!("/api/v1/products?style={long}"),
        "",
        Value::Null,
    )
    .await;
    assert_eq!(r.status, StatusCode::UNPROCESSABLE_ENTITY);
    for query in [
        "sort=cheapest",
        "page=-1",
        "page=x",
        "min_pesos=1e3",
        "per_page=99999999999",
    ] {
        let r = send_json(
            &db,
            "GET",
            &format!("/api/v1/products?{query}"),
            "",
            Value::Null,
        )
        .await;
        assert!(r.status.is_client_error(), "{query}: {}", r.status);
    }
    // Control characters and odd text are only words that match nothing.
    let v = list(&db, "style=%00%1f%E2%80%AE&brand=%27%20OR%201%3D1").await;
    assert_eq!(v["total"], 0);
}

/// Among 10,000 generated products: every page of a filtered, sorted list, walked to the end,
/// shows each product once and in order; a product changed shows at once.
async fn ten_thousand_products_page_and_change(b: Backend) {
    let db = database(b);
    db::demo_catalog::generate(&mut db.pool.get().unwrap(), 10_000).unwrap();
    let all = list(&db, &format!("barangay={MAKATI}")).await;
    assert!(all["total"].as_i64().unwrap() > 8_000, "{}", all["total"]);
    assert_eq!(
        all["pages"].as_i64(),
        Some((all["total"].as_i64().unwrap() + 23) / 24)
    );
    let q = format!(
        "barangay={MAKATI}&filterByType=can&packaging=2&style=Stout&sort=price&per_page=48"
    );
    let first = list(&db, &q).await;
    let (total, pages) = (
        first["total"].as_i64().unwrap(),
        first["pages"].as_i64().unwrap(),
    );
    assert!(total > 48, "more than one page: {total}");
    let mut seen = HashSet::new();
    let mut last = 0;
    for page in 1..=pages {
        let v = list(&db, &format!("{q}&page={page}")).await;
        for p in products(&v) {
            assert!(seen.insert(p["id"].as_i64().unwrap()), "shown twice: {p}");
            assert_eq!(
                (&p["style"], &p["packaging"]["id"]),
                (&Value::from("Stout"), &Value::from(2))
            );
            let price = p["price"].as_i64().unwrap();
            assert!(price >= last, "sorted by price");
            last = price;
        }
    }
    assert_eq!(seen.len() as i64, total);
    // The dearest made the cheapest: first at once (the held catalog follows the data version).
    let dearest = list(&db, &q.replace("sort=price", "sort=price-desc")).await;
    let id = products(&dearest)[0]["id"].as_i64().unwrap() as i32;
    {
        use db::schema::products;
        use diesel::prelude::*;
        diesel::update(products::table.find(id))
            .set(products::price.eq(100))
            .execute(&mut db.pool.get().unwrap())
            .unwrap();
    }
    let v = list(&db, &q).await;
    assert_eq!(
        (
            products(&v)[0]["id"].as_i64(),
            products(&v)[0]["price"].as_i64()
        ),
        (Some(i64::from(id)), Some(100))
    );
}

/// The page: each page of a list is its own canonical page; Previous and Next are links; the
/// sort and filters are a GET form; what the page cannot read is left out (not an error).
async fn list_pages_link_their_neighbours_and_keep_their_address(b: Backend) {
    let db = database(b);
    let store = store!(db);
    let cookie = "privacyVerification=1; cookieAccepted=1";
    let r = send!(
        store,
        get("/buy-beer?sort=name&page=2&utm_source=x", cookie)
    );
    assert_eq!(r.status, StatusCode::OK);
    let html = r.text();
    assert!(
        html.contains(
            r#"<link rel="canonical" href="https://shop.example/buy-beer?sort=name&amp;page=2">"#
        ),
        "{}",
        &html[..html.find("</head>").unwrap()]
    );
    let main = root(&html);
    assert!(
        main.contains(r#"href="/buy-beer?sort=name#browse-cont" rel="prev""#),
        "{main}"
    );
    assert!(!main.contains(r#"rel="next""#), "the last page has no next");
    assert!(main.contains("Showing 25–26 of 26 products"), "{main}");
    assert!(
        main.contains(r#"action="/buy-beer#browse-cont" method="get""#),
        "{main}"
    );
    let r = send!(store, get("/buy-beer?style=IPA&min=40&max=30", cookie));
    let html = r.text();
    // A range given upside down is read the right way round; the filter panel is open.
    assert!(
        html.contains("/buy-beer?style=IPA&amp;min=30&amp;max=40\""),
        "{}",
        &html[..html.find("</head>").unwrap()]
    );
    assert!(
        root(&html).contains("<details class=\"list-controls\" open=\"\">"),
        "{}",
        root(&html)
    );
    for bad in [
        "sort=zzz&page=0&min=-5&max=abc",
        "page=99999999999&size=%ff",
        "min=1e3&max=%00",
    ] {
        let r = send!(store, get(&format!("/buy-beer?{bad}"), cookie));
        assert_eq!(r.status, StatusCode::OK, "{bad}");
        let html = r.text();
        assert!(!html.contains("We could not load the products"), "{bad}");
    }
    let r = send!(store, get("/buy-beer?page=5", cookie));
    let html = r.text();
    assert!(
        root(&html).contains(r#"<a href="/buy-beer?page=2#browse-cont">Go to the last page</a>"#),
        "past the last page"
    );
}

/// Past 50,000 addresses the sitemap is an index of files of at most 50,000 each, which together
/// list every page and product once.
async fn past_50000_addresses_the_sitemap_is_an_index(b: Backend) {
    let db = database(b);
    db::demo_catalog::generate(&mut db.pool.get().unwrap(), 50_000).unwrap();
    let store = store!(db);
    let r = send!(store, get("/sitemap.xml", ""));
    assert_eq!(r.status, StatusCode::OK);
    let index = r.text();
    assert!(
        index.contains("<sitemapindex"),
        "{}",
        &index[..index.len().min(500)]
    );
    assert_eq!(index.matches("<sitemap>").count(), 2);
    assert!(index.contains("<loc>https://shop.example/sitemap-1.xml</loc>"));
    let mut locs = HashSet::new();
    for n in 1..=2 {
        let r = send!(store, get(&format!("/sitemap-{n}.xml"), ""));
        assert_eq!(r.status, StatusCode::OK, "part {n}");
        assert_eq!(
            r.headers.get("content-type").unwrap(),
            "application/xml; charset=utf-8"
        );
        let part = r.text();
        let count = part.matches("<url>").count();
        assert!(count <= 50_000, "part {n}: {count}");
        for loc in part.split("<loc>").skip(1) {
            assert!(
                locs.insert(loc.split('<').next().unwrap().to_string()),
                "listed twice: {loc}"
            );
        }
    }
    assert!(locs.contains("https://shop.example/faqs"));
    assert!(locs.contains("https://shop.example/single-product/tala-pale-pilsen-320ml"));
    let products = locs
        .iter()
        .filter(|l| l.contains("/single-product/"))
        .count();
    assert_eq!(products, 50_026, "every product once");
    for missing in [
        "/sitemap-3.xml",
        "/sitemap-0.xml",
        "/sitemap-01.xml",
        "/sitemap-x.xml",
        "/sitemap-99999999999.xml",
    ] {
        assert_eq!(
            send!(store, get(missing, "")).status,
            StatusCode::NOT_FOUND,
            "{missing}"
        );
    }
}

both!(past_50000_addresses_the_sitemap_is_an_index);
both!(the_seed_s_list_is_cut_into_pages_of_24);
both!(lists_sort_by_price_name_and_newest);
both!(lists_filter_by_style_brewery_size_and_price);
both!(bad_list_values_are_refused_in_words);
both!(ten_thousand_products_page_and_change);
both!(list_pages_link_their_neighbours_and_keep_their_address);
