//! Housekeeping on SQLite and PostgreSQL: of each kind of row, the one past its time is swept and
//! the one within it stays (sessions, rate-limit windows, registration and reset links,
//! unconfirmed newsletter signups, guest carts with their items, undeliverable mail, a guest
//! order's contact after its period, counted from its completion); a dry run counts the same and
//! removes nothing; one app server at a time holds the run's lease; `store housekeeping` runs it;
//! the privacy page states the periods the store is set to keep.

use crate::support;

use db::diesel::prelude::*;
use db::housekeeping::{self, Kind, Retention};
use support::{guest_order, Backend};

const DAY: i64 = 86_400;

fn count(db: &support::TestDb, sql: &str) -> i64 {
    #[derive(QueryableByName)]
    struct N {
        #[diesel(sql_type = db::diesel::sql_types::BigInt)]
        n: i64,
    }
    let mut conn = db.pool.get().unwrap();
    let n: N = match &mut *conn {
        db::AnyConnection::Postgresql(c) => db::diesel::sql_query(sql).get_result(c),
        db::AnyConnection::Sqlite(c) => db::diesel::sql_query(sql).get_result(c),
    }
    .unwrap_or_else(|e| panic!("{sql}: {e}"));
    n.n
}

/// The three guest orders [`rows_of_every_kind`] places 400 days before `now`, by id.
struct GuestOrders {
    /// Completed more than a year ago: its contact is past its period.
    done: i64,
    /// Completed only yesterday: its contact is kept.
    late: i64,
    /// Still open: its contact is kept.
    open: i64,
}

/// Rows of each kind, one past its time (`old…`) and one within it (`new…`), at `now`; answers
/// the guest orders among them.
async fn rows_of_every_kind(db: &support::TestDb, now: i64) -> GuestOrders {
    let (old, new) = (now - 400 * DAY, now - DAY);
    support::exec(
        &db.pool,
        &format!(
            "INSERT INTO sessions (id, token_hash, user_id, created_at, expires_at) VALUES \
               (1, 'old-session', NULL, {old}, {}), (2, 'new-session', NULL, {now}, {});
             INSERT INTO rate_limits (key, window_start, hits) VALUES \
               ('login:old', {}, 3), ('login:new', {}, 3);
             INSERT INTO registrations (token_hash, email, mobile, first_name, last_name, \
               birth_date, password_hash, expires_at) VALUES \
               ('old-reg', 'old@example.com', '09170000001', 'O', 'L', '1990-01-01', 'x', {}), \
               ('new-reg', 'new@example.com', '09170000002', 'N', 'W', '1990-01-01', 'x', {});
             INSERT INTO newsletter_subscriptions (email, created_at, confirmed_at, token_hash, \
               token_expires_at) VALUES \
               ('never@example.com', '2025-01-01', NULL, 'old-news', {}), \
               ('soon@example.com', '2026-11-27', NULL, 'new-news', {}), \
               ('kept@example.com', '2025-01-01', '2025-01-02', NULL, NULL);
             INSERT INTO mail_outbox (recipient, subject, text_body, html_body, created_at, \
               attempts, next_attempt_at) VALUES \
               ('old@example.com', 's', 't', 'h', {old}, 9, {now}), \
               ('new@example.com', 's', 't', 'h', {new}, 1, {now});",
            now - 1,
            now + 3600,
            now - db::limits::LONGEST_WINDOW - 1,
            now - 60,
            now - 1,
            now + 3600,
            now - 1,
            now + 3600,
        ),
    );
    // Guest carts: one untouched for 31 days (with an item), one touched yesterday.
    support::guest_with_a_case(db).await;
    support::guest_with_a_case(db).await;
    support::exec(&db.pool,
        &format!(
            "UPDATE carts SET updated_at = {} WHERE id = (SELECT MIN(id) FROM carts WHERE user_id IS NULL);
             UPDATE carts SET updated_at = {new} WHERE id = (SELECT MAX(id) FROM carts WHERE user_id IS NULL);",
            now - 31 * DAY
        ),
    );
    // Guest orders: completed 400 days ago; placed 400 days ago but completed yesterday;
    // placed 400 days ago and still open.
    let mut orders = vec![];
    for email in ["done@example.com", "late@example.com", "open@example.com"] {
        orders.push(guest_order(db, 1, email).await.0);
    }
    let [done, late, open] = [orders[0], orders[1], orders[2]];
    support::exec(
        &db.pool,
        &format!(
            "UPDATE orders SET placed_at = {old} WHERE id IN ({done}, {late}, {open});
             UPDATE order_status_history SET at = {old} WHERE order_id IN ({done}, {late}, {open});
             UPDATE orders SET status = 'completed' WHERE id IN ({done}, {late});
             INSERT INTO order_status_history (order_id, seq, status, at, note) VALUES \
               ({done}, 90, 'completed', {}, ''), ({late}, 90, 'completed', {new}, '');",
            old + DAY
        ),
    );
    GuestOrders { done, late, open }
}

