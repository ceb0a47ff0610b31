//! Paying online through PayMongo, beside cash on delivery and at pickup (docs/payments.md).
//! PayMongo's hosted Checkout Sessions take GCash, Maya, GrabPay, QR Ph, cards and online banking;
//! the store knows a payment from PayMongo's signed webhook alone, never from the browser's return.
//!
//! Built so far: the gateway's settings ([`PayMongo`]: the keys and the methods the manager turned
//! on, read from the environment; with no keys the store takes cash only, as before), the check
//! of a webhook's signature ([`signature`]) and the Checkout Session an order asks for
//! ([`checkout_session`]). Cash stays the default and the only way until the checkout offers
//! paying online.

pub mod checkout_session;
pub mod expiry;
pub mod gateway;
pub mod methods;
pub mod online;
pub mod pay;
pub mod signature;
pub mod webhook;

pub use online::{NOT_OFFERED, TOO_SMALL};

use std::fmt;

/// The payment methods PayMongo's Checkout Sessions take, by PayMongo's names.
pub const METHODS: [&str; 6] = ["gcash", "paymaya", "grab_pay", "qrph", "card", "dob"];

/// Which of PayMongo's two modes a key belongs to: test keys take only test payments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Test,
    Live,
}

/// The store's PayMongo account, when the manager configured one (`PAYMONGO_SECRET_KEY`,
/// `PAYMONGO_WEBHOOK_SECRET`, `PAYMONGO_METHODS`). Its secrets are never printed: `Debug` shows
/// the mode and the methods alone.
#[derive(Clone)]
pub struct PayMongo {
    secret_key: String,
    webhook_secret: String,
    mode: Mode,
    methods: Vec<&'static str>,
    /// PayMongo's API (`PAYMONGO_API_URL`: the test suite's simulator), [`API_URL`] unless said.
    api_url: String,
    /// The app server's circuit for calls to PayMongo.
    breaker: std::sync::Arc<gateway::Breaker>,
    /// Minutes an order awaits its payment before it is cancelled ([`expiry`]).
    pay_within: i64,
    /// How long a call to PayMongo may take ([`gateway::TIMEOUT`] unless said).
    timeout: std::time::Duration,
}

/// Minutes an order awaits its payment unless the manager says otherwise.
pub const PAY_WITHIN_MINUTES: i64 = 60;

/// PayMongo's API.
pub const API_URL: &str = "https://api.paymongo.com";

impl PartialEq for PayMongo {
    fn eq(&self, other: &Self) -> bool {
        (
            &self.secret_key,
            &self.webhook_secret,
            self.mode,
            &self.methods,
            &self.api_url,
            self.pay_within,
        ) == (
            &other.secret_key,
            &other.webhook_secret,
            other.mode,
            &other.methods,
            &other.api_url,
            other.pay_within,
        )
    }
}

impl Eq for PayMongo {}

/// Why the PayMongo settings were refused (the store does not start with them).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettingsError {
    #[error("PAYMONGO_SECRET_KEY must begin with sk_test_ or sk_live_")]
    SecretKey,
    #[error("PAYMONGO_WEBHOOK_SECRET must be set with PAYMONGO_SECRET_KEY (PayMongo shows it once, when the webhook is made)")]
    WebhookSecret,
    #[error("PAYMONGO_METHODS names {0:?}, which is not one of gcash, paymaya, grab_pay, qrph, card, dob")]
    Method(String),
    #[error("PAYMONGO_METHODS must name at least one method")]
    NoMethod,
}

