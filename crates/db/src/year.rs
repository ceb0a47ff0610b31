//! A year of a busy store, simulated: the rows a year of shoppers leaves behind, written in bulk
//! into a seeded store on either database, for the housekeeping tests and `make bench` (and by
//! hand: `store seed --year [SCALE]`).
//!
//! At scale 1 ([`Year::counts`]): 1,000,000 guest sessions (each an hour long, as the store
//! makes them), 200,000 guest carts of one to three lines, 60,000 guest orders over 400 days
//! (written by [`crate::bulk`], with their lines, history and runs), 300,000 rate-limit windows,
//! 20,000 registrations (seven in ten completed), 10,000 newsletter signups (four in ten never
//! confirmed) and 5,000 mails that could not be delivered. The rows' times are spread evenly over
//! the year before `now` (the orders' over 400 days, so that some guest orders are past their
//! contact's period) and written in their order, as a store writes them, keyed as the store
//! keys them (sessions by ids that grow with time, guest carts by keys that begin with one, the
//! others by random hashed strings); so what housekeeping at `now` leaves is what is within its
//! retention: the last hour's sessions, the last 30 days' carts, and so on. A cart's key is made
//! at its last change (a real cart begins before it: the year is the best case of the keys'
//! order). The same year, seed and `now` make the same rows; addresses carry `now`, so a second
//! year can be written beside one.

use diesel::prelude::*;

use crate::bulk::Rng;
use crate::schema::*;
use crate::{AnyConnection, DbError};

const DAY: i64 = 86_400;
const YEAR: i64 = 365 * DAY;
/// Rows a write transaction: short enough that the serving store's writers are not held long.
const ROWS_A_TRANSACTION: usize = 20_000;
/// Rows an insert statement (under SQLite's bound-parameter limit at the widest row, 9 columns).
const ROWS_A_STATEMENT: usize = 500;

/// What to write: `scale` times a busy year, ending at `now`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Year {
    pub scale: f64,
    pub now: i64,
    pub seed: u64,
}

impl Year {
    /// A year at `scale` ending at `now`.
    pub fn ending(now: i64, scale: f64) -> Self {
        Self {
            scale,
            now,
            seed: 2026,
        }
    }

    /// How many of each kind of row it writes.
    pub fn counts(&self) -> Written {
        let n = |full: usize| ((full as f64 * self.scale).round() as usize).max(1);
        Written {
            sessions: n(1_000_000),
            carts: n(200_000),
            cart_items: 0,
            orders: n(60_000),
            rate_limits: n(300_000),
            registrations: n(20_000),
            newsletter: n(10_000),
            mail: n(5_000),
        }
    }
}

/// What was written, by kind (`cart_items`: the carts' lines, one to three a cart).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Written {
    pub sessions: usize,
    pub carts: usize,
    pub cart_items: usize,
    pub orders: usize,
    pub rate_limits: usize,
    pub registrations: usize,
    pub newsletter: usize,
    pub mail: usize,
}

impl Written {
    /// All the rows, the orders' own rows (lines, history, runs) not counted.
    pub fn total(&self) -> usize {
        self.sessions
            + self.carts
            + self.cart_items
            + self.orders
            + self.rate_limits
            + self.registrations
            + self.newsletter
            + self.mail
    }
}

#[derive(Insertable)]
#[diesel(table_name = sessions)]
struct NewSession {
    id: i64,
    token_hash: String,
    user_id: Option<i64>,
    created_at: i64,
    expires_at: i64,
}

#[derive(Insertable)]
#[diesel(table_name = carts)]
struct NewCart {
    id: i64,
    guest_key: Option<String>,
    revision: i64,
    updated_at: i64,
}

#[derive(Insertable)]
#[diesel(table_name = cart_items)]
struct NewItem {
    cart_id: i64,
    product_id: i32,
    quantity: i32,
    added_at: i64,
}

#[derive(Insertable)]
#[diesel(table_name = rate_limits)]
struct NewWindow {
    key: String,
    window_start: i64,
    hits: i32,
}

#[derive(Insertable)]
#[diesel(table_name = registrations)]
struct NewRegistration {
    token_hash: String,
    email: String,
    mobile: String,
    first_name: String,
    last_name: String,
    birth_date: String,
    password_hash: String,
    expires_at: i64,
    used_at: Option<i64>,
}

#[derive(Insertable)]
#[diesel(table_name = newsletter_subscriptions)]
struct NewSignup {
    email: String,
    created_at: String,
    confirmed_at: Option<String>,
    token_hash: Option<String>,
    token_expires_at: Option<i64>,
}

