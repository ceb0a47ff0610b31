//! Housekeeping: the rows whose time is over, swept. Expired sessions (a shopper's and staff's),
//! rate-limit windows long past, registration, reset and staff links that expired, newsletter
//! signups never confirmed, guest carts untouched for [`Retention::guest_cart_days`], mail that
//! could not be delivered for [`Retention::mail_days`], and the contact details of a guest's
//! order [`Retention::guest_order_days`] after it was completed or cancelled (the order stays
//! for the books, blanked as a deleted member's are).
//!
//! A run sweeps in pages, each page its own short write transaction (on SQLite at the writers'
//! turn, so a shopper's write waits for one page at most), sized to take about [`PAGE_TIME`]
//! (from [`FIRST_PAGE`] rows, halved after a slow page, grown after a quick one but never back
//! to a size that was slow, between [`LEAST_PAGE`] and [`BATCH`]: a table keyed by random
//! tokens costs a page of the index per row, one in time order far less), with a pause between
//! pages, and on SQLite the write-ahead log checkpointed every few pages outside the write lock,
//! so no shopper's commit has to do it.
//! One app server runs it at a time when several share a database (a lease row,
//! [`take_lease`]). Counted for the metrics ([`swept`]) and logged once a run.

pub mod sweeps;

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use diesel::prelude::*;

use crate::schema::housekeeping;
use crate::{AnyConnection, DbPool};

/// How long rows that hold a shopper's data are kept, in days (settings of the store).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Retention {
    /// A guest's cart untouched this long goes.
    pub guest_cart_days: i64,
    /// A guest's order keeps its contact details (name, mobile, email, address, notes) this long
    /// after it was completed or cancelled.
    pub guest_order_days: i64,
    /// Mail not delivered this long after it was written is dropped.
    pub mail_days: i64,
}

impl Default for Retention {
    fn default() -> Self {
        Self {
            guest_cart_days: 30,
            guest_order_days: 365,
            mail_days: 7,
        }
    }
}

/// What a run sweeps, in its order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Sessions,
    StaffSessions,
    RateLimits,
    Registrations,
    PasswordResets,
    StaffLinks,
    Newsletter,
    GuestCarts,
    Mail,
    GuestOrderContacts,
}

impl Kind {
    pub const ALL: [Kind; 10] = [
        Kind::Sessions,
        Kind::StaffSessions,
        Kind::RateLimits,
        Kind::Registrations,
        Kind::PasswordResets,
        Kind::StaffLinks,
        Kind::Newsletter,
        Kind::GuestCarts,
        Kind::Mail,
        Kind::GuestOrderContacts,
    ];

    /// Its name in the log, the metrics and the command's report.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Sessions => "sessions",
            Kind::StaffSessions => "staff_sessions",
            Kind::RateLimits => "rate_limits",
            Kind::Registrations => "registrations",
            Kind::PasswordResets => "password_resets",
            Kind::StaffLinks => "staff_links",
            Kind::Newsletter => "newsletter_unconfirmed",
            Kind::GuestCarts => "guest_carts",
            Kind::Mail => "mail_undelivered",
            Kind::GuestOrderContacts => "guest_order_contacts",
        }
    }

    fn index(self) -> usize {
        Kind::ALL.iter().position(|k| *k == self).unwrap_or(0)
    }
}

/// The most rows in a page.
pub const BATCH: i64 = 1_000;
/// The fewest rows in a page.
pub const LEAST_PAGE: i64 = 20;
/// The rows of a kind's first page.
pub const FIRST_PAGE: i64 = 200;
/// What a page aims to take at the writers' turn: what a shopper's write may wait for it.
pub const PAGE_TIME: Duration = Duration::from_millis(20);
/// The pause between pages, in which shoppers' writes go first.
pub const PAUSE: Duration = Duration::from_millis(2);
/// SQLite: the write-ahead log is checkpointed after every this many pages, outside the write
/// lock (each checkpoint costs the files' fsync; the pages between stay under the log's size at
/// which a commit would checkpoint it at the writers' turn, `crate::WAL_BACKSTOP_PAGES`).
pub const CHECKPOINT_EVERY: u64 = 2;

/// How long a run's lease holds (a server that died mid-run leaves it to the others after it).
pub const LEASE_SECS: i64 = 15 * 60;

/// A kind's page size through a run: halved after a slow page, grown by half after a quick one,
/// and not grown past three quarters of a size that was slow until [`QUICK_TO_RISE`] pages in a
/// row were quick at that ceiling (a table's cost per row is not linear: without the ceiling the
/// size climbs back into the slow range and every few pages one makes a shopper wait for it).
/// The ceiling then rises by half, up to [`BATCH`]: a page that was slow because the machine was
/// (a checkpoint, the host taking the core) does not keep the rest of the run small. Without the
/// rise, a run of the bench's year on PostgreSQL, with a few such pages, took 12,053-15,183 pages
/// and 135-195 s where 1,567 pages took 16 s.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PageSize {
    rows: i64,
    ceiling: i64,
    /// Quick pages in a row at the ceiling.
    quick: u32,
}

