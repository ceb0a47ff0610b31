//! Running database work from async code: every call takes a pooled connection on tokio's
//! blocking threads, never on an async worker, and at most as many calls run at once as the pool
//! has connections. A crowd waits in a short queue; past [`QUEUE_WAIT`] a call gives up at once
//! with [`DbError::Busy`] (the API answers 503 with Retry-After) instead of hundreds of threads
//! each waiting for a connection.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::Semaphore;

use crate::{AnyConnection, DbError, DbPool};

/// How long a call waits for its turn.
pub const QUEUE_WAIT: Duration = Duration::from_secs(2);

/// The database as async code sees it.
#[derive(Clone)]
pub struct Db {
    pool: DbPool,
    turns: Arc<Semaphore>,
}

impl Db {
    pub fn new(pool: DbPool) -> Self {
        let turns = Arc::new(Semaphore::new(pool.max_size().max(1) as usize));
        Self { pool, turns }
    }

    pub fn pool(&self) -> &DbPool {
        &self.pool
    }

    /// Runs `f` with a pooled connection on a blocking thread, once a turn is free.
    pub async fn run<T, E, F>(&self, f: F) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<DbError> + Send + 'static,
        F: FnOnce(&mut AnyConnection) -> Result<T, E> + Send + 'static,
    {
        let turn = tokio::time::timeout(QUEUE_WAIT, self.turns.clone().acquire_owned())
            .await
            .map_err(|_| E::from(DbError::Busy))?
            .map_err(|_| E::from(DbError::Busy))?;
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
