//! When the database fails, SQLite on a full disk: a write is a 503 with Retry-After in the store's
//! words (never a 500), reads go on, `/readyz` says the database takes no write, the metrics count
//! the failures by kind, and once space is freed the store takes writes again and the file is
//! sound. The disk is a small tmpfs of the test's own where the machine lets the test mount one
//! (root); elsewhere the failure is injected (a trigger raising SQLite's own words for a full
//! disk).

mod support;

use std::io::Write;
use std::path::{Path, PathBuf};

use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use serde_json::{json, Value};
use support::{json_request, MAKATI, SHOP};

/// A tmpfs mounted on a folder for the test's life, when the machine allows it.
struct Mounted(PathBuf);

impl Mounted {
    fn new(dir: &Path, size: &str) -> Option<Self> {
        let ok = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        ok.then(|| Self(dir.to_path_buf()))
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount")
            .arg("-l")
            .arg(&self.0)
            .status();
    }
}

/// Fills the filesystem of `dir` with one file until it takes no more; answers the file.
fn fill(dir: &Path) -> PathBuf {
    let filler = dir.join("filler");
    let mut f = std::fs::File::create(&filler).expect("filler");
    let block = vec![0u8; 64 * 1024];
    loop {
        if f.write_all(&block).and_then(|_| f.sync_all()).is_err() {
            break;
        }
    }
    // Whatever is left in smaller pieces.
    let small = vec![0u8; 512];
    while f.write_all(&small).and_then(|_| f.sync_all()).is_ok() {}
    filler
}

const INJECT: &str = "CREATE TRIGGER outage_full BEFORE INSERT ON cart_items \
    BEGIN SELECT RAISE(FAIL, 'database or disk is full'); END;";

#[actix_web::test]
async fn sqlite_on_a_full_disk_answers_503_and_recovers() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mounted = Mounted::new(dir.path(), "96m");
    let db = support::sqlite_in(dir.path());
    let guest = support::guest(&db).await;
    let store = store!(db);
    let ready = send!(store, support::get("/readyz", ""));
    assert_eq!(ready.status, StatusCode::OK, "{}", ready.text());
    let add = || {
        let body = json!({"product_id": 1, "quantity": 24, "barangay": MAKATI});
        json_request("POST", "/api/v1/cart", &guest, body)
    };

    // The disk fills up.
    let filler = match &mounted {
        Some(_) => Some(fill(dir.path())),
        None => {
            eprintln!("no tmpfs could be mounted here: the full disk is injected");
            db.pool.get().unwrap().batch_execute(INJECT).unwrap();
            None
        }
    };
    let r = send!(store, add());
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "{}", r.text());
    assert_eq!(
        r.headers.get("retry-after").and_then(|v| v.to_str().ok()),
        Some("30")
    );
    assert_eq!(
        r.json()["error"],
        "The store can't take changes right now. Please try again in a minute."
    );
    // The same add as a form without JavaScript: the cart page again, 503, in the store's words.
    let body = support::form_body(&[
        ("_call", "addToCart"),
        ("csrf", &framework::session::csrf_token(&guest)),
        ("product_id", "1"),
        ("quantity", "24"),
        ("barangay", &MAKATI.to_string()),
    ]);
    let r = send!(
        store,
        support::post_form("/cart", &format!("session={guest}"), &body)
            .insert_header(("origin", SHOP))
    );
    assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "{}", r.text());
    assert_eq!(
        r.headers.get("retry-after").and_then(|v| v.to_str().ok()),
        Some("30")
    );
    // Shown in the page as React writes it (the page's state, JSON, spells it unescaped).
    assert!(
        support::root(&r.text()).contains("The store can&#x27;t take changes right now"),
        "{}",
        r.text()
    );
    // Reads go on.
    let r = send!(
        store,
        support::get(&format!("/api/v1/products?barangay={MAKATI}"), "")
    );
    assert_eq!(r.status, StatusCode::OK);
    // A load balancer is told the truth (a real full disk: readiness looks at the disk too).
    let r = send!(store, support::get("/readyz", ""));
    if mounted.is_some() {
        assert_eq!(r.status, StatusCode::SERVICE_UNAVAILABLE, "{}", r.text());
        assert!(
            r.text().contains("database: not writable (full)"),
            "{}",
            r.text()
        );
    }
    let r = send!(store, support::get("/metrics", ""));
    let metrics = r.text();
    let full = metrics
        .lines()
        .find(|l| l.starts_with("store_db_failures_total{kind=\"full\"}"))
        .unwrap_or_else(|| panic!("{metrics}"));
    assert_ne!(full.rsplit(' ').next(), Some("0"), "{full}");

    // Space again: the next write goes through, readiness follows within its probe's period.
    match filler {
        Some(f) => std::fs::remove_file(f).unwrap(),
        None => db
            .pool
            .get()
            .unwrap()
            .batch_execute("DROP TRIGGER outage_full;")
            .unwrap(),
    }
    let r = send!(store, add());
    assert_eq!(r.status, StatusCode::OK, "{}", r.text());
    let mut ready = StatusCode::SERVICE_UNAVAILABLE;
    for _ in 0..40 {
        ready = send!(store, support::get("/readyz", "")).status;
        if ready == StatusCode::OK {
            break;
        }
        actix_web::rt::time::sleep(std::time::Duration::from_millis(250)).await;
    }
    assert_eq!(ready, StatusCode::OK);
    // Nothing half-written: one cart, one item, and a sound file.
    #[derive(QueryableByName)]
    struct Check {
        #[diesel(sql_type = diesel::sql_types::Text)]
        integrity_check: String,
    }
    let mut conn = db.pool.get().unwrap();
    let check: Check = diesel::sql_query("PRAGMA integrity_check")
        .get_result(&mut *conn)
        .unwrap();
    assert_eq!(check.integrity_check, "ok");
    let items: i64 = db::schema::cart_items::table
        .count()
        .get_result(&mut *conn)
        .unwrap();
    assert_eq!(items, 1);
    drop(conn);
    drop(store);
    drop(db);
    drop(mounted);
}

