//! The staff commands of the `store` binary (docs/operations.md, "The staff's commands"): the
//! catalog file out and in, the maintenance switch, the orders and their status, a backup of a
//! SQLite store. Each works on the database `DATABASE_URL` names, while the store serves: what
//! they change reaches every app server within a second (the data version and the maintenance
//! row, which each server reads four times a second), and the shopper is mailed a change of their
//! order's status through the store's mail queue, in the same transaction as the change.

use std::io::Write;
use std::path::{Path, PathBuf};

use api::staff::catalog::import::{ImportError, Report};
use api::staff::catalog::ChangeKind;
use clap::{Args, Subcommand, ValueEnum};
use db::DbPool;
use domain::ordering::Status;

use crate::Config;

/// `store catalog ...`
#[derive(Subcommand)]
pub enum CatalogCommand {
    /// Write the catalog (products with prices and where they are sold, deposits, delivery fees,
    /// banners, promos) as JSON, to standard output or --out FILE.
    #[command(after_help = "Example:\n  store catalog export --out catalog.json\n\n\
        The file's format (\"format\": \"store-catalog/1\") is described in docs/operations.md, \"The catalog file\"; `store \
        catalog import` reads it back.")]
    Export {
        /// Write to FILE instead of standard output (replaced whole once written)
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
    },
    /// Check a catalog file and apply it in one transaction; every app server shows it within a
    /// second.
    #[command(after_help = "Example:\n  store catalog import catalog.json\n\n\
        Every record is checked first; any problem is named by its record and field (counted \
        from 0), e.g. `products[2] (slug tala-light-330ml): price must be a whole number of \
        centavos >= 0`, and nothing changes (exit status 1). A good file is applied in one \
        transaction: products are matched by slug, deposits, banners and promos by id, delivery \
        fees by city and fulfillment. Deposits, delivery fees, banners and promos the file leaves \
        out are removed; products it leaves out are kept (orders, carts and Go-to Cases refer \
        to them) and made not orderable.")]
    Import {
        /// The catalog file (as `store catalog export` writes it)
        file: PathBuf,
        /// Check the file and say what would change, writing nothing
        #[arg(long)]
        dry_run: bool,
    },
    /// Give a product a photo (JPEG, PNG or WebP), kept in MEDIA_DIR; or take it away (--remove)
    /// so the product shows its drawing again. Recorded in the audit log.
    #[command(
        after_help = "Examples:\n  store catalog photo TBC-KEG-001 keg-30l.jpg\n  \
        store catalog photo TBC-KEG-001 --remove\n\n\
        The photo's type is read from its content, not its name; a file over 10 MB, over 40 \
        megapixels or 10,000 pixels a side, damaged or not a photo is refused with a message and \
        nothing is kept. The pages offer it at the widths they show (160 to 1,280 px, never \
        wider than the photo), in WebP and JPEG, each made the first time a browser asks."
    )]
    Photo {
        /// The product's SKU (as in the catalog file)
        sku: String,
        /// The photo
        #[arg(required_unless_present = "remove", conflicts_with = "remove")]
        file: Option<PathBuf>,
        /// Take the product's photo away
        #[arg(long)]
        remove: bool,
    },
    /// List the search's words (what the words shoppers type mean in the catalog's), or set or
    /// remove one; every app server's search hears a change within a second.
    #[command(after_help = "Examples:\n  store catalog words\n  \
        store catalog words set lata \"can cans\"\n  store catalog words set serbesa \"\"\n  \
        store catalog words remove lata\n\n\
        A word and its meaning are kept as the search reads text: lower case, accents dropped, \
        a size one word (\"30 L\" is 30l). A word that means nothing (\"\") narrows nothing: \
        everything the store sells is beer.")]
    Words {
        #[command(subcommand)]
        change: Option<WordsCommand>,
    },
}

