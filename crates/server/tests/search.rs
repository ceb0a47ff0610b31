//! Search over HTTP, against SQLite and PostgreSQL: a shopper's words find the seed's products
//! with typos, in any order and in Filipino; what can be ordered at their place comes first; bad
//! queries are refused in words; a search word set by staff is heard at once.

use crate::support;

use actix_web::http::StatusCode;
use serde_json::Value;
use support::{database, get, send_json, Backend, BACOOR, MAKATI, SANTA_MARIA};

async fn search(db: &support::TestDb, query: &str) -> (StatusCode, Value) {
    let r = send_json(
        db,
        "GET",
        &format!("/api/v1/search?{query}"),
        "",
        Value::Null,
    )
    .await;
    (r.status, r.json())
}

async fn found(db: &support::TestDb, query: &str) -> Value {
    let (status, v) = search(db, query).await;
    assert_eq!(status, StatusCode::OK, "{query}: {v}");
    v
}

fn names(v: &Value, list: &str) -> Vec<String> {
    v[list]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["product_name"].as_str().unwrap().to_string())
        .collect()
}

async fn a_shopper_finds_the_seed_s_products_as_they_type_them(b: Backend) {
    let db = database(b);
    let v = found(&db, "q=tala%20pilsn%20grande").await;
    assert_eq!(names(&v, "products"), ["Tala Pale Pilsen Grande 500 ml"]);
    assert_eq!(v["q"], "tala pilsn grande");
    let v = found(&db, &format!("q=habagat+lata&barangay={MAKATI}")).await;
    assert_eq!(names(&v, "products"), ["Habagat Strong Lager Can 500 ml"]);
    // A keg of 30 litres: the two sold in Makati, then the one not orderable now.
    let v = found(&db, &format!("q=serbesa%20keg%2030l&barangay={MAKATI}")).await;
    let mut kegs = names(&v, "products");
    kegs.sort();
    assert_eq!(
        kegs,
        ["Habagat Strong Lager Keg 30 L", "Tala Pale Pilsen Keg 30 L"]
    );
    assert_eq!(names(&v, "elsewhere"), ["Tala Light Keg 30 L"]);
    assert!(v["products"][0]["photo"].is_null() && v["products"][0]["price"].is_i64());
}

async fn what_the_shopper_s_place_cannot_order_comes_apart(b: Backend) {
    let db = database(b);
    // Bacoor gets no kegs: every keg is elsewhere, bottles are not.
    let v = found(&db, &format!("q=keg&barangay={BACOOR}")).await;
    assert!(names(&v, "products").is_empty(), "{v}");
    assert_eq!(names(&v, "elsewhere").len(), 6);
    let v = found(&db, &format!("q=habagat&barangay={BACOOR}")).await;
    assert_eq!(names(&v, "products").len(), 3, "{v}");
    assert_eq!(names(&v, "elsewhere"), ["Habagat Strong Lager Keg 30 L"]);
    // A town the store does not serve: nothing is orderable there.
    let v = found(&db, &format!("q=tala&barangay={SANTA_MARIA}")).await;
    assert!(names(&v, "products").is_empty());
    assert!(names(&v, "elsewhere").len() >= 12, "the Tala beers: {v}");
    // The limit cuts each list.
    let v = found(&db, "q=serbesa&limit=5").await;
    assert_eq!(names(&v, "products").len(), 5);
    // A word for anything sold: the whole catalog, the three not orderable now apart.
    let v = found(&db, "q=serbesa").await;
    assert_eq!(names(&v, "products").len(), 23);
    assert_eq!(
        names(&v, "elsewhere"),
        [
            "Sampaguita Session Ale 330 ml",
            "Ube Porter Can 330 ml",
            "Tala Light Keg 30 L"
        ]
    );
}

