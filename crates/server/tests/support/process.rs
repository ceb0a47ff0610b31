//! Running the `store` binary itself in a test: start `store serve` on a free loopback port,
//! talk HTTP to it over fresh connections, stop it; run a staff command.
#![allow(dead_code)]

use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Output, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::TestDb;

/// An answer read off the wire.
pub struct Answer {
    pub status: u16,
    /// The status line and the headers.
    pub head: String,
    /// The body, de-chunked.
    pub body: String,
}

impl Answer {
    /// The value of the header `name`.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().skip(1).find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
        })
    }

    /// The body as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|_| panic!("JSON: {}", self.body))
    }

    /// The body as JSON, null when it is not JSON.
    pub fn json_or_null(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }
}

/// A request sent over a fresh connection: the connection, for its answer.
pub fn send(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> std::io::Result<TcpStream> {
    let mut s = TcpStream::connect(("127.0.0.1", port))?;
    s.set_read_timeout(Some(Duration::from_secs(60)))?;
    let mut req = format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: {}\r\n",
        body.len()
    );
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    req.push_str("\r\n");
    req.push_str(body);
    s.write_all(req.as_bytes())?;
    Ok(s)
}

/// The whole answer on a connection.
pub fn read_answer(mut s: TcpStream) -> std::io::Result<Answer> {
    let mut out = Vec::new();
    s.read_to_end(&mut out)?;
    let out = String::from_utf8_lossy(&out).into_owned();
    let Some((head, body)) = out.split_once("\r\n\r\n") else {
        return Err(std::io::Error::new(
            std::io::ErrorKind::UnexpectedEof,
            format!("no whole answer: {out:?}"),
        ));
    };
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    Ok(Answer {
        status,
        head: head.to_string(),
        body: if chunked {
            dechunk(body)
        } else {
            body.to_string()
        },
    })
}

/// A chunked body's chunks, joined.
fn dechunk(body: &str) -> String {
    let mut rest = body;
    let mut joined = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 || after.len() < n {
            break;
        }
        joined.push_str(&after[..n]);
        rest = after[n..].trim_start_matches("\r\n");
    }
    joined
}

/// One request over a fresh connection, or what kept it from being answered.
pub fn try_http(
    port: u16,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> std::io::Result<Answer> {
    read_answer(send(port, method, path, headers, body)?)
}

/// One request over a fresh connection; its answer.
pub fn http(port: u16, method: &str, path: &str, headers: &[(&str, &str)], body: &str) -> Answer {
    try_http(port, method, path, headers, body).unwrap_or_else(|e| panic!("{method} {path}: {e}"))
}

/// The status of a GET over a fresh connection; 0 when it is not answered (a store starting, or
/// stopping).
pub fn status_of(port: u16, path: &str) -> u16 {
    try_http(port, "GET", path, &[], "").map_or(0, |a| a.status)
}

/// A JSON call over a fresh connection: `Content-Type: application/json`, the bearer `token`
/// unless it is empty, `body` unless it is null.
pub fn json_call(port: u16, method: &str, path: &str, token: &str, body: &Value) -> Answer {
    let auth = super::bearer(token);
    let mut headers = vec![("Content-Type", "application/json")];
    if !token.is_empty() {
        headers.push(("Authorization", auth.as_str()));
    }
    let body = if body.is_null() {
        String::new()
    } else {
        body.to_string()
    };
    http(port, method, path, &headers, &body)
}

/// A loopback port nobody listened on when asked, never handed out twice in this test process:
/// the kernel may give two tests that ask at the same moment the same free port, and then one
/// store answers both tests (another test's store knows none of this test's sessions).
pub fn free_port() -> u16 {
    static GIVEN: Mutex<BTreeSet<u16>> = Mutex::new(BTreeSet::new());
    let mut given = GIVEN.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        if given.insert(port) {
            return port;
        }
    }
}

/// The socket listening on loopback `port` (Linux: /proc/net/tcp): its inode and the
/// connections waiting in its accept queue.
pub fn listening_socket(port: u16) -> Option<(u64, usize)> {
    let table = std::fs::read_to_string("/proc/net/tcp").unwrap_or_default();
    table.lines().skip(1).find_map(|l| {
        let f: Vec<&str> = l.split_whitespace().collect();
        let local_port = u16::from_str_radix(f.get(1)?.rsplit(':').next()?, 16).ok()?;
        (local_port == port && *f.get(3)? == "0A").then_some(())?;
        let queue = usize::from_str_radix(f.get(4)?.split(':').nth(1)?, 16).ok()?;
        Some((f.get(9)?.parse().ok()?, queue))
    })
}

/// The connections to loopback `port` whose bytes the store has not read yet (Linux: the
/// established sockets' `rx_queue` in /proc/net/tcp): a request the store has read is its own.
pub fn unread_connections(port: u16) -> usize {
    let table = std::fs::read_to_string("/proc/net/tcp").unwrap_or_default();
    table
        .lines()
        .skip(1)
        .filter(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let local = f
                .get(1)
                .and_then(|a| a.rsplit(':').next())
                .and_then(|p| u16::from_str_radix(p, 16).ok());
            let unread = f
                .get(4)
                .and_then(|q| q.split(':').nth(1))
                .and_then(|q| usize::from_str_radix(q, 16).ok());
            local == Some(port) && f.get(3) == Some(&"01") && unread.is_some_and(|n| n > 0)
        })
        .count()
}