/// What `store catalog words` does.
#[derive(Subcommand)]
pub enum WordsCommand {
    /// Say that a shopper's word means some of the catalog's words (replacing what it meant)
    Set {
        /// The word as shoppers type it (`lata`)
        word: String,
        /// The catalog's words it stands for (`"can cans"`); "" for a word that narrows nothing
        means: String,
    },
    /// Forget a word
    Remove {
        /// The word
        word: String,
    },
}

/// `on` or `off`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Switch {
    On,
    Off,
}

/// `store maintenance [on|off]`
#[derive(Args)]
#[command(
    after_help = "Examples:\n  store maintenance on\n  store maintenance off\n  \
    store maintenance        (says which it is)\n\n\
    Writes the settings.maintenance row, which every app server reads four times a second. A server \
    started with MAINTENANCE=on stays in maintenance whatever the row says."
)]
pub struct MaintenanceArgs {
    /// on: every page answers the maintenance page and every API call 503; off: the store serves
    /// again. Without it, says which it is now
    #[arg(value_enum)]
    pub switch: Option<Switch>,
}

/// `store orders ...`
#[derive(Subcommand)]
pub enum OrdersCommand {
    /// List orders, newest first: number, when placed (Manila time), status, total, fulfillment
    /// and contact.
    #[command(after_help = "Examples:\n  store orders list\n  \
        store orders list --since 2026-11-24 --status placed")]
    List {
        /// Only orders placed on or after this day (YYYY-MM-DD, Manila time)
        #[arg(long, value_name = "DATE")]
        since: Option<String>,
        /// Only orders with this status: placed, confirmed, out_for_delivery, ready_for_pickup,
        /// completed or cancelled
        #[arg(long, value_name = "STATUS")]
        status: Option<String>,
        /// At most this many (the newest)
        #[arg(long, value_name = "N", default_value = "100")]
        limit: i64,
    },
    /// Move an order to its next status; the shopper is mailed and sees it on the order's page.
    #[command(
        after_help = "Examples:\n  store orders set-status TB-000042 confirmed\n  \
        store orders set-status 42 out_for_delivery\n\n\
        The steps: placed -> confirmed -> out_for_delivery (delivery) or ready_for_pickup \
        (pickup) -> completed; an order not yet completed may be cancelled. Completed and \
        cancelled are final; no step is skipped or taken back. The change is added to the \
        order's status history and a mail to the shopper is queued in the same transaction (the \
        store's mail sender delivers it)."
    )]
    SetStatus {
        /// The order: its number as the shopper sees it (TB-000042) or its id (42)
        id: String,
        /// The new status: confirmed, out_for_delivery, ready_for_pickup, completed or cancelled
        status: String,
        /// Why (needed to cancel): the shopper's mail and order page show it
        #[arg(long, default_value = "")]
        reason: String,
    },
}

/// `store backup FILE`
#[derive(Args)]
#[command(
    after_help = "Example:\n  store backup backups/store-2026-11-24.db\n\n\
    SQLite only (VACUUM INTO: one read transaction, so the copy is consistent and the store \
    keeps serving). For PostgreSQL use pg_dump, e.g.\n  \
    pg_dump --format=custom --file=store.dump \"$DATABASE_URL\""
)]
pub struct BackupArgs {
    /// The new file (never overwritten: a file already there is refused)
    pub file: PathBuf,
}

/// The database of `config`, which must exist and be migrated to this version of the store (a
/// staff command never migrates: `store migrate` or `store serve` does).
pub(crate) fn open(config: &Config) -> Result<(DbPool, db::DbConn), String> {
    let url = &config.database_url;
    if !db::is_postgres_url(url) {
        let path = url.strip_prefix("sqlite://").unwrap_or(url);
        if !Path::new(path).is_file() {
            return Err(format!(
                "no database at {path} (DATABASE_URL): run `store seed` or point DATABASE_URL at the store's"
            ));
        }
    }
    let pool = db::connect(url, 1).map_err(|e| e.to_string())?;
    let mut conn = pool.get().map_err(|e| e.to_string())?;
    let pending = db::staff::pending_migrations(&mut conn).map_err(|e| e.to_string())?;
    if pending > 0 {
        return Err(format!(
            "the database lacks {pending} migration(s) of this version of the store: run `store migrate` first"
        ));
    }
    Ok((pool, conn))
}

