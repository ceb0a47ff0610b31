//! The product lists at size, against SQLite and PostgreSQL: /buy-beer and its call sort, filter
//! and page (24 a page) on the seed and among 10,000 generated products; a change to the catalog
//! shows at once; bad values are refused by the call in words and left out by the page; each page
//! of a list is its own canonical page with links to its neighbours that work without JavaScript.

use crate::support;

use std::collections::HashSet;

use actix_web::http::StatusCode;
use serde_json::Value;
use support::{database, get, root, send_json, Backend, BACOOR, MAKATI};

/// The products call through the whole store, as `serve` builds it (its catalog held per data
/// version, as a client's call finds it): `list!(store, query)`, the answer's JSON.
macro_rules! list {
    ($store:expr, $query:expr) => {{
        let query: &str = $query;
        let uri = format!("/api/v1/products?{query}");
        let r = send!($store, support::json_request("GET", &uri, "", Value::Null));
        assert_eq!(r.status, StatusCode::OK, "{query}: {}", r.text());
        r.json()
    }};
}

fn products(v: &Value) -> &Vec<Value> {
    v["products"].as_array().unwrap()
}

fn field<'a>(v: &'a Value, name: &str) -> Vec<&'a Value> {
    products(v).iter().map(|p| &p[name]).collect()
}

async fn the_seed_s_list_is_cut_into_pages_of_24(b: Backend) {
    let db = database(b);
    let store = store!(db);
    let first = list!(store, "");
    assert_eq!(
        (
            first["total"].as_i64(),
            first["page"].as_i64(),
            first["pages"].as_i64()
        ),
        (Some(26), Some(1), Some(2))
    );
    assert_eq!(products(&first).len(), 24);
    let second = list!(store, "page=2");
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
        &list!(store, "sort=name"),
        &list!(store, "style=IPA"),
    ] {
        assert_eq!(other["best_sellers"], serde_json::json!([]));
    }
    let past = list!(store, "page=3");
    assert!(products(&past).is_empty());
    assert_eq!(past["total"], 26);
    let small = list!(store, "per_page=5&page=6");
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
    let store = store!(db);
    let prices = |v: &Value| {
        field(v, "price")
            .iter()
            .map(|p| p.as_i64().unwrap())
            .collect::<Vec<_>>()
    };
    let v = list!(store, "sort=price&per_page=48");
    let p = prices(&v);
    assert!(p.windows(2).all(|w| w[0] <= w[1]), "{p:?}");
    let v = list!(store, "sort=price-desc&per_page=48");
    let p = prices(&v);
    assert!(p.windows(2).all(|w| w[0] >= w[1]), "{p:?}");
    let v = list!(store, "sort=name&per_page=48");
    let names: Vec<String> = field(&v, "product_name")
        .iter()
        .map(|n| n.as_str().unwrap().to_lowercase())
        .collect();
    assert!(names.windows(2).all(|w| w[0] <= w[1]), "{names:?}");
    let v = list!(store, "sort=newest&per_page=48");
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
    let store = store!(db);
    let all = list!(store, &format!("barangay={MAKATI}&per_page=48"));
    // Each facet's count is what its filter finds.
    for (name, param) in [("styles", "style"), ("brands", "brand"), ("sizes", "size")] {
        let facets = all["facets"][name].as_array().unwrap();
        assert!(facets.len() >= 3, "{name}: {facets:?}");
        for f in facets {
            let value = f["value"].as_str().unwrap();
            let q = format!("barangay={MAKATI}&{param}={}", value.replace(' ', "+"));
            let v = list!(store, &q);
            assert_eq!(v["total"], f["count"], "{q}");
            assert!(products(&v).iter().all(|p| p[param] == value), "{q}");
        }
    }
    // Any case, spaces around; filters combine.
    let v = list!(store, "brand=%20HABAGAT%20&size=330%20ml");
    assert_eq!(field(&v, "product_name"), ["Habagat Strong Lager 330 ml"]);
    let v = list!(store, "style=ipa&filterByType=can&packaging=2");
    assert_eq!(field(&v, "product_name"), ["Bangkal IPA Can 330 ml"]);
    // A price range in whole pesos, both ends in.
    let v = list!(store, "min_pesos=52&max_pesos=60&per_page=48");
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
    let v = list!(store, "style=Barleywine");
    assert_eq!((v["total"].as_i64(), products(&v).len()), (Some(0), 0));
    assert!(!v["facets"]["styles"].as_array().unwrap().is_empty());
    // A place with no kegs has no keg sizes; the price range is its own.
    let v = list!(store, &format!("barangay={BACOOR}"));
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