async fn expired_rows_are_swept_and_the_rest_kept(b: Backend) {
    let db = support::database(b);
    let now = domain::calendar::unix_now();
    let orders = rows_of_every_kind(&db, now).await;
    let carts_before = count(&db, "SELECT COUNT(*) AS n FROM carts");
    let items_before = count(&db, "SELECT COUNT(*) AS n FROM cart_items");
    let retention = Retention::default();
    // A dry run counts what is due, and removes nothing.
    let dry = housekeeping::run(&db.pool, now, &retention, true).unwrap();
    let expected = [
        (Kind::Sessions, 1),
        (Kind::RateLimits, 1),
        (Kind::Registrations, 1),
        (Kind::Newsletter, 1),
        (Kind::GuestCarts, 1),
        (Kind::Mail, 1),
        (Kind::GuestOrderContacts, 1),
    ];
    for (kind, n) in expected {
        assert!(dry.count(kind) >= n, "{kind:?}: {dry:?}");
    }
    assert_eq!(count(&db, "SELECT COUNT(*) AS n FROM carts"), carts_before);
    assert_eq!(
        count(
            &db,
            "SELECT COUNT(*) AS n FROM sessions WHERE token_hash = 'old-session'"
        ),
        1
    );
    let swept = housekeeping::run(&db.pool, now, &retention, false).unwrap();
    assert_eq!(
        swept.counts, dry.counts,
        "the run removes what the dry run counted"
    );
    swept_and_kept(&db, &orders, carts_before, items_before);
    // A second run finds nothing.
    let again = housekeeping::run(&db.pool, now, &retention, false).unwrap();
    assert_eq!(again.total(), 0, "{}", again.summary());
    // Counted for the metrics.
    let (by_kind, runs) = housekeeping::swept();
    assert!(runs >= 2);
    assert!(by_kind.iter().any(|(k, n)| *k == "guest_carts" && *n >= 1));
}
both!(expired_rows_are_swept_and_the_rest_kept);

