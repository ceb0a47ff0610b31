//! Running database work from async code: every call takes a pooled connection on tokio's
//! blocking threads, never on an async worker, and at most as many calls run at once as the pool
//! has connections. A crowd waits in a short queue; past [`QUEUE_WAIT`] a call gives up at once
//! with [`DbError::Busy`] (the API answers 503 with Retry-After) instead of hundreds of threads
//! each waiting for a connection.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;

use crate::{AnyConnection, DbError, DbPool};

/// How long a call waits for its turn.
pub const QUEUE_WAIT: Duration = Duration::from_secs(2);

type Probed = (std::time::Instant, Result<(), crate::Outage>, u64);

/// The database as async code sees it.
#[derive(Clone)]
pub struct Db {
    pool: DbPool,
    turns: Arc<Semaphore>,
    counts: Arc<Counts>,
    /// The last write probe's time, answer, and the failures counted by then ([`Db::writable`]).
    probed: Arc<std::sync::Mutex<Option<Probed>>>,
}

/// What the metrics read of the turns: a few relaxed atomics, touched only by calls that wait.
#[derive(Debug, Default)]
struct Counts {
    waiting: AtomicUsize,
    refused: AtomicU64,
}

/// The turns as the metrics show them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TurnStats {
    /// Turns there are (the pool's size).
    pub size: usize,
    /// Calls holding a turn now.
    pub in_use: usize,
    /// Calls waiting for a turn now.
    pub waiting: usize,
    /// Calls that gave up waiting (answered 503) since the start.
    pub refused: u64,
}

/// Counts a call as waiting while it lives (dropped when the wait ends, however it ends).
struct Waiting<'a>(&'a AtomicUsize);

impl<'a> Waiting<'a> {
    fn new(n: &'a AtomicUsize) -> Self {
        n.fetch_add(1, Ordering::Relaxed);
        Self(n)
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Db {
    pub fn new(pool: DbPool) -> Self {
        let turns = Arc::new(Semaphore::new(pool.max_size().max(1) as usize));
        Self {
            pool,
            turns,
            counts: Arc::default(),
            probed: Arc::default(),
        }
    }

    /// Whether the database takes a write ([`crate::outages::probe_write`]), asked at most once
    /// every `every` (the last answer otherwise, unless a call has met a failure since), on a
    /// connection of its own within `wait`, on a blocking thread: readiness.
    pub async fn writable(&self, every: Duration, wait: Duration) -> Result<(), crate::Outage> {
        let failures = || crate::outages::counts().iter().map(|(_, n)| n).sum::<u64>();
        {
            let last = self.probed.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((at, answer, seen)) = *last {
                if at.elapsed() < every && seen == failures() {
                    return answer;
                }
            }
        }
        let pool = self.pool.clone();
        let probe = tokio::task::spawn_blocking(move || match pool.get_timeout(wait) {
            Ok(mut conn) => crate::outages::probe_write(&mut conn),
            Err(_) => Err(crate::Outage::Unreachable),
        });
        let answer = match tokio::time::timeout(wait + Duration::from_millis(500), probe).await {
            Ok(Ok(answer)) => answer,
            _ => Err(crate::Outage::Unreachable),
        };
        *self.probed.lock().unwrap_or_else(|e| e.into_inner()) =
            Some((std::time::Instant::now(), answer, failures()));
        answer
    }

    pub fn pool(&self) -> &DbPool {
        &self.pool
    }

    /// How the turns stand now.
    pub fn turn_stats(&self) -> TurnStats {
        let size = self.pool.max_size().max(1) as usize;
        TurnStats {
            size,
            in_use: size.saturating_sub(self.turns.available_permits()),
            waiting: self.counts.waiting.load(Ordering::Relaxed),
            refused: self.counts.refused.load(Ordering::Relaxed),
        }
    }

    /// A turn: at once when one is free, else after waiting at most [`QUEUE_WAIT`].
    async fn turn(&self) -> Result<tokio::sync::OwnedSemaphorePermit, DbError> {
        if let Ok(turn) = self.turns.clone().try_acquire_owned() {
            return Ok(turn);
        }
        let _waiting = Waiting::new(&self.counts.waiting);
        match tokio::time::timeout(QUEUE_WAIT, self.turns.clone().acquire_owned()).await {
            Ok(Ok(turn)) => Ok(turn),
            _ => {
                self.counts.refused.fetch_add(1, Ordering::Relaxed);
                Err(DbError::Busy)
            }
        }
    }

    /// Runs `f` with a pooled connection on a blocking thread, once a turn is free.
    pub async fn run<T, E, F>(&self, f: F) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<DbError> + Send + 'static,
        F: FnOnce(&mut AnyConnection) -> Result<T, E> + Send + 'static,
    {
        let turn = self.turn().await.map_err(E::from)?;
        let pool = self.pool.clone();
        tokio::task::spawn_blocking(move || {
            let _turn = turn;
            let mut conn = pool.get().map_err(DbError::from)?;
            f(&mut conn)
        })
        .await
        .map_err(|e| E::from(DbError::Task(e.to_string())))?
    }
}
