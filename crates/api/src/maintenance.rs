//! The maintenance switch: on when the `MAINTENANCE` setting of the configuration says so, or
//! when the database's `settings.maintenance` row is `on` (read at most every few seconds, so
//! every app server behind a load balancer follows the same row).

use std::sync::Mutex;
use std::time::{Duration, Instant};

use db::{queries, DbPool};

const RECHECK: Duration = Duration::from_secs(5);

pub const MESSAGE: &str =
    "We're Brewing Something For You. The store is under maintenance; please come back soon.";

pub struct Maintenance {
    forced: bool,
    pool: Option<DbPool>,
    cached: Mutex<Option<(Instant, bool)>>,
}

impl Maintenance {
    /// `forced`: the configuration's switch. `pool`: where the settings row lives.
    pub fn new(forced: bool, pool: Option<DbPool>) -> Self {
        Self {
            forced,
            pool,
            cached: Mutex::new(None),
        }
    }

    /// Whether the store is under maintenance. Blocks briefly on the database every few seconds;
    /// call it off the async workers (or accept a short read).
    pub fn is_on(&self) -> bool {
        if self.forced {
            return true;
        }
        let Some(pool) = &self.pool else {
            return false;
        };
        let mut cached = self.cached.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((at, on)) = *cached {
            if at.elapsed() < RECHECK {
                return on;
            }
        }
        let on = pool
            .get()
            .ok()
            .and_then(|mut c| queries::setting(&mut c, "maintenance").ok().flatten())
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("on"));
        *cached = Some((Instant::now(), on));
        on
    }
}
