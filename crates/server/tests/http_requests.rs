//! Requests from outside, as an attacker or a careless client sends them, on SQLite and
//! PostgreSQL: malformed percent escapes, huge addresses, HEAD and wrong methods, oversized and odd
//! bodies, revalidation with 304, forged origins and hostile return paths.

// A test tells one story from start to end: it may run past a screen.
#![allow(clippy::too_many_lines)]

use crate::support;

use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use support::{database, Backend, PAST_GATES};

/// The server-rendered root of a page.
fn root(html: &str) -> &str {
    let start = html.find(r#"<div id="root">"#).expect("root");
    let end = html.find("</body>").expect("body");
    &html[start..end]
}

async fn malformed_percent_escapes_never_blank_a_page(b: Backend) {
    let db = database(b);
    let store = store!(db);
    for (uri, heading) in [
        ("/?%", "BEST SELLERS"),
        ("/?%zz=1", "BEST SELLERS"),
        ("/about-us?%C0", "About"),
        ("/buy-beer?filterByType=%ff", "Buy Beer"),
        ("/buy-beer?filterByType=can&filterByType=%", "Buy Beer"),
        ("/single-product/%zz", "Page not found"),
        ("/single-product/%E0%A4%A", "Page not found"),
    ] {
        let r = send!(store, support::get(uri, PAST_GATES));
        let html = r.text();
        assert!(
            r.status == StatusCode::OK
                || r.status == StatusCode::FOUND
                || r.status == StatusCode::NOT_FOUND,
            "{uri}: {}",
            r.status
        );
        if r.status == StatusCode::FOUND {
            continue;
        }
        assert!(
            html.contains(r#""ssr":true"#),
            "{uri}: rendered on the server"
        );
        assert!(root(&html).contains(heading), "{uri}: {heading}");
    }
}
both!(malformed_percent_escapes_never_blank_a_page);

async fn huge_addresses_are_refused_not_echoed(b: Backend) {
    let db = database(b);
    let store = store!(db);
    let long = format!("/{}", "a'".repeat(30_000));
    let r = send!(store, support::get(&long, ""));
    assert_eq!(r.status, StatusCode::URI_TOO_LONG);
    assert!(r.body.len() < 100, "nothing of the address is echoed");
    let r = send!(
        store,
        support::get(&format!("/buy-beer?x={}", "b".repeat(5_000)), "")
    );
    assert_eq!(r.status, StatusCode::URI_TOO_LONG);
    // A long but reasonable address still renders.
    let r = send!(
        store,
        support::get(&format!("/buy-beer?utm_campaign={}", "c".repeat(500)), "")
    );
    assert_eq!(r.status, StatusCode::OK);
}
both!(huge_addresses_are_refused_not_echoed);

async fn head_is_answered_and_405_names_the_methods(b: Backend) {
    let db = database(b);
    let store = store!(db);
    for (method, uri, status, allow) in [
        ("HEAD", "/robots.txt", 200, None),
        ("HEAD", "/sitemap.xml", 200, None),
        ("HEAD", "/api/v1/products", 200, None),
        ("HEAD", "/buy-beer", 200, None),
        ("HEAD", "/gate/consent", 303, None),
        ("PUT", "/gate/consent", 405, Some("GET, HEAD, POST")),
        ("DELETE", "/api/v1/products", 405, Some("GET, HEAD")),
        ("GET", "/api/v3/packagings", 405, Some("POST")),
        ("POST", "/buy-beer", 405, Some("GET, HEAD")),
        ("POST", "/robots.txt", 405, Some("GET, HEAD")),
    ] {
        let req = TestRequest::default()
            .method(method.parse().unwrap())
            .uri(uri);
        let r = send!(store, req);
        assert_eq!(r.status.as_u16(), status, "{method} {uri}");
        assert_eq!(
            r.headers
                .get("allow")
                .map(|v| v.to_str().unwrap().to_string()),
            allow.map(str::to_string),
            "{method} {uri}"
        );
    }
}
both!(head_is_answered_and_405_names_the_methods);

async fn bodies_are_bounded_and_errors_are_the_stores_own(b: Backend) {
    let db = database(b);
    let store = store!(db);
    let send = |req: TestRequest| support::call(&store, req.to_request());
    // Too large: the store's own 413.
    let too_large = [
        (
            "/api/v1/mail/subscribe",
            "application/json",
            format!("{{\"email\": \"{}\"}}", "a".repeat(40_000)),
        ),
        (
            "/newsletter",
            "application/x-www-form-urlencoded",
            format!("email={}", "a".repeat(70_000)),
        ),
    ];
    for (uri, kind, body) in too_large {
        let req = TestRequest::post()
            .uri(uri)
            .insert_header(("content-type", kind))
            .set_payload(body);
        let r = send(req).await;
        assert_eq!(r.status, StatusCode::PAYLOAD_TOO_LARGE, "{uri}");
        if uri.starts_with("/api/") {
            let v: serde_json::Value = serde_json::from_slice(&r.body).unwrap();
            assert!(v["error"].as_str().unwrap().contains("too large"), "{v}");
        }
    }
    // Odd bodies get the store's words, never a library's; a body that is not JSON by its type
    // is refused as such (415).
    for (headers, body, status) in [
        (
            vec![("content-encoding", "gzip")],
            b"not gzip at all".to_vec(),
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ),
        (
            vec![("content-type", "application/json")],
            b"[1, 2]".to_vec(),
            StatusCode::BAD_REQUEST,
        ),
        (
            vec![("content-type", "application/json")],
            b"{\"email\": ".to_vec(),
            StatusCode::BAD_REQUEST,
        ),
        (
            vec![
                ("content-type", "application/json"),
                ("content-encoding", "gzip"),
            ],
            b"not gzip at all".to_vec(),
            StatusCode::BAD_REQUEST,
        ),
        (
            vec![("content-type", "text/plain")],
            vec![0xff, 0xfe, 0x00],
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ),
    ] {
        let list = body.starts_with(b"[");
        let mut req = TestRequest::post()
            .uri("/api/v1/mail/subscribe")
            .set_payload(body);
        for h in headers {
            req = req.insert_header(h);
        }
        let r = send(req).await;
        assert_eq!(r.status, status);
        let text = r.text();
        for leak in ["expected", "struct", "Custom", "invalid gzip", "line 1"] {
            assert!(!text.contains(leak), "{text}");
        }
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        let words = if list {
            // JSON, but every body is an object (serde would read a struct from a list).
            "The request body must be a JSON object."
        } else if status == StatusCode::BAD_REQUEST {
            "The request body is not valid JSON."
        } else {
            "Send the body as application/json."
        };
        assert_eq!(v["error"], words);
    }
    let r = send(TestRequest::get().uri("/assets/%2e%2e/Cargo.toml")).await;
    assert_eq!(r.status, StatusCode::NOT_FOUND);
    assert!(r.text().contains(r#""error""#));
}
both!(bodies_are_bounded_and_errors_are_the_stores_own);

async fn known_answers_are_revalidated_with_304(b: Backend) {
    let db = database(b);
    let store = store!(db);
    let get = |uri: &str| {
        TestRequest::get()
            .uri(uri)
            .insert_header(("cookie", PAST_GATES))
            .insert_header(("accept-encoding", "gzip, br"))
    };
    for uri in ["/buy-beer", "/api/v1/products", "/img/favicon.svg"] {
        let first = send!(store, get(uri));
        assert_eq!(first.status, StatusCode::OK, "{uri}");
        let etag = first.headers.get("etag").expect("etag").clone();
        let again = send!(store, get(uri).insert_header(("if-none-match", etag)));
        assert_eq!(again.status, StatusCode::NOT_MODIFIED, "{uri}");
    }
}
both!(known_answers_are_revalidated_with_304);

/// A form post with these headers.
fn form_post(uri: &str, form: &str, headers: Vec<(&'static str, &'static str)>) -> TestRequest {
    let mut req = support::post_form(uri, "", form);
    for h in headers {
        req = req.insert_header(h);
    }
    req
}

async fn forged_origins_are_refused(b: Backend) {
    let db = database(b);
    let store = store!(db);
    let post = |uri: &str, form: &str, headers| {
        support::call(&store, form_post(uri, form, headers).to_request())
    };
    // The store is https://shop.example; what the client says of the host does not count.
    for headers in [
        vec![
            ("origin", "http://evil.com"),
            ("x-forwarded-host", "evil.com"),
            ("host", "evil.com"),
        ],
        vec![("origin", "http://shop.example")],
        vec![("referer", "https://evil.com/page")],
        vec![
            ("origin", "https://shop.example"),
            ("sec-fetch-site", "cross-site"),
        ],
    ] {
        for uri in [
            "/gate/consent",
            "/gate/category",
            "/gate/location",
            "/newsletter",
        ] {
            let r = post(uri, "email=a%40b.co&category_id=1", headers.clone()).await;
            assert_eq!(r.status, StatusCode::FORBIDDEN, "{uri} {headers:?}");
        }
    }
    let ok = post(
        "/gate/consent",
        "",
        vec![("origin", "https://shop.example")],
    )
    .await;
    assert_eq!(ok.status, StatusCode::SEE_OTHER);
}
both!(forged_origins_are_refused);

/// Hostile return paths fall back home, never a 5xx.
async fn hostile_return_paths_fall_back_home(b: Backend) {
    let db = database(b);
    let store = store!(db);
    for back in [
        "%2F%0D%0ASet-Cookie%3A+x%3D1",
        "%2F%09%2Fevil.com",
        "%2F%00",
        "%2F%7F",
        "%2F%5Cevil.com",
        "%2F%2Fevil.com",
    ] {
        for (uri, form) in [
            ("/gate/consent", format!("return_to={back}")),
            (
                "/newsletter",
                format!("email=x%40example.com&return_to={back}"),
            ),
        ] {
            let r = send!(store, form_post(uri, &form, vec![]));
            assert_eq!(r.status, StatusCode::SEE_OTHER, "{uri} {back}");
            let to = r.headers.get("location").unwrap().to_str().unwrap();
            assert!(to.starts_with("/?"), "{uri} {back}: {to}");
        }
    }
}
both!(hostile_return_paths_fall_back_home);