/// After a run: of each kind, the row past its time is gone and the other kept.
fn swept_and_kept(
    db: &support::TestDb,
    orders: &GuestOrders,
    carts_before: i64,
    items_before: i64,
) {
    let GuestOrders { done, late, open } = *orders;
    for (table, key, gone, kept) in [
        ("sessions", "token_hash", "old-session", "new-session"),
        ("rate_limits", "key", "login:old", "login:new"),
        ("registrations", "token_hash", "old-reg", "new-reg"),
        (
            "newsletter_subscriptions",
            "token_hash",
            "old-news",
            "new-news",
        ),
        (
            "newsletter_subscriptions",
            "email",
            "never@example.com",
            "kept@example.com",
        ),
        (
            "mail_outbox",
            "recipient",
            "old@example.com",
            "new@example.com",
        ),
    ] {
        let n = |v: &str| {
            count(
                db,
                &format!("SELECT COUNT(*) AS n FROM {table} WHERE {key} = '{v}'"),
            )
        };
        assert_eq!(
            (n(gone), n(kept)),
            (0, 1),
            "{table}: {gone} swept, {kept} kept"
        );
    }
    // The old guest cart and its items went; the new one stayed.
    assert_eq!(
        count(db, "SELECT COUNT(*) AS n FROM carts"),
        carts_before - 1
    );
    let items = count(db, "SELECT COUNT(*) AS n FROM cart_items");
    assert!(
        items < items_before && items > 0,
        "{items_before} -> {items}"
    );
    assert_eq!(
        count(
            db,
            "SELECT COUNT(*) AS n FROM cart_items WHERE cart_id NOT IN (SELECT id FROM carts)"
        ),
        0,
        "no item outlives its cart"
    );
    // Only the order completed more than a year ago lost its contact; all three orders stay.
    let contact = |id: i64| {
        count(db, &format!("SELECT COUNT(*) AS n FROM orders WHERE id = {id} AND email <> '' AND mobile <> '' AND contact_name <> ''"))
    };
    assert_eq!((contact(done), contact(late), contact(open)), (0, 1, 1));
    assert_eq!(
        count(
            db,
            &format!("SELECT COUNT(*) AS n FROM orders WHERE id IN ({done}, {late}, {open})")
        ),
        3
    );
}

/// One app server runs housekeeping at a time: the lease is taken once, until given back or
/// until it runs out (a server that died mid-run).
async fn one_server_at_a_time_holds_the_lease(b: Backend) {
    let db = support::database(b);
    let mut conn = db.pool.get().unwrap();
    let now = 2_000_000_000;
    assert!(housekeeping::take_lease(&mut conn, now).unwrap());
    assert!(
        !housekeeping::take_lease(&mut conn, now + 1).unwrap(),
        "held"
    );
    assert!(
        housekeeping::take_lease(&mut conn, now + housekeeping::LEASE_SECS).unwrap(),
        "run out"
    );
    housekeeping::give_back_lease(&mut conn, now + 2_000).unwrap();
    assert_eq!(housekeeping::last_run(&mut conn).unwrap(), now + 2_000);
    assert!(
        housekeeping::take_lease(&mut conn, now + 2_001).unwrap(),
        "given back"
    );
    drop(conn);
    // While it is held, the command says so and removes nothing.
    let refused = support::process::store_refused(&db, &["housekeeping"]);
    assert!(
        refused.contains("another app server is running housekeeping"),
        "{refused}"
    );
}
both!(one_server_at_a_time_holds_the_lease);

/// `store housekeeping --dry-run` counts, `store housekeeping` removes.
async fn the_command_sweeps_and_reports(b: Backend) {
    let db = support::database(b);
    let now = domain::calendar::unix_now();
    support::exec(
        &db.pool,
        &format!(
            "INSERT INTO sessions (id, token_hash, user_id, created_at, expires_at) VALUES \
               (1, 'old-1', NULL, 0, {}), (2, 'old-2', NULL, 0, {})",
            now - 10,
            now - 5
        ),
    );
    let dry = support::process::store_ok(&db, &["housekeeping", "--dry-run"]);
    assert!(
        dry.lines()
            .any(|l| l.starts_with("sessions") && l.contains(" 2 due")),
        "{dry}"
    );
    assert_eq!(count(&db, "SELECT COUNT(*) AS n FROM sessions"), 2);
    let ran = support::process::store_ok(&db, &["housekeeping"]);
    assert!(
        ran.lines()
            .any(|l| l.starts_with("sessions") && l.contains(" 2 removed")),
        "{ran}"
    );
    assert_eq!(count(&db, "SELECT COUNT(*) AS n FROM sessions"), 0);
}
both!(the_command_sweeps_and_reports);

