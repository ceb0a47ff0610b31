use clap::{Parser, Subcommand};
use server::Config;

/// The beer store: serves the shop, migrates and seeds its database.
#[derive(Parser)]
#[command(name = "store", version)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Migrate the database and serve the store (the default).
    Serve,
    /// Run the pending database migrations.
    Migrate,
    /// Migrate, then load the seed data into an empty database.
    Seed,
}

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info")).init();
    let cli = Cli::parse();
    if let Err(e) = run(cli) {
        eprintln!("store: {e}");
        std::process::exit(1);
    }
}

fn run(cli: Cli) -> Result<(), String> {
    let config = Config::from_env()?;
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
    }
}