async fn bad_queries_are_refused_in_words(b: Backend) {
    let db = database(b);
    let long = "a".repeat(101);
    for (query, field, says) in [
        (
            &format!("q={long}") as &str,
            "q",
            "Enter at most 100 characters.",
        ),
        ("q=tala&limit=0", "limit", "Enter a limit from 1 to 48."),
        ("q=tala&limit=49", "limit", "Enter a limit from 1 to 48."),
    ] {
        let (status, v) = search(&db, query).await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{query}: {v}");
        assert_eq!(v["errors"][field][0], says, "{query}: {v}");
        assert_eq!(v["error"], says, "{query}: {v}");
    }
    // An empty parameter is the framework's 400, as for every call.
    let (status, v) = search(&db, "q=").await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    assert_eq!(v["error"], "q is empty: leave it out or give a value.");
    // No words (the search page before anything was typed): nothing found.
    for query in ["", "q=%20%09%20", "limit=5"] {
        let v = found(&db, query).await;
        assert_eq!(v["q"], "", "{query}");
        assert!(names(&v, "products").is_empty() && names(&v, "elsewhere").is_empty());
    }
    // Only symbols and control characters: nothing found, nothing broken.
    for query in [
        "q=%00%01%7F",
        "q=%25%25%25",
        "q=%3Cscript%3E",
        "q=%E2%80%AE%F0%9F%8D%BA",
    ] {
        let v = found(&db, query).await;
        assert!(names(&v, "products").is_empty(), "{query}: {v}");
    }
    // Malformed escapes and numbers are the framework's 400/422, never a 500.
    for query in [
        "q=%zz",
        "q=tala&limit=-1",
        "q=tala&limit=99999999999",
        "q=tala&barangay=x",
    ] {
        let (status, v) = search(&db, query).await;
        assert!(status.is_client_error(), "{query}: {status} {v}");
    }
    // An unknown barangay is a 404, as everywhere.
    let (status, _) = search(&db, "q=tala&barangay=999999999").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

async fn a_search_word_set_by_staff_is_heard_at_once(b: Backend) {
    let db = database(b);
    // The whole store: its app server holds the index it built until the data version moves.
    let store = store!(db);
    let strong = async |q: &str| -> Vec<String> {
        let r = send!(store, get(&format!("/api/v1/search?q={q}"), ""));
        assert_eq!(r.status, StatusCode::OK);
        names(&r.json(), "products")
    };
    assert!(strong("barako").await.is_empty());
    // Heard once the app server sees the data version move (it reads it four times a second).
    let heard = async |want: &[&str]| {
        let start = std::time::Instant::now();
        loop {
            let mut got = strong("barako").await;
            got.sort();
            if got == want {
                return;
            }
            assert!(start.elapsed().as_secs() < 5, "still {got:?}");
            actix_web::rt::time::sleep(std::time::Duration::from_millis(100)).await;
        }
    };
    db::search::set_word(&mut db.pool.get().unwrap(), "barako", "strong").unwrap();
    heard(&[
        "Habagat Extra Strong 500 ml",
        "Habagat Strong Lager 330 ml",
        "Habagat Strong Lager Can 500 ml",
        "Habagat Strong Lager Keg 30 L",
    ])
    .await;
    assert!(db::search::remove_word(&mut db.pool.get().unwrap(), "barako").unwrap());
    assert!(!db::search::remove_word(&mut db.pool.get().unwrap(), "barako").unwrap());
    heard(&[]).await;
}

/// `store catalog words`: staff list, set and remove the search words from the command line.
async fn staff_keep_the_search_words_from_the_command_line(b: Backend) {
    use support::process::{store_ok, store_refused};
    let db = database(b);
    let listed = store_ok(&db, &["catalog", "words"]);
    assert!(listed.contains("lata\tcan cans\n"), "{listed}");
    assert!(listed.contains("serbesa\t(anything)\n"), "{listed}");
    assert_eq!(
        store_ok(
            &db,
            &["catalog", "words", "set", " Barako ", "STRONG, Lager"]
        ),
        "barako means strong lager\n"
    );
    assert!(store_ok(&db, &["catalog", "words"]).contains("barako\tstrong lager\n"));
    // Strong or lager: the Habagat strong lagers first, then the other lagers.
    let found_now = names(&found(&db, "q=barako").await, "products");
    assert!(found_now.len() >= 4, "{found_now:?}");
    assert!(
        found_now[..4].iter().all(|n| n.starts_with("Habagat")),
        "{found_now:?}"
    );
    assert_eq!(
        store_ok(&db, &["catalog", "words", "remove", "barako"]),
        "barako removed\n"
    );
    assert!(
        store_refused(&db, &["catalog", "words", "remove", "barako"])
            .contains("barako: no such search word")
    );
    assert!(
        store_refused(&db, &["catalog", "words", "set", "isang litro", "1l"])
            .contains("give one word")
    );
    assert!(!store_ok(&db, &["catalog", "words"]).contains("barako"));
}

/// The same searches among 10,000 generated products (none of the seed's breweries), and a
/// generated one found by its own words.
async fn among_ten_thousand_products_the_same_searches_answer(b: Backend) {
    let db = database(b);
    let added = fixtures::catalog::generate(&mut db.pool.get().unwrap(), 10_000).unwrap();
    assert_eq!(added, 10_000);
    let v = found(&db, "q=tala%20pilsn%20grande").await;
    assert_eq!(names(&v, "products"), ["Tala Pale Pilsen Grande 500 ml"]);
    let v = found(&db, &format!("q=habagat+lata&barangay={MAKATI}")).await;
    assert_eq!(names(&v, "products")[0], "Habagat Strong Lager Can 500 ml");
    let v = found(&db, &format!("q=serbesa%20keg%2030l&barangay={MAKATI}")).await;
    let kegs = v["products"].as_array().unwrap();
    assert_eq!(kegs.len(), 24, "a page of them");
    for keg in kegs {
        assert_eq!(keg["size"], "30 L", "{keg}");
        assert_eq!(keg["packaging"]["id"], 3, "{keg}");
    }
    // Generated beers by their brewery, style and a typo, and by Filipino words.
    let v = found(&db, "q=mayon%20stuot%20grande%20bote").await;
    let first = &names(&v, "products")[0];
    assert!(
        first.starts_with("Mayon Peak") && first.contains("Stout Grande"),
        "{first}"
    );
    let v = found(&db, "q=bicol%20spise%20stout%20lata").await;
    let first = &names(&v, "products")[0];
    assert!(
        first.starts_with("Bicol Spice") && first.contains("Stout Can"),
        "{first}"
    );
}

both!(a_shopper_finds_the_seed_s_products_as_they_type_them);
both!(among_ten_thousand_products_the_same_searches_answer);
both!(staff_keep_the_search_words_from_the_command_line);
both!(what_the_shopper_s_place_cannot_order_comes_apart);
both!(bad_queries_are_refused_in_words);
both!(a_search_word_set_by_staff_is_heard_at_once);
