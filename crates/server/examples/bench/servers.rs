//! Section 12, two app servers sharing one PostgreSQL database (`DB=postgres`): the same load
//! served by one app server alone, then shared by two, then by the two again while a manager's
//! catalog change made on one is timed until the other shows it.
//!
//! The two app servers are stores of their own in this process: each its own actix system,
//! pool, caches and watch of the data version, bound to a port of its own with the same public
//! address, as two machines behind a load balancer would be (nothing a store keeps in memory is
//! shared between them; only the database is). They run on the bench's 2 cores, so each is half
//! the size of the one they are compared with (workers, render threads, pool).
//!
//! The load is two equal shares ([`SHARE`]), each: guests adding to carts (each on a connection
//! of its own, timed by the bench itself so that every answer is counted, in-flight ones too),
//! connections of a shopper with a cart browsing list and product pages, and connections of a
//! dispatcher on the orders board (wrk). Alone, both shares go to the first app server; shared,
//! each app server takes one (each warmed first by a request of every page its share asks for).
//! Every cart is then read back through the API and compared with the adds its guest was
//! answered 2xx for.
//!
//! The figure is the machine's work the answers are worth: each kind's requests a second, times
//! what a request of that kind costs the machine when the kind runs alone on the one app server
//! (its CPUs' busy time, the database's and the load's own included, over the requests
//! answered). The kinds cost very differently (a browsing page tens of microseconds, a board
//! page milliseconds), and with the 2 cores saturated the scheduler moves time between them from
//! one load to the next: the same two app servers read browsing 0.49 to 0.73 of the one's and the
//! adds 1.12 to 1.32, while each kind alone reads 1.00 to 1.02. What coordination between the
//! two would cost (a request that costs more on two) lowers the work the answers are worth; a
//! move of time from one kind to another does not.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use super::{
    http_request, met, percentile, show, start_store, wrk_script_once, Load, Shoppers, COOKIES,
};

/// What the section prints on SQLite.
pub(crate) const POSTGRES_ONLY: &str =
    "Two app servers: on PostgreSQL only (`DB=postgres make bench`); SQLite is a file of one machine";

/// Seconds of each load.
const SECS: u64 = 10;
/// Seconds of each kind's load alone on the one app server, which prices a request of the kind.
const PRICING_SECS: u64 = 5;

/// What one share of a load runs: guests adding to carts (a connection each), connections of a
/// shopper with a cart browsing, connections of a dispatcher on the board.
#[derive(Clone, Copy)]
struct Mix {
    adders: usize,
    browsers: usize,
    board: usize,
}

/// A share of the whole load.
const SHARE: Mix = Mix {
    adders: 32,
    browsers: 16,
    board: 8,
};
/// The adds' products (1 to 10, as section 7c's) and the barangay they are priced for.
const PRODUCTS: u64 = 10;
const BARANGAY: i64 = 1_380_300_002;
/// The product whose name the manager changes, its page, and how long the other app server is
/// given to show the change before the bench stops waiting.
const CHANGED: i32 = 1;
const WAIT: Duration = Duration::from_secs(5);

/// The board's first pages the dispatcher rotates through (filters without dates).
const BOARD_PAGES: [&str; 3] = [
    "/staff/orders?status=confirmed&how=1",
    "/staff/orders?status=placed",
    "/staff/orders?status=cancelled",
];