/// What one shopper's loop saw: each answer's status and how long it took, the adds answered
/// 200, and when each answer came (seconds from the start).
#[derive(Default)]
struct Seen {
    answers: Vec<(StatusCode, std::time::Duration, f64)>,
    added: i64,
}

/// PostgreSQL stopped for several seconds under load: eight guests adding to their carts and
/// reading. No 500; no request held past the bound; service within about a second of the database's
/// return; every cart holds exactly the adds answered 200.
#[actix_web::test]
async fn postgres_stopped_under_load_answers_503_and_recovers_at_once() {
    use std::time::{Duration, Instant};
    let db = support::database(support::Backend::Postgres);
    let mut guests = Vec::new();
    for _ in 0..8 {
        guests.push(support::guest(&db).await);
    }
    let store = store!(db);
    let start = Instant::now();
    let stop_at = Duration::from_secs(2);
    let down_for = Duration::from_secs(5);
    let load_for = Duration::from_secs(13);
    let shopper = |guest: String| {
        let store = &store;
        async move {
            let mut seen = Seen::default();
            while start.elapsed() < load_for {
                let t = Instant::now();
                let add = json!({"product_id": 1, "quantity": 1, "barangay": MAKATI});
                let r = send!(store, json_request("POST", "/api/v1/cart", &guest, add));
                seen.answers
                    .push((r.status, t.elapsed(), start.elapsed().as_secs_f64()));
                if r.status == StatusCode::OK {
                    seen.added += 1;
                }
                let t = Instant::now();
                let r = send!(
                    store,
                    TestRequest::get().uri(&format!("/api/v1/products?barangay={MAKATI}"))
                );
                seen.answers
                    .push((r.status, t.elapsed(), start.elapsed().as_secs_f64()));
                actix_web::rt::time::sleep(Duration::from_millis(40)).await;
            }
            seen
        }
    };
    let outage = async {
        actix_web::rt::time::sleep(stop_at).await;
        actix_web::rt::task::spawn_blocking(support::postgres_stop)
            .await
            .unwrap();
        let stopped = start.elapsed().as_secs_f64();
        actix_web::rt::time::sleep(down_for).await;
        actix_web::rt::task::spawn_blocking(support::postgres_start)
            .await
            .unwrap();
        (stopped, start.elapsed().as_secs_f64())
    };
    let (seen, (stopped, back)) = futures_util::future::join(
        futures_util::future::join_all(guests.iter().cloned().map(shopper)),
        outage,
    )
    .await;
    let all: Vec<&(StatusCode, Duration, f64)> = seen.iter().flat_map(|s| &s.answers).collect();
    let refused = all
        .iter()
        .filter(|(s, _, _)| *s == StatusCode::SERVICE_UNAVAILABLE)
        .count();
    eprintln!(
        "{} answers, {refused} 503 while stopped from {stopped:.1} s to {back:.1} s",
        all.len()
    );
    for (status, took, _) in &all {
        assert!(
            *status == StatusCode::OK || *status == StatusCode::SERVICE_UNAVAILABLE,
            "{status}"
        );
        assert!(*took < Duration::from_secs(5), "an answer took {took:?}");
    }
    assert!(refused > 0, "the outage was seen");
    // Service within about a second of the return: every add that started 1.5 s after it
    // worked.
    let late_refusals: Vec<f64> = all
        .iter()
        .filter(|(s, took, at)| {
            *s == StatusCode::SERVICE_UNAVAILABLE && at - took.as_secs_f64() > back + 1.5
        })
        .map(|(_, _, at)| *at)
        .collect();
    assert!(
        late_refusals.is_empty(),
        "refused after the return: {late_refusals:?}"
    );
    // Every cart holds exactly the adds answered 200.
    for (guest, s) in guests.iter().zip(&seen) {
        let uri = format!("/api/v1/cart/{MAKATI}");
        let r = send!(store, json_request("GET", &uri, guest, Value::Null));
        let units = r.json()["shopping_cart"][0]["items"][0]["quantity"]
            .as_i64()
            .unwrap_or(0);
        assert_eq!(units, s.added, "a cart holds the adds answered 200");
    }
}