pub fn catalog(config: &Config, command: CatalogCommand) -> Result<(), String> {
    let (_pool, mut conn) = open(config)?;
    match command {
        CatalogCommand::Export { out } => {
            let file = db::catalog_io::export(&mut conn).map_err(|e| e.to_string())?;
            let json = api::staff::catalog::import::to_json(&file);
            match out {
                None => {
                    let mut out = std::io::stdout().lock();
                    out.write_all(json.as_bytes())
                        .and_then(|()| out.flush())
                        .map_err(|e| format!("standard output: {e}"))
                }
                Some(path) => {
                    let tmp = path.with_extension("json.partial");
                    std::fs::write(&tmp, &json)
                        .and_then(|()| std::fs::rename(&tmp, &path))
                        .map_err(|e| format!("{}: {e}", path.display()))?;
                    eprintln!(
                        "wrote {} products, {} deposits, {} delivery fees, {} banners and {} promos to {}",
                        file.products.len(),
                        file.deposits.len(),
                        file.delivery_fees.len(),
                        file.banners.len(),
                        file.promos.len(),
                        path.display()
                    );
                    Ok(())
                }
            }
        }
        CatalogCommand::Import { file, dry_run } => {
            let text =
                std::fs::read_to_string(&file).map_err(|e| format!("{}: {e}", file.display()))?;
            let report = api::staff::catalog::import::import(&mut conn, &text, !dry_run).map_err(
                |e| match e {
                    ImportError::Invalid(problems) => format!(
                        "{}: nothing was changed; {} problem(s):\n{}",
                        file.display(),
                        problems.len(),
                        problems
                            .iter()
                            .map(|p| format!("  {p}"))
                            .collect::<Vec<_>>()
                            .join("\n")
                    ),
                    ImportError::Db(e) => {
                        format!("{}: nothing was changed: database: {e}", file.display())
                    }
                },
            )?;
            println!("{}", import_summary(&report, dry_run));
            Ok(())
        }
        CatalogCommand::Photo { sku, file, remove } => photo(config, &mut conn, &sku, file, remove),
        CatalogCommand::Words { change } => words(&mut conn, change),
    }
}

/// `store catalog photo SKU FILE | --remove`.
fn photo(
    config: &Config,
    conn: &mut db::AnyConnection,
    sku: &str,
    file: Option<PathBuf>,
    remove: bool,
) -> Result<(), String> {
    // The command line shows what went wrong on our side too (a MEDIA_DIR it cannot write).
    let said = |e: framework::ApiError| match e {
        framework::ApiError::Internal(detail) => detail,
        e => e.to_string(),
    };
    let subject = api::staff::photos::Subject::Product(sku.to_string());
    let Some(file) = file.filter(|_| !remove) else {
        let had = api::staff::photos::take_away(conn, None, &subject).map_err(said)?;
        println!(
            "{sku}: {}",
            if had {
                "photo taken away; the product shows its drawing"
            } else {
                "had no photo"
            }
        );
        return Ok(());
    };
    // Read no more than a photo may be: a larger file is refused by its size alone.
    let mut upload = Vec::new();
    std::fs::File::open(&file)
        .and_then(|f| {
            use std::io::Read;
            let most = media::Limits::default().max_bytes as u64 + 1;
            f.take(most).read_to_end(&mut upload)
        })
        .map_err(|e| format!("{}: {e}", file.display()))?;
    let store = media::Store::open(&config.media_dir)
        .map_err(|e| format!("MEDIA_DIR {}: {e}", config.media_dir.display()))?;
    let photo = api::staff::photos::give(conn, None, &store, &subject, &upload)
        .map_err(|e| format!("{}: {}", file.display(), said(e)))?;
    println!(
        "{sku}: photo {} ({} x {} px) from {}; every app server shows it within a second",
        photo.hash,
        photo.width,
        photo.height,
        file.display()
    );
    Ok(())
}