/// How many quick pages in a row at its ceiling raise a kind's ceiling: at most one slow page in
/// this many where a size really is slow.
pub const QUICK_TO_RISE: u32 = 32;

impl PageSize {
    const FIRST: PageSize = PageSize {
        rows: FIRST_PAGE,
        ceiling: BATCH,
        quick: 0,
    };

    /// The next page's size after a page of `self.rows` that took `took` at the writers' turn.
    fn next(self, took: Duration) -> PageSize {
        let PageSize {
            rows,
            ceiling,
            quick,
        } = self;
        if took > PAGE_TIME {
            let ceiling = ceiling.min(rows * 3 / 4).max(LEAST_PAGE);
            PageSize {
                rows: (rows / 2).max(LEAST_PAGE),
                ceiling,
                quick: 0,
            }
        } else if took < PAGE_TIME / 2 {
            let quick = if rows >= ceiling { quick + 1 } else { 0 };
            let (ceiling, quick) = if quick >= QUICK_TO_RISE {
                ((ceiling + ceiling / 2).min(BATCH), 0)
            } else {
                (ceiling, quick)
            };
            PageSize {
                rows: (rows + rows / 2).min(ceiling),
                ceiling,
                quick,
            }
        } else {
            PageSize { quick: 0, ..self }
        }
    }
}

/// What a run swept (or, dry, found due), by kind; how long it took, in how many pages, and its
/// longest page (its time at the writers' turn, its kind and its rows).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    pub counts: [u64; Kind::ALL.len()],
    pub took: Duration,
    pub pages: u64,
    pub longest_page: Duration,
    pub longest_of: Option<(Kind, usize)>,
    /// Each kind's pages, and their time at the writers' turn.
    pub pages_by_kind: [u64; Kind::ALL.len()],
    pub held_by_kind: [Duration; Kind::ALL.len()],
}