/// `BENCH_ONLY=servers` and the whole bench's last section: one app server's figures for the
/// whole load, then two app servers' for the same load shared, and the catalog change.
/// `dispatcher` is a dispatcher's browser's cookies (section 8's).
pub(crate) fn two_servers(
    store: &str,
    pool: &db::DbPool,
    config: &server::Config,
    shoppers: &Shoppers,
    dispatcher: &str,
) {
    if !super::postgres() {
        println!("{POSTGRES_ONLY}");
        return;
    }
    let Mix {
        adders,
        browsers,
        board,
    } = SHARE;
    println!(
        "Two app servers on one PostgreSQL database, {SECS} s each load; the one: the bench's store ({} workers, {} render threads, a pool of {}); the two: stores of half its size each (their own actix system, pool, caches and watch of the data version; the same public address; the same 2 cores); a share of the load: {adders} guests adding (a connection each), {browsers} connections of a shopper with a cart on list and product pages, {board} of a dispatcher on the board",
        config.workers, config.ssr_threads, config.db_pool_size
    );
    let section = Section {
        pool,
        config,
        shoppers,
        dispatcher,
    };
    let (costs, priced_clean) = section.prices(store);
    let one = section.serve([store, store], SHARE, SECS, None);
    one.print("one app server, both shares", &costs);
    let halves = halves(config);
    let [first, second] = [halves[0].as_str(), halves[1].as_str()];
    let two = section.serve([first, second], SHARE, SECS, None);
    two.print("two app servers, a share each", &costs);
    let ratio = two.worth(&costs) / one.worth(&costs);
    let (o, t) = (one.kinds(), two.kinds());
    let kinds: [f64; 3] = std::array::from_fn(|k| t[k] / o[k]);
    let clean = priced_clean && one.clean() && two.clean();
    println!(
        "  12. two app servers / one = {ratio:.2}, the machine's work their answers are worth (each kind's requests a second times its cost alone); each kind's ratio: adds {:.2}, browsing {:.2}, board {:.2} (their geometric mean {:.2}; all requests {:.2})   goal >= 0.9, 0 errors, every cart exact   {}",
        kinds[0],
        kinds[1],
        kinds[2],
        kinds.iter().product::<f64>().powf(1.0 / 3.0),
        two.rps() / one.rps(),
        met(ratio >= 0.9 && clean)
    );
    let manager = super::staff_member(
        pool,
        "mara.manager@tala.example",
        "Mara (manager)",
        "manager",
    );
    let change = Change {
        manager,
        origin: config.public_url.clone(),
    };
    let changed = section.serve([first, second], SHARE, SECS, Some(&change));
    changed.print(
        "the same two under the same load again, a manager renaming a product on the first halfway",
        &costs,
    );
    match changed.seen {
        Some(Ok(seen)) => println!(
            "      a catalog change made on one app server under this load, shown by the other's product page after {:.0} ms   goal < 1,000 ms   {}",
            seen.as_secs_f64() * 1000.0,
            met(seen < Duration::from_secs(1) && changed.clean())
        ),
        Some(Err(why)) => println!("      a catalog change made on one app server: {why}   NOT MET"),
        None => unreachable!("the third load makes the change"),
    }
}

/// Two app servers, each half of the bench's one (workers, render threads, pool), so that the
/// two together hold what the one holds on the same 2 cores: what the pair loses beside the one
/// is what sharing the database costs, not a machine asked for twice its threads. Started after
/// the one's loads, which their start (the catalog held) would take cores from.
fn halves(config: &server::Config) -> Vec<String> {
    let half = |n: usize| (n / 2).max(1);
    (0..2)
        .map(|_| {
            let mut c = config.clone();
            c.bind = format!("127.0.0.1:{}", super::free_port());
            c.workers = half(c.workers);
            c.ssr_threads = half(c.ssr_threads);
            c.db_pool_size = half(c.db_pool_size as usize) as u32;
            start_store(&c)
        })
        .collect()
}

/// The manager's change: their session and the store's public address (their browser's
/// `Origin`).
struct Change {
    manager: String,
    origin: String,
}

/// One load's figures.
struct Served {
    adds: Adds,
    browse: Vec<Load>,
    board: Vec<Load>,
    /// Carts read back that differ from their adds: `token…: what it holds / what was added`.
    wrong_carts: Vec<String>,
    /// The catalog change's time until the other app server showed it.
    seen: Option<Result<Duration, String>>,
    /// What the host took of the CPUs during the load (all its parts at once).
    stolen_ms: f64,
    /// The machine's CPUs' busy time during the load, in ms a second ([`super::busy_ms`]).
    busy: f64,
}

impl Served {
    /// Requests answered a second of each kind: adds, browsing, board.
    fn kinds(&self) -> [f64; 3] {
        let sum = |loads: &[Load]| loads.iter().map(|l| l.rps).sum::<f64>();
        [self.adds.rps, sum(&self.browse), sum(&self.board)]
    }

    /// Requests answered a second, all kinds together.
    fn rps(&self) -> f64 {
        self.kinds().iter().sum()
    }

    /// The machine's work the answers are worth, in ms a second: each kind's requests a second
    /// times `costs`, what a request of it costs alone (ms).
    fn worth(&self, costs: &[f64; 3]) -> f64 {
        self.kinds().iter().zip(costs).map(|(r, c)| r * c).sum()
    }