#[derive(Insertable)]
#[diesel(table_name = mail_outbox)]
struct NewMail {
    recipient: String,
    subject: String,
    text_body: String,
    html_body: String,
    created_at: i64,
    attempts: i32,
    next_attempt_at: i64,
    last_error: Option<String>,
}

/// Inserts `rows` into `table` in statements of [`ROWS_A_STATEMENT`], on either database.
macro_rules! insert {
    ($conn:expr, $table:ident, $rows:expr) => {
        for chunk in $rows.chunks(ROWS_A_STATEMENT) {
            match &mut *$conn {
                AnyConnection::Sqlite(c) => diesel::insert_into($table::table)
                    .values(chunk)
                    .execute(c)?,
                AnyConnection::Postgresql(c) => diesel::insert_into($table::table)
                    .values(chunk)
                    .execute(c)?,
            };
        }
    };
}

/// Writes `$n` rows of `$table`, the `$i`th made by `$row`, in write transactions of
/// [`ROWS_A_TRANSACTION`]; answers how many.
macro_rules! write_rows {
    ($conn:expr, $n:expr, $table:ident, |$i:ident| $row:expr) => {
        in_transactions($conn, $n, |conn, from, to| {
            let rows: Vec<_> = (from..to).map(|$i| $row).collect();
            insert!(conn, $table, rows);
            Ok(rows.len())
        })
    };
}

/// Writes `year` into a seeded store (after what it holds); answers what it wrote.
pub fn write(conn: &mut AnyConnection, year: &Year) -> Result<Written, DbError> {
    let want = year.counts();
    let mut rng = Rng(year.seed ^ year.now as u64);
    let tag = format!("{:x}", year.now);
    let mut written = Written {
        orders: crate::bulk::orders(
            conn,
            &crate::bulk::Plan {
                orders: want.orders,
                days: 400,
                now: year.now,
                seed: year.seed,
            },
        )?
        .orders,
        ..Written::default()
    };
    written.sessions = write_rows!(conn, want.sessions, sessions, |i| {
        let created_at = at(&mut rng, year.now, i, want.sessions);
        // Ids as the store makes them (its start in milliseconds, then bits), unique by `i`.
        let millis = created_at * 1000 + (i % 1000) as i64;
        NewSession {
            id: crate::sessions::new_id(millis, (i / 1000) as u32),
            token_hash: hashed(&mut rng),
            user_id: None,
            created_at,
            expires_at: created_at + 3600,
        }
    })?;
    written.rate_limits = write_rows!(conn, want.rate_limits, rate_limits, |i| NewWindow {
        key: format!("order mail:{}.{tag}@year.example", &hashed(&mut rng)[..12]),
        window_start: at(&mut rng, year.now, i, want.rate_limits),
        hits: rng.between(1, 3) as i32,
    })?;
    let (carts, items) = guest_carts(conn, year, want.carts, &mut rng)?;
    written.carts = carts;
    written.cart_items = items;
    written.registrations = registrations(conn, year, want.registrations, &mut rng)?;
    written.newsletter = signups(conn, year, want.newsletter, &mut rng)?;
    written.mail = mails(conn, year, want.mail, &mut rng)?;
    Ok(written)
}

/// The time of the `i`th of `n` rows spread over the year before `now`, in the order they were
/// written (as a store writes them: a table's rows lie in the order of their times), each a
/// little after its place.
fn at(rng: &mut Rng, now: i64, i: usize, n: usize) -> i64 {
    let step = (YEAR / n.max(1) as i64).max(1);
    now - YEAR + i as i64 * YEAR / n.max(1) as i64 + rng.between(0, step - 1)
}

/// A guest cart's key as the store makes one (`api::cart::keyed`): the id of its token (begun at
/// `at`, seconds) in 16 hex digits, then the hash of the token.
fn cart_key(rng: &mut Rng, at: i64) -> String {
    let id = crate::sessions::new_id(at * 1000 + rng.between(0, 999), rng.next() as u32);
    crate::carts::guest_key(Some(id), hashed(rng))
}

/// A key as the store makes one: the hex SHA-256 of a random token (random, not ordered).
fn hashed(rng: &mut Rng) -> String {
    format!(
        "{:016x}{:016x}{:016x}{:016x}",
        rng.next(),
        rng.next(),
        rng.next(),
        rng.next()
    )
}