impl Report {
    pub fn count(&self, kind: Kind) -> u64 {
        self.counts[kind.index()]
    }

    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// `sessions 12 rows, 1 page, 3 ms; …`: each kind with rows, its pages and their time at the
    /// writers' turn.
    pub fn by_kind(&self) -> String {
        Kind::ALL
            .iter()
            .filter(|k| self.count(**k) > 0)
            .map(|k| {
                let i = k.index();
                format!(
                    "{} {} rows, {} pages, {} ms",
                    k.as_str(),
                    self.counts[i],
                    self.pages_by_kind[i],
                    self.held_by_kind[i].as_millis()
                )
            })
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// `sessions=12 rate_limits=3 …` (the kinds with rows).
    pub fn summary(&self) -> String {
        let parts: Vec<String> = Kind::ALL
            .iter()
            .filter(|k| self.count(**k) > 0)
            .map(|k| format!("{}={}", k.as_str(), self.count(*k)))
            .collect();
        if parts.is_empty() {
            "nothing due".into()
        } else {
            parts.join(" ")
        }
    }
}

static SWEPT: [AtomicU64; Kind::ALL.len()] = [const { AtomicU64::new(0) }; Kind::ALL.len()];
static RUNS: AtomicU64 = AtomicU64::new(0);

/// Rows swept by this process's runs since it started, by kind; and how many runs it made.
pub fn swept() -> (Vec<(&'static str, u64)>, u64) {
    let by_kind = Kind::ALL
        .iter()
        .map(|k| (k.as_str(), SWEPT[k.index()].load(Ordering::Relaxed)))
        .collect();
    (by_kind, RUNS.load(Ordering::Relaxed))
}

/// Sweeps what is due at `now` (dry: only counts it). Each page takes a connection from `pool`
/// and gives it back, so a run never holds one a shopper waits for.
pub fn run(
    pool: &DbPool,
    now: i64,
    retention: &Retention,
    dry_run: bool,
) -> Result<Report, crate::DbError> {
    let started = Instant::now();
    let mut report = Report::default();
    for kind in Kind::ALL {
        let mut after = sweeps::After::Start;
        let mut size = PageSize::FIRST;
        loop {
            let mut conn = pool
                .get_timeout(crate::CONNECTION_WAIT)
                .map_err(crate::DbError::Pool)?;
            if dry_run {
                report.counts[kind.index()] = sweeps::count_due(&mut conn, kind, now, retention)?;
                break;
            }
            // Timed from the moment the page holds the write lock to its commit: what a
            // shopper's write may wait for (not the wait for its own turn).
            let mut held = None;
            let page = crate::write_transaction(&mut conn, |c| {
                held = Some(Instant::now());
                let page = sweeps::due(c, kind, now, retention, &after, size.rows)?;
                sweeps::remove(c, kind, &page.keys, now, retention)?;
                Ok::<_, diesel::result::Error>(page)
            })?;
            let took = held.map_or(Duration::ZERO, |t| t.elapsed());
            let sqlite = matches!(*conn, AnyConnection::Sqlite(_));
            drop(conn);
            report.counts[kind.index()] += page.keys.len() as u64;
            report.pages += 1;
            report.pages_by_kind[kind.index()] += 1;
            report.held_by_kind[kind.index()] += took;
            SWEPT[kind.index()].fetch_add(page.keys.len() as u64, Ordering::Relaxed);
            if took > report.longest_page {
                report.longest_page = took;
                report.longest_of = Some((kind, page.keys.len()));
            }
            size = size.next(took);
            match page.next {
                Some(next) => after = next,
                None => break,
            }
            if sqlite && report.pages.is_multiple_of(CHECKPOINT_EVERY) {
                crate::watch::checkpoint(pool);
            }
            std::thread::sleep(PAUSE);
        }
    }
    if !dry_run {
        RUNS.fetch_add(1, Ordering::Relaxed);
    }
    report.took = started.elapsed();
    Ok(report)
}

/// Takes the run's lease until `now + LEASE_SECS` when nobody holds it; answers whether it
/// did. One statement decides, so of several app servers asking at once one gets it.
pub fn take_lease(conn: &mut AnyConnection, now: i64) -> QueryResult<bool> {
    let taken = diesel::update(
        housekeeping::table
            .find(1)
            .filter(housekeeping::lease_until.le(now)),
    )
    .set(housekeeping::lease_until.eq(now + LEASE_SECS))
    .execute(conn)?;
    Ok(taken == 1)
}

/// Gives the lease back at the end of a run, noting when it ended: the next run may be another
/// server's.
pub fn give_back_lease(conn: &mut AnyConnection, now: i64) -> QueryResult<()> {
    diesel::update(housekeeping::table.find(1))
        .set((
            housekeeping::lease_until.eq(0),
            housekeeping::last_run_at.eq(now),
        ))
        .execute(conn)
        .map(|_| ())
}

/// When the last run ended (unix time; 0: never).
pub fn last_run(conn: &mut AnyConnection) -> QueryResult<i64> {
    housekeeping::table
        .find(1)
        .select(housekeeping::last_run_at)
        .first(conn)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn size(rows: i64, ceiling: i64) -> PageSize {
        PageSize {
            rows,
            ceiling,
            quick: 0,
        }
    }

    #[test]
    fn a_page_halves_when_slow_and_grows_when_quick_within_its_bounds() {
        let slow = PAGE_TIME * 2;
        assert_eq!(PageSize::FIRST.next(slow), size(100, 150));
        assert_eq!(size(30, BATCH).next(slow), size(LEAST_PAGE, 22));
        assert_eq!(PageSize::FIRST.next(PAGE_TIME / 4), size(300, BATCH));
        assert_eq!(size(900, BATCH).next(Duration::ZERO).rows, BATCH);
        assert_eq!(PageSize::FIRST.next(PAGE_TIME * 3 / 4), PageSize::FIRST);
    }

    #[test]
    fn a_page_grows_back_into_a_size_that_was_slow_only_after_many_quick_pages() {
        let (slow, quick) = (PAGE_TIME * 3, Duration::ZERO);
        // Slow at 800 rows: halved, and kept under 600 while fewer than QUICK_TO_RISE pages at
        // that ceiling were quick.
        let mut s = size(800, BATCH).next(slow);
        assert_eq!(s, size(400, 600));
        s = s.next(quick);
        assert_eq!(s.rows, 600);
        for _ in 1..QUICK_TO_RISE {
            s = s.next(quick);
            assert_eq!((s.rows, s.ceiling), (600, 600), "{s:?}");
        }
        // The next quick page raises the ceiling by half, and the page grows up to it.
        s = s.next(quick);
        assert_eq!((s.rows, s.ceiling, s.quick), (900, 900, 0));
        // Slow again: the ceiling comes down with it, and the count starts again.
        assert_eq!(s.next(slow), size(450, 675));
        // A page neither slow nor quick starts the count again too.
        let mut s = size(600, 600);
        for _ in 1..QUICK_TO_RISE {
            s = s.next(quick);
        }
        s = s.next(PAGE_TIME * 3 / 4);
        assert_eq!(s.quick, 0);
        assert_eq!(s.next(quick).ceiling, 600);
        // A ceiling under the rows a page already has does not make it grow.
        assert_eq!(size(500, 450).next(quick).rows, 450);
    }

    #[test]
    fn a_run_shrunk_by_a_few_slow_pages_grows_back_to_full_pages() {
        // Three slow pages in a row (the machine, not the table) bring a page to the fewest rows.
        let mut s = PageSize::FIRST;
        for _ in 0..3 {
            s = s.next(PAGE_TIME * 10);
        }
        assert_eq!((s.rows, s.ceiling), (25, 37));
        let mut pages = 0;
        while s.rows < BATCH {
            s = s.next(Duration::ZERO);
            pages += 1;
            assert!(
                pages < 20 * QUICK_TO_RISE,
                "{s:?} after {pages} quick pages"
            );
        }
        assert_eq!(s.ceiling, BATCH);
    }
}
