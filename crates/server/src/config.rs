//! The settings of the `store` binary, read by clap from the environment (or the matching
//! `--flag`). An empty or blank variable counts as unset, as it always has.

use std::ffi::OsStr;
use std::marker::PhantomData;
use std::path::PathBuf;

use clap::builder::TypedValueParser;
use clap::error::ErrorKind;
use clap::{Arg, Command, FromArgMatches};

use crate::Config;

/// `development` or `production`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum StoreEnv {
    Development,
    Production,
}

/// The store's settings as clap reads them; [`Args::into_config`] makes the [`Config`] the
/// application is built from.
#[derive(Debug, Clone, clap::Args)]
pub struct Args {
    /// SQLite file (created with its folder), or postgres://user@host:port/db
    #[arg(
        long,
        env = "DATABASE_URL",
        default_value = "data/store.db",
        hide_env_values = true
    )]
    pub database_url: String,
    /// Address the server listens on
    #[arg(long, env = "BIND", default_value = "127.0.0.1:8080")]
    pub bind: String,
    /// Address shoppers reach the store at (canonical links, the only origin whose pages may
    /// post the store's forms) [default: from BIND, http://localhost:8080]
    #[arg(long, env = "PUBLIC_URL")]
    pub public_url: Option<String>,
    /// Front-end build (manifest, route table, hashed assets)
    #[arg(long, env = "UI_DIST", default_value = "ui/dist")]
    pub ui_dist: PathBuf,
    /// Static images
    #[arg(long, env = "UI_PUBLIC", default_value = "ui/public")]
    pub ui_public: PathBuf,
    /// Server entry the render threads load
    #[arg(long, env = "SSR_BUNDLE", default_value = "ssr-bundle/dist/server.js")]
    pub ssr_bundle: PathBuf,
    /// Render threads (each a QuickJS runtime) [default: one per core]
    #[arg(long, env = "SSR_THREADS", value_parser = Number::<usize>::new())]
    pub ssr_threads: Option<usize>,
    /// HTTP worker threads [default: one per core]
    #[arg(long, env = "WORKERS", value_parser = Number::<usize>::new())]
    pub workers: Option<usize>,
    /// Database connections, and how many database calls run at once
    #[arg(long, env = "DB_POOL_SIZE", default_value = "8", value_parser = Number::<u32>::new())]
    pub db_pool_size: u32,
    /// Folder the store's mail is written to when no SMTP server is set
    #[arg(long, env = "MAIL_OUTBOX", default_value = "data/outbox")]
    pub mail_outbox: PathBuf,
    /// Folder of the product photos managers upload and the sizes made of them (on several app
    /// servers, one folder they share)
    #[arg(long, env = "MEDIA_DIR", default_value = "data/media")]
    pub media_dir: PathBuf,
    /// Send mail through this server instead, e.g. smtps://user:password@smtp.example.com:465
    #[arg(long, env = "SMTP_URL", hide_env_values = true)]
    pub smtp_url: Option<String>,
    /// Sender of the store's mail
    #[arg(
        long,
        env = "MAIL_FROM",
        default_value = "Tala Brewing Co. <hello@tala.example>"
    )]
    pub mail_from: String,
    /// The store's Google OAuth client (social registration; unset, a Google token is refused
    /// with 422)
    #[arg(long, env = "GOOGLE_CLIENT_ID", value_parser = Trimmed)]
    pub google_client_id: Option<String>,
    /// The store's Facebook app (with FACEBOOK_APP_SECRET; unset, a Facebook token is refused
    /// with 422)
    #[arg(long, env = "FACEBOOK_APP_ID", value_parser = Trimmed, requires = "facebook_app_secret")]
    pub facebook_app_id: Option<String>,
    /// The secret of the store's Facebook app (with FACEBOOK_APP_ID)
    #[arg(
        long,
        env = "FACEBOOK_APP_SECRET",
        value_parser = Trimmed,
        requires = "facebook_app_id",
        hide_env_values = true
    )]
    pub facebook_app_secret: Option<String>,
    /// The store's PayMongo secret key (`sk_test_…` or `sk_live_…`; with PAYMONGO_WEBHOOK_SECRET).
    /// Unset, the store takes cash only
    #[arg(
        long,
        env = "PAYMONGO_SECRET_KEY",
        value_parser = PayMongoKey,
        requires = "paymongo_webhook_secret",
        hide_env_values = true
    )]
    pub paymongo_secret_key: Option<String>,
    /// The secret PayMongo gave the store's webhook (with PAYMONGO_SECRET_KEY)
    #[arg(
        long,
        env = "PAYMONGO_WEBHOOK_SECRET",
        value_parser = Trimmed,
        requires = "paymongo_secret_key",
        hide_env_values = true
    )]
    pub paymongo_webhook_secret: Option<String>,
    /// The PayMongo methods shoppers may pay with, comma-separated (gcash, paymaya, grab_pay,
    /// qrph, card, dob; default all)
    #[arg(long, env = "PAYMONGO_METHODS", value_parser = PayMongoMethods)]
    pub paymongo_methods: Option<String>,
    /// Minutes an order paid online awaits its payment before it is cancelled (10 to 1440)
    #[arg(
        long,
        env = "PAYMONGO_PAY_WITHIN",
        default_value_t = api::payments::PAY_WITHIN_MINUTES,
        value_parser = clap::value_parser!(i64).range(10..=1440)
    )]
    pub paymongo_pay_within: i64,
    /// Where PayMongo's API is asked (a simulator's address in tests)
    #[arg(long, env = "PAYMONGO_API_URL", default_value = api::payments::API_URL)]
    pub paymongo_api_url: String,
    /// Where Google is asked
    #[arg(
        long,
        env = "GOOGLE_API_URL",
        default_value = "https://oauth2.googleapis.com"
    )]
    pub google_api_url: String,
    /// Where Facebook is asked
    #[arg(
        long,
        env = "FACEBOOK_GRAPH_URL",
        default_value = "https://graph.facebook.com"
    )]
    pub facebook_graph_url: String,
    /// Megabytes of finished pages and API answers kept in memory
    #[arg(long, env = "CACHE_MB", default_value = "128", value_parser = Number::<u64>::new())]
    pub cache_mb: u64,
    /// Addresses of the proxies in front of the store (comma-separated): from these peers the
    /// client is the last `X-Forwarded-For` address that is not one of them (rate limits)
    #[arg(long, env = "TRUSTED_PROXIES", value_delimiter = ',')]
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// Address the store's staff are told of each new order at (unset: only the shopper is
    /// mailed)
    #[arg(long, env = "ORDERS_TO")]
    pub orders_to: Option<String>,
    /// Development and tests only: the Manila time (YYYY-MM-DDTHH:MM) checkout's hours and
    /// blackouts take when a request names no testdate (ignored in production)
    #[arg(long, env = "STORE_TESTDATE", value_parser = parse_testdate)]
    pub store_testdate: Option<String>,
    /// production stops honouring the testdate query parameter
    #[arg(long, env = "STORE_ENV", value_enum, default_value = "development")]
    pub store_env: StoreEnv,
    /// on (or 1, true, yes) answers every page with the maintenance page and every API call
    /// with 503, the back office's too (the maintenance switch, `store maintenance on`, leaves
    /// the back office open)
    #[arg(long, env = "MAINTENANCE", default_value = "off", value_parser = OnOff)]
    pub maintenance: bool,
    /// Address /metrics is served on instead of BIND (one that does not face the internet)
    /// [default: on BIND]
    #[arg(long, env = "METRICS_BIND")]
    pub metrics_bind: Option<String>,
    /// Log lines: text (readable) or json (one JSON object a line)
    #[arg(long, env = "LOG_FORMAT", value_enum, default_value = "text")]
    pub log_format: crate::logging::LogFormat,
    /// Seconds a SIGTERM waits for the requests in flight before the store exits
    #[arg(long, env = "SHUTDOWN_TIMEOUT", default_value = "30", value_parser = Number::<u64>::new())]
    pub shutdown_timeout: u64,
    /// Minutes between housekeeping runs (expired rows swept; one app server at a time); 0: none
    /// (run `store housekeeping` instead)
    #[arg(long, env = "HOUSEKEEPING_MINUTES", default_value = "60", value_parser = Number::<u64>::new())]
    pub housekeeping_minutes: u64,
    /// Days a guest's cart is kept after its last change
    #[arg(long, env = "GUEST_CART_DAYS", default_value = "30", value_parser = Number::<i64>::new())]
    pub guest_cart_days: i64,
    /// Days a guest's order keeps its contact details after it was completed or cancelled (then
    /// blanked; the order stays for the books)
    #[arg(long, env = "GUEST_ORDER_DAYS", default_value = "365", value_parser = Number::<i64>::new())]
    pub guest_order_days: i64,
    /// Days mail that could not be delivered is kept for another try
    #[arg(long, env = "MAIL_KEEP_DAYS", default_value = "7", value_parser = Number::<i64>::new())]
    pub mail_keep_days: i64,
}