/// A style spelled two ways in the catalog is one value, counted as its filter finds it, named
/// as the catalog first spells it.
async fn a_value_spelled_two_ways_is_one_facet(b: Backend) {
    let db = database(b);
    let store = store!(db);
    let ipa = |v: &Value| {
        v["facets"]["styles"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["value"].as_str().unwrap().eq_ignore_ascii_case("ipa"))
            .map(|f| {
                (
                    f["value"].as_str().unwrap().to_string(),
                    f["count"].as_i64(),
                )
            })
            .collect::<Vec<_>>()
    };
    let before = ipa(&list!(store, ""));
    assert_eq!(before.len(), 1, "{before:?}");
    {
        use db::schema::products;
        use diesel::prelude::*;
        let last: i32 = products::table
            .filter(products::style.eq("IPA"))
            .select(diesel::dsl::max(products::id))
            .first::<Option<i32>>(&mut db.pool.get().unwrap())
            .unwrap()
            .unwrap();
        diesel::update(products::table.find(last))
            .set((products::style.eq(" ipa "), products::price.eq(100)))
            .execute(&mut db.pool.get().unwrap())
            .unwrap();
        // Seen once the store sees the change (within a second): the cheapest IPA now.
        let cheapest = || async {
            let v = list!(store, "style=IPA&sort=price");
            products(&v).first().and_then(|p| p["id"].as_i64())
        };
        let mut seen = false;
        for _ in 0..30 {
            seen = cheapest().await == Some(i64::from(last));
            if seen {
                break;
            }
            actix_web::rt::time::sleep(std::time::Duration::from_millis(100)).await;
        }
        assert!(seen, "the IPA spelled \" ipa \" is found by style=IPA");
    }
    assert_eq!(ipa(&list!(store, "")), before);
    assert_eq!(list!(store, "style=IPA")["total"].as_i64(), before[0].1);
}

async fn bad_list_values_are_refused_in_words(b: Backend) {
    let db = database(b);
    let store = store!(db);
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
    let v = list!(store, "style=%00%1f%E2%80%AE&brand=%27%20OR%201%3D1");
    assert_eq!(v["total"], 0);
}