    /// No socket error, no answer but 2xx (nor one broken off), every cart exact.
    fn clean(&self) -> bool {
        self.adds.refused == 0
            && self.adds.unknown == 0
            && self.wrong_carts.is_empty()
            && self
                .browse
                .iter()
                .chain(&self.board)
                .all(|l| l.socket_errors == 0 && l.non_2xx == 0)
    }

    fn print(&self, what: &str, costs: &[f64; 3]) {
        println!(
            "  {what}: {:.0} requests/s in all, worth {:.2} cores of the {:.2} busy, {}{}",
            self.rps(),
            self.worth(costs) / 1000.0,
            self.busy / 1000.0,
            if self.clean() {
                "no error, every cart exact"
            } else {
                "ERRORS"
            },
            super::taken(self.stolen_ms)
        );
        let a = &self.adds;
        println!(
            "    POST /api/v1/cart: {:.0}/s, p50 {:.2} ms, p99 {:.2} ms, {} answered 2xx, {} refused, {} broken off ({} carts read back, {} differ from their adds{})",
            a.rps,
            a.p50,
            a.p99,
            a.done,
            a.refused,
            a.unknown,
            a.guests.len(),
            self.wrong_carts.len(),
            self.wrong_carts
                .first()
                .map_or(String::new(), |w| format!(": {w}"))
        );
        for (i, l) in self.browse.iter().enumerate() {
            show(&format!("  share {} browsing with a cart", i + 1), l);
        }
        for (i, l) in self.board.iter().enumerate() {
            show(&format!("  share {} on the board", i + 1), l);
        }
    }
}

/// What every load of the section is made with: the database, the one app server's
/// configuration, the shoppers and the dispatcher's browser's cookies.
struct Section<'a> {
    pool: &'a db::DbPool,
    config: &'a server::Config,
    shoppers: &'a Shoppers,
    dispatcher: &'a str,
}

