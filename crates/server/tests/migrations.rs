//! The two migration folders define the same tables: every table, column, type family and
//! nullability, read back from a migrated SQLite file and a migrated PostgreSQL database.

mod support;

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