fn import_summary(r: &Report, dry_run: bool) -> String {
    let mut lines = api::staff::catalog::import::summary(r);
    if !r.retired.is_empty() {
        lines.push(format!("made not orderable: {}", r.retired.join(", ")));
    }
    // Every change, record by record, field by field.
    for c in &r.changes {
        let fields: Vec<String> = c
            .fields
            .iter()
            .map(|f| match (&f.before, &f.after) {
                (Some(_), Some(_)) => format!("{} {} -> {}", f.field, f.before_text, f.after_text),
                _ => format!("{} {}{}", f.field, f.before_text, f.after_text),
            })
            .collect();
        let kind = match c.kind {
            ChangeKind::New => "new",
            ChangeKind::Changed => "changed",
            ChangeKind::Removed => "removed",
            ChangeKind::LeftOut => "left out, made not orderable",
        };
        lines.push(format!(
            "  {} {} ({kind}): {}",
            c.section,
            c.key,
            fields.join("; ")
        ));
    }
    lines.push(if dry_run {
        if r.changes() {
            "checked: the file is good; nothing was written (--dry-run)".into()
        } else {
            "checked: the file is good and matches the store; nothing was written (--dry-run)"
                .into()
        }
    } else if r.changes() {
        format!(
            "imported: data version {}; every app server shows it within a second",
            r.data_version
        )
    } else {
        "the file matches the store: nothing to change".into()
    });
    lines.join("\n")
}

pub fn maintenance(config: &Config, args: MaintenanceArgs) -> Result<(), String> {
    let (_pool, mut conn) = open(config)?;
    let forced = if config.maintenance {
        "\nnote: MAINTENANCE=on is set here; a store started with it stays in maintenance whatever the row says"
    } else {
        ""
    };
    let Some(switch) = args.switch else {
        let on = db::staff::maintenance(&mut conn).map_err(|e| e.to_string())?;
        println!("maintenance is {}{forced}", if on { "on" } else { "off" });
        return Ok(());
    };
    let value = if switch == Switch::On { "on" } else { "off" };
    db::write_transaction(&mut conn, |c| {
        db::staff::set_setting(c, "maintenance", value)
    })
    .map_err(|e| e.to_string())?;
    if switch == Switch::On {
        println!(
            "maintenance is on: within a second every app server answers pages with the maintenance page and API calls with 503{forced}"
        );
    } else {
        println!(
            "maintenance is off: within a second every app server serves the store again{forced}"
        );
    }
    Ok(())
}

/// A status as staff type it: `out_for_delivery`, `out-for-delivery` or `Out for delivery`.
fn parse_status(s: &str) -> Result<Status, String> {
    let key = s.trim().to_ascii_lowercase().replace(['-', ' '], "_");
    Status::parse(&key).ok_or_else(|| {
        format!(
            "{s:?} is not a status: {}",
            Status::ALL.map(Status::as_str).join(", ")
        )
    })
}

/// An order named as the shopper sees it (`TB-000042`) or by its id (`42`).
fn parse_order(s: &str) -> Result<i64, String> {
    api::orders::parse_number(s)
        .ok_or_else(|| format!("{s:?} is not an order: give its number (TB-000042) or its id (42)"))
}

pub fn orders(config: &Config, command: OrdersCommand) -> Result<(), String> {
    match command {
        OrdersCommand::List {
            since,
            status,
            limit,
        } => list_orders(config, since, status, limit),
        OrdersCommand::SetStatus { id, status, reason } => {
            set_status(config, &id, &status, &reason)
        }
    }
}