impl Section<'_> {
    /// What a request of each kind (adds, browsing, board) costs the machine, in ms: each kind
    /// alone, both its shares on the one app server `store`, printed; and whether those loads
    /// were clean.
    fn prices(&self, store: &str) -> ([f64; 3], bool) {
        let alone = [
            Mix {
                browsers: 0,
                board: 0,
                ..SHARE
            },
            Mix {
                adders: 0,
                board: 0,
                ..SHARE
            },
            Mix {
                adders: 0,
                browsers: 0,
                ..SHARE
            },
        ];
        let priced = alone.map(|mix| self.serve([store, store], mix, PRICING_SECS, None));
        // Each load's own kind: its requests a second, and its cost.
        let rates: [f64; 3] = std::array::from_fn(|k| priced[k].kinds()[k]);
        let costs: [f64; 3] = std::array::from_fn(|k| priced[k].busy / rates[k]);
        let clean = priced.iter().all(Served::clean);
        let each: Vec<String> = ["adds", "browsing", "board"]
            .iter()
            .enumerate()
            .map(|(k, kind)| format!("{kind} {:.3} ms ({:.0}/s)", costs[k], rates[k]))
            .collect();
        println!(
            "  each kind alone on the one app server, {PRICING_SECS} s each: what a request costs the machine (its CPUs' busy time over the requests answered), {}: {}{}",
            if clean {
                "no error, every cart exact"
            } else {
                "ERRORS"
            },
            each.join(", "),
            super::taken(priced.iter().map(|p| p.stolen_ms).sum())
        );
        (costs, clean)
    }

    /// The load's two shares of `mix`, share `i` on `targets[i]`, all at once for `secs`; with
    /// `change`, the manager's catalog change made on the first target halfway through, timed
    /// until the second shows it.
    fn serve(&self, targets: [&str; 2], mix: Mix, secs: u64, change: Option<&Change>) -> Served {
        let Self {
            pool,
            config,
            shoppers,
            dispatcher,
        } = *self;
        // Guests of their own for this load, so that each cart holds only its adds.
        let guests = super::guest_sessions(pool, config, 2 * mix.adders);
        let browse_lua = super::rotating(&shoppers.paths, &shoppers.one);
        let board_pages: Vec<String> = BOARD_PAGES.iter().map(|p| (*p).to_string()).collect();
        let board_lua = super::rotating(&board_pages, dispatcher);
        // Each app server warmed first, as one that has been serving behind a load balancer is:
        // its pages rendered once, its catalog held.
        for t in targets {
            for p in &shoppers.paths {
                super::answered(t, p, &[("Cookie", &shoppers.one)]);
            }
            for p in &board_pages {
                super::answered(t, p, &[("Cookie", dispatcher)]);
            }
        }
        let adding: Vec<(&str, &str)> = guests
            .iter()
            .enumerate()
            .map(|(i, t)| (targets[i / mix.adders], t.as_str()))
            .collect();
        let (busy, stolen, start) = (super::busy_ms(), super::stolen_ms(), Instant::now());
        let (adds, browse, board, seen) = std::thread::scope(|s| {
            let adds = s.spawn(|| adds(&adding, secs));
            // A wrk load of `conns` connections a share on each target, when the mix has any.
            let wrk = |path: &str, conns: usize, lua: &str, what: &str| {
                let loads: Vec<_> = targets
                    .iter()
                    .filter(|_| conns > 0)
                    .map(|t| {
                        let (url, lua) = (format!("http://{t}{path}"), lua.to_string());
                        let what = what.to_string();
                        s.spawn(move || {
                            wrk_script_once(&url, conns, secs, &[], &lua)
                                .unwrap_or_else(|| panic!("wrk figures for {what}"))
                        })
                    })
                    .collect();
                loads
            };
            let browse = wrk("/buy-beer", mix.browsers, &browse_lua, "the browsing share");
            let board = wrk(BOARD_PAGES[0], mix.board, &board_lua, "the board's share");
            let seen = change.map(|c| {
                std::thread::sleep(Duration::from_secs(secs / 2));
                catalog_change(pool, c, targets[0], targets[1])
            });
            // Each wrk counted the same window: what the host took is the load's, printed once.
            let joined = |loads: Vec<std::thread::ScopedJoinHandle<'_, Load>>| {
                loads
                    .into_iter()
                    .map(|h| Load {
                        stolen_ms: 0.0,
                        ..h.join().expect("a wrk load")
                    })
                    .collect::<Vec<Load>>()
            };
            let adds = adds.join().expect("the adders");
            (adds, joined(browse), joined(board), seen)
        });
        let secs_taken = start.elapsed().as_secs_f64();
        let (busy, stolen_ms) = (
            (super::busy_ms() - busy) / secs_taken,
            super::stolen_ms() - stolen,
        );
        let wrong_carts = adds.guests.iter().filter_map(GuestAdds::differs).collect();
        Served {
            adds,
            browse,
            board,
            wrong_carts,
            seen,
            stolen_ms,
            busy,
        }
    }
}

/// The adds' figures, and what each guest added.
struct Adds {
    rps: f64,
    p50: f64,
    p99: f64,
    /// Adds answered 2xx.
    done: u64,
    /// Adds answered otherwise, or not read by the store.
    refused: u64,
    /// Adds whose answer broke off: the store may or may not have made them.
    unknown: u64,
    guests: Vec<GuestAdds>,
}

/// What one guest's adds did: where they added, their token, the units of each product their
/// adds were answered 2xx for, those of adds whose answer broke off, and how many were refused.
struct GuestAdds {
    addr: String,
    token: String,
    added: HashMap<i64, i64>,
    unknown: HashMap<i64, i64>,
    refused: u64,
}

impl GuestAdds {
    /// Reads the cart back through the API (from the app server the guest added on): `None` when
    /// it holds exactly the units added (and, of the adds whose answer broke off, at most those),
    /// or what differs.
    fn differs(&self) -> Option<String> {
        let auth = format!("Bearer {}", self.token);
        let a = http_request(
            &self.addr,
            "GET",
            &format!("/api/v1/cart/{BARANGAY}"),
            &[("Authorization", auth.as_str())],
            "",
        );
        let short = &self.token[..8.min(self.token.len())];
        if a.status != 200 {
            return Some(format!("{short}…: GET answered {}", a.status));
        }
        let held = held(&a.body);
        let exact = (1..=PRODUCTS as i64).all(|p| {
            let units = |m: &HashMap<i64, i64>| m.get(&p).copied().unwrap_or(0);
            let (h, added) = (units(&held), units(&self.added));
            added <= h && h <= added + units(&self.unknown)
        }) && held.keys().all(|p| (1..=PRODUCTS as i64).contains(p));
        (!exact).then(|| {
            format!(
                "{short}…: holds {held:?}, was added {:?} (and perhaps {:?})",
                self.added, self.unknown
            )
        })
    }
}