/// Writes `n` rows by `f(conn, from, to)` in write transactions of [`ROWS_A_TRANSACTION`].
fn in_transactions(
    conn: &mut AnyConnection,
    n: usize,
    mut f: impl FnMut(&mut AnyConnection, usize, usize) -> QueryResult<usize>,
) -> Result<usize, DbError> {
    let mut done = 0;
    while done < n {
        let to = (done + ROWS_A_TRANSACTION).min(n);
        done += crate::write_transaction(conn, |conn| f(conn, done, to))?;
    }
    Ok(done)
}

/// Guest carts touched last at times over the year, each with one to three products' cases.
fn guest_carts(
    conn: &mut AnyConnection,
    year: &Year,
    n: usize,
    rng: &mut Rng,
) -> Result<(usize, usize), DbError> {
    let products: Vec<(i32, i32)> = products::table
        .filter(products::orderable)
        .order(products::id)
        .select((products::id, products::unit_per_case))
        .load(conn)?;
    if products.is_empty() {
        return Err(DbError::Seed(
            "a simulated year needs a seeded store".into(),
        ));
    }
    let first: i64 = carts::table
        .select(diesel::dsl::max(carts::id))
        .first::<Option<i64>>(conn)?
        .unwrap_or(0)
        + 1;
    let mut items = 0;
    let carts = in_transactions(conn, n, |conn, from, to| {
        let mut carts = Vec::with_capacity(to - from);
        let mut lines = Vec::new();
        for i in from..to {
            let id = first + i as i64;
            let updated_at = at(rng, year.now, i, n);
            let start = rng.below(products.len());
            for k in 0..rng.between(1, 3.min(products.len() as i64)) as usize {
                let (product_id, per_case) = products[(start + k) % products.len()];
                lines.push(NewItem {
                    cart_id: id,
                    product_id,
                    quantity: per_case * rng.between(1, 2) as i32,
                    added_at: updated_at,
                });
            }
            carts.push(NewCart {
                id,
                guest_key: Some(cart_key(rng, updated_at)),
                revision: 1,
                updated_at,
            });
        }
        crate::with_ids_given(conn, &["carts"], |conn| {
            insert!(conn, carts, carts);
            insert!(conn, cart_items, lines);
            Ok(())
        })?;
        items += lines.len();
        Ok(carts.len())
    })?;
    Ok((carts, items))
}

/// Registrations begun over the year, each link a day long, seven in ten completed.
fn registrations(
    conn: &mut AnyConnection,
    year: &Year,
    n: usize,
    rng: &mut Rng,
) -> Result<usize, DbError> {
    let tag = format!("{:x}", year.now);
    write_rows!(conn, n, registrations, |i| {
        let begun = at(rng, year.now, i, n);
        NewRegistration {
            token_hash: hashed(rng),
            email: format!("member{i}.{tag}@year.example"),
            mobile: format!("+63917{:07}", i % 10_000_000),
            first_name: "Juan".into(),
            last_name: "Dela Cruz".into(),
            birth_date: "1990-06-12".into(),
            password_hash: "$argon2id$v=19$m=19456,t=2,p=1$year$year".into(),
            expires_at: begun + DAY,
            used_at: rng.chance(0.7).then_some(begun + 600),
        }
    })
}

/// Newsletter signups over the year, six in ten confirmed; a link is a week long.
fn signups(
    conn: &mut AnyConnection,
    year: &Year,
    n: usize,
    rng: &mut Rng,
) -> Result<usize, DbError> {
    let tag = format!("{:x}", year.now);
    write_rows!(conn, n, newsletter_subscriptions, |i| {
        let t = at(rng, year.now, i, n);
        let confirmed = rng.chance(0.6);
        NewSignup {
            email: format!("reader{i}.{tag}@year.example"),
            created_at: domain::calendar::manila_minute(t),
            confirmed_at: confirmed.then(|| domain::calendar::manila_minute(t + 3600)),
            token_hash: (!confirmed).then(|| hashed(rng)),
            token_expires_at: (!confirmed).then_some(t + 7 * DAY),
        }
    })
}

/// Mail that could not be delivered, written over the year, waiting for its next attempt.
fn mails(conn: &mut AnyConnection, year: &Year, n: usize, rng: &mut Rng) -> Result<usize, DbError> {
    let tag = format!("{:x}", year.now);
    write_rows!(conn, n, mail_outbox, |i| NewMail {
        recipient: format!("gone{i}.{tag}@year.example"),
        subject: "Your order".into(),
        text_body: "Thank you for your order.".into(),
        html_body: "<p>Thank you for your order.</p>".into(),
        created_at: at(rng, year.now, i, n),
        attempts: 12,
        next_attempt_at: year.now + DAY,
        last_error: Some("550 5.1.1 mailbox unavailable".into()),
    })
}
