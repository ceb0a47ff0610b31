//! Storage: schema, models, the queries of each entity (catalog, places, content, limits, sessions, users, addresses), embedded migrations and the seed loader, over SQLite or
//! PostgreSQL through one diesel `MultiConnection`.

pub mod addresses;
pub mod carts;
pub mod catalog;
pub mod catalog_io;
pub mod content;
pub mod goto_cases;
pub mod limits;
pub mod models;
pub mod orders;
pub mod outbox;
pub mod places;
mod run;
pub mod schema;
pub mod seed;
pub mod sessions;
pub mod staff;
pub mod users;
pub mod watch;

pub use diesel;
pub use run::{Db, TurnStats};
pub use watch::Watch;

use diesel::connection::SimpleConnection;
use diesel::migration::MigrationSource;
use diesel::r2d2::{ConnectionManager, CustomizeConnection, Pool, PooledConnection};
use diesel_migrations::{embed_migrations, EmbeddedMigrations, MigrationHarness};

/// One connection type for both backends; `DATABASE_URL` decides which at start.
#[derive(diesel::MultiConnection)]
pub enum AnyConnection {
    Postgresql(diesel::PgConnection),
    Sqlite(diesel::SqliteConnection),
}

pub type DbPool = Pool<ConnectionManager<AnyConnection>>;
pub type DbConn = PooledConnection<ConnectionManager<AnyConnection>>;

pub const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/sqlite");
pub const POSTGRES_MIGRATIONS: EmbeddedMigrations = embed_migrations!("../../migrations/postgres");

