//! The two migration folders define the same tables: every table, column, type family and
//! nullability, read back from a migrated SQLite file and a migrated PostgreSQL database.

use crate::support;

use db::AnyConnection;
use diesel::prelude::*;
use diesel::sql_types::{Integer, Text};
use support::{database, Backend};

#[derive(QueryableByName, Debug)]
struct Column {
    #[diesel(sql_type = Text)]
    table_name: String,
    #[diesel(sql_type = Text)]
    column_name: String,
    #[diesel(sql_type = Text)]
    data_type: String,
    #[diesel(sql_type = Integer)]
    nullable: i32,
}

/// `table.column type [null]`, one per column, sorted.
fn columns(conn: &mut AnyConnection) -> Vec<String> {
    let rows: Vec<Column> = match conn {
        AnyConnection::Sqlite(c) => diesel::sql_query(
            // AUTOINCREMENT makes the key a 64-bit rowid whatever its declared INTEGER says.
            "SELECT m.name AS table_name, p.name AS column_name, \
             CASE WHEN p.pk > 0 AND m.sql LIKE '%AUTOINCREMENT%' THEN 'bigint' ELSE lower(p.type) END AS data_type, \
             CASE WHEN p.\"notnull\" = 1 OR p.pk > 0 THEN 0 ELSE 1 END AS nullable \
             FROM sqlite_master m JOIN pragma_table_info(m.name) p \
             WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite_%' \
             AND m.name <> '__diesel_schema_migrations'",
        )
        .load(c)
        .expect("sqlite columns"),
        AnyConnection::Postgresql(c) => diesel::sql_query(
            "SELECT table_name::text AS table_name, column_name::text AS column_name, \
             data_type::text AS data_type, CASE WHEN is_nullable = 'YES' THEN 1 ELSE 0 END AS nullable \
             FROM information_schema.columns WHERE table_schema = 'public' \
             AND table_name <> '__diesel_schema_migrations'",
        )
        .load(c)
        .expect("postgres columns"),
    };
    let mut out: Vec<String> = rows
        .into_iter()
        .map(|c| {
            let family = match c.data_type.as_str() {
                "integer" | "int" | "int4" => "integer",
                "bigint" | "int8" => "bigint",
                "text" | "character varying" => "text",
                "boolean" | "bool" => "boolean",
                other => panic!(
                    "{}.{}: type {other} has no family here",
                    c.table_name, c.column_name
                ),
            };
            let null = if c.nullable == 1 { " null" } else { "" };
            format!("{}.{} {family}{null}", c.table_name, c.column_name)
        })
        .collect();
    out.sort();
    out
}

#[actix_web::test]
async fn sqlite_and_postgres_migrations_define_the_same_tables() {
    let sqlite = database(Backend::Sqlite);
    let postgres = database(Backend::Postgres);
    let a = columns(&mut sqlite.pool.get().unwrap());
    let b = columns(&mut postgres.pool.get().unwrap());
    assert!(a.len() > 50, "read the tables: {a:?}");
    let only_sqlite: Vec<&String> = a.iter().filter(|c| !b.contains(c)).collect();
    let only_postgres: Vec<&String> = b.iter().filter(|c| !a.contains(c)).collect();
    assert!(
        only_sqlite.is_empty() && only_postgres.is_empty(),
        "only in migrations/sqlite: {only_sqlite:?}\nonly in migrations/postgres: {only_postgres:?}"
    );
}

/// `crates/db/src/schema.rs` is what `diesel print-schema` prints for the migrated PostgreSQL
/// database (the CLI is installed under `target/tools` by `make tools`; `DIESEL_CLI` overrides).
#[actix_web::test]
async fn schema_rs_is_what_diesel_print_schema_prints() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let cli = std::env::var("DIESEL_CLI")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|_| root.join("target/tools/bin/diesel"));
    assert!(
        cli.exists(),
        "{} is missing: run `make tools` (make test does)",
        cli.display()
    );
    let postgres = database(Backend::Postgres);
    let out = std::process::Command::new(&cli)
        .current_dir(&root)
        .args(["print-schema", "--database-url", &postgres.url])
        .output()
        .expect("run diesel print-schema");
    assert!(
        out.status.success(),
        "diesel print-schema: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed = String::from_utf8(out.stdout).expect("UTF-8");
    let kept = std::fs::read_to_string(root.join("crates/db/src/schema.rs")).expect("schema.rs");
    if std::env::var("UPDATE_SCHEMA").is_ok_and(|v| v == "1") {
        std::fs::write(root.join("crates/db/src/schema.rs"), &printed).expect("write schema.rs");
        return;
    }
    assert!(
        kept == printed,
        "crates/db/src/schema.rs differs from `diesel print-schema` (run `make schema`):\n{printed}"
    );
}