impl Args {
    /// The settings from the environment alone (no command line).
    pub fn from_env() -> Result<Self, String> {
        let cmd = skip_empty_env(<Self as clap::Args>::augment_args(Command::new("store")));
        cmd.try_get_matches_from(["store"])
            .and_then(|m| Self::from_arg_matches(&m))
            .map_err(|e| e.to_string().trim_end().to_string())
    }

    pub fn into_config(self) -> Config {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let public_url = self
            .public_url
            .unwrap_or_else(|| format!("http://{}", self.bind.replace("127.0.0.1", "localhost")));
        Config {
            database_url: self.database_url,
            public_url: public_url.trim_end_matches('/').to_string(),
            bind: self.bind,
            ui_dist: self.ui_dist,
            ui_public: self.ui_public,
            ssr_bundle: self.ssr_bundle,
            ssr_threads: self.ssr_threads.unwrap_or(cores),
            db_pool_size: self.db_pool_size,
            workers: self.workers.unwrap_or(cores),
            production: self.store_env == StoreEnv::Production,
            mail_outbox: self.mail_outbox,
            media_dir: self.media_dir,
            smtp_url: self.smtp_url,
            mail_from: self.mail_from,
            cache_mb: self.cache_mb,
            social: api::accounts::social::SocialConfig {
                google_client_id: self.google_client_id,
                google_url: self.google_api_url,
                facebook_app: self.facebook_app_id.zip(self.facebook_app_secret),
                facebook_url: self.facebook_graph_url,
            },
            paymongo: self
                .paymongo_secret_key
                .zip(self.paymongo_webhook_secret)
                .and_then(|(key, hook)| {
                    // Checked whole by their parsers: a refusal here cannot happen.
                    api::payments::PayMongo::new(&key, &hook, self.paymongo_methods.as_deref())
                        .ok()
                        .map(|p| {
                            p.at(&self.paymongo_api_url)
                                .within(self.paymongo_pay_within)
                        })
                }),
            maintenance: self.maintenance,
            trusted_proxies: self.trusted_proxies,
            orders_to: self.orders_to,
            metrics_bind: self.metrics_bind,
            shutdown_timeout: self.shutdown_timeout,
            testdate: self.store_testdate,
            housekeeping_minutes: self.housekeeping_minutes,
            retention: db::housekeeping::Retention {
                guest_cart_days: self.guest_cart_days.max(1),
                guest_order_days: self.guest_order_days.max(1),
                mail_days: self.mail_keep_days.max(1),
            },
        }
    }
}

