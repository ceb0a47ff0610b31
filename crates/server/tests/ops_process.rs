//! The store as a service, on the real `store` binary, on SQLite and PostgreSQL:
//!
//! - a whole journey (a guest's order, registration through the mailed link, login, a member's
//!   cart, checkout and order, a password reset through its link) logged as JSON lines
//!   (`LOG_FORMAT=json`, and `RUST_LOG=trace`: what every crate logs at every level): every line
//!   parses, every request has its line with its request id, and
//!   none of the journey's passwords, tokens, email address, street address, mobile number or
//!   names appears anywhere in the log; `/metrics` is served on `METRICS_BIND` and not on the
//!   store's address;
//! - SIGTERM during a burst of order submits: every submit gets its whole answer, the orders in
//!   the database are the 201s, readable log lines say so, and the process exits 0.

// A test tells one story from start to end: it may run past a screen.
#![allow(clippy::too_many_lines)]

use crate::support;

use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::process::{Child, ExitStatus};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use support::process::{
    free_port, http, listening_socket, read_answer, send, serve_with, try_http, unread_connections,
};
use support::{a_case, bearer, checkout, database, orders_placed, Backend, TestDb, MAKATI, OPEN};

fn sigterm(child: &Child) {
    unsafe {
        libc::kill(child.id() as i32, libc::SIGTERM);
    }
}