/// The privacy page states the periods the store is set to keep (what housekeeping keeps).
async fn the_privacy_page_states_the_settings_periods(b: Backend) {
    let db = support::database(b);
    let mut config = support::store_config(&db.url, false);
    config.retention = Retention {
        guest_cart_days: 45,
        guest_order_days: 200,
        mail_days: 3,
    };
    let store = store!(db, config);
    let r = send!(store, support::get("/privacy-policy", ""));
    assert_eq!(r.status, actix_web::http::StatusCode::OK);
    let main = support::root(&r.text()).to_string();
    assert!(main.contains("How long we keep your data"), "{main}");
    for said in [
        "your cart is kept for 45 days after you last change it",
        "stay with the order for 200 days after it is completed or cancelled",
        "an email we could not deliver after 3 days",
    ] {
        assert!(main.contains(said), "{said}: {main}");
    }
    assert!(!main.contains("{guest"), "no placeholder left: {main}");
}
both!(the_privacy_page_states_the_settings_periods);

/// Of each table housekeeping keeps bounded, the rows past their time at `now` and those within
/// it, as `WHERE` conditions written from the settings (not from the sweeps).
fn past_and_within(now: i64, r: &Retention) -> Vec<(&'static str, String)> {
    let cart_cutoff = now - r.guest_cart_days * DAY;
    let order_cutoff = now - r.guest_order_days * DAY;
    vec![
        ("sessions", format!("expires_at <= {now}")),
        (
            "rate_limits",
            format!("window_start <= {}", now - db::limits::LONGEST_WINDOW),
        ),
        ("registrations", format!("expires_at <= {now}")),
        (
            "newsletter_subscriptions",
            format!("confirmed_at IS NULL AND token_expires_at <= {now}"),
        ),
        (
            "carts",
            format!("user_id IS NULL AND updated_at <= {cart_cutoff}"),
        ),
        (
            "cart_items",
            format!("cart_id IN (SELECT id FROM carts WHERE user_id IS NULL AND updated_at <= {cart_cutoff})"),
        ),
        (
            "mail_outbox",
            format!("created_at <= {}", now - r.mail_days * DAY),
        ),
        (
            "orders",
            format!(
                "user_id IS NULL AND status IN ('completed', 'cancelled') AND (email <> '' OR mobile <> '') \
                 AND NOT EXISTS (SELECT 1 FROM order_status_history h WHERE h.order_id = orders.id AND h.at > {order_cutoff})"
            ),
        ),
    ]
}

/// (past, within) of each table of [`past_and_within`].
fn census(db: &support::TestDb, now: i64, r: &Retention) -> Vec<(&'static str, i64, i64)> {
    past_and_within(now, r)
        .into_iter()
        .map(|(table, past)| {
            let all = count(db, &format!("SELECT COUNT(*) AS n FROM {table}"));
            let due = count(
                db,
                &format!("SELECT COUNT(*) AS n FROM {table} WHERE {past}"),
            );
            (table, due, all - due)
        })
        .collect()
}

/// A year of a busy store (at a two-hundredth of its size) written by `fixtures::year`, then one run:
/// of each table only the rows within their retention remain, every one of those stays, the
/// guest orders stay (their contacts blanked), and a second run finds nothing.
async fn a_simulated_year_is_swept_to_its_retention(b: Backend) {
    let db = support::database(b);
    let now = domain::calendar::unix_now();
    let year = fixtures::year::Year::ending(now, 0.005);
    let orders_before = count(&db, "SELECT COUNT(*) AS n FROM orders");
    let written = fixtures::year::write(&mut db.pool.get().unwrap(), &year).unwrap();
    assert_eq!(written.carts, year.counts().carts);
    assert_eq!(
        count(&db, "SELECT COUNT(*) AS n FROM orders"),
        orders_before + written.orders as i64
    );
    assert_eq!(
        count(&db, "SELECT COUNT(*) AS n FROM sessions"),
        written.sessions as i64
    );
    let retention = Retention::default();
    let before = census(&db, now, &retention);
    for (table, past, _) in &before {
        assert!(*past > 0, "the year left {table} rows past their time");
    }
    let report = housekeeping::run(&db.pool, now, &retention, false).unwrap();
    let after = census(&db, now, &retention);
    for ((table, past, within), (_, _, kept)) in before.iter().zip(&after) {
        let gone = after.iter().find(|(t, ..)| t == table).unwrap().1;
        assert_eq!(
            gone, 0,
            "{table}: rows past their time remain ({past} before)"
        );
        // A guest order past its period stays for the books, its contact blanked.
        let stays = if *table == "orders" {
            within + past
        } else {
            *within
        };
        assert_eq!(*kept, stays, "{table}: every row within its time stays");
    }
    assert_eq!(
        count(&db, "SELECT COUNT(*) AS n FROM orders"),
        orders_before + written.orders as i64,
        "orders stay for the books"
    );
    let blanked = before.iter().find(|(t, ..)| *t == "orders").unwrap().1;
    assert_eq!(report.count(Kind::GuestOrderContacts), blanked as u64);
    let again = housekeeping::run(&db.pool, now, &retention, false).unwrap();
    assert_eq!(again.total(), 0, "{}", again.summary());
}
both!(a_simulated_year_is_swept_to_its_retention);