fn list_orders(
    config: &Config,
    since: Option<String>,
    status: Option<String>,
    limit: i64,
) -> Result<(), String> {
    let since_at = match &since {
        Some(d) => Some(
            domain::calendar::manila_day_start(d)
                .ok_or_else(|| format!("--since {d:?}: give a day as YYYY-MM-DD (Manila time)"))?,
        ),
        None => None,
    };
    let status = status.as_deref().map(parse_status).transpose()?;
    if !(1..=100_000).contains(&limit) {
        return Err(format!("--limit {limit}: give 1 to 100000"));
    }
    let (_pool, mut conn) = open(config)?;
    let (rows, total) = db::staff::orders(&mut conn, since_at, status.map(Status::as_str), limit)
        .map_err(|e| e.to_string())?;
    // " since 2025-01-31, with status placed", or nothing without filters.
    let filters = [
        since.map(|d| format!("since {d}")),
        status.map(|s| format!("with status {}", s.as_str())),
    ]
    .into_iter()
    .flatten()
    .map(|f| format!(" {f}"))
    .collect::<Vec<_>>()
    .join(",");
    if rows.is_empty() {
        println!("no orders{filters}");
        return Ok(());
    }
    let table: Vec<[String; 6]> = rows.iter().map(order_cells).collect();
    let mut out = std::io::stdout().lock();
    let mut print = |s: String| writeln!(out, "{s}").map_err(|e| format!("standard output: {e}"));
    for line in table_lines(ORDER_HEADER, &table) {
        print(line)?;
    }
    let shown = table.len() as i64;
    print(if shown < total {
        format!(
            "{shown} of {total} orders{filters}, newest first (narrow with --since or --status, or raise --limit)"
        )
    } else {
        format!(
            "{total} order{}{filters}",
            if total == 1 { "" } else { "s" }
        )
    })?;
    Ok(())
}

/// The columns of `store orders list`.
const ORDER_HEADER: [&str; 6] = [
    "NUMBER",
    "PLACED (MANILA)",
    "STATUS",
    "TOTAL",
    "FULFILLMENT",
    "CONTACT",
];

/// An order's line of `store orders list`: the shopper's text escaped.
fn order_cells(o: &db::orders::OrderRow) -> [String; 6] {
    let contact = [&o.contact_name, &o.mobile, &o.email]
        .into_iter()
        .filter(|s| !s.is_empty())
        .map(|s| domain::text::escaped(s))
        .collect::<Vec<_>>()
        .join(", ");
    [
        api::orders::number(o.id),
        domain::calendar::manila_minute(o.placed_at),
        o.status.clone(),
        domain::money::format_php(o.total),
        o.fulfillment_name.clone(),
        if contact.is_empty() {
            "(account deleted)".into()
        } else {
            contact
        },
    ]
}

/// The header and the rows as lines of columns two spaces apart, each as wide as its widest
/// cell: money (the fourth column) lines up on the right, the rest on the left.
pub(crate) fn table_lines(header: [&str; 6], table: &[[String; 6]]) -> Vec<String> {
    let width = |i: usize| {
        table
            .iter()
            .map(|r| r[i].chars().count())
            .chain([header[i].len()])
            .max()
            .unwrap_or(0)
    };
    let widths: Vec<usize> = (0..6).map(width).collect();
    let line = |cells: [&str; 6]| {
        let mut s = String::new();
        for (i, cell) in cells.iter().enumerate() {
            let pad = widths[i].saturating_sub(cell.chars().count());
            if i == 3 {
                // Money lines up on the right.
                s.push_str(&" ".repeat(pad));
                s.push_str(cell);
            } else {
                s.push_str(cell);
                if i < 5 {
                    s.push_str(&" ".repeat(pad));
                }
            }
            if i < 5 {
                s.push_str("  ");
            }
        }
        s.trim_end().to_string()
    };
    std::iter::once(line(header))
        .chain(
            table
                .iter()
                .map(|r| line([&r[0], &r[1], &r[2], &r[3], &r[4], &r[5]])),
        )
        .collect()
}