#[derive(QueryableByName, Debug)]
struct Trigger {
    #[diesel(sql_type = Text)]
    table_name: String,
    #[diesel(sql_type = Text)]
    trigger_name: String,
}

/// Every table either moves the work version (the staff's reads are kept under it, so a write
/// that does not move it would leave a staff page stale), or is named here with why it need not:
/// a new table must choose.
#[actix_web::test]
async fn every_table_says_whether_it_moves_the_work_version() {
    const NOT_WORK: [(&str, &str); 44] = [
        ("addresses", "a member's own, on no staff page"),
        ("banners", "the data version's (catalog and content)"),
        (
            "catalog_drafts",
            "read only by its draft's page, never kept (not `kept`)",
        ),
        ("barangays", "the data version's"),
        ("cart_empties", "a shopper's cart"),
        ("cart_items", "a shopper's cart"),
        ("cart_refills", "a shopper's cart"),
        ("carts", "a shopper's cart"),
        ("case_types", "fixed by the migrations"),
        ("checkout_blackouts", "checkout's, on no staff page"),
        (
            "checkout_sessions",
            "an order's payment pages at PayMongo, on no staff page",
        ),
        ("cities", "the data version's"),
        ("data_version", "the data version itself"),
        ("delivery_fees", "the data version's"),
        ("deposits", "the data version's"),
        ("fulfillment_types", "the data version's"),
        ("goto_case_items", "a member's own"),
        ("goto_cases", "a member's own"),
        ("holidays", "the data version's"),
        ("housekeeping", "the sweep's lease, on no staff page"),
        ("mail_outbox", "the mail queue, on no staff page"),
        ("newsletter_subscriptions", "on no staff page"),
        ("notices", "the data version's"),
        ("packagings", "the data version's"),
        ("password_resets", "a member's own"),
        (
            "payment_events",
            "PayMongo's events taken, on no staff page",
        ),
        ("product_areas", "the data version's"),
        ("product_types", "the data version's"),
        ("products", "the data version's"),
        ("promos", "the data version's"),
        ("search_words", "the data version's (the search index)"),
        ("provinces", "the data version's"),
        ("rate_limits", "counters, on no staff page"),
        ("registrations", "a shopper's own"),
        ("served_areas", "the data version's"),
        ("sessions", "a shopper's own"),
        ("site_texts", "the data version's"),
        ("staff_links", "a password link, on no staff page"),
        (
            "staff_recovery_codes",
            "a member of staff's own, on no page",
        ),
        (
            "staff_sessions",
            "touched on every read: would move it on every read",
        ),
        (
            "status_counts",
            "kept by the orders' triggers (orders moves it)",
        ),
        ("streets", "the data version's"),
        ("users", "a member's own, on no staff page"),
        ("work_version", "the work version itself"),
    ];
    for backend in [Backend::Sqlite, Backend::Postgres] {
        let db = database(backend);
        let mut conn = db.pool.get().unwrap();
        let rows: Vec<Trigger> = match &mut *conn {
            AnyConnection::Sqlite(c) => diesel::sql_query(
                "SELECT tbl_name AS table_name, name AS trigger_name FROM sqlite_master \
                 WHERE type = 'trigger'",
            )
            .load(c)
            .expect("sqlite triggers"),
            AnyConnection::Postgresql(c) => diesel::sql_query(
                "SELECT event_object_table::text AS table_name, trigger_name::text AS trigger_name \
                 FROM information_schema.triggers WHERE trigger_schema = 'public'",
            )
            .load(c)
            .expect("postgres triggers"),
        };
        let mut moving: Vec<String> = rows
            .iter()
            .filter(|t| t.trigger_name.ends_with("bumps_work_version"))
            .map(|t| t.table_name.clone())
            .collect();
        moving.sort();
        moving.dedup();
        assert_eq!(moving, db::staff::WORK_TABLES, "{backend:?}");
        let tables: std::collections::BTreeSet<String> = columns(&mut conn)
            .iter()
            .map(|c| c.split('.').next().unwrap().to_string())
            .collect();
        for table in &tables {
            let work = db::staff::WORK_TABLES.contains(&table.as_str());
            let other = NOT_WORK.iter().any(|(t, _)| t == table);
            assert!(
                work != other,
                "{table}: say whether its writes move the work version (db::staff::WORK_TABLES \
                 and migration 19's triggers) or why not (NOT_WORK here)"
            );
        }
        assert_eq!(tables.len(), WORK_OR_NOT, "{backend:?}: {tables:?}");
    }
    const WORK_OR_NOT: usize = db::staff::WORK_TABLES.len() + NOT_WORK.len();
}