/// A guest cart found due and then used again before its page deletes it (an add between the
/// page's read and its delete, which on PostgreSQL hold no lock in common) is kept: a page deletes
/// only the carts still due.
async fn a_cart_used_again_before_its_delete_is_kept(b: Backend) {
    let db = support::database(b);
    let r = Retention::default();
    let now = domain::calendar::unix_now();
    let old = now - (r.guest_cart_days + 1) * DAY;
    support::exec(
        &db.pool,
        &format!(
            "INSERT INTO carts (guest_key, updated_at) VALUES ('idle-a', {old}), ('idle-b', {old})"
        ),
    );
    let mut conn = db.pool.get().unwrap();
    let start = housekeeping::sweeps::After::Start;
    let page = housekeeping::sweeps::due(&mut conn, Kind::GuestCarts, now, &r, &start, 100)
        .expect("the page");
    assert_eq!(page.keys.len(), 2, "both idle carts are due");
    // An add to one of them: its lock counts the change, at its time.
    support::exec(
        &db.pool,
        &format!("UPDATE carts SET revision = revision + 1, updated_at = {now} WHERE guest_key = 'idle-a'"),
    );
    let removed = housekeeping::sweeps::remove(&mut conn, Kind::GuestCarts, &page.keys, now, &r)
        .expect("the delete");
    assert_eq!(removed, 1, "only the cart still due");
    assert_eq!(
        count(
            &db,
            "SELECT COUNT(*) AS n FROM carts WHERE guest_key = 'idle-a'"
        ),
        1,
        "the cart used again is kept"
    );
    assert_eq!(count(&db, "SELECT COUNT(*) AS n FROM carts"), 1);
}
both!(a_cart_used_again_before_its_delete_is_kept);