impl PayMongo {
    /// The settings from the secret key, the webhook's secret and the methods turned on (a
    /// comma-separated list; none given: every method). The key's prefix says its mode.
    pub fn new(
        secret_key: &str,
        webhook_secret: &str,
        methods: Option<&str>,
    ) -> Result<Self, SettingsError> {
        let secret_key = secret_key.trim();
        let mode = if secret_key.starts_with("sk_test_") && secret_key.len() > 8 {
            Mode::Test
        } else if secret_key.starts_with("sk_live_") && secret_key.len() > 8 {
            Mode::Live
        } else {
            return Err(SettingsError::SecretKey);
        };
        let webhook_secret = webhook_secret.trim();
        if webhook_secret.is_empty() {
            return Err(SettingsError::WebhookSecret);
        }
        let methods = match methods {
            None => METHODS.to_vec(),
            Some(list) => {
                let mut chosen = Vec::new();
                for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
                    let known = METHODS
                        .iter()
                        .find(|m| m.eq_ignore_ascii_case(name))
                        .ok_or_else(|| SettingsError::Method(name.to_string()))?;
                    if !chosen.contains(known) {
                        chosen.push(*known);
                    }
                }
                if chosen.is_empty() {
                    return Err(SettingsError::NoMethod);
                }
                chosen
            }
        };
        Ok(Self {
            secret_key: secret_key.to_string(),
            webhook_secret: webhook_secret.to_string(),
            mode,
            methods,
            api_url: API_URL.into(),
            breaker: std::sync::Arc::default(),
            pay_within: PAY_WITHIN_MINUTES,
            timeout: gateway::TIMEOUT,
        })
    }

    /// The same account, its calls to PayMongo given up after `timeout` (the tests' stalled
    /// gateway).
    #[must_use]
    pub fn waiting(mut self, timeout: std::time::Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The same account, its orders awaiting payment for `minutes` before they are cancelled.
    #[must_use]
    pub fn within(mut self, minutes: i64) -> Self {
        self.pay_within = minutes;
        self
    }

    /// Minutes an order awaits its payment before it is cancelled.
    /// How long a call to PayMongo may take.
    pub fn timeout(&self) -> std::time::Duration {
        self.timeout
    }

    pub fn pay_within_minutes(&self) -> i64 {
        self.pay_within
    }

    /// The same account, its calls sent to `api_url` (a simulator of PayMongo's API).
    #[must_use]
    pub fn at(mut self, api_url: &str) -> Self {
        self.api_url = api_url.trim_end_matches('/').to_string();
        self
    }

    /// The client of PayMongo's API with this account's key and the app server's circuit.
    pub fn gateway(&self) -> gateway::Gateway {
        gateway::Gateway::new(&self.api_url, &self.secret_key, self.breaker.clone())
            .waiting(self.timeout)
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The methods the manager turned on, in PayMongo's names.
    pub fn methods(&self) -> &[&'static str] {
        &self.methods
    }

    /// The key the store's calls to PayMongo authenticate with (HTTP basic, as its username).
    pub fn secret_key(&self) -> &str {
        &self.secret_key
    }

    /// Checks a webhook's `Paymongo-Signature` against its raw body ([`signature::verify`]).
    pub fn verify_webhook(
        &self,
        header: &str,
        body: &[u8],
        now: i64,
    ) -> Result<(), signature::Refused> {
        signature::verify(header, body, &self.webhook_secret, self.mode, now)
    }
}

impl fmt::Debug for PayMongo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PayMongo")
            .field("mode", &self.mode)
            .field("methods", &self.methods)
            .field("api_url", &self.api_url)
            .field("pay_within", &self.pay_within)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_says_its_mode_and_the_methods_are_the_ones_named() {
        let p = PayMongo::new(" sk_test_abc ", "whsk_1", Some("GCash, paymaya,gcash")).unwrap();
        assert_eq!(p.mode(), Mode::Test);
        assert_eq!(p.methods(), ["gcash", "paymaya"]);
        assert_eq!(p.secret_key(), "sk_test_abc");
        let live = PayMongo::new("sk_live_xyz", "whsk_2", None).unwrap();
        assert_eq!(live.mode(), Mode::Live);
        assert_eq!(live.methods(), METHODS);
    }

    #[test]
    fn settings_that_cannot_work_are_refused_with_what_to_fix() {
        assert_eq!(
            PayMongo::new("pk_test_abc", "w", None),
            Err(SettingsError::SecretKey)
        );
        assert_eq!(
            PayMongo::new("sk_test_", "w", None),
            Err(SettingsError::SecretKey)
        );
        assert_eq!(
            PayMongo::new("sk_test_a", " ", None),
            Err(SettingsError::WebhookSecret)
        );
        assert_eq!(
            PayMongo::new("sk_test_a", "w", Some("gcash,bitcoin")),
            Err(SettingsError::Method("bitcoin".into()))
        );
        assert_eq!(
            PayMongo::new("sk_test_a", "w", Some(" , ")),
            Err(SettingsError::NoMethod)
        );
    }

    #[test]
    fn the_secrets_never_reach_a_log_line() {
        let p = PayMongo::new("sk_live_SECRETKEY", "whsk_SECRETHOOK", None).unwrap();
        let shown = format!("{p:?}");
        assert!(!shown.contains("SECRET"), "{shown}");
        assert!(shown.contains("Live"), "{shown}");
    }
}