/// Whether process `pid` holds the socket listening on loopback `port`: the store answering
/// there is the one this test started.
fn listens(pid: u32, port: u16) -> bool {
    let Some((inode, _)) = listening_socket(port) else {
        return false;
    };
    let socket = format!("socket:[{inode}]");
    std::fs::read_dir(format!("/proc/{pid}/fd")).is_ok_and(|fds| {
        fds.filter_map(Result::ok)
            .any(|fd| std::fs::read_link(fd.path()).is_ok_and(|l| l.as_os_str() == socket.as_str()))
    })
}

/// `store serve` over the test database on `port` with its mail written to `outbox`, answering
/// once it does: one render thread, one worker, `ORDERS_TO` set, the log at `error` and dropped.
pub fn serve(db: &TestDb, port: u16, outbox: &Path) -> Child {
    serve_with(db, port, outbox, None, &[("RUST_LOG", "error".into())])
}

/// As [`serve`], without the operator's settings of the environment (`RUST_LOG`, `LOG_FORMAT`,
/// `METRICS_BIND`, `MAINTENANCE`), with `env` on top of the test's (`RUST_LOG` unset unless `env`
/// sets it) and the standard error written to `log` when given.
pub fn serve_with(
    db: &TestDb,
    port: u16,
    outbox: &Path,
    log: Option<&Path>,
    env: &[(&str, String)],
) -> Child {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_store"));
    cmd.arg("serve")
        .env_remove("RUST_LOG")
        .env_remove("LOG_FORMAT")
        .env_remove("METRICS_BIND")
        .env_remove("MAINTENANCE")
        .env("DATABASE_URL", &db.url)
        .env("BIND", format!("127.0.0.1:{port}"))
        .env("UI_DIST", root.join("ui/dist"))
        .env("UI_PUBLIC", root.join("ui/public"))
        .env("SSR_BUNDLE", root.join("ssr-bundle/dist/server.js"))
        .env("SSR_THREADS", "1")
        .env("WORKERS", "1")
        .env("MAIL_OUTBOX", outbox)
        .env("MEDIA_DIR", std::env::temp_dir().join("store-test-media"))
        .env("ORDERS_TO", "orders@tala.example");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let stderr = match log {
        Some(log) => Stdio::from(std::fs::File::create(log).unwrap()),
        None => Stdio::null(),
    };
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .expect("store serve");
    // Up when this child (not another test's store) listens on the port.
    let start = Instant::now();
    while !listens(child.id(), port) {
        let ended = child.try_wait().ok().flatten();
        assert!(
            ended.is_none() && start.elapsed() < Duration::from_secs(30),
            "the store did not start ({ended:?}): {}",
            log.and_then(|l| std::fs::read_to_string(l).ok())
                .unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    child
}

/// Waits until `check` holds, at most `limit`; answers how long it took.
pub fn within(limit: Duration, what: &str, mut check: impl FnMut() -> bool) -> Duration {
    let start = Instant::now();
    while !check() {
        assert!(start.elapsed() < limit, "{what}: not within {limit:?}");
        std::thread::sleep(Duration::from_millis(20));
    }
    start.elapsed()
}

pub fn kill(mut child: Child) {
    unsafe {
        libc::kill(child.id() as i32, libc::SIGKILL);
    }
    let _ = child.wait();
}

/// The staff command `store ARGS` against the test database, its mail written to `outbox` (or a
/// shared folder), its links on `https://shop.example`; answers its output.
pub fn store_command(db: &TestDb, args: &[&str], outbox: Option<&Path>) -> Output {
    let outbox = outbox.map_or_else(
        || std::env::temp_dir().join("store-test-outbox"),
        Path::to_path_buf,
    );
    Command::new(env!("CARGO_BIN_EXE_store"))
        .args(args)
        .env("DATABASE_URL", &db.url)
        .env("MAIL_OUTBOX", outbox)
        .env("MEDIA_DIR", std::env::temp_dir().join("store-test-media"))
        .env("PUBLIC_URL", "https://shop.example")
        .env("RUST_LOG", "error")
        .env_remove("MAINTENANCE")
        .output()
        .expect("run store")
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs a staff command that must succeed; answers its standard output.
pub fn store_ok(db: &TestDb, args: &[&str]) -> String {
    let o = store_command(db, args, None);
    assert!(
        o.status.success(),
        "store {args:?}: {}\n{}",
        stdout(&o),
        stderr(&o)
    );
    stdout(&o)
}

/// Runs a staff command that must fail with status 1; answers its standard error.
pub fn store_refused(db: &TestDb, args: &[&str]) -> String {
    let o = store_command(db, args, None);
    assert_eq!(
        o.status.code(),
        Some(1),
        "store {args:?} should fail: {}\n{}",
        stdout(&o),
        stderr(&o)
    );
    stderr(&o)
}