/// The units of each product in a cart's answer (`shopping_cart[].items[]`).
fn held(body: &str) -> HashMap<i64, i64> {
    let v: serde_json::Value = serde_json::from_str(body).unwrap_or_default();
    let mut units = HashMap::new();
    for case in v["shopping_cart"].as_array().into_iter().flatten() {
        for item in case["items"].as_array().into_iter().flatten() {
            let (Some(id), Some(q)) = (item["id"].as_i64(), item["quantity"].as_i64()) else {
                continue;
            };
            *units.entry(id).or_insert(0) += q;
        }
    }
    units
}

/// Each guest adds one unit of a product at random, on a connection of their own to their app
/// server, for `secs` seconds; the answer in flight when the time is up is waited for, so that
/// every add the store made is counted.
fn adds(guests: &[(&str, &str)], secs: u64) -> Adds {
    let start = Instant::now();
    let until = start + Duration::from_secs(secs);
    let each: Vec<(GuestAdds, Vec<f64>)> = std::thread::scope(|s| {
        let handles: Vec<_> = guests
            .iter()
            .enumerate()
            .map(|(i, &(addr, token))| s.spawn(move || adder(addr, token, until, i as u64)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("an adder"))
            .collect()
    });
    let secs = start.elapsed().as_secs_f64();
    let mut times: Vec<f64> = each.iter().flat_map(|(_, t)| t.iter().copied()).collect();
    times.sort_by(f64::total_cmp);
    let at = |p: f64| {
        if times.is_empty() {
            f64::NAN
        } else {
            percentile(&times, p)
        }
    };
    Adds {
        rps: times.len() as f64 / secs,
        p50: at(0.5),
        p99: at(0.99),
        done: times.len() as u64,
        refused: each.iter().map(|(g, _)| g.refused).sum(),
        unknown: each
            .iter()
            .map(|(g, _)| g.unknown.values().sum::<i64>() as u64)
            .sum(),
        guests: each.into_iter().map(|(g, _)| g).collect(),
    }
}

/// One guest's adds until `until`: what they added, and the times of the adds answered 2xx (ms).
fn adder(addr: &str, token: &str, until: Instant, seed: u64) -> (GuestAdds, Vec<f64>) {
    // xorshift64*, seeded apart for each guest.
    let mut state = 0x9E37_79B9_7F4A_7C15_u64 ^ (seed + 1).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let mut guest = GuestAdds {
        addr: addr.to_string(),
        token: token.to_string(),
        added: HashMap::new(),
        unknown: HashMap::new(),
        refused: 0,
    };
    let mut times = Vec::new();
    let mut conn: Option<BufReader<TcpStream>> = None;
    while Instant::now() < until {
        let product = 1 + (next() % PRODUCTS) as i64;
        let body = format!(r#"{{"product_id":{product},"quantity":1,"barangay":{BARANGAY}}}"#);
        let request = format!(
            "POST /api/v1/cart HTTP/1.1\r\nHost: {addr}\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        );
        let t = Instant::now();
        let mut answer = send(addr, &mut conn, &request);
        if matches!(answer, Sent::NotRead { reused: true }) {
            // The store closed the kept connection before reading this add: sent again on a
            // new one (the add was never made).
            answer = send(addr, &mut conn, &request);
        }
        match answer {
            Sent::Answered(200..=299) => {
                times.push(t.elapsed().as_secs_f64() * 1000.0);
                *guest.added.entry(product).or_insert(0) += 1;
            }
            Sent::Answered(_) | Sent::NotRead { .. } => guest.refused += 1,
            Sent::Unknown => *guest.unknown.entry(product).or_insert(0) += 1,
        }
    }
    (guest, times)
}

/// What became of a request sent by [`send`].
enum Sent {
    /// Answered with this status.
    Answered(u16),
    /// Not read by the store: the connection was closed (or could not be made) before it was
    /// sent or before any byte of an answer; `reused` when it was a kept connection.
    NotRead { reused: bool },
    /// Sent, and the answer broke off or could not be read: the store may have made the add.
    Unknown,
}

/// Sends `request` on the kept connection (or a new one, which is kept while the store keeps it
/// open) and reads its answer, waiting at most 30 s for it.
fn send(addr: &str, conn: &mut Option<BufReader<TcpStream>>, request: &str) -> Sent {
    let reused = conn.is_some();
    let mut c = match conn.take() {
        Some(c) => c,
        None => match TcpStream::connect(addr) {
            Ok(s) => {
                let _ = s.set_read_timeout(Some(Duration::from_secs(30)));
                BufReader::new(s)
            }
            Err(_) => return Sent::NotRead { reused },
        },
    };
    if c.get_mut().write_all(request.as_bytes()).is_err() {
        return Sent::NotRead { reused };
    }
    match read_answer(&mut c) {
        Ok((status, open)) => {
            if open {
                *conn = Some(c);
            }
            Sent::Answered(status)
        }
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionAborted => Sent::NotRead { reused },
        Err(_) => Sent::Unknown,
    }
}

/// Reads one HTTP/1.1 answer with a `Content-Length`: its status, and whether the connection
/// stays open.
fn read_answer(c: &mut BufReader<TcpStream>) -> std::io::Result<(u16, bool)> {
    let bad = |what: &str| std::io::Error::new(std::io::ErrorKind::InvalidData, what.to_string());
    let mut line = String::new();
    if c.read_line(&mut line)? == 0 {
        // Closed before any byte of an answer.
        return Err(std::io::Error::new(
            std::io::ErrorKind::ConnectionAborted,
            "closed before answering",
        ));
    }
    let status = line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| bad("no status line"))?;
    let (mut length, mut open) = (None, true);
    loop {
        line.clear();
        if c.read_line(&mut line)? == 0 {
            return Err(bad("the answer ended in its headers"));
        }
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        let Some((name, value)) = l.split_once(':') else {
            continue;
        };
        let value = value.trim();
        if name.eq_ignore_ascii_case("content-length") {
            length = value.parse::<usize>().ok();
        } else if name.eq_ignore_ascii_case("connection") {
            open = !value.eq_ignore_ascii_case("close");
        } else if name.eq_ignore_ascii_case("transfer-encoding") {
            return Err(bad(
                "a chunked answer: the bench reads answers with a length",
            ));
        }
    }
    let mut body = vec![0; length.ok_or_else(|| bad("no Content-Length"))?];
    c.read_exact(&mut body)?;
    Ok((status, open))
}

/// The manager renames a product on `on` (as the back office's form saves it), then the other
/// app server's product page is asked every 10 ms until it shows the new name: the time from
/// the save's answer. The old name is put back afterwards.
fn catalog_change(
    pool: &db::DbPool,
    change: &Change,
    on: &str,
    other: &str,
) -> Result<Duration, String> {
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    let product = db::carts::product(&mut conn, domain::ProductId::from_db(CHANGED))
        .map_err(|e| e.to_string())?
        .ok_or("no product 1")?;
    drop(conn);
    let (old, page) = (
        product.product_name.clone(),
        format!("/single-product/{}", product.slug),
    );
    let new = format!("{old} Fresh Batch");
    if page_shows(other, &page, &new) {
        return Err(format!("{page} shows {new:?} before the change"));
    }
    save_name(change, on, &new)?;
    let saved = Instant::now();
    let seen = loop {
        if page_shows(other, &page, &new) {
            break Ok(saved.elapsed());
        }
        if saved.elapsed() > WAIT {
            break Err(format!(
                "{page} on the other app server did not show the new name within {} s",
                WAIT.as_secs()
            ));
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    save_name(change, on, &old)?;
    seen
}

/// The manager's save of product [`CHANGED`]'s name on `on`.
fn save_name(change: &Change, on: &str, name: &str) -> Result<(), String> {
    let cookie = format!("{}={}", api::staff::COOKIE, change.manager);
    let body = serde_json::json!({ "product_name": name }).to_string();
    let a = http_request(
        on,
        "POST",
        &format!("/api/v1/staff/catalog/products/{CHANGED}"),
        &[
            ("Cookie", cookie.as_str()),
            ("Origin", change.origin.as_str()),
        ],
        &body,
    );
    if a.status == 200 {
        Ok(())
    } else {
        Err(format!("the save answered {}: {}", a.status, a.body))
    }
}

/// Whether `path` on `addr` answers a page with `text` in it.
fn page_shows(addr: &str, path: &str, text: &str) -> bool {
    let a = http_request(addr, "GET", path, &[("Cookie", COOKIES)], "");
    a.status == 200 && a.body.contains(text)
}