/// Among 10,000 generated products: every page of a filtered, sorted list, walked to the end,
/// shows each product once and in order; a product changed shows at once.
async fn ten_thousand_products_page_and_change(b: Backend) {
    let db = database(b);
    fixtures::catalog::generate(&mut db.pool.get().unwrap(), 10_000).unwrap();
    let store = store!(db);
    let all = list!(store, &format!("barangay={MAKATI}"));
    assert!(all["total"].as_i64().unwrap() > 8_000, "{}", all["total"]);
    assert_eq!(
        all["pages"].as_i64(),
        Some((all["total"].as_i64().unwrap() + 23) / 24)
    );
    let q = format!(
        "barangay={MAKATI}&filterByType=can&packaging=2&style=Stout&sort=price&per_page=48"
    );
    let first = list!(store, &q);
    let (total, pages) = (
        first["total"].as_i64().unwrap(),
        first["pages"].as_i64().unwrap(),
    );
    assert!(total > 48, "more than one page: {total}");
    let mut seen = HashSet::new();
    let mut last = 0;
    for page in 1..=pages {
        let v = list!(store, &format!("{q}&page={page}"));
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
    // The dearest made the cheapest: first within the second the store takes to see the data
    // version move (its answers are kept per version; the held catalog follows it).
    let dearest = list!(store, &q.replace("sort=price", "sort=price-desc"));
    let id = products(&dearest)[0]["id"].as_i64().unwrap() as i32;
    {
        use db::schema::products;
        use diesel::prelude::*;
        diesel::update(products::table.find(id))
            .set(products::price.eq(100))
            .execute(&mut db.pool.get().unwrap())
            .unwrap();
    }
    let first = |v: &Value| {
        (
            products(v)[0]["id"].as_i64(),
            products(v)[0]["price"].as_i64(),
        )
    };
    let mut v = list!(store, &q);
    for _ in 0..30 {
        if first(&v) == (Some(i64::from(id)), Some(100)) {
            break;
        }
        actix_web::rt::time::sleep(std::time::Duration::from_millis(100)).await;
        v = list!(store, &q);
    }
    assert_eq!(first(&v), (Some(i64::from(id)), Some(100)));
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
    let r = send!(store, get("/buy-beer?style=IPA&min=30&max=40", cookie));
    assert_eq!(r.status, StatusCode::OK);
    // The filter panel is open while a filter is set.
    assert!(
        root(&r.text()).contains("<details class=\"list-controls\" open=\"\">"),
        "{}",
        root(&r.text())
    );
    // Any other spelling of a list is sent on to its one address (302: a made-up value may be
    // a real one tomorrow): defaults and values the page cannot read left out, a range given
    // upside down the right way round, a facet as the catalog spells it, the order fixed, the
    // parameters the page does not read (`utm_source`) dropped.
    for (asked, canonical) in [
        ("sort=best&page=1", "/buy-beer"),
        (
            "style=ipa&min=40&max=30",
            "/buy-beer?style=IPA&min=30&max=40",
        ),
        ("max=40&style=%20iPa%20", "/buy-beer?style=IPA&max=40"),
        ("style=Pale%20pilsen", "/buy-beer?style=Pale+Pilsen"),
        ("style=No+Such+Style&brand=nobody", "/buy-beer"),
        ("sort=zzz&page=0&min=-5&max=abc", "/buy-beer"),
        ("page=99999999999&size=%ff", "/buy-beer"),
        ("min=1e3&max=%00&utm_source=x", "/buy-beer"),
        // A parameter given twice: the last, as the page reads it.
        (
            "filterByType=can&sort=name&filterByType=keg",
            "/buy-beer?filterByType=keg&sort=name",
        ),
        ("page=2&sort=name", "/buy-beer?sort=name&page=2"),
    ] {
        let r = send!(store, get(&format!("/buy-beer?{asked}"), cookie));
        assert_eq!(r.status, StatusCode::FOUND, "{asked}: {}", r.text());
        assert_eq!(
            r.headers.get("location").and_then(|l| l.to_str().ok()),
            Some(canonical),
            "{asked}"
        );
        let r = send!(store, get(canonical, cookie));
        assert_eq!(r.status, StatusCode::OK, "{canonical}");
        assert!(
            !r.text().contains("We could not load the products"),
            "{asked}"
        );
    }
    // A page past the last is not found, and says where the last is.
    let r = send!(store, get("/buy-beer?page=5", cookie));
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    let html = r.text();
    assert!(
        root(&html).contains(r#"<a href="/buy-beer?page=2#browse-cont">Go to the last page</a>"#),
        "past the last page"
    );
    assert!(
        !html.contains(r#"rel="canonical""#),
        "a page not found has no canonical"
    );
}

/// The pages a list may have are bounded, so a crawler or a flood of made-up addresses cannot
/// fill the page cache with them: a made-up value is sent on (nothing rendered), a page past the
/// last is not found, and a price range, a filter that found nothing and a search that found
/// nothing are rendered but not kept; the list's real pages are kept.
async fn made_up_lists_are_not_kept(b: Backend) {
    let db = database(b);
    let (api, store) = store!(db, support::store_config(&db.url, false), with api);
    let cookie = "privacyVerification=1; cookieAccepted=1";
    for i in 0..10 {
        for asked in [
            format!("/buy-beer?style=made-up-{i}"),
            format!("/buy-beer?page={}", 3 + i),
            format!("/buy-beer?min={i}&max={}", 100 + i),
            format!("/buy-beer?style=IPA&size=20+L&sort=name&min={i}"),
            format!("/search?q=zzqx{i}"),
        ] {
            let r = send!(store, get(&asked, cookie));
            assert!(
                [StatusCode::FOUND, StatusCode::NOT_FOUND, StatusCode::OK].contains(&r.status),
                "{asked}: {}",
                r.status
            );
        }
    }
    assert_eq!(api.cache.weight(), 0, "no made-up list page is kept");
    for real in [
        "/buy-beer",
        "/buy-beer?sort=name&page=2",
        "/search?q=pilsen",
    ] {
        let before = api.cache.weight();
        assert_eq!(send!(store, get(real, cookie)).status, StatusCode::OK);
        assert!(api.cache.weight() > before, "{real} is kept");
    }
}

/// Past 50,000 addresses the sitemap is an index of files of at most 50,000 each, which together
/// list every page and product once.
async fn past_50000_addresses_the_sitemap_is_an_index(b: Backend) {
    let db = database(b);
    fixtures::catalog::generate(&mut db.pool.get().unwrap(), 50_000).unwrap();
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
both!(a_value_spelled_two_ways_is_one_facet);
both!(bad_list_values_are_refused_in_words);
both!(ten_thousand_products_page_and_change);
both!(list_pages_link_their_neighbours_and_keep_their_address);
both!(made_up_lists_are_not_kept);