/// Seven sessions, four registrations, five newsletter signups and four guest carts, some due at
/// one second, one of each still within its time.
fn due_rows_sharing_seconds(db: &support::TestDb, now: i64) {
    // Seven sessions: three due at one second, two before, one after, one still live; ids out of
    // their times' order.
    let sessions = [
        (7, now - 50),
        (3, now - 30),
        (9, now - 30),
        (1, now - 30),
        (5, now - 60),
    ];
    let rows: Vec<String> = sessions
        .iter()
        .chain(&[(2, now - 10), (4, now + 3_600)])
        .map(|(id, at)| format!("({id}, 'h{id}', NULL, 0, {at})"))
        .collect();
    support::exec(
        &db.pool,
        &format!(
            "INSERT INTO sessions (id, token_hash, user_id, created_at, expires_at) VALUES {}",
            rows.join(", ")
        ),
    );
    // Registrations keyed by text, two of them due at one second.
    let regs: Vec<String> = [
        ("reg-c", now - 20),
        ("reg-a", now - 20),
        ("reg-b", now - 40),
        ("reg-z", now + 60),
    ]
    .iter()
    .enumerate()
    .map(|(i, (key, at))| {
        format!("('{key}', 'r{i}@example.com', '0917000000{i}', 'R', 'G', '1990-01-01', 'x', {at})")
    })
    .collect();
    support::exec(
        &db.pool,
        &format!(
            "INSERT INTO registrations (token_hash, email, mobile, first_name, last_name, \
               birth_date, password_hash, expires_at) VALUES {}",
            regs.join(", ")
        ),
    );
    // Newsletter signups (a time that may be empty: a confirmed one has none) and guest carts
    // (due by their last change), numbered as written: the walk orders them by time, then id.
    let old = now - (Retention::default().guest_cart_days + 1) * DAY;
    support::exec(
        &db.pool,
        &format!(
            "INSERT INTO newsletter_subscriptions (email, created_at, confirmed_at, token_hash, \
               token_expires_at) VALUES \
               ('a@example.com', '2026-01-01', NULL, 'news-a', {a}), \
               ('b@example.com', '2026-01-01', NULL, 'news-b', {b}), \
               ('c@example.com', '2026-01-01', '2026-01-02', NULL, NULL), \
               ('d@example.com', '2026-01-01', NULL, 'news-d', {a}), \
               ('e@example.com', '2026-01-01', NULL, 'news-e', {e});
             INSERT INTO carts (guest_key, updated_at) VALUES \
               ('walk-a', {old}), ('walk-b', {older}), ('walk-c', {old}), ('walk-new', {now})",
            a = now - 20,
            b = now - 40,
            e = now + 60,
            older = old - 60,
        ),
    );
}

/// `kind`'s pages of two rows due at `now`, read one after the other without deleting.
fn walk(
    conn: &mut db::AnyConnection,
    kind: Kind,
    now: i64,
    r: &Retention,
) -> Vec<housekeeping::sweeps::Keys> {
    let mut after = housekeeping::sweeps::After::Start;
    let mut pages = Vec::new();
    loop {
        let page = housekeeping::sweeps::due(conn, kind, now, r, &after, 2).expect("a page");
        pages.push(page.keys.clone());
        assert!(pages.len() < 10, "{kind:?}: the pages never end: {pages:?}");
        match page.next {
            Some(next) => after = next,
            None => return pages,
        }
    }
}

/// A run's pages walk the due rows in the order they fell due, each page after the last row of
/// the one before (its time, then its key, so rows due at one second are neither read twice nor
/// skipped), and never reach a row still within its time. Read here without deleting: a page
/// that began again at the first due row would answer the same rows twice.
async fn pages_walk_the_due_rows_in_the_order_they_fell_due(b: Backend) {
    let db = support::database(b);
    let r = Retention::default();
    let now = domain::calendar::unix_now();
    due_rows_sharing_seconds(&db, now);
    let mut conn = db.pool.get().unwrap();
    use housekeeping::sweeps::Keys;
    assert_eq!(
        walk(&mut conn, Kind::Sessions, now, &r),
        vec![
            Keys::Ids(vec![5, 7]),
            Keys::Ids(vec![1, 3]),
            Keys::Ids(vec![9, 2]),
            Keys::Ids(vec![]),
        ],
        "the sessions by expiry, then id; the live one never"
    );
    let text = |k: &[&str]| Keys::Text(k.iter().map(|s| s.to_string()).collect());
    assert_eq!(
        walk(&mut conn, Kind::Registrations, now, &r),
        vec![text(&["reg-b", "reg-a"]), text(&["reg-c"])],
        "the registrations by expiry, then token"
    );
    // Rows numbered as written: their ids, by `column`'s values.
    let ids = |table: &str, column: &str, values: &[&str]| {
        let id = |v: &&str| {
            count(
                &db,
                &format!("SELECT id AS n FROM {table} WHERE {column} = '{v}'"),
            )
        };
        Keys::Ids(values.iter().map(id).collect())
    };
    let signups = |emails: &[&str]| ids("newsletter_subscriptions", "email", emails);
    assert_eq!(
        walk(&mut conn, Kind::Newsletter, now, &r),
        vec![
            signups(&["b@example.com", "a@example.com"]),
            signups(&["d@example.com"]),
        ],
        "the unconfirmed signups by their link's expiry, then id; the confirmed one never"
    );
    let carts = |keys: &[&str]| ids("carts", "guest_key", keys);
    assert_eq!(
        walk(&mut conn, Kind::GuestCarts, now, &r),
        vec![carts(&["walk-b", "walk-a"]), carts(&["walk-c"])],
        "the idle guest carts by their last change, then id"
    );
    // The run deletes what the walk found, and nothing else.
    drop(conn);
    let report = housekeeping::run(&db.pool, now, &r, false).unwrap();
    assert_eq!(report.count(Kind::Newsletter), 3);
    assert_eq!(report.count(Kind::GuestCarts), 3);
    assert_eq!(report.count(Kind::Sessions), 6);
    assert_eq!(report.count(Kind::Registrations), 3);
    assert_eq!(count(&db, "SELECT COUNT(*) AS n FROM sessions"), 1);
    assert_eq!(
        count(
            &db,
            "SELECT COUNT(*) AS n FROM registrations WHERE token_hash = 'reg-z'"
        ),
        1
    );
}
both!(pages_walk_the_due_rows_in_the_order_they_fell_due);