/// Clap takes a variable that is set but empty as a value; the store counts an empty or blank
/// variable as unset, so such arguments stop reading their variable.
pub fn skip_empty_env(cmd: Command) -> Command {
    let blank: Vec<clap::Id> = cmd
        .get_arguments()
        .filter(|a| {
            a.get_env()
                .and_then(std::env::var_os)
                .is_some_and(|v| v.to_string_lossy().trim().is_empty())
        })
        .map(|a| a.get_id().clone())
        .collect();
    blank
        .into_iter()
        .fold(cmd, |cmd, id| cmd.mut_arg(id, |a| a.env(None::<&str>)))
}

/// What the user calls an argument in an error: its variable, else its flag.
fn name_of(arg: Option<&Arg>) -> String {
    match arg {
        Some(a) => match (a.get_env(), a.get_long()) {
            (Some(env), _) => env.to_string_lossy().into_owned(),
            (None, Some(long)) => format!("--{long}"),
            (None, None) => a.get_id().to_string(),
        },
        None => "the value".to_string(),
    }
}

fn invalid(cmd: &Command, arg: Option<&Arg>, what: &str, value: &OsStr) -> clap::Error {
    clap::Error::raw(
        ErrorKind::ValueValidation,
        format!("{} must be {what}, not {value:?}\n", name_of(arg)),
    )
    .with_cmd(cmd)
}

