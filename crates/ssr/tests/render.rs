//! Renders pages with the real server bundle in QuickJS. The bundle is built by `make build`
//! (ui/build.mjs); these tests fail, not skip, when it is missing.

use std::path::PathBuf;

use serde_json::json;
use ssr::{Renderer, SsrConfig, SsrError};

fn bundle() -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../ssr-bundle/dist/server.js");
    std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}; run `make build` first", path.display()))
}

fn config(threads: usize) -> SsrConfig {
    SsrConfig {
        threads,
        ..SsrConfig::default()
    }
}

fn product(id: i64, name: &str, kind: &str, price: i64, case: i64) -> serde_json::Value {
    // How each kind is sold, as the API says it (domain::selling).
    let (sold_as, options) = match kind {
        "Cans" => (
            "box",
            json!([{ "pack": "case", "label": "Box of 24", "price": case }]),
        ),
        "Keg" => (
            "keg",
            json!([{ "pack": "unit", "label": "Keg", "price": price }]),
        ),
        _ => (
            "case_or_bottle",
            json!([
                { "pack": "unit", "label": "Bottle", "price": price },
                { "pack": "case", "label": "Case of 24", "price": case }
            ]),
        ),
    };
    json!({
        "created_on": "2026-01-01", "sold_as": sold_as, "pack_options": options,
        "id": id, "slug": format!("p-{id}"), "product_name": name, "sku": format!("SKU-{id}"),
        "brand": "Tala", "size": "330 ml", "style": "Pale Pilsen", "price": price, "price_per_case": case,
        "unit_per_case": if kind == "Keg" { 1 } else { 24 },
        "types": { "id": 1, "name": kind }, "packaging": { "id": 1, "name": "BOTTLES" },
        "product_image": format!("/img/products/p-{id}.svg"), "description": "", "custom_description": "",
        "orderable": id != 3
    })
}

fn query(key: &str, data: serde_json::Value) -> serde_json::Value {
    json!({
        "queryKey": [key],
        "queryHash": serde_json::to_string(&json!([key])).unwrap(),
        "state": {
            "data": data, "dataUpdateCount": 1, "dataUpdatedAt": 0, "error": null,
            "errorUpdateCount": 0, "errorUpdatedAt": 0, "fetchFailureCount": 0,
            "fetchFailureReason": null, "fetchMeta": null, "isInvalidated": false,
            "status": "success", "fetchStatus": "idle"
        }
    })
}

fn gate() -> serde_json::Value {
    json!({"open": null, "consent": true, "packagingId": null, "packagingName": null, "fulfillmentId": null,
           "cityId": null, "barangayId": null, "streetId": null, "cityName": null, "barangayName": null})
}

/// The body HTML of a render (the bundle answers `{html, head}`).
fn html_of(out: &ssr::Rendered) -> String {
    let v: serde_json::Value = serde_json::from_str(&out.output).expect("render output is JSON");
    v["html"].as_str().expect("html").to_string()
}

fn buy_beer_input() -> String {
    let products = vec![
        product(1, "Tala Pale Pilsen 320 ml", "Full Goods", 5200, 118800),
        product(2, "Tala Pale Pilsen Can 330 ml", "Cans", 6000, 139200),
        product(3, "Tala Pale Pilsen Keg 30 L", "Keg", 725000, 725000),
    ];
    json!({
        "url": "/buy-beer", "route": "buy-beer", "status": 200, "vars": {}, "origin": "https://shop.example",
        "gate": gate(),
        "state": { "mutations": [], "queries": [query("/api/v1/products", json!({
            "products": products, "recommended_products": [], "best_sellers": [],
            "filter_types": [], "brands": ["Tala"], "total": 3, "page": 1, "pages": 1, "per_page": 24,
            "facets": {"styles": [{"value": "Pale Pilsen", "count": 3}], "sizes": [], "brands": [{"value": "Tala", "count": 3}],
                       "min_price": 5200, "max_price": 725000}
        }))] }
    })
    .to_string()
}

