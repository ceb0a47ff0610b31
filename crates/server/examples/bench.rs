//! `make bench`: figures against the budgets of DESIGN.md. Serves a freshly seeded SQLite store on
//! a loopback port and measures
//! - the SSR render of /buy-beer in QuickJS, memo miss and memo hit;
//! - requests per second and p99 latency of GET /api/v1/products and GET /buy-beer under wrk;
//! - the gzip size of the JavaScript of a first load;
//! - where the header, the inline CSS and the main content start in the page's HTML.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

fn verdict(ok: bool) -> &'static str {
    if ok {
        "within budget"
    } else {
        "OVER BUDGET"
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn http_get(addr: &str, path: &str) -> String {
    let mut s = TcpStream::connect(addr).expect("connect");
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    out.split_once("\r\n\r\n")
        .map(|(_, b)| b.to_string())
        .unwrap_or_default()
}

/// Runs wrk and answers (requests per second, p99 in ms).
fn wrk(url: &str, method: &str) -> Option<(f64, f64)> {
    let script = std::env::temp_dir().join(format!("bench-{method}.lua"));
    std::fs::write(&script, format!("wrk.method = \"{method}\"\n")).ok()?;
    let out = Command::new("wrk")
        .args(["-t2", "-c32", "-d10s", "--latency", "-s"])
        .arg(&script)
        .arg(url)
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let rps = text
        .lines()
        .find_map(|l| l.strip_prefix("Requests/sec:"))?
        .trim()
        .parse()
        .ok()?;
    let p99 = text.lines().find_map(|l| {
        let l = l.trim();
        l.strip_prefix("99%").map(|v| v.trim().to_string())
    })?;
    let ms = if let Some(v) = p99.strip_suffix("ms") {
        v.parse::<f64>().ok()?
    } else if let Some(v) = p99.strip_suffix("us") {
        v.parse::<f64>().ok()? / 1000.0
    } else if let Some(v) = p99.strip_suffix('s') {
        v.parse::<f64>().ok()? * 1000.0
    } else {
        return None;
    };
    Some((rps, ms))
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let port = free_port();
    let config = server::Config {
        database_url: dir.path().join("bench.db").display().to_string(),
        bind: format!("127.0.0.1:{port}"),
        public_url: format!("http://127.0.0.1:{port}"),
        ui_dist: root().join("ui/dist"),
        ui_public: root().join("ui/public"),
        ssr_bundle: root().join("ssr-bundle/dist/server.js"),
        ssr_threads: 2,
        db_pool_size: 8,
        workers: 2,
        production: false,
        maintenance: false,
    };
    let pool = server::open_database(&config).expect("database");
    db::seed::seed(&mut pool.get().unwrap()).expect("seed");

    // SSR of /buy-beer with the real data, straight on the render pool.
    let api = server::api_state(pool.clone(), &config);
    let state = server::web_state(&api, &config).expect("web state");
    // A shopper in Makati who has not picked a category yet: the whole list (26 products) under
    // the category gate, the heaviest list page.
    let choices = api::gate::Choices {
        consent: true,
        packaging: None,
        fulfillment: Some(domain::DEFAULT_FULFILLMENT),
        barangay: Some(domain::BarangayId::from_db(1380300002)),
        street: None,
    };
    let mut conn = pool.get().unwrap();
    let plan = web::plan::plan(
        Some(&mut api::Ctx::new(&mut conn, &api.config)),
        &state.routes,
        &config.public_url,
        &web::plan::Request {
            path: "/buy-beer",
            query: "",
            choices,
            maintenance: false,
        },
    );
    drop(conn);
    let input = plan.input;
    let renderer = &state.renderer;
    for i in 0..5 {
        let mut warm = input.clone();
        warm["url"] = format!("/buy-beer?warm={i}").into();
        renderer.render_blocking(warm.to_string()).unwrap();
    }
    let mut misses = Vec::new();
    for i in 0..60 {
        let mut fresh = input.clone();
        fresh["url"] = format!("/buy-beer?n={i}").into();
        let text = fresh.to_string();
        let t = Instant::now();
        let r = renderer.render_blocking(text).unwrap();
        misses.push(t.elapsed().as_secs_f64() * 1000.0);
        assert!(!r.memo_hit);
    }
    let same = input.to_string();
    let html_len = renderer.render_blocking(same.clone()).unwrap().output.len();
    let mut hits = Vec::new();
    for _ in 0..1000 {
        let text = same.clone();
        let t = Instant::now();
        let r = renderer.render_blocking(text).unwrap();
        hits.push(t.elapsed().as_secs_f64() * 1000.0);
        assert!(r.memo_hit);
    }
    misses.sort_by(f64::total_cmp);
    hits.sort_by(f64::total_cmp);
    let products = input["state"]["queries"][1]["state"]["data"]["products"]
        .as_array()
        .map_or(0, Vec::len);
    println!(
        "SSR render of /buy-beer ({products} products, {html_len} bytes of HTML, 2 render threads)"
    );
    let (m50, m95) = (percentile(&misses, 0.5), percentile(&misses, 0.95));
    println!(
        "  memo miss: median {m50:.2} ms, p95 {m95:.2} ms   budget < 30 ms   {}",
        verdict(m95 < 30.0)
    );
    let (h50, h95) = (percentile(&hits, 0.5), percentile(&hits, 0.95));
    println!(
        "  memo hit:  median {h50:.3} ms, p95 {h95:.3} ms   budget < 1 ms    {}",
        verdict(h95 < 1.0)
    );
    drop(state);

    // The server, in this process, on its own actix system.
    let serve_config = config.clone();
    std::thread::spawn(move || {
        actix_web::rt::System::new()
            .block_on(server::serve(serve_config))
            .expect("serve");
    });
    let addr = config.bind.clone();
    for _ in 0..100 {
        if TcpStream::connect(&addr).is_ok() {
            break;
        }
        std::thread::sleep(Duration::from_millis(50));
    }

    // First load: JavaScript size and the first 14,600 bytes.
    let page = http_get(&addr, "/buy-beer");
    let manifest: std::collections::HashMap<String, String> = serde_json::from_str(
        &std::fs::read_to_string(root().join("ui/dist/manifest.json")).unwrap(),
    )
    .unwrap();
    let js = root()
        .join("ui/dist")
        .join(manifest["client.js"].trim_start_matches('/'));
    let gz = Command::new("gzip")
        .arg("-9c")
        .arg(&js)
        .output()
        .unwrap()
        .stdout
        .len();
    println!("First load");
    println!(
        "  JavaScript: {:.1} KB gzip ({:.1} KB raw)   budget <= 110 KB   {}",
        gz as f64 / 1024.0,
        std::fs::metadata(&js).unwrap().len() as f64 / 1024.0,
        verdict(gz <= 110 * 1024)
    );
    let at = |needle: &str| page.find(needle).map_or(usize::MAX, |i| i + needle.len());
    let (css_end, header_end, main_start) = (at("</style>"), at("</header>"), at("<main"));
    let first_card = at(r#"class="card""#);
    println!(
        "  HTML: inline CSS ends at byte {css_end}, header at {header_end}, <main> starts at {main_start}, first product at {first_card} of {}",
        page.len()
    );
    println!(
        "  first 14,600 bytes hold the header, the inline CSS and the start of main   {}",
        verdict(css_end <= 14_600 && header_end <= 14_600 && main_start <= 14_600)
    );

    println!("Load on loopback (wrk, 2 threads, 32 connections, 10 s; server: 2 workers, SQLite)");
    for (path, method) in [("/api/v1/products", "GET"), ("/buy-beer", "GET")] {
        match wrk(&format!("http://{addr}{path}"), method) {
            Some((rps, p99)) => println!(
                "  {method} {path}: {rps:.0} requests/s, p99 {p99:.2} ms   budget: none set in DESIGN.md"
            ),
            None => println!("  {method} {path}: wrk did not run (is it installed? `make wrk`)"),
        }
    }
    std::process::exit(0);
}
