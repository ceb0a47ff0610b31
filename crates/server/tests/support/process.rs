//! Running the `store` binary itself in a test: start `store serve` on a free loopback port,
//! talk HTTP to it over fresh connections, stop it.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use super::TestDb;

/// One request over a fresh connection; answers status, headers and body.
pub fn http(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: {}\r\n", body.len());
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(body);
    s.write_all(req.as_bytes()).unwrap();
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    let (head, body) = out.split_once("\r\n\r\n").unwrap_or((&out, ""));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (status, head.to_string(), body.to_string())
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `store serve` over the test database, answering once it does.
pub fn serve(db: &TestDb, port: u16, outbox: &Path) -> Child {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let child = Command::new(env!("CARGO_BIN_EXE_store"))
        .arg("serve")
        .env("DATABASE_URL", &db.url)
        .env("BIND", format!("127.0.0.1:{port}"))
        .env("UI_DIST", root.join("ui/dist"))
        .env("UI_PUBLIC", root.join("ui/public"))
        .env("SSR_BUNDLE", root.join("ssr-bundle/dist/server.js"))
        .env("SSR_THREADS", "1")
        .env("WORKERS", "1")
        .env("MAIL_OUTBOX", outbox)
        .env("ORDERS_TO", "orders@tala.example")
        .env("RUST_LOG", "error")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("store serve");
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the store did not start"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child
}

pub fn kill(mut child: Child) {
    unsafe {
        libc::kill(child.id() as i32, libc::SIGKILL);
    }
    let _ = child.wait();
}