/// A number, blanks around it allowed; the error names the variable.
#[derive(Clone)]
pub struct Number<T>(PhantomData<fn() -> T>);

impl<T> Number<T> {
    pub fn new() -> Self {
        Self(PhantomData)
    }
}

impl<T> Default for Number<T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: std::str::FromStr + Clone + Send + Sync + 'static> TypedValueParser for Number<T> {
    type Value = T;

    fn parse_ref(&self, cmd: &Command, arg: Option<&Arg>, value: &OsStr) -> Result<T, clap::Error> {
        value
            .to_str()
            .and_then(|v| v.trim().parse().ok())
            .ok_or_else(|| invalid(cmd, arg, "a number", value))
    }
}

/// A string without the blanks around it.
#[derive(Clone)]
struct Trimmed;

impl TypedValueParser for Trimmed {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &Command,
        arg: Option<&Arg>,
        value: &OsStr,
    ) -> Result<String, clap::Error> {
        value
            .to_str()
            .map(|v| v.trim().to_string())
            .ok_or_else(|| invalid(cmd, arg, "text", value))
    }
}

/// A PayMongo secret key: `sk_test_…` or `sk_live_…`, blanks around it allowed.
#[derive(Clone)]
struct PayMongoKey;

impl TypedValueParser for PayMongoKey {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &Command,
        arg: Option<&Arg>,
        value: &OsStr,
    ) -> Result<String, clap::Error> {
        let key = Trimmed.parse_ref(cmd, arg, value)?;
        match api::payments::PayMongo::new(&key, "-", None) {
            Ok(_) => Ok(key),
            // The key itself is never repeated in the message.
            Err(_) => Err(clap::Error::raw(
                ErrorKind::ValueValidation,
                format!(
                    "{} must begin with sk_test_ or sk_live_ (PayMongo's secret key, not the public pk_ one)\n",
                    name_of(arg)
                ),
            )
            .with_cmd(cmd)),
        }
    }
}

/// The PayMongo methods turned on: names PayMongo knows, comma-separated.
#[derive(Clone)]
struct PayMongoMethods;

impl TypedValueParser for PayMongoMethods {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &Command,
        arg: Option<&Arg>,
        value: &OsStr,
    ) -> Result<String, clap::Error> {
        let methods = Trimmed.parse_ref(cmd, arg, value)?;
        api::payments::PayMongo::new("sk_test_-", "-", Some(&methods))
            .map(|_| methods)
            .map_err(|e| {
                clap::Error::raw(ErrorKind::ValueValidation, format!("{e}\n")).with_cmd(cmd)
            })
    }
}

/// on, 1, true or yes (any case) is on; anything else is off.
#[derive(Clone)]
struct OnOff;

impl TypedValueParser for OnOff {
    type Value = bool;

    fn parse_ref(&self, _: &Command, _: Option<&Arg>, value: &OsStr) -> Result<bool, clap::Error> {
        Ok(matches!(
            value.to_string_lossy().trim().to_ascii_lowercase().as_str(),
            "on" | "1" | "true" | "yes"
        ))
    }
}

