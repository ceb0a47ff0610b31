//! Running database work from async code: every call takes a pooled connection on tokio's
//! blocking threads, never on an async worker.

use crate::{AnyConnection, DbError, DbPool};

/// The database as async code sees it.
#[derive(Clone)]
pub struct Db {
    pool: DbPool,
}

impl Db {
    pub fn new(pool: DbPool) -> Self {
        Self { pool }
    }

    pub fn pool(&self) -> &DbPool {
        &self.pool
    }

    /// Runs `f` with a pooled connection on a blocking thread.
    pub async fn run<T, E, F>(&self, f: F) -> Result<T, E>
    where
        T: Send + 'static,
        E: From<DbError> + Send + 'static,
        F: FnOnce(&mut AnyConnection) -> Result<T, E> + Send + 'static,
    {
        let pool = self.pool.clone();
        tokio::task::spawn_blocking(move || {
            let mut conn = pool.get().map_err(DbError::from)?;
            f(&mut conn)
        })
        .await
        .map_err(|e| E::from(DbError::Task(e.to_string())))?
    }
}
