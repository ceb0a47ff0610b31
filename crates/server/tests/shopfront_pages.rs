//! The shop front's pages and no-JS forms over HTTP, against SQLite and PostgreSQL, and the
//! newsletter's signups, limited per client and per address for every app server.
//! Needs `make build` (ui/dist and ssr-bundle/dist).

use crate::support;

use actix_web::http::StatusCode;
use actix_web::test::{self, TestRequest};
use support::{
    cookies, database, get, location, post_form, root, Backend, Res, CALOOCAN, CALOOCAN_CITY, EVIL,
    MAKATI, MAKATI_CITY, PAST_GATES,
};

const CONSENT: &str = "cookieAccepted=1; privacyVerification=1; ageVerification=1";

/// A test database and the store over it (one render pool): `(db, store)`.
macro_rules! shop {
    ($b:expr, $maintenance:expr) => {{
        let db = database($b);
        let store = store!(db, support::store_config(&db.url, $maintenance));
        (db, store)
    }};
}

/// The `Set-Cookie` header of an answer that sets the cookie `name`.
fn cookie(res: &Res, name: &str) -> Option<String> {
    cookies(res)
        .into_iter()
        .find(|c| c.starts_with(&format!("{name}=")))
}

async fn every_route_renders_on_the_server(b: Backend) {
    let (_db, s) = shop!(b, false);
    for (path, status, text) in [
        ("/", 200, "BEST SELLERS"),
        ("/buy-beer", 200, "Buy Beer"),
        ("/promos", 200, "Promos"),
        ("/whats-new", 200, "What&#x27;s New"),
        ("/single-product/tala-light-330ml", 200, "Tala Light 330 ml"),
        ("/delivery-areas", 200, "Bacoor City"),
        ("/how-to-order", 200, "How it Works"),
        ("/faqs", 200, "Frequently Asked Questions"),
        ("/privacy-policy", 200, "Data Privacy Act"),
        ("/terms-and-conditions", 200, "Terms and Conditions"),
        ("/about-us", 200, "independent Filipino brewery"),
        ("/contact-us", 200, "0917 123 4567"),
        ("/maintenance", 200, "We&#x27;re Brewing Something For You"),
        ("/atomic-design", 200, "Atomic design"),
        ("/nope", 404, "Page not found"),
    ] {
        let r = send!(s, get(path, PAST_GATES));
        assert_eq!(r.status.as_u16(), status, "{path}");
        assert!(root(&r.text()).contains(text), "{path} shows {text}");
        assert_eq!(root(&r.text()).matches("<h1").count(), 1, "{path}: one h1");
        assert!(
            r.text().contains(r#""ssr":true"#),
            "{path} is server-rendered"
        );
    }
}
both!(every_route_renders_on_the_server);

async fn product_redirects(b: Backend) {
    let (_db, s) = shop!(b, false);
    let r = send!(s, get("/single-product", ""));
    assert_eq!((r.status, location(&r)), (StatusCode::FOUND, "/"));
    let r = send!(s, get("/single-product/", ""));
    assert_eq!((r.status, location(&r)), (StatusCode::FOUND, "/"));
    let r = send!(s, get("/single-product/no-such-beer", ""));
    assert_eq!((r.status, location(&r)), (StatusCode::FOUND, "/buy-beer"));
}
both!(product_redirects);

async fn gates_overlay_the_rendered_page(b: Backend) {
    let (_db, s) = shop!(b, false);
    // No consent: the policy modal over the rendered list (crawlers still get the products).
    let r = send!(s, get("/buy-beer", ""));
    let html = r.text();
    let body = root(&html);
    assert!(body.contains("PRIVACY / COOKIE POLICY"));
    assert!(body.contains("AGREE AND PROCEED"));
    assert!(body.contains(r#"action="/gate/consent""#));
    assert!(
        body.contains("Tala Pale Pilsen 320 ml"),
        "content stays in the HTML"
    );
    // Never on the policy pages.
    for path in ["/privacy-policy", "/terms-and-conditions"] {
        let r = send!(s, get(path, ""));
        assert!(
            !root(&r.text()).contains(r#"action="/gate/consent""#),
            "{path}"
        );
    }
    // Consent given: the category gate on shop pages, none on information pages.
    let r = send!(s, get("/buy-beer", CONSENT));
    assert!(root(&r.text()).contains("Cheers! What are you ordering?"));
    assert!(root(&r.text()).contains("DRAFT BEER IN KEG"));
    let r = send!(s, get("/faqs", CONSENT));
    assert!(!root(&r.text()).contains("Cheers!"));
    // Category chosen: the location gate with the provinces and Metro Manila's cities.
    let r = send!(s, get("/buy-beer", &format!("{CONSENT}; categoryGateId=1")));
    let html = r.text();
    let body = root(&html);
    assert!(body.contains(r#"action="/gate/location""#));
    assert!(body.contains("Metro Manila") && body.contains("Makati City"));
    assert!(body.contains("Delivery") && body.contains("Pickup"));
    // Past every gate: nothing overlays.
    let r = send!(s, get("/buy-beer", PAST_GATES));
    assert!(!root(&r.text()).contains(r#"role="dialog""#));
}
both!(gates_overlay_the_rendered_page);

/// Without JavaScript, the consent form sets the consent cookies (readable by JS) and asks for
/// the category next.
async fn the_consent_form_sets_its_cookies_and_asks_the_category(b: Backend) {
    let (_db, s) = shop!(b, false);
    let r = send!(s, post_form("/gate/consent", "", "return_to=%2Fbuy-beer"));
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert_eq!(location(&r), "/buy-beer?gate=category");
    for name in ["cookieAccepted", "privacyVerification", "ageVerification"] {
        let c = cookie(&r, name).unwrap_or_else(|| panic!("{name} set"));
        assert!(
            c.starts_with(&format!("{name}=1"))
                && c.contains("Path=/")
                && c.contains("SameSite=Lax"),
            "{c}"
        );
        assert!(!c.contains("HttpOnly"), "readable by JS: {c}");
    }
}
both!(the_consent_form_sets_its_cookies_and_asks_the_category);

/// The category form keeps the category, clears the location and asks for it next.
async fn the_category_form_keeps_it_and_asks_the_location(b: Backend) {
    let (_db, s) = shop!(b, false);
    let r = send!(
        s,
        post_form(
            "/gate/category",
            CONSENT,
            "category_id=3&return_to=%2Fbuy-beer"
        )
    );
    assert_eq!(location(&r), "/buy-beer?gate=location");
    assert!(cookie(&r, "categoryGateId")
        .unwrap()
        .starts_with("categoryGateId=3"));
    assert!(cookie(&r, "categoryName")
        .unwrap()
        .starts_with("categoryName=DRAFT%20BEER%20IN%20KEG"));
    assert!(
        cookie(&r, "locationGateBarangayId")
            .unwrap()
            .contains("Max-Age=0"),
        "location cleared"
    );
}
both!(the_category_form_keeps_it_and_asks_the_location);

/// A step of the location form: its fields, what the next address must be, why, and what the
/// next page shows.
type Step = (String, fn(&str) -> bool, &'static str, &'static str);

/// The location form goes step by step (province, city, barangay, street), each step to the
/// page that offers the next, then keeps the location and lands on the list for it.
async fn the_location_form_goes_step_by_step_to_the_list(b: Backend) {
    let (_db, s) = shop!(b, false);
    let kegs = format!("{CONSENT}; categoryGateId=3");
    let steps: [Step; 3] = [
        // Province step -> the page with Metro Manila's keg cities.
        (
            "fulfillment=1&province=51&return_to=%2Fbuy-beer".into(),
            |next| next.starts_with("/buy-beer?gate=location&fulfillment=1&province=51"),
            "the cities",
            "Makati City",
        ),
        // City step -> barangays.
        (
            format!("fulfillment=1&province=51&city={MAKATI_CITY}&return_to=%2Fbuy-beer"),
            |next| next.contains(&format!("city={MAKATI_CITY}")) && !next.contains("barangay="),
            "the barangays",
            "Bel-Air",
        ),
        // Barangay with streets -> streets.
        (
            format!(
                "fulfillment=1&province=51&city={MAKATI_CITY}&barangay={MAKATI}&return_to=%2Fbuy-beer"
            ),
            |next| next.contains(&format!("barangay={MAKATI}")),
            "streets needed first",
            "Jupiter Street",
        ),
    ];
    for (form, goes_on, why, shows) in steps {
        let next = location(&send!(s, post_form("/gate/location", &kegs, &form))).to_string();
        assert!(goes_on(&next), "{why}: {next}");
        let page = send!(s, get(&next, &kegs));
        assert!(root(&page.text()).contains(shows), "{next}: {shows}");
        // The address's fragment names the dialog's title, where reading and Tab go on.
        let (_, fragment) = next.split_once('#').expect("a fragment");
        assert!(
            root(&page.text()).contains(&format!(r#"id="{fragment}""#)),
            "{next}: no element #{fragment}"
        );
    }
    // No keg city in Cavite.
    let page = send!(
        s,
        get("/buy-beer?gate=location&fulfillment=1&province=53", &kegs)
    );
    assert!(root(&page.text()).contains("No Cities available"));
    // Then complete.
    let r = send!(s, post_form("/gate/location", &kegs, &format!("fulfillment=1&province=51&city={MAKATI_CITY}&barangay={MAKATI}&street=1&return_to=%2Fbuy-beer")));
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert_eq!(location(&r), "/buy-beer");
    for name in [
        "locationGateFulfillmentId=1".to_string(),
        format!("locationGateCityId={MAKATI_CITY}"),
        format!("locationGateBarangayId={MAKATI}"),
        "locationGateStreetId=1".into(),
        "gateBrgyName=Bel-Air".into(),
        "gateCityName=Makati%20City".into(),
    ] {
        assert!(
            cookies(&r).iter().any(|c| c.starts_with(&name)),
            "{name} in {:?}",
            cookies(&r)
        );
    }
    // The shopper lands on the keg list for Makati.
    let page = send!(
        s,
        get(
            "/buy-beer",
            &format!("{kegs}; locationGateBarangayId={MAKATI}")
        )
    );
    assert_eq!(root(&page.text()).matches(r#"class="card""#).count(), 6);
}
both!(the_location_form_goes_step_by_step_to_the_list);

/// A barangay without streets completes at once; a barangay of another city is dropped.
async fn a_barangay_without_streets_completes_at_once_and_another_citys_is_dropped(b: Backend) {
    let (_db, s) = shop!(b, false);
    let bottles = format!("{CONSENT}; categoryGateId=1");
    let city = format!("fulfillment=1&province=51&city={CALOOCAN_CITY}");
    let r = send!(
        s,
        post_form(
            "/gate/location",
            &bottles,
            &format!("{city}&barangay={CALOOCAN}")
        )
    );
    assert_eq!(location(&r), "/buy-beer");
    let r = send!(
        s,
        post_form(
            "/gate/location",
            &bottles,
            &format!("{city}&barangay={MAKATI}")
        )
    );
    assert!(!location(&r).contains("barangay="));
}
both!(a_barangay_without_streets_completes_at_once_and_another_citys_is_dropped);

async fn forms_stay_on_the_site(b: Backend) {
    let (_db, s) = shop!(b, false);
    let req = test::TestRequest::post()
        .uri("/gate/consent")
        .insert_header(("origin", EVIL))
        .insert_header(("content-type", "application/x-www-form-urlencoded"))
        .set_payload("return_to=%2F");
    let r = send!(s, req);
    assert_eq!(r.status, StatusCode::FORBIDDEN);
    // return_to cannot leave the site.
    let r = send!(
        s,
        post_form("/gate/consent", "", "return_to=%2F%2Fevil.example%2Fx")
    );
    assert_eq!(location(&r), "/?gate=category");
}
both!(forms_stay_on_the_site);

async fn newsletter_form_without_javascript(b: Backend) {
    let (_db, s) = shop!(b, false);
    // The same address twice reads the same; a bad one is said so.
    for (email, says) in [
        ("ana%40example.ph", "sent"),
        ("ana%40example.ph", "sent"),
        ("nope", "invalid"),
    ] {
        let form = format!("email={email}&return_to=%2Ffaqs");
        let r = send!(s, post_form("/newsletter", "", &form));
        let to = format!("/faqs?newsletter={says}#newsletter");
        assert_eq!(location(&r), to.as_str(), "{email}");
    }
    let page = send!(s, get("/faqs?newsletter=invalid", CONSENT));
    assert!(root(&page.text()).contains("The email must be a valid email address."));
    let page = send!(s, get("/faqs?newsletter=sent", CONSENT));
    assert!(root(&page.text())
        .contains("Thank you! Open the link we sent to your email to confirm your subscription."));
}
both!(newsletter_form_without_javascript);

async fn newsletter_signups_are_rate_limited_for_every_app_server(b: Backend) {
    let db = database(b);
    let subscribe = |ip: &'static str, email: String| {
        support::send_api(
            &db.pool,
            TestRequest::post()
                .uri("/api/v1/mail/subscribe")
                .peer_addr(format!("{ip}:40000").parse().unwrap())
                .set_json(serde_json::json!({ "email": email })),
        )
    };
    for i in 0..api::newsletter::SIGNUPS_PER_CLIENT {
        let r = subscribe("203.0.113.7", format!("fan{i}@example.com")).await;
        assert_eq!(r.status, StatusCode::OK, "signup {i}");
    }
    let r = subscribe("203.0.113.7", "one-more@example.com".into()).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    let wait: i64 = r
        .headers
        .get("retry-after")
        .unwrap()
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=600).contains(&wait), "{wait}");
    assert!(r.text().contains("Too many attempts"));
    // Another client is not held back by the first.
    assert_eq!(
        subscribe("203.0.113.8", "other@example.com".into())
            .await
            .status,
        StatusCode::OK
    );
    // One address cannot be signed up again and again from many clients.
    for ip in ["198.51.100.1", "198.51.100.2"] {
        assert_eq!(
            subscribe(ip, "target@example.com".into()).await.status,
            StatusCode::OK
        );
    }
    let r = subscribe("198.51.100.3", "Target@Example.com".into()).await;
    assert_eq!(r.status, StatusCode::OK, "the third of three per address");
    let r = subscribe("198.51.100.4", "target@example.com".into()).await;
    assert_eq!(r.status, StatusCode::TOO_MANY_REQUESTS);
    // The no-JS form says so too.
    let store = store!(db);
    let r = send!(
        store,
        support::post_form(
            "/newsletter",
            "",
            "email=late%40example.com&return_to=%2Ffaqs"
        )
        .peer_addr("203.0.113.7:40000".parse().unwrap())
    );
    assert_eq!(
        r.headers.get("location").unwrap(),
        "/faqs?newsletter=limited#newsletter"
    );
}
both!(newsletter_signups_are_rate_limited_for_every_app_server);

async fn the_maintenance_switch_closes_every_page_and_call(b: Backend) {
    let (_db, s) = shop!(b, true);
    for path in ["/", "/buy-beer", "/faqs", "/nope"] {
        let r = send!(s, get(path, PAST_GATES));
        assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "{path}");
        assert!(
            root(&r.text()).contains("We&#x27;re Brewing Something For You"),
            "{path}"
        );
    }
    let r = send!(s, get("/api/v1/products", ""));
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE);
    assert!(r.text().contains(r#""error""#));
}
both!(the_maintenance_switch_closes_every_page_and_call);

/// The switch in the database works the same, on a running store within about a second (the
/// data version is read four times a second).
async fn the_maintenance_setting_in_the_database_closes_the_store(b: Backend) {
    let (db, s) = shop!(b, false);
    assert_eq!(send!(s, get("/api/v1/banners", "")).status, StatusCode::OK);
    {
        use db::diesel::prelude::*;
        let mut c = db.pool.get().unwrap();
        db::diesel::update(db::schema::settings::table.find("maintenance"))
            .set(db::schema::settings::value.eq("on"))
            .execute(&mut *c)
            .unwrap();
    }
    let written = std::time::Instant::now();
    while send!(s, get("/api/v1/banners", "")).status != StatusCode::SERVICE_UNAVAILABLE {
        assert!(
            written.elapsed() < support::SHOWN_WITHIN,
            "the store still serves the calls"
        );
        actix_web::rt::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    assert_eq!(
        send!(s, get("/api/v1/banners", "")).status,
        StatusCode::SERVICE_UNAVAILABLE
    );
    assert_eq!(
        send!(s, get("/promos", "")).status,
        StatusCode::SERVICE_UNAVAILABLE
    );
}
both!(the_maintenance_setting_in_the_database_closes_the_store);

async fn seo_basics(b: Backend) {
    let (_db, s) = shop!(b, false);
    let r = send!(s, get("/sitemap.xml", ""));
    assert_eq!(r.status, StatusCode::OK);
    assert!(r
        .text()
        .contains("<loc>https://shop.example/single-product/tala-pale-pilsen-320ml</loc>"));
    assert!(r.text().contains("<loc>https://shop.example/faqs</loc>"));
    assert!(!r.text().contains("atomic-design"));
    assert_eq!(r.text().matches("/single-product/").count(), 26);
    let r = send!(s, get("/robots.txt", ""));
    assert!(r
        .text()
        .contains("Sitemap: https://shop.example/sitemap.xml"));
    let r = send!(s, get("/single-product/tala-pale-pilsen-can-330ml", ""));
    assert!(r
        .text()
        .contains("<title>Tala Pale Pilsen Can 330 ml | Tala Brewing Co.</title>"));
    assert!(r.text().contains(r#"<script type="application/ld+json">"#));
    assert!(
        r.text().contains(r#""@type":"Product""#) && r.text().contains(r#""priceCurrency":"PHP""#)
    );
    assert!(
        r.text().contains(r#""price":"1392.00""#),
        "cans offer the box price"
    );
    assert!(r.text().contains(r#"<link rel="canonical" href="https://shop.example/single-product/tala-pale-pilsen-can-330ml">"#));
    assert!(r.text().contains(r#"<meta property="og:title""#));
    let r = send!(s, get("/", ""));
    assert!(
        r.text().contains(r#""@type":"Organization""#) && r.text().contains(r#""@type":"WebSite""#)
    );
    let r = send!(s, get("/single-product/ube-porter-can-330ml", ""));
    assert!(r.text().contains("https://schema.org/OutOfStock"));
    assert!(root(&r.text()).contains("Out Of Stock"));
}
both!(seo_basics);

async fn product_type_selector_rules(b: Backend) {
    let (_db, s) = shop!(b, false);
    let cans = send!(
        s,
        get("/single-product/tala-pale-pilsen-can-330ml", PAST_GATES)
    );
    let html = cans.text();
    let body = root(&html);
    assert!(body.contains("Box of 24"));
    assert!(!body.contains("Case of 24") && !body.contains(">Bottle"));
    let bottles = send!(s, get("/single-product/tala-pale-pilsen-320ml", PAST_GATES));
    let html = bottles.text();
    let body = root(&html);
    assert!(body.contains("Case of 24") && body.contains("Bottle"));
    let keg = send!(
        s,
        get("/single-product/tala-pale-pilsen-keg-30l", PAST_GATES)
    );
    let html = keg.text();
    let body = root(&html);
    assert!(
        !body.contains(r#"name="pack""#),
        "kegs hide the type selector"
    );
    assert!(body.contains("YOU MIGHT ALSO LIKE"));
    assert!(body.contains(r#"href="/delivery-areas""#));
}
both!(product_type_selector_rules);

async fn the_notice_window_follows_testdate(b: Backend) {
    let (_db, s) = shop!(b, false);
    let r = send!(s, get("/?testdate=2025-05-05", PAST_GATES));
    assert!(root(&r.text()).contains("Notice to our Members"));
    assert!(
        root(&r.text()).contains(r#"id="notice-city""#),
        "picker shown on a normal day"
    );
    let r = send!(s, get("/?testdate=2025-05-12", PAST_GATES));
    assert!(root(&r.text()).contains("Notice to our Members"));
    assert!(
        !root(&r.text()).contains(r#"id="notice-city""#),
        "no picker on the holiday"
    );
    let r = send!(s, get("/?testdate=2025-05-14", PAST_GATES));
    assert!(!root(&r.text()).contains("Notice to our Members"));
}
both!(the_notice_window_follows_testdate);

/// The filter /buy-beer marks is the one its list shows: the last of repeated `filterByType`s, as
/// the server reads it; without one, the shopper's category.
async fn the_marked_filter_is_the_listed_one(b: Backend) {
    let (_db, store) = shop!(b, false);
    let marked = |html: &str| -> String {
        let at = html
            .find(r#"aria-current="page""#)
            .expect("a marked filter");
        let after = &html[at..];
        after[after.find('>').unwrap() + 1..after.find("</a>").unwrap()].to_string()
    };
    // A filter given twice: the last, as the page reads it, at the list's one address.
    let p = send!(
        store,
        get("/buy-beer?filterByType=keg&filterByType=can", PAST_GATES)
    );
    assert_eq!(p.status, StatusCode::FOUND);
    assert_eq!(
        p.headers.get("location").unwrap(),
        "/buy-beer?filterByType=can"
    );
    let p = send!(store, get("/buy-beer?filterByType=can", PAST_GATES));
    assert_eq!(p.status, StatusCode::OK);
    assert_eq!(marked(&p.text()), "Cans");
    assert!(
        p.text().contains("Tala Pale Pilsen Can 330 ml")
            && !p.text().contains("Tala Pale Pilsen Keg")
    );
    // Bottles chosen at the gate, no filter: the list is bottles, and Bottles is marked.
    let p = send!(store, get("/buy-beer", PAST_GATES));
    assert_eq!(marked(&p.text()), "Bottles");
    assert!(!p.text().contains("Tala Pale Pilsen Can 330 ml"));
}
both!(the_marked_filter_is_the_listed_one);

/// HTML ids hold no spaces (`/delivery-areas` gave `id="area-Metro Manila"`).
async fn ids_hold_no_spaces(b: Backend) {
    let (_db, store) = shop!(b, false);
    let p = send!(store, get("/delivery-areas", CONSENT));
    assert_eq!(p.status, StatusCode::OK);
    assert!(
        p.text().contains(r#"id="area-metro-manila""#),
        "{}",
        root(&p.text())
    );
    let html = p.text();
    for (at, _) in html.match_indices(" id=\"") {
        let id = &html[at + 5..at + 5 + html[at + 5..].find('"').unwrap()];
        assert!(!id.contains(' '), "id {id:?}");
    }
}
both!(ids_hold_no_spaces);

/// A packaging or a banner without an image shows "No image available" (and no empty `src`).
async fn a_missing_image_says_so(b: Backend) {
    let (db, store) = shop!(b, false);
    {
        use db::schema::{banners, packagings};
        use diesel::prelude::*;
        let mut conn = db.pool.get().unwrap();
        diesel::update(packagings::table.find(2))
            .set(packagings::image.eq(""))
            .execute(&mut *conn)
            .unwrap();
        diesel::update(banners::table.find(1))
            .set((banners::desktop_image.eq(""), banners::mobile_image.eq("")))
            .execute(&mut *conn)
            .unwrap();
    }
    // The data version moves within a second; the pages are made afresh.
    std::thread::sleep(std::time::Duration::from_millis(1_500));
    let p = send!(store, get("/?gate=category", CONSENT));
    assert!(p.text().contains("No image available"), "the category gate");
    assert!(!p.text().contains(r#"src="""#));
    let p = send!(store, get("/", PAST_GATES));
    assert!(p.text().contains("No image available"), "the banner");
}
both!(a_missing_image_says_so);

/// The location notice flag: the product page's notice that some products are only sold in certain
/// areas shows until it is put away; its no-JS form writes the cookie (for a month, 2629746 s) and
/// comes back; while the cookie lives the notice is left out. Pages are kept for shoppers with and
/// without the flag apart: neither sees the other's.
async fn the_location_notice_shows_until_put_away(b: Backend) {
    let (_db, s) = shop!(b, false);
    const NOTICE: &str = "Some products are only available in certain areas.";
    let product = "/single-product/tala-light-330ml";
    let seen = format!("{PAST_GATES}; locationNotice=1");
    let shows = |r: &Res| root(&r.text()).contains(NOTICE);
    let first = send!(s, get(product, PAST_GATES));
    assert_eq!(first.status, StatusCode::OK);
    assert!(shows(&first), "a new shopper sees it");
    assert!(root(&first.text()).contains(r#"action="/notice/location""#));
    assert!(first.text().contains(r#""locationNoticeSeen":false"#));
    // Put away without JavaScript: the cookie, readable by JS like the gate's, and back.
    let r = send!(
        s,
        post_form(
            "/notice/location",
            PAST_GATES,
            &support::form_body(&[("return_to", product)])
        )
    );
    assert_eq!(r.status, StatusCode::SEE_OTHER);
    assert_eq!(location(&r), product);
    let c = cookie(&r, "locationNotice").expect("the flag is written");
    assert!(
        c.starts_with("locationNotice=1;")
            && c.contains("Max-Age=2629746")
            && c.contains("Path=/")
            && c.contains("SameSite=Lax")
            && !c.contains("HttpOnly"),
        "{c}"
    );
    // With the flag the notice is left out, on this product and every other; without it (a
    // shared page kept in between) it shows again, each time.
    for round in 0..2 {
        for path in [product, "/single-product/tala-pale-pilsen-320ml"] {
            let away = send!(s, get(path, &seen));
            assert_eq!(away.status, StatusCode::OK);
            assert!(!shows(&away), "{path}, round {round}: put away");
            assert!(away.text().contains(r#""locationNoticeSeen":true"#));
            let again = send!(s, get(path, PAST_GATES));
            assert!(
                shows(&again),
                "{path}, round {round}: another shopper still sees it"
            );
        }
    }
    // Another value is no flag; the form cannot send the shopper off the site.
    let r = send!(s, get(product, &format!("{PAST_GATES}; locationNotice=0")));
    assert!(shows(&r));
    let r = send!(
        s,
        post_form("/notice/location", "", "return_to=%2F%2Fevil.example")
    );
    assert_eq!(location(&r), "/");
}
both!(the_location_notice_shows_until_put_away);