/// Waits for the process to end, at most `within`.
fn exit_of(child: &mut Child, within: Duration) -> ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > within {
            let _ = child.kill();
            panic!("the store did not exit within {within:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The first mail to `to` holding `needle`, once the store's sender has written it.
fn mail_to(db: &TestDb, outbox: &Path, to: &str, needle: &str) -> String {
    let start = Instant::now();
    loop {
        let found = support::read_outbox(&db.pool, outbox)
            .into_iter()
            .find(|m| m.contains(&format!("To: {to}")) && m.contains(needle));
        if let Some(m) = found {
            return m;
        }
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "no mail {needle}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `store serve` (see [`serve_with`]) on `port` with `env`, its mail written to a folder of its
/// own and its standard error to a log file.
struct Logged {
    child: Child,
    outbox: tempfile::TempDir,
    log: PathBuf,
    /// The log's folder, removed with it.
    _dir: tempfile::TempDir,
}

fn serve_logged(db: &TestDb, port: u16, env: &[(&str, String)]) -> Logged {
    let outbox = tempfile::tempdir().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("store.log");
    let child = serve_with(db, port, outbox.path(), Some(&log), env);
    Logged {
        child,
        outbox,
        log,
        _dir: dir,
    }
}

/// The headers of a JSON call from the app of the `Authorization` header `auth`.
fn json_headers(auth: &str) -> [(&str, &str); 2] {
    [
        ("Authorization", auth),
        ("Content-Type", "application/json"),
    ]
}

async fn a_journey_leaves_no_personal_data_in_the_log(b: Backend) {
    let db = database(b);
    let (port, metrics_port) = (free_port(), free_port());
    let mut store = serve_logged(
        &db,
        port,
        &[
            ("WORKERS", "2".into()),
            ("LOG_FORMAT", "json".into()),
            ("RUST_LOG", "trace".into()),
            ("METRICS_BIND", format!("127.0.0.1:{metrics_port}")),
        ],
    );
    let email = "ligaya.reyes@example.ph";
    let mobile = "09181234567";
    let (first, last) = ("Ligaya", "Makabayan");
    let address = "Unit 7C, 45 Mabini Tower";
    let password = "Kalamansi-Tubig-2031";
    let new_password = "Sampaguita-Ulan-2032";
    // What must never be logged; tokens join as the journey meets them.
    let mut secrets: Vec<String> = [
        email,
        mobile,
        &mobile[1..],
        first,
        last,
        address,
        "Mabini",
        password,
        new_password,
    ]
    .map(String::from)
    .to_vec();
    let json_ct = ("Content-Type", "application/json");
    let requests = Cell::new(0);
    let call = |method: &str, path: &str, headers: &[(&str, &str)], body: &str| {
        requests.set(requests.get() + 1);
        http(port, method, path, headers, body)
    };
    // A POST of the JSON `body` with `headers`, then its `Content-Type`.
    let post_json = |path: &str, headers: &[(&str, &str)], body: &str| {
        call("POST", path, &[headers, &[json_ct]].concat(), body)
    };
    let log_in = |login: &str, password: &str| {
        let body = json!({"login": login, "password": password}).to_string();
        post_json("/api/v1/login", &[], &body)
    };

    // A guest's order, and its page by the link's key.
    let r = call("POST", "/api/v1/guest-token", &[], "");
    let guest = r.header("access-token").expect("a guest token").to_string();
    secrets.push(guest.clone());
    let auth = bearer(&guest);
    let add = a_case().to_string();
    let r = post_json("/api/v1/cart", &[("Authorization", &auth)], &add);
    assert_eq!(r.status, 200, "{}", r.body);
    let cart = r.json();
    let order = |cart: &Value| {
        json!({
            "contact_name": format!("{first} {last}"), "mobile": mobile, "email": email,
            "address": address, "barangay": MAKATI, "street_id": 1, "fulfillment": 1,
            "notes": format!("Call {mobile} at the gate"),
            "revision": cart["revision"], "expected_total": cart["cart_order_summary"]["subtotal"],
            "testdate": OPEN,
        })
        .to_string()
    };
    let r = post_json("/api/v1/orders", &[("Authorization", &auth)], &order(&cart));
    assert_eq!(r.status, 201, "{}", r.body);
    let link = r.json()["link"].as_str().unwrap().to_string();
    let key = link
        .split("key=")
        .nth(1)
        .expect("a guest's key")
        .to_string();
    secrets.push(key.clone());
    let cookie = format!("session={guest}");
    let r = call("GET", &link, &[("Cookie", &cookie)], "");
    assert_eq!(r.status, 200, "{link}");
    let id = link
        .trim_start_matches("/active-order/")
        .split('?')
        .next()
        .unwrap();
    let r = call("GET", &format!("/api/v1/orders/{id}?key={key}"), &[], "");
    assert_eq!(r.status, 200);

    // Registration through the mailed link.
    let form = json!({
        "first_name": first, "last_name": last, "email": email, "mobile": mobile,
        "birth_date": "1990-05-12", "accept_terms": true,
    })
    .to_string();
    let r = post_json("/api/v1/pre-register", &[], &form);
    assert_eq!(r.status, 200, "{}", r.body);
    let token = support::link_token(&mail_to(
        &db,
        store.outbox.path(),
        email,
        "registration?token=",
    ));
    secrets.push(token.clone());
    let r = call("GET", &format!("/registration?token={token}"), &[], "");
    assert_eq!(r.status, 200);
    let r = call(
        "GET",
        &format!("/api/v1/check-registration-token?token={token}"),
        &[],
        "",
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let r = post_json(
        "/api/v1/registration",
        &[("registration-token", &token)],
        &json!({ "password": password }).to_string(),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    secrets.push(r.header("access-token").unwrap().to_string());
    // The used link, again: refused (and logged as a request only).
    let r = call("GET", &format!("/registration?token={token}"), &[], "");
    assert!(r.status < 500);

    // Login: a wrong password by mobile, then the right one by email.
    let r = log_in(mobile, "Wrong-Password-99");
    assert!((400..500).contains(&r.status), "{}", r.status);
    secrets.push("Wrong-Password-99".into());
    let r = log_in(email, password);
    assert_eq!(r.status, 200, "{}", r.body);
    let member = r.header("access-token").unwrap().to_string();
    secrets.push(member.clone());
    let auth = bearer(&member);

    // A member's cart, checkout and order.
    let r = post_json("/api/v1/cart", &[("Authorization", &auth)], &add);
    assert_eq!(r.status, 200, "{}", r.body);
    let cart = r.json();
    let cookie = format!("session={member}");
    let r = call("GET", "/checkout", &[("Cookie", &cookie)], "");
    assert!(r.status < 500, "{}", r.status);
    let r = post_json("/api/v1/orders", &[("Authorization", &auth)], &order(&cart));
    assert_eq!(r.status, 201, "{}", r.body);
    let r = call("GET", "/api/v1/user", &[("Authorization", &auth)], "");
    assert_eq!(r.status, 200);

    // A forgotten password, reset through the mailed link.
    let r = post_json(
        "/api/v1/reset/password/get-link",
        &[],
        &json!({ "email": email }).to_string(),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let suid = support::link_in(
        &mail_to(&db, store.outbox.path(), email, "reset-password?suid="),
        "reset-password?suid=",
    );
    secrets.push(suid.clone());
    let r = call("GET", &format!("/reset-password?suid={suid}"), &[], "");
    assert_eq!(r.status, 200);
    let suid_body = json!({ "suid": suid }).to_string();
    let r = post_json("/api/v1/reset/password/verify-link", &[], &suid_body);
    assert_eq!(r.status, 200, "{}", r.body);
    let r = post_json(
        "/api/v1/reset/password",
        &[],
        &json!({ "suid": suid, "password": new_password }).to_string(),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let r = log_in(email, new_password);
    assert_eq!(r.status, 200, "{}", r.body);
    secrets.push(r.header("access-token").unwrap().to_string());

    // The request id: a proxy's is repeated, else one is made.
    let r = call(
        "GET",
        "/api/v1/banners",
        &[("X-Request-Id", "proxy-req-7f3a")],
        "",
    );
    assert_eq!(r.header("x-request-id"), Some("proxy-req-7f3a"));
    let r = call(
        "GET",
        "/api/v1/banners",
        &[("X-Request-Id", "bad id with spaces")],
        "",
    );
    let made = r.header("x-request-id").unwrap().to_string();
    assert_eq!(made.len(), 16, "{made}");

    // METRICS_BIND: the metrics there, not on the store's address.
    let r = call("GET", "/metrics", &[], "");
    assert_eq!(r.status, 404);
    let m = http(metrics_port, "GET", "/metrics", &[], "");
    assert_eq!(m.status, 200);
    assert!(m.body.contains("store_orders_placed_total 2"), "{}", m.body);
    assert!(
        m.body.contains(
            r#"store_http_requests_total{method="POST",route="/api/v1/orders",status="201"} 2"#
        ),
        "{}",
        m.body
    );
    assert!(
        m.body.contains(r#"route="/active-order/{id}""#),
        "pages by their template"
    );
    assert_eq!(http(metrics_port, "GET", "/buy-beer", &[], "").status, 404);

    sigterm(&store.child);
    assert_eq!(
        exit_of(&mut store.child, Duration::from_secs(30)).code(),
        Some(0)
    );

    let text = std::fs::read_to_string(&store.log).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not a JSON line ({e}): {l}")))
        .collect();
    for l in &lines {
        for field in ["timestamp", "level", "target", "message"] {
            assert!(l.get(field).is_some(), "{field} missing: {l}");
        }
    }
    let access: Vec<&Value> = lines
        .iter()
        .filter(|l| l["target"] == "store::request")
        .collect();
    assert_eq!(access.len(), requests.get(), "one line a request:\n{text}");
    for l in &access {
        assert!(
            l["method"].is_string() && l["status"].is_u64() && l["ms"].is_f64(),
            "{l}"
        );
        assert!(
            !l["path"].as_str().unwrap().contains('?'),
            "a query logged: {l}"
        );
        assert!(!l["request_id"].as_str().unwrap().is_empty(), "{l}");
    }
    assert!(access
        .iter()
        .any(|l| l["request_id"] == "proxy-req-7f3a" && l["path"] == "/api/v1/banners"));
    assert!(access.iter().any(|l| l["request_id"] == made.as_str()));
    assert!(access
        .iter()
        .any(|l| l["path"] == "/api/v1/orders" && l["status"] == 201));
    let lower = text.to_lowercase();
    for secret in &secrets {
        assert!(
            !lower.contains(&secret.to_lowercase()),
            "{secret:?} is in the log:\n{text}"
        );
    }
    println!(
        "{b:?}: {} log lines, {} requests, none holds any of {} secrets",
        lines.len(),
        access.len(),
        secrets.len()
    );
}
both!(a_journey_leaves_no_personal_data_in_the_log);

/// Connections waiting in the queue of the socket listening on `port`.
fn accept_queue(port: u16) -> usize {
    listening_socket(port).map_or(0, |(_, queue)| queue)
}

/// How a submit ended: its status and when, or what broke.
type Submit = Result<(u16, Instant), String>;

async fn sigterm_finishes_the_submits_in_flight(b: Backend) {
    const SUBMITS: usize = 24;
    let db = database(b);
    let port = free_port();
    let mut store = serve_logged(
        &db,
        port,
        // Two database turns: the burst queues, so SIGTERM finds submits waiting and running.
        &[
            ("WORKERS", "2".into()),
            ("SHUTDOWN_TIMEOUT", "20".into()),
            ("DB_POOL_SIZE", "2".into()),
        ],
    );
    // Guests with a case in the cart, and each one's submit.
    let mut submits = Vec::new();
    for n in 0..=SUBMITS {
        let token = support::guest(&db).await;
        let auth = bearer(&token);
        let r = http(
            port,
            "POST",
            "/api/v1/cart",
            &json_headers(&auth),
            &a_case().to_string(),
        );
        assert_eq!(r.status, 200, "{}", r.body);
        let cart = r.json();
        let mut form = checkout(&cart);
        form["email"] = json!(format!("ana{n}@example.com"));
        submits.push((auth, form.to_string()));
    }
    // One submit alone: how long one takes here.
    let (auth, form) = submits.pop().unwrap();
    let start = Instant::now();
    let headers = json_headers(&auth);
    assert_eq!(
        http(port, "POST", "/api/v1/orders", &headers, &form).status,
        201
    );
    let one = start.elapsed();

    // The burst, and SIGTERM once every submit is sent, while they are being answered.
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(SUBMITS + 1));
    let (sent_tx, sent) = std::sync::mpsc::channel::<()>();
    let threads: Vec<_> = submits
        .into_iter()
        .map(|(auth, form)| {
            let (barrier, sent) = (barrier.clone(), sent_tx.clone());
            std::thread::spawn(move || -> Submit {
                let headers = json_headers(&auth);
                barrier.wait();
                let t0 = Instant::now();
                let conn = send(port, "POST", "/api/v1/orders", &headers, &form);
                let _ = sent.send(());
                let conn = conn.map_err(|e| format!("send: {e} at {:?}", t0.elapsed()))?;
                read_answer(conn)
                    .map(|a| (a.status, Instant::now()))
                    .map_err(|e| format!("read: {e} at {:?}", t0.elapsed()))
            })
        })
        .collect();
    barrier.wait();
    let burst = Instant::now();
    for _ in 0..SUBMITS {
        sent.recv_timeout(Duration::from_secs(10))
            .expect("every submit sent");
    }
    // Every submit taken by the store: none waits in the listening socket's queue (a connection
    // still there when the store stops listening is reset unread, and the client may send it
    // again), and the store has read every request (a connection it took but had not read yet is
    // an idle one to it, closed at shutdown: seen on a loaded machine 20 ms after the queue
    // emptied).
    let start = Instant::now();
    while accept_queue(port) > 0 || unread_connections(port) > 0 {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the store accepts or reads nothing"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    let termed = Instant::now();
    sigterm(&store.child);
    // Stop accepting: a connection made now is not served.
    std::thread::sleep(Duration::from_millis(100));
    let late = try_http(port, "GET", "/healthz", &[], "");
    let results: Vec<Submit> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    let status = exit_of(&mut store.child, Duration::from_secs(40));
    let exited = termed.elapsed();

    assert!(
        late.is_err(),
        "a request after SIGTERM was served: {}",
        late.unwrap().status
    );
    assert_eq!(
        status.code(),
        Some(0),
        "{}",
        std::fs::read_to_string(&store.log).unwrap()
    );
    let broken: Vec<&String> = results.iter().filter_map(|r| r.as_ref().err()).collect();
    assert!(
        broken.is_empty(),
        "submits without a whole answer: {broken:?}; SIGTERM {:?} after the burst began\n{}",
        termed - burst,
        std::fs::read_to_string(&store.log).unwrap()
    );
    let statuses: Vec<u16> = results.iter().flatten().map(|(s, _)| *s).collect();
    for s in &statuses {
        assert!(
            matches!(s, 200 | 201 | 409 | 422 | 429 | 503),
            "an unclean answer {s}: {statuses:?}"
        );
    }
    let created = statuses.iter().filter(|s| **s == 201).count();
    let after = results
        .iter()
        .flatten()
        .filter(|(_, at)| *at > termed)
        .count();
    let orders = orders_placed(&db);
    assert_eq!(
        orders as usize,
        created + 1,
        "orders in the database are the 201s: {statuses:?}"
    );
    assert!(
        after > 0,
        "SIGTERM came after every answer ({one:?} a submit): the test proves nothing"
    );
    // Readable lines: the shutdown and each submit's answer.
    let text = std::fs::read_to_string(&store.log).unwrap();
    assert!(
        text.contains("SIGTERM received; starting graceful shutdown"),
        "{text}"
    );
    let logged = text
        .lines()
        .filter(|l| {
            l.contains(" INFO store::request: request method=POST path=/api/v1/orders status=201 ")
        })
        .count();
    assert_eq!(logged, created + 1, "{text}");
    assert!(!text.contains("panicked"), "{text}");
    println!(
        "{b:?}: {SUBMITS} submits ({one:?} one alone), SIGTERM once all were sent: {created} placed, {after} answered after SIGTERM, {:?}; exit 0 {exited:?} after SIGTERM",
        statuses.iter().filter(|s| **s != 201).collect::<Vec<_>>()
    );
}
both!(sigterm_finishes_the_submits_in_flight);
