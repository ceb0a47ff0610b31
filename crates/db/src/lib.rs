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
pub mod outages;
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

/// How the database failed a call when the failure is the database's, not the call's: what a
/// request answers 503 for (issue 30), and what the metrics count by kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outage {
    /// No connection could be had (refused, the server down or starting, the pool's wait over).
    Unreachable,
    /// The connection was lost during the call (the server shut down or restarted).
    Lost,
    /// The disk is full.
    Full,
    /// The database cannot be written (a read-only file or server, a disk I/O error).
    ReadOnly,
    /// Locked past its timeout.
    Locked,
}

impl Outage {
    /// Every kind, as the metrics list them.
    pub const ALL: [Outage; 5] = [
        Self::Unreachable,
        Self::Lost,
        Self::Full,
        Self::ReadOnly,
        Self::Locked,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Unreachable => "unreachable",
            Self::Lost => "lost",
            Self::Full => "full",
            Self::ReadOnly => "read_only",
            Self::Locked => "locked",
        }
    }

    /// The outage a query's error is, if it is one (by diesel's kind, else by the words SQLite
    /// and PostgreSQL use: neither reaches diesel with a code of its own).
    pub fn of(e: &diesel::result::Error) -> Option<Self> {
        use diesel::result::{DatabaseErrorKind as Kind, Error};
        let Error::DatabaseError(kind, info) = e else {
            return None;
        };
        // (Not `UnableToSendCommand`: diesel says that of a query the protocol cannot carry,
        // such as one with more than 65,535 bind parameters, which is the call's fault.)
        if matches!(kind, Kind::ClosedConnection) {
            return Some(Self::Lost);
        }
        if matches!(kind, Kind::ReadOnlyTransaction) {
            return Some(Self::ReadOnly);
        }
        let message = info.message().to_ascii_lowercase();
        const WORDS: &[(&str, Outage)] = &[
            ("database or disk is full", Outage::Full),
            ("no space left on device", Outage::Full),
            ("could not extend file", Outage::Full),
            ("attempt to write a readonly database", Outage::ReadOnly),
            ("disk i/o error", Outage::ReadOnly),
            ("read-only transaction", Outage::ReadOnly),
            ("database is locked", Outage::Locked),
            ("database table is locked", Outage::Locked),
            ("unable to open database file", Outage::Unreachable),
            ("terminating connection", Outage::Lost),
            ("server closed the connection", Outage::Lost),
            ("connection to server", Outage::Lost),
            ("no connection to the server", Outage::Lost),
            ("the database system is shutting down", Outage::Unreachable),
            ("the database system is starting up", Outage::Unreachable),
            (
                "the database system is in recovery mode",
                Outage::Unreachable,
            ),
        ];
        WORDS
            .iter()
            .find(|(words, _)| message.contains(words))
            .map(|(_, kind)| *kind)
    }
}

impl DbError {
    /// The outage this error is, if it is one (a pool that gives no connection is one).
    pub fn outage(&self) -> Option<Outage> {
        match self {
            Self::Pool(_) => Some(Outage::Unreachable),
            Self::Query(e) => Outage::of(e),
            _ => None,
        }
    }
}

/// How long a call waits for the pool to give it a connection (and, halved, the longest the pool
/// waits between tries to connect again while the database is away): a database out of reach is a
/// quick 503, and a database that is back is used again within a second (issue 30).
pub const CONNECTION_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

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
        // A server that does not answer at all (a host gone, a dropped route) is given up on as
        // quickly as one that refuses: libpq waits forever without a connect_timeout.
        if url.contains("connect_timeout=") {
            return Ok(url.to_string());
        }
        let join = if url.contains('?') { '&' } else { '?' };
        return Ok(format!(
            "{url}{join}connect_timeout={}",
            CONNECTION_WAIT.as_secs()
        ));
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
        .connection_timeout(CONNECTION_WAIT)
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

#[cfg(test)]
mod outage_tests {
    use super::Outage;
    use diesel::result::{DatabaseErrorKind as Kind, Error};

    fn error(kind: Kind, message: &str) -> Error {
        Error::DatabaseError(kind, Box::new(message.to_string()))
    }

    #[test]
    fn the_databases_failures_are_told_from_the_calls() {
        for (kind, message, outage) in [
            (
                Kind::Unknown,
                "database or disk is full",
                Some(Outage::Full),
            ),
            (
                Kind::Unknown,
                "attempt to write a readonly database",
                Some(Outage::ReadOnly),
            ),
            (Kind::Unknown, "database is locked", Some(Outage::Locked)),
            (
                Kind::Unknown,
                "terminating connection due to administrator command",
                Some(Outage::Lost),
            ),
            (
                Kind::ClosedConnection,
                "server closed the connection unexpectedly",
                Some(Outage::Lost),
            ),
            (
                Kind::Unknown,
                "the database system is shutting down",
                Some(Outage::Unreachable),
            ),
            (
                Kind::UniqueViolation,
                "duplicate key value violates unique constraint",
                None,
            ),
            (
                Kind::CheckViolation,
                "CHECK constraint failed: quantity",
                None,
            ),
        ] {
            assert_eq!(Outage::of(&error(kind, message)), outage, "{message}");
        }
        assert_eq!(Outage::of(&Error::NotFound), None);
    }
}