#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("database pool: {0}")]
    Pool(#[from] diesel::r2d2::PoolError),
    #[error("database: {0}")]
    Query(#[from] diesel::result::Error),
    #[error("migrations: {0}")]
    Migration(String),
    #[error("seed: {0}")]
    Seed(String),
    #[error("database task: {0}")]
    Task(String),
    #[error("the database is busy")]
    Busy,
}

/// Runs `f` in a transaction that writes. On SQLite the writers of this process take turns at a
/// mutex first: one writer at a time holds SQLite's write lock, and the others wait here rather
/// than in SQLite's busy handler, whose sleeps (up to 100 ms each) would make the slowest answers
/// slow. PostgreSQL locks rows and needs no such turn.
pub fn write_transaction<T, E, F>(conn: &mut AnyConnection, f: F) -> Result<T, E>
where
    F: FnOnce(&mut AnyConnection) -> Result<T, E>,
    E: From<diesel::result::Error>,
{
    static SQLITE_WRITER: std::sync::Mutex<()> = std::sync::Mutex::new(());
    let _turn = matches!(conn, AnyConnection::Sqlite(_))
        .then(|| SQLITE_WRITER.lock().unwrap_or_else(|e| e.into_inner()));
    transaction(conn, f)
}

/// Runs `f` in a transaction (a savepoint inside another). On SQLite the outermost one begins
/// IMMEDIATE: it takes the write lock at once, waiting for it in the busy handler, instead of at
/// its first write, where a transaction that read before another writer committed fails at once
/// with "database is locked" (SQLite does not wait for a stale snapshot). The contract test's
/// concurrent newsletter signups (a read, then an insert) met that as a 500.
pub fn transaction<T, E, F>(conn: &mut AnyConnection, f: F) -> Result<T, E>
where
    F: FnOnce(&mut AnyConnection) -> Result<T, E>,
    E: From<diesel::result::Error>,
{
    use diesel::connection::{AnsiTransactionManager, TransactionManager};
    use diesel::Connection;
    let AnyConnection::Sqlite(c) = conn else {
        return conn.transaction(f);
    };
    let depth = <AnsiTransactionManager as TransactionManager<diesel::SqliteConnection>>::transaction_manager_status_mut(c)
        .transaction_depth()?;
    if depth.is_some() {
        return conn.transaction(f);
    }
    AnsiTransactionManager::begin_transaction_sql(c, "BEGIN IMMEDIATE")?;
    let result = f(conn);
    let AnyConnection::Sqlite(c) = conn else {
        unreachable!("the connection is the SQLite one it was")
    };
    match result {
        Ok(value) => match AnsiTransactionManager::commit_transaction(c) {
            Ok(()) => Ok(value),
            Err(e) => {
                let _ = AnsiTransactionManager::rollback_transaction(c);
                Err(e.into())
            }
        },
        Err(e) => {
            // The caller's error says what went wrong, as diesel's own `transaction` answers.
            let _ = AnsiTransactionManager::rollback_transaction(c);
            Err(e)
        }
    }
}

/// Which backend a `DATABASE_URL` selects: PostgreSQL for `postgres://` and `postgresql://`,
/// otherwise a SQLite file path (optionally prefixed with `sqlite://`).
pub fn is_postgres_url(url: &str) -> bool {
    url.starts_with("postgres://") || url.starts_with("postgresql://")
}

/// Normalises a `DATABASE_URL` to what the backend's driver accepts and makes sure the folder of a
/// SQLite file exists.
pub fn prepare_url(url: &str) -> std::io::Result<String> {
    if is_postgres_url(url) {
        return Ok(url.to_string());
    }
    let path = url.strip_prefix("sqlite://").unwrap_or(url);
    if path != ":memory:" {
        if let Some(dir) = std::path::Path::new(path).parent() {
            if !dir.as_os_str().is_empty() {
                std::fs::create_dir_all(dir)?;
            }
        }
    }
    Ok(path.to_string())
}

#[derive(Debug, Clone, Copy)]
struct SqlitePragmas;

impl CustomizeConnection<AnyConnection, diesel::r2d2::Error> for SqlitePragmas {
    fn on_acquire(&self, conn: &mut AnyConnection) -> Result<(), diesel::r2d2::Error> {
        #[derive(diesel::QueryableByName)]
        struct Mode {
            #[diesel(sql_type = diesel::sql_types::Text)]
            journal_mode: String,
        }
        if let AnyConnection::Sqlite(c) = conn {
            c.batch_execute(
                "PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;",
            )
            .map_err(diesel::r2d2::Error::QueryError)?;
            // WAL is kept in the file: set once. Setting it on every new connection needs a lock
            // the busy timeout does not wait for, and failed while another connection wrote.
            let mode: Mode =
                diesel::RunQueryDsl::get_result(diesel::sql_query("PRAGMA journal_mode"), c)
                    .map_err(diesel::r2d2::Error::QueryError)?;
            if !mode.journal_mode.eq_ignore_ascii_case("wal") {
                c.batch_execute("PRAGMA journal_mode = WAL")
                    .map_err(diesel::r2d2::Error::QueryError)?;
            }
        }
        Ok(())
    }
}

/// Builds the connection pool for `url` (see [`prepare_url`]).
pub fn connect(url: &str, max_size: u32) -> Result<DbPool, DbError> {
    let url = prepare_url(url).map_err(|e| DbError::Migration(e.to_string()))?;
    let manager = ConnectionManager::<AnyConnection>::new(url);
    let pool = Pool::builder()
        .max_size(max_size)
        .connection_customizer(Box::new(SqlitePragmas))
        .build(manager)?;
    Ok(pool)
}

/// Runs the pending migrations of the connection's backend; answers how many ran.
pub fn migrate(conn: &mut AnyConnection) -> Result<usize, DbError> {
    let ran = match conn {
        AnyConnection::Sqlite(c) => c.run_pending_migrations(SQLITE_MIGRATIONS).map(|v| v.len()),
        AnyConnection::Postgresql(c) => c
            .run_pending_migrations(POSTGRES_MIGRATIONS)
            .map(|v| v.len()),
    };
    ran.map_err(|e| DbError::Migration(e.to_string()))
}

/// The names of the migrations this build knows that the database has not run, oldest first
/// (readiness). Reads the migrations table only: unlike diesel's harness it creates nothing, so
/// asking is no write.
pub fn pending_migrations(conn: &mut AnyConnection) -> Result<Vec<String>, DbError> {
    use diesel::RunQueryDsl;
    #[derive(diesel::QueryableByName)]
    struct Applied {
        #[diesel(sql_type = diesel::sql_types::Text)]
        version: String,
    }
    const APPLIED: &str = "SELECT version FROM __diesel_schema_migrations";
    let (applied, known): (Vec<Applied>, _) = match conn {
        AnyConnection::Sqlite(c) => (
            diesel::sql_query(APPLIED).load(c)?,
            names(MigrationSource::<diesel::sqlite::Sqlite>::migrations(
                &SQLITE_MIGRATIONS,
            ))?,
        ),
        AnyConnection::Postgresql(c) => (
            diesel::sql_query(APPLIED).load(c)?,
            names(MigrationSource::<diesel::pg::Pg>::migrations(
                &POSTGRES_MIGRATIONS,
            ))?,
        ),
    };
    let applied: std::collections::HashSet<String> =
        applied.into_iter().map(|a| a.version).collect();
    let mut pending: Vec<(String, String)> = known
        .into_iter()
        .filter(|(version, _)| !applied.contains(version))
        .collect();
    pending.sort();
    Ok(pending.into_iter().map(|(_, name)| name).collect())
}

/// Each migration's version and name.
fn names<DB: diesel::backend::Backend>(
    migrations: diesel::migration::Result<Vec<Box<dyn diesel::migration::Migration<DB>>>>,
) -> Result<Vec<(String, String)>, DbError> {
    Ok(migrations
        .map_err(|e| DbError::Migration(e.to_string()))?
        .iter()
        .map(|m| (m.name().version().to_string(), m.name().to_string()))
        .collect())
}