fn set_status(config: &Config, order: &str, status: &str, reason: &str) -> Result<(), String> {
    let id = parse_order(order)?;
    let to = parse_status(status)?;
    let (_pool, mut conn) = open(config)?;
    let base = config.public_url.clone();
    let moved = db::write_transaction(&mut conn, |conn| {
        api::staff::orders::status::change_status(conn, None, id, to, reason, &base)
    })
    .map_err(|e| e.to_string())?;
    let view = &moved.view;
    println!(
        "{}: {} -> {} ({}{})",
        view.number,
        moved.from.as_str(),
        view.status,
        view.fulfillment,
        if view.contact_name.is_empty() {
            String::new()
        } else {
            // A shopper's text is printed escaped: it cannot hide or reorder the line.
            format!(", {}", domain::text::escaped(&view.contact_name))
        }
    );
    match moved.mailed {
        Some(to) => println!(
            "mail to {} queued (the store's mail sender delivers it); the order's page shows the new status",
            domain::text::escaped(&to)
        ),
        None => println!("no mail: the order keeps no address (its account was deleted)"),
    }
    Ok(())
}

pub fn backup(config: &Config, args: BackupArgs) -> Result<(), String> {
    if db::is_postgres_url(&config.database_url) {
        return Err(
            "store backup copies a SQLite store; this one is PostgreSQL: use pg_dump, e.g.\n  \
             pg_dump --format=custom --file=store.dump \"$DATABASE_URL\"\n\
             (restore with pg_restore; see docs/operations.md, \"Backups\")"
                .into(),
        );
    }
    let path = args.file;
    if path.exists() {
        return Err(format!(
            "{} exists: a backup never overwrites a file; give a new name",
            path.display()
        ));
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if !dir.is_dir() {
            return Err(format!("{}: no such folder", dir.display()));
        }
    }
    let target = path
        .to_str()
        .ok_or_else(|| format!("{}: give a path in UTF-8", path.display()))?
        .to_string();
    let (_pool, mut conn) = open(config)?;
    match db::staff::backup_sqlite(&mut conn, &target) {
        Some(Ok(())) => {}
        Some(Err(e)) => return Err(format!("{target}: {e}")),
        None => return Err("not a SQLite store".into()),
    }
    let (orders, products) = db::staff::check_sqlite_copy(&target)
        .map_err(|e| format!("{target} was written but does not check out: {e}"))?;
    let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    println!(
        "backed up to {target}: {bytes} bytes, {orders} orders, {products} products, integrity ok"
    );
    Ok(())
}

/// `store catalog words`: lists the search words, or sets or removes one.
fn words(conn: &mut db::AnyConnection, change: Option<WordsCommand>) -> Result<(), String> {
    match change {
        None => {
            for (word, means) in db::search::words(conn).map_err(|e| e.to_string())? {
                let means = if means.is_empty() {
                    "(anything)"
                } else {
                    &means
                };
                println!("{word}\t{means}");
            }
            Ok(())
        }
        Some(WordsCommand::Set { word, means }) => {
            let (word, means) = api::search::search_word(&word, &means)?;
            db::search::set_word(conn, &word, &means).map_err(|e| e.to_string())?;
            println!(
                "{word} means {}",
                if means.is_empty() {
                    "anything the store sells"
                } else {
                    &means
                }
            );
            Ok(())
        }
        Some(WordsCommand::Remove { word }) => {
            let (word, _) = api::search::search_word(&word, "")?;
            match db::search::remove_word(conn, &word).map_err(|e| e.to_string())? {
                true => {
                    println!("{word} removed");
                    Ok(())
                }
                false => Err(format!("{word}: no such search word")),
            }
        }
    }
}
