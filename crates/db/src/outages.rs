//! The database's failures as the store saw them: counted by kind for the metrics, and
//! logged once when the database starts failing and once when it works again, never a line per
//! request. A failure to be reached or a lost connection ends with the next read that works (the
//! watch reads four times a second); a failure to write (a full disk, a read-only file, a lock
//! held too long) ends with the next write that works ([`probe_write`], which the watch tries
//! once a second while such a failure stands, and readiness at most every few seconds:
//! [`crate::run::Db::writable`]).

use diesel::prelude::*;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use crate::{AnyConnection, Outage};

static COUNTS: [AtomicU64; 5] = [const { AtomicU64::new(0) }; 5];
/// 0: none; else the outage standing now, as its index + 1.
static STANDING: AtomicU8 = AtomicU8::new(0);

fn index(kind: Outage) -> usize {
    Outage::ALL.iter().position(|k| *k == kind).unwrap_or(0)
}

/// Counts a call the database failed, and logs the first of a run of failures.
pub fn note(kind: Outage, detail: &dyn std::fmt::Display) {
    COUNTS[index(kind)].fetch_add(1, Ordering::Relaxed);
    let was = STANDING.swap(index(kind) as u8 + 1, Ordering::Relaxed);
    if was == 0 {
        log::error!(
            "the database failed ({}): {detail}; calls that need it answer 503 until it works again",
            kind.as_str()
        );
    }
}

/// The outage standing now, if any.
pub fn standing() -> Option<Outage> {
    match STANDING.load(Ordering::Relaxed) {
        0 => None,
        n => Outage::ALL.get(n as usize - 1).copied(),
    }
}

/// Whether the standing outage is one of writing (reads still work).
fn of_writing(kind: Outage) -> bool {
    matches!(kind, Outage::Full | Outage::ReadOnly | Outage::Locked)
}

/// A read worked: an outage of reaching the database is over.
pub fn read_worked() {
    if standing().is_some_and(|k| !of_writing(k)) {
        ended();
    }
}

/// A write worked: any outage is over.
pub fn write_worked() {
    if standing().is_some() {
        ended();
    }
}

fn ended() {
    if let Some(kind) = standing() {
        STANDING.store(0, Ordering::Relaxed);
        log::warn!(
            "the database works again (after failing: {})",
            kind.as_str()
        );
    }
}

/// Calls the database failed since the start, by kind.
pub fn counts() -> Vec<(Outage, u64)> {
    Outage::ALL
        .iter()
        .map(|k| (*k, COUNTS[index(*k)].load(Ordering::Relaxed)))
        .collect()
}

/// Below this much free space on a SQLite file's disk the database counts as full: a one-row
/// probe can still fit in the pages SQLite's write-ahead log already holds while an order, which
/// needs more, fails.
pub const SQLITE_MIN_FREE: u64 = 4 << 20;

/// The free bytes of the disk a SQLite connection's file is on (`None`: PostgreSQL, an
/// in-memory database, or the disk cannot say).
fn sqlite_free_space(conn: &mut AnyConnection) -> Option<u64> {
    #[derive(QueryableByName)]
    struct File {
        #[diesel(sql_type = diesel::sql_types::Text)]
        file: String,
    }
    let AnyConnection::Sqlite(c) = conn else {
        return None;
    };
    let files: Vec<File> =
        diesel::sql_query("SELECT file FROM pragma_database_list WHERE name = 'main'")
            .load(c)
            .ok()?;
    let file = std::path::PathBuf::from(&files.first()?.file);
    let dir = file.parent().filter(|d| !d.as_os_str().is_empty())?;
    let stat = rustix::fs::statvfs(dir).ok()?;
    Some(stat.f_bavail.saturating_mul(stat.f_frsize))
}

/// Whether the database takes a write now: on SQLite, room on its disk ([`SQLITE_MIN_FREE`]);
/// then one row rewritten as it is (`data_version`, which no trigger follows), the smallest write
/// there is. `Err` names the outage.
pub fn probe_write(conn: &mut AnyConnection) -> Result<(), Outage> {
    use crate::schema::data_version;
    if let Some(free) = sqlite_free_space(conn) {
        if free < SQLITE_MIN_FREE {
            note(
                Outage::Full,
                &format!("{free} bytes free on the database's disk"),
            );
            return Err(Outage::Full);
        }
    }
    let done = diesel::update(data_version::table.find(1))
        .set(data_version::version.eq(data_version::version))
        .execute(conn);
    match done {
        Ok(_) => {
            write_worked();
            Ok(())
        }
        Err(e) => {
            let kind = Outage::of(&e).unwrap_or(Outage::ReadOnly);
            note(kind, &e);
            Err(kind)
        }
    }
}
