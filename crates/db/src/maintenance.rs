//! The maintenance switch: on when the configuration says so, or when the database's
//! `settings.maintenance` row is `on`. The row is re-read at most every few seconds on a thread of
//! its own, so asking never waits for the database (every app server behind a load balancer
//! follows the same row within that time).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::{queries, DbPool};

const RECHECK: Duration = Duration::from_secs(5);

pub const MESSAGE: &str =
    "We're Brewing Something For You. The store is under maintenance; please come back soon.";

pub struct Maintenance {
    forced: bool,
    pool: Option<DbPool>,
    on: AtomicBool,
    /// Milliseconds since `start` of the last read that began.
    checked_at: AtomicU64,
    start: Instant,
    reading: AtomicBool,
}

impl Maintenance {
    /// `forced`: the configuration's switch. `pool`: where the settings row lives; it is read
    /// once now, then in the background.
    pub fn new(forced: bool, pool: Option<DbPool>) -> Arc<Self> {
        let on = !forced && pool.as_ref().is_some_and(read_row);
        Arc::new(Self {
            forced,
            pool,
            on: AtomicBool::new(on),
            checked_at: AtomicU64::new(0),
            start: Instant::now(),
            reading: AtomicBool::new(false),
        })
    }

    /// Whether the store is under maintenance. Never blocks: a stale answer starts a re-read in
    /// the background and is used until it lands.
    pub fn is_on(self: &Arc<Self>) -> bool {
        if self.forced {
            return true;
        }
        let Some(pool) = &self.pool else {
            return false;
        };
        let now = self.start.elapsed().as_millis() as u64;
        let last = self.checked_at.load(Ordering::Relaxed);
        if now.saturating_sub(last) >= RECHECK.as_millis() as u64
            && !self.reading.swap(true, Ordering::AcqRel)
        {
            self.checked_at.store(now, Ordering::Relaxed);
            let (me, pool) = (Arc::clone(self), pool.clone());
            let spawned = std::thread::Builder::new()
                .name("maintenance".into())
                .spawn(move || {
                    me.on.store(read_row(&pool), Ordering::Relaxed);
                    me.reading.store(false, Ordering::Release);
                });
            if spawned.is_err() {
                self.reading.store(false, Ordering::Release);
            }
        }
        self.on.load(Ordering::Relaxed)
    }
}

/// The row, or off when the database cannot say (a failing database is not maintenance).
fn read_row(pool: &DbPool) -> bool {
    pool.get_timeout(Duration::from_secs(2))
        .ok()
        .and_then(|mut c| queries::setting(&mut c, "maintenance").ok().flatten())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("on"))
}