#[test]
fn renders_the_product_list_with_names_prices_and_links() {
    let r = Renderer::new(bundle(), config(1)).expect("bundle loads");
    let out = r.render_blocking(buy_beer_input()).expect("render");
    let html = &html_of(&out);
    assert!(!out.memo_hit);
    assert!(html.contains("<h1>Buy Beer</h1>"), "{html}");
    assert!(html.contains("Tala Pale Pilsen 320 ml"));
    assert!(html.contains("P52.00"), "bottle shows its unit price");
    assert!(html.contains("P1,392.00"), "cans show the box price");
    assert!(html.contains("P7,250.00"), "kegs show the keg price");
    assert!(html.contains(r#"href="/single-product/p-1""#));
    assert!(html.contains(r#"id="browse-cont""#));
    assert!(
        html.contains("Out Of Stock"),
        "not orderable product is marked"
    );
}

#[test]
fn the_same_input_is_served_from_the_memo() {
    let r = Renderer::new(bundle(), config(1)).unwrap();
    let first = r.render_blocking(buy_beer_input()).unwrap();
    let second = r.render_blocking(buy_beer_input()).unwrap();
    assert!(!first.memo_hit);
    assert!(second.memo_hit);
    assert_eq!(first.output, second.output);
}

/// A crowd asking for the same new input at once: one render, the others wait for it.
#[tokio::test]
async fn the_same_input_asked_at_once_is_rendered_once() {
    let r = Renderer::new(bundle(), config(2)).unwrap();
    let asks = (0..6).map(|_| r.render(buy_beer_input()));
    let answers = futures_util::future::join_all(asks).await;
    let answers: Vec<_> = answers.into_iter().map(Result::unwrap).collect();
    assert_eq!(answers.iter().filter(|a| !a.memo_hit).count(), 1);
    assert!(answers.iter().all(|a| a.output == answers[0].output));
    assert_eq!(r.stats.misses.load(std::sync::atomic::Ordering::Relaxed), 1);
    assert_eq!(r.stats.hits.load(std::sync::atomic::Ordering::Relaxed), 5);
}

#[test]
fn unknown_routes_render_the_not_found_page() {
    let r = Renderer::new(bundle(), config(1)).unwrap();
    let input = json!({"url": "/nope", "route": "not-found", "status": 404, "vars": {},
        "origin": "https://shop.example", "gate": gate(), "state": {"mutations": [], "queries": []}});
    let out = r.render_blocking(input.to_string()).unwrap();
    assert!(html_of(&out).contains("Page not found"));
    let head: serde_json::Value = serde_json::from_str(&out.output).unwrap();
    assert!(head["head"].is_object());
}

#[test]
fn a_failing_render_is_an_error_and_the_pool_recovers() {
    let r = Renderer::new(bundle(), config(1)).unwrap();
    let err = r.render_blocking("{not json".into()).unwrap_err();
    assert!(matches!(err, SsrError::Failed(_)), "{err:?}");
    assert!(r.render_blocking(buy_beer_input()).is_ok());
}

#[test]
fn a_render_running_past_the_timeout_is_interrupted() {
    let bundle =
        "globalThis.render = function (s) { if (s === 'loop') { for (;;) {} } return 'ok'; };";
    let mut cfg = config(1);
    cfg.limits.timeout = std::time::Duration::from_millis(50);
    let r = Renderer::new(bundle.into(), cfg).unwrap();
    assert_eq!((r.threads(), r.threads_alive(), r.queue_len()), (1, 1, 0));
    assert!(matches!(
        r.render_blocking("loop".into()),
        Err(SsrError::Failed(_))
    ));
    // The interrupted runtime is replaced at once (readiness counts the live ones).
    let start = std::time::Instant::now();
    while r.threads_alive() != 1 {
        assert!(start.elapsed().as_secs() < 5, "no fresh runtime");
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(
        r.stats.failures.load(std::sync::atomic::Ordering::Relaxed),
        1
    );
    assert_eq!(&*r.render_blocking("x".into()).unwrap().output, "ok");
}

#[test]
fn the_queue_and_the_threads_are_counted() {
    // One thread busy with a slow render; the renders sent after it wait in the queue.
    let bundle = "globalThis.render = function (s) { if (s === 'slow') { const t = Date.now(); while (Date.now() - t < 300) {} } return s; };";
    let r = std::sync::Arc::new(Renderer::new(bundle.into(), config(1)).unwrap());
    let slow = {
        let r = r.clone();
        std::thread::spawn(move || r.render_blocking("slow".into()).unwrap())
    };
    std::thread::sleep(std::time::Duration::from_millis(50));
    let waiting: Vec<_> = (0..3)
        .map(|i| {
            let r = r.clone();
            std::thread::spawn(move || r.render_blocking(format!("w{i}")).unwrap())
        })
        .collect();
    let start = std::time::Instant::now();
    while r.queue_len() < 3 {
        assert!(start.elapsed().as_secs() < 5, "queue {}", r.queue_len());
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    slow.join().unwrap();
    for w in waiting {
        w.join().unwrap();
    }
    assert_eq!((r.queue_len(), r.threads_alive()), (0, 1));
    assert_eq!(r.stats.misses.load(std::sync::atomic::Ordering::Relaxed), 4);
}

#[test]
fn a_render_past_the_memory_limit_fails() {
    let bundle = "globalThis.render = function () { const a = []; for (;;) { a.push(new Array(1e5).fill(1)); } };";
    let mut cfg = config(1);
    cfg.limits.memory_bytes = 16 << 20;
    let r = Renderer::new(bundle.into(), cfg).unwrap();
    assert!(matches!(
        r.render_blocking("x".into()),
        Err(SsrError::Failed(_))
    ));
}

#[test]
fn promise_jobs_of_the_bundles_evaluation_run_before_the_first_render() {
    // The server bundle loads its pages through (inlined) dynamic imports, settled by promise
    // jobs: the first render of a fresh runtime must find them done.
    let bundle = "var ready = 'no'; Promise.resolve().then(function () { return 1; }).then(function () { ready = 'yes'; }); \
                  globalThis.render = function () { return ready; };";
    let r = Renderer::new(bundle.into(), config(1)).unwrap();
    assert_eq!(&*r.render_blocking("x".into()).unwrap().output, "yes");
}

#[test]
fn a_bundle_without_render_does_not_start() {
    let err = Renderer::new("var x = 1;".into(), config(1)).err().unwrap();
    assert!(matches!(err, SsrError::Start(_)));
}

#[test]
fn the_bundle_loads_without_polyfills() {
    // The bundle adds nothing to QuickJS's globals and assumes no browser: it loads and renders as
    // it is. React's synchronous renderer (react-dom's legacy server build, ui/build.mjs) needs no
    // MessageChannel or TextEncoder; its streaming one, which would, is left out of the bundle.
    let src = bundle();
    let r = Renderer::new(
        format!("{src}\nglobalThis.render = (function (inner) {{ return function (s) {{ if (s === 'globals') {{ return [typeof MessageChannel, typeof TextEncoder, typeof setTimeout, typeof window, typeof Intl].join(','); }} return inner(s); }}; }})(globalThis.render);"),
        config(1),
    )
    .unwrap();
    let globals = r.render_blocking("globals".into()).unwrap();
    assert_eq!(
        &*globals.output,
        "undefined,undefined,undefined,undefined,undefined"
    );
}

#[test]
fn an_ordinary_exception_keeps_the_runtime_and_an_interrupt_replaces_it() {
    // The counter lives in the runtime: it goes on after an exception, starts over after a
    // runtime is replaced.
    let bundle = "var n = 0; globalThis.render = function (s) { n += 1; \
                  if (s === 'throw') { throw new URIError('URI malformed'); } \
                  if (s === 'loop') { for (;;) {} } return s + n; };";
    let mut cfg = config(1);
    cfg.limits.timeout = std::time::Duration::from_millis(50);
    let r = Renderer::new(bundle.into(), cfg).unwrap();
    assert_eq!(&*r.render_blocking("a".into()).unwrap().output, "a1");
    assert!(r.render_blocking("throw".into()).is_err());
    assert_eq!(&*r.render_blocking("b".into()).unwrap().output, "b3");
    assert!(r.render_blocking("loop".into()).is_err());
    assert_eq!(&*r.render_blocking("c".into()).unwrap().output, "c1");
}

#[test]
fn the_memo_is_bounded_by_bytes() {
    let bundle = "globalThis.render = function (s) { return s + new Array(10000).join('x'); };";
    let mut cfg = config(1);
    cfg.memo_bytes = 100_000;
    let r = Renderer::new(bundle.into(), cfg).unwrap();
    for i in 0..100 {
        r.render_blocking(format!("k{i}")).unwrap();
    }
    assert!(r.memo_weight() <= 100_000, "{}", r.memo_weight());
    assert!(r.memo_weight() >= 50_000, "the memo still holds renders");
}
