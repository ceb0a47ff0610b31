//! What every app server follows in the database: the data version (bumped by triggers on every
//! write to the catalog or the content) and the maintenance switch (`settings.maintenance`, or
//! forced by the configuration). Read once when the store starts, then by a thread of its own
//! four times a second, so asking never waits for the database and several app servers converge
//! within the second the store promises, with room for a loaded database's slower answers (read
//! once a second, a change made on one app server under `make bench`'s load showed on the other
//! after 987 ms). The same thread checkpoints SQLite's write-ahead log each second (expired
//! sessions are housekeeping's, swept in pages: `crate::housekeeping`).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Weak};
use std::time::Duration;

use diesel::prelude::*;

use crate::{schema, DbPool};

/// How often the rows are read: two small reads an app server, four times a second.
pub const EVERY: Duration = Duration::from_millis(250);

/// The reads in a second ([`EVERY`]): a standing failure to write is probed, and SQLite's
/// write-ahead log checkpointed, at every this many ticks (once a second).
const TICKS_A_SECOND: u32 = (1000 / EVERY.as_millis()) as u32;

pub const MAINTENANCE_MESSAGE: &str =
    "We're Brewing Something For You. The store is under maintenance; please come back soon.";

pub struct Watch {
    forced_maintenance: bool,
    maintenance: AtomicBool,
    data_version: AtomicU64,
}

/// The two rows; `None` when the database cannot say (a failing database is not maintenance, and
/// keeps the last version).
fn read(pool: &DbPool) -> Option<(bool, u64)> {
    let mut conn = pool.get_timeout(Duration::from_secs(1)).ok()?;
    let maintenance = crate::content::setting(&mut conn, "maintenance")
        .ok()
        .flatten()
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("on"));
    let version: i64 = schema::data_version::table
        .find(1)
        .select(schema::data_version::version)
        .first(&mut conn)
        .ok()?;
    Some((maintenance, version as u64))
}

/// SQLite: copies what the write-ahead log holds into the database file (a passive checkpoint:
/// writers go on meanwhile), here rather than in the writer whose commit fills the log past
/// [`crate::WAL_BACKSTOP_PAGES`], which would do it (with the file's fsync) while every other
/// writer waits its turn. PostgreSQL checkpoints by itself.
pub(crate) fn checkpoint(pool: &DbPool) {
    let Ok(mut conn) = pool.get_timeout(Duration::from_secs(1)) else {
        return;
    };
    if let crate::AnyConnection::Sqlite(c) = &mut *conn {
        if let Err(e) =
            diesel::connection::SimpleConnection::batch_execute(c, "PRAGMA wal_checkpoint(PASSIVE)")
        {
            log::warn!("checkpointing the write-ahead log: {e}");
        }
    }
}

/// Whether the pool's database is SQLite (asked once: PostgreSQL needs no checkpoint, and no
/// connection is borrowed for one each second).
fn is_sqlite(pool: &DbPool) -> bool {
    pool.get_timeout(Duration::from_secs(1))
        .is_ok_and(|c| matches!(&*c, crate::AnyConnection::Sqlite(_)))
}

impl Watch {
    /// Reads the rows now, then follows them on a thread that ends with the last `Arc`.
    pub fn start(pool: DbPool, forced_maintenance: bool) -> Arc<Self> {
        let (maintenance, version) = read(&pool).unwrap_or((false, 0));
        let watch = Arc::new(Self {
            forced_maintenance,
            maintenance: AtomicBool::new(maintenance),
            data_version: AtomicU64::new(version),
        });
        let weak: Weak<Self> = Arc::downgrade(&watch);
        let sqlite = is_sqlite(&pool);
        let spawned = std::thread::Builder::new()
            .name("db-watch".into())
            .spawn(move || {
                let mut ticks: u32 = 0;
                loop {
                    ticks = ticks.wrapping_add(1);
                    std::thread::sleep(EVERY);
                    let Some(me) = weak.upgrade() else { break };
                    if let Some((maintenance, version)) = read(&pool) {
                        me.maintenance.store(maintenance, Ordering::Relaxed);
                        me.data_version.store(version, Ordering::Relaxed);
                        crate::outages::read_worked();
                    }
                    // A failure to write stands until a write works: one is tried.
                    let whole_second = ticks.is_multiple_of(TICKS_A_SECOND);
                    if whole_second && crate::outages::standing().is_some() {
                        if let Ok(mut conn) = pool.get_timeout(Duration::from_secs(1)) {
                            let _ = crate::outages::probe_write(&mut conn);
                        }
                    }
                    if sqlite && whole_second {
                        checkpoint(&pool);
                    }
                }
            });
        if let Err(e) = spawned {
            log::error!("cannot follow the database's data version: {e}");
        }
        watch
    }

    /// A switch that reads nothing (tools and tests without a database).
    pub fn fixed(maintenance: bool, data_version: u64) -> Arc<Self> {
        Arc::new(Self {
            forced_maintenance: maintenance,
            maintenance: AtomicBool::new(false),
            data_version: AtomicU64::new(data_version),
        })
    }

    /// Whether this server was started with `MAINTENANCE=on` (in maintenance whatever the row).
    pub fn forced(&self) -> bool {
        self.forced_maintenance
    }

    /// Whether the store is under maintenance.
    pub fn maintenance(&self) -> bool {
        self.forced_maintenance || self.maintenance.load(Ordering::Relaxed)
    }

    /// The catalog and content's version: what is cached under an older one is stale.
    pub fn data_version(&self) -> u64 {
        self.data_version.load(Ordering::Relaxed)
    }
}