/// A `STORE_TESTDATE`: a Manila time as the `testdate` parameter takes it.
fn parse_testdate(value: &str) -> Result<String, String> {
    domain::calendar::parse_testdate(value)
        .map(|_| value.to_string())
        .ok_or_else(|| "use YYYY-MM-DD or YYYY-MM-DDTHH:MM".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    /// The tests change the process's environment: one at a time.
    static ENV: Mutex<()> = Mutex::new(());

    /// Parses with exactly these of the store's variables set.
    fn with_env(vars: &[(&str, &str)]) -> Result<Config, String> {
        let _lock = ENV.lock().unwrap_or_else(|e| e.into_inner());
        let cmd = <Args as clap::Args>::augment_args(Command::new("store"));
        let names: Vec<_> = cmd
            .get_arguments()
            .filter_map(Arg::get_env)
            .map(|n| n.to_owned())
            .collect();
        for name in &names {
            std::env::remove_var(name);
        }
        for (name, value) in vars {
            std::env::set_var(name, value);
        }
        let result = Args::from_env().map(Args::into_config);
        for name in &names {
            std::env::remove_var(name);
        }
        result
    }

    #[test]
    fn defaults() {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let c = with_env(&[]).unwrap();
        assert_eq!(c.database_url, "data/store.db");
        assert_eq!(c.bind, "127.0.0.1:8080");
        assert_eq!(c.public_url, "http://localhost:8080");
        assert_eq!(c.ui_dist, PathBuf::from("ui/dist"));
        assert_eq!(c.ui_public, PathBuf::from("ui/public"));
        assert_eq!(c.ssr_bundle, PathBuf::from("ssr-bundle/dist/server.js"));
        assert_eq!((c.ssr_threads, c.workers), (cores, cores));
        assert_eq!((c.db_pool_size, c.cache_mb), (8, 128));
        assert_eq!(c.mail_outbox, PathBuf::from("data/outbox"));
        assert_eq!(c.media_dir, PathBuf::from("data/media"));
        assert_eq!(c.smtp_url, None);
        assert_eq!(c.mail_from, "Tala Brewing Co. <hello@tala.example>");
        assert!(!c.production && !c.maintenance);
        assert_eq!(c.social.google_client_id, None);
        assert_eq!(c.social.google_url, "https://oauth2.googleapis.com");
        assert_eq!(c.social.facebook_app, None);
        assert_eq!(c.social.facebook_url, "https://graph.facebook.com");
        assert_eq!((c.metrics_bind, c.shutdown_timeout), (None, 30));
        // No PayMongo account: cash only.
        assert_eq!(c.paymongo, None);
    }

    #[test]
    fn paymongo_needs_both_secrets_and_never_shows_them() {
        let c = with_env(&[
            ("PAYMONGO_SECRET_KEY", " sk_test_Abc123 "),
            ("PAYMONGO_WEBHOOK_SECRET", "whsk_Hook456"),
            ("PAYMONGO_METHODS", "gcash,paymaya,qrph"),
        ])
        .unwrap();
        let p = c.paymongo.as_ref().expect("configured");
        assert_eq!(p.mode(), api::payments::Mode::Test);
        assert_eq!(p.methods(), ["gcash", "paymaya", "qrph"]);
        let shown = format!("{c:?}");
        assert!(
            !shown.contains("Abc123") && !shown.contains("Hook456"),
            "{shown}"
        );
        // One without the other cannot work: refused at start, naming what is missing.
        let e = with_env(&[("PAYMONGO_SECRET_KEY", "sk_test_Abc123")]).unwrap_err();
        assert!(
            e.contains("PAYMONGO_WEBHOOK_SECRET") || e.contains("paymongo-webhook-secret"),
            "{e}"
        );
        let e = with_env(&[("PAYMONGO_WEBHOOK_SECRET", "whsk_Hook456")]).unwrap_err();
        assert!(
            e.contains("PAYMONGO_SECRET_KEY") || e.contains("paymongo-secret-key"),
            "{e}"
        );
        // The public key by mistake: refused, and the key is not repeated.
        let e = with_env(&[
            ("PAYMONGO_SECRET_KEY", "pk_live_Public789"),
            ("PAYMONGO_WEBHOOK_SECRET", "whsk_Hook456"),
        ])
        .unwrap_err();
        assert!(
            e.contains("sk_test_ or sk_live_") && !e.contains("Public789"),
            "{e}"
        );
        let e = with_env(&[
            ("PAYMONGO_SECRET_KEY", "sk_live_Abc123"),
            ("PAYMONGO_WEBHOOK_SECRET", "whsk_Hook456"),
            ("PAYMONGO_METHODS", "gcash,cheque"),
        ])
        .unwrap_err();
        assert!(e.contains("cheque"), "{e}");
    }

    #[test]
    fn metrics_bind_log_format_and_shutdown_timeout() {
        let c = with_env(&[
            ("METRICS_BIND", "127.0.0.1:9100"),
            ("SHUTDOWN_TIMEOUT", "5"),
        ])
        .unwrap();
        assert_eq!(c.metrics_bind.as_deref(), Some("127.0.0.1:9100"));
        assert_eq!(c.shutdown_timeout, 5);
        let args = |vars: &[(&str, &str)]| {
            let _lock = ENV.lock().unwrap_or_else(|e| e.into_inner());
            for (k, v) in vars {
                std::env::set_var(k, v);
            }
            let a = Args::from_env();
            for (k, _) in vars {
                std::env::remove_var(k);
            }
            a
        };
        use crate::logging::LogFormat;
        assert_eq!(args(&[]).unwrap().log_format, LogFormat::Text);
        assert_eq!(
            args(&[("LOG_FORMAT", "json")]).unwrap().log_format,
            LogFormat::Json
        );
        let e = args(&[("LOG_FORMAT", "xml")]).unwrap_err();
        assert!(e.contains("xml") && e.contains("json"), "{e}");
    }

    #[test]
    fn empty_values_count_as_unset() {
        let c = with_env(&[
            ("WORKERS", ""),
            ("BIND", " "),
            ("STORE_ENV", ""),
            ("SMTP_URL", ""),
        ])
        .unwrap();
        assert_eq!(c.bind, "127.0.0.1:8080");
        assert!(!c.production);
        assert_eq!(c.smtp_url, None);
    }

    #[test]
    fn public_url_from_bind() {
        let c = with_env(&[("BIND", "127.0.0.1:9000")]).unwrap();
        assert_eq!(c.public_url, "http://localhost:9000");
        let c = with_env(&[
            ("BIND", "0.0.0.0:80"),
            ("PUBLIC_URL", "https://tala.example/"),
        ])
        .unwrap();
        assert_eq!(c.public_url, "https://tala.example");
    }

    #[test]
    fn bad_number_names_the_variable() {
        let e = with_env(&[("WORKERS", "abc")]).unwrap_err();
        assert!(e.contains("WORKERS must be a number"), "{e}");
        assert_eq!(with_env(&[("WORKERS", " 3 ")]).unwrap().workers, 3);
    }

    #[test]
    fn store_env_maintenance_and_facebook() {
        assert!(with_env(&[("STORE_ENV", "production")]).unwrap().production);
        let e = with_env(&[("STORE_ENV", "staging")]).unwrap_err();
        assert!(e.contains("staging") && e.contains("development"), "{e}");
        for on in ["on", "1", "TRUE", "yes"] {
            assert!(
                with_env(&[("MAINTENANCE", on)]).unwrap().maintenance,
                "{on}"
            );
        }
        assert!(!with_env(&[("MAINTENANCE", "off")]).unwrap().maintenance);
        let c = with_env(&[("FACEBOOK_APP_ID", "1"), ("FACEBOOK_APP_SECRET", "s")]).unwrap();
        assert_eq!(c.social.facebook_app, Some(("1".into(), "s".into())));
        let c = with_env(&[("TRUSTED_PROXIES", "10.0.0.1,::1")]).unwrap();
        assert_eq!(c.trusted_proxies.len(), 2);
        let e = with_env(&[("TRUSTED_PROXIES", "10.0.0.1,proxy.example")]).unwrap_err();
        assert!(e.contains("proxy.example"), "{e}");
        let e = with_env(&[("FACEBOOK_APP_ID", "1")]).unwrap_err();
        assert!(
            e.contains("FACEBOOK_APP_SECRET") || e.contains("facebook-app-secret"),
            "{e}"
        );
    }
}