/// On SQLite, each kind walked in the order its rows fell due reads a page from an index in that
/// order: no scan of the table, no sort of its rows (rows due in the same second may be put in
/// their keys' order, "FOR LAST TERM OF ORDER BY", as PostgreSQL's incremental sort does). SQLite
/// plans without the table's sizes, so the plan is the same here as under a year's rows; asked as
/// `user_id IS NULL`, the guest carts' page was read through the members' unique index and every
/// guest cart sorted for each page (146 s for a year's carts in the bench, where the other kinds
/// took 2.6 s together). Staff links, a few a day, have no index on their expiry and are left out.
#[test]
fn on_sqlite_each_page_is_read_in_order_from_an_index() {
    #[derive(QueryableByName)]
    struct Step {
        #[diesel(sql_type = db::diesel::sql_types::Text)]
        detail: String,
    }
    let db = support::database(Backend::Sqlite);
    let r = Retention::default();
    let now = domain::calendar::unix_now();
    let mut conn = db.pool.get().unwrap();
    let seen = support::queries_run(&mut conn);
    for kind in [
        Kind::Sessions,
        Kind::Registrations,
        Kind::PasswordResets,
        Kind::Newsletter,
        Kind::GuestCarts,
        Kind::Mail,
    ] {
        // Only this page's statement (not the plans asked for before).
        seen.lock().unwrap().clear();
        let after = housekeeping::sweeps::After::Start;
        housekeeping::sweeps::due(&mut conn, kind, now, &r, &after, 10).expect("a page");
        let queries = seen.lock().unwrap().clone();
        assert_eq!(queries.len(), 1, "{kind:?}: one query a page: {queries:?}");
        // The statement without diesel's note of its binds (` -- binds: [...]`).
        let sql = queries[0].split(" -- binds:").next().unwrap();
        let db::AnyConnection::Sqlite(c) = &mut *conn else {
            unreachable!("a SQLite database")
        };
        let plan: Vec<Step> = db::diesel::sql_query(format!("EXPLAIN QUERY PLAN {sql}"))
            .load(c)
            .unwrap_or_else(|e| panic!("{kind:?}: {sql}: {e}"));
        let plan: Vec<String> = plan.into_iter().map(|s| s.detail).collect();
        assert!(
            plan.iter()
                .any(|s| s.starts_with("SEARCH") && s.contains("INDEX"))
                && !plan
                    .iter()
                    .any(|s| s.starts_with("SCAN") || s.contains("TEMP B-TREE FOR ORDER BY")),
            "{kind:?}: a page read from an index in its order, not {plan:?}\n{sql}"
        );
    }
}
