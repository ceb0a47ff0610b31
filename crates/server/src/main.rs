use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};
use server::config::{skip_empty_env, Args};

/// The beer store: serves the shop, migrates and seeds its database. Every setting is an
/// environment variable (or the flag named after it); an empty variable counts as unset.
#[derive(Parser)]
#[command(name = "store", version)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    args: Args,
}

#[derive(Subcommand)]
enum Command {
    /// Migrate the database and serve the store (the default).
    Serve,
    /// Run the pending database migrations.
    Migrate,
    /// Migrate, then load the seed data into an empty database (the `fixtures` binary adds data
    /// in bulk: a large catalog, a busy year).
    Seed,
    /// Export the catalog to a JSON file, or import one (staff).
    #[command(subcommand)]
    Catalog(server::staff::CatalogCommand),
    /// Switch the maintenance page on or off on every app server (staff).
    Maintenance(server::staff::MaintenanceArgs),
    /// List orders, or move one to its next status (staff).
    #[command(subcommand)]
    Orders(server::staff::OrdersCommand),
    /// Copy a SQLite store, while it serves, into a new file (staff).
    Backup(server::staff::BackupArgs),
    /// Add, list, disable or change the staff who use the back office (/staff).
    #[command(subcommand)]
    Staff(server::team::StaffCommand),
    /// Sweep what is past its time now (expired sessions, tokens and rate-limit windows, unconfirmed
    /// signups, old guest carts, undeliverable mail, guest orders' contacts past their period),
    /// as the serving app servers do every HOUSEKEEPING_MINUTES.
    Housekeeping {
        /// Only count what is due; remove nothing
        #[arg(long)]
        dry_run: bool,
    },
}

fn main() {
    let cli = skip_empty_env(Cli::command())
        .try_get_matches()
        .and_then(|m| Cli::from_arg_matches(&m))
        .unwrap_or_else(|e| e.exit());
    server::logging::init(cli.args.log_format);
    if let Err(e) = run(cli) {
        eprintln!("store: {e}");
        std::process::exit(1);
    }
}

fn run(cli: Cli) -> Result<(), String> {
    let config = cli.args.into_config();
    match cli.command.unwrap_or(Command::Serve) {
        Command::Serve => actix_web::rt::System::new().block_on(server::serve(config)),
        Command::Migrate => server::open_database(&config).map(|_| ()),
        Command::Seed => {
            let pool = server::open_database(&config)?;
            let mut conn = pool.get().map_err(|e| e.to_string())?;
            match db::seed::seed(&mut conn).map_err(|e| e.to_string())? {
                Some(r) => println!(
                    "seeded {} provinces, {} cities, {} barangays, {} streets, {} products, {} banners",
                    r.provinces, r.cities, r.barangays, r.streets, r.products, r.banners
                ),
                None => println!("the database already holds a catalog; nothing seeded"),
            }
            Ok(())
        }
        Command::Catalog(c) => server::staff::catalog(&config, c),
        Command::Maintenance(a) => server::staff::maintenance(&config, a),
        Command::Orders(c) => server::staff::orders(&config, c),
        Command::Backup(a) => server::staff::backup(&config, a),
        Command::Staff(c) => server::team::run_staff_command(&config, c),
        Command::Housekeeping { dry_run } => {
            let pool = server::open_database(&config)?;
            match server::housekeep(&pool, &config.retention, dry_run)? {
                Some(report) => {
                    let verb = if dry_run { "due" } else { "removed" };
                    for kind in db::housekeeping::Kind::ALL {
                        println!("{:<24} {:>9} {verb}", kind.as_str(), report.count(kind));
                    }
                    println!(
                        "{} rows in {} ms, {} pages (longest page {} ms)",
                        report.total(),
                        report.took.as_millis(),
                        report.pages,
                        report.longest_page.as_millis()
                    );
                    Ok(())
                }
                None => {
                    Err("another app server is running housekeeping now; try again later".into())
                }
            }
        }
    }
}
