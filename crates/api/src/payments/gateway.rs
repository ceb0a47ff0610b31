//! The store's calls to PayMongo's Checkout Sessions (`/v2/checkout_sessions`): create one for an
//! order, read one back, expire one. Each call is blocking and bounded ([`TIMEOUT`]): callers run
//! it on a blocking thread of its own, holding no database connection, so a slow or absent
//! gateway holds neither a worker nor a connection. After [`TRIPS_AFTER`] failures in a row the
//! circuit opens for [`OPEN_FOR`] seconds: calls are refused at once, and the checkout offers cash
//! instead of making each shopper wait for the timeout. Every creation carries its attempt's
//! idempotency key, so a creation sent again after a lost answer makes one session.
//!
//! The secret key goes in the `Authorization` header alone: it is never part of an error, a log
//! line or an answer.

use std::sync::atomic::{AtomicI64, AtomicU32, Ordering};
use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use serde_json::Value;

/// The longest a call to PayMongo may take, connection included.
pub const TIMEOUT: Duration = Duration::from_secs(8);
/// Failures in a row that open the circuit.
pub const TRIPS_AFTER: u32 = 3;
/// Seconds the open circuit refuses calls before it tries one again.
pub const OPEN_FOR: i64 = 30;

/// Why a call to PayMongo did not give an answer the store can use. Its text never holds a key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Failed {
    /// No answer in time, no connection, or a 5xx: PayMongo may be down.
    #[error("PayMongo did not answer: {0}")]
    Unreachable(String),
    /// The circuit is open after failures in a row: not asked.
    #[error("PayMongo failed several times in a row; not asked again for a moment")]
    Open,
    /// PayMongo refused the request (4xx), with what it said.
    #[error("PayMongo refused the request ({status}): {detail}")]
    Refused { status: u16, detail: String },
    /// An answer without what the store needs.
    #[error("PayMongo's answer was not understood: {0}")]
    Unreadable(String),
}

/// Failures in a row, and until when the circuit is open (Unix seconds): shared by every request
/// of the app server.
#[derive(Debug, Default)]
pub struct Breaker {
    failures: AtomicU32,
    open_until: AtomicI64,
}

impl Breaker {
    /// Whether a call may be made at `now`.
    pub fn allows(&self, now: i64) -> bool {
        now >= self.open_until.load(Ordering::Relaxed)
    }

    fn failed(&self, now: i64) {
        if self.failures.fetch_add(1, Ordering::Relaxed) + 1 >= TRIPS_AFTER {
            self.open_until.store(now + OPEN_FOR, Ordering::Relaxed);
            self.failures.store(0, Ordering::Relaxed);
        }
    }

    fn answered(&self) {
        self.failures.store(0, Ordering::Relaxed);
    }
}

/// A Checkout Session as PayMongo answers it: its id, its hosted page, its status (`active`,
/// `expired`), and the payments made in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub id: String,
    pub checkout_url: String,
    pub status: String,
    pub reference: String,
    pub payments: Vec<Paid>,
}

/// A payment of a Checkout Session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Paid {
    /// PayMongo's `pay_` id.
    pub id: String,
    /// Centavos.
    pub amount: i64,
    pub currency: String,
    /// `paid`, `failed`, …
    pub status: String,
    /// The method's PayMongo name (`gcash`, `card`, …).
    pub method: String,
    /// Unix seconds.
    pub paid_at: i64,
}

/// A refund as PayMongo answers it: its `ref_` id, the payment it returns, and its status
/// (`pending`, `succeeded`, `failed`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refund {
    pub id: String,
    pub payment_id: String,
    /// Centavos.
    pub amount: i64,
    pub status: String,
}

/// Reads a refund resource (`{id, attributes: {payment_id, amount, status}}`), as the refund
/// call's answer and the `payment.refund.updated` event carry it.
pub fn read_refund(resource: &Value) -> Result<Refund, Failed> {
    let text = |k: &str| {
        resource
            .pointer(k)
            .and_then(Value::as_str)
            .map(str::to_string)
    };
    let unreadable = |what: &str| Failed::Unreadable(format!("a refund without its {what}"));
    Ok(Refund {
        id: text("/id").ok_or_else(|| unreadable("id"))?,
        payment_id: text("/attributes/payment_id").ok_or_else(|| unreadable("payment"))?,
        amount: resource
            .pointer("/attributes/amount")
            .and_then(Value::as_i64)
            .ok_or_else(|| unreadable("amount"))?,
        status: text("/attributes/status").ok_or_else(|| unreadable("status"))?,
    })
}

/// The refunds an event carries: a refund resource itself, or a payment resource with its
/// `refunds` (PayMongo's `payment.refund.updated` and `payment.refunded` events carry the
/// payment); each refund's payment is the payment's when it does not say.
pub fn refunds_in(resource: &Value) -> Vec<Refund> {
    match resource.get("type").and_then(Value::as_str) {
        Some("refund") => read_refund(resource).into_iter().collect(),
        Some("payment") => {
            let payment = resource
                .get("id")
                .and_then(Value::as_str)
                .unwrap_or_default();
            resource
                .pointer("/attributes/refunds")
                .and_then(Value::as_array)
                .map(|list| {
                    list.iter()
                        .filter_map(|r| {
                            let mut r = r.clone();
                            if r.pointer("/attributes/payment_id").is_none() {
                                r["attributes"]["payment_id"] = payment.into();
                            }
                            read_refund(&r).ok()
                        })
                        .collect()
                })
                .unwrap_or_default()
        }
        _ => Vec::new(),
    }
}

/// Reads a Checkout Session resource (`{id, attributes: {...}}`), as answers and webhook events
/// carry it.
pub fn read_session(resource: &Value) -> Result<Session, Failed> {
    let text = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    let id = text(resource, "id").ok_or_else(|| Failed::Unreadable("no session id".into()))?;
    let a = resource
        .get("attributes")
        .ok_or_else(|| Failed::Unreadable("no attributes".into()))?;
    let payments = a
        .get("payments")
        .and_then(Value::as_array)
        .map(|list| list.iter().filter_map(read_payment).collect())
        .unwrap_or_default();
    Ok(Session {
        id,
        checkout_url: text(a, "checkout_url").unwrap_or_default(),
        status: text(a, "status").unwrap_or_default(),
        reference: text(a, "reference_number").unwrap_or_default(),
        payments,
    })
}

fn read_payment(p: &Value) -> Option<Paid> {
    let a = p.get("attributes")?;
    Some(Paid {
        id: p.get("id")?.as_str()?.to_string(),
        amount: a.get("amount")?.as_i64()?,
        currency: a.get("currency")?.as_str()?.to_string(),
        status: a.get("status")?.as_str()?.to_string(),
        method: a
            .pointer("/source/type")
            .and_then(Value::as_str)
            .unwrap_or("unknown")
            .to_string(),
        paid_at: a
            .get("paid_at")
            .and_then(Value::as_i64)
            .or_else(|| a.get("created_at").and_then(Value::as_i64))
            .unwrap_or(0),
    })
}

/// The store's client of PayMongo's API at `api_url` (`https://api.paymongo.com`, or the test
/// suite's simulator).
#[derive(Clone)]
pub struct Gateway {
    api_url: Arc<str>,
    authorization: Arc<str>,
    breaker: Arc<Breaker>,
    timeout: Duration,
}

impl std::fmt::Debug for Gateway {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Gateway")
            .field("api_url", &self.api_url)
            .finish_non_exhaustive()
    }
}

impl Gateway {
    pub fn new(api_url: &str, secret_key: &str, breaker: Arc<Breaker>) -> Self {
        let basic = base64::engine::general_purpose::STANDARD.encode(format!("{secret_key}:"));
        Self {
            api_url: api_url.trim_end_matches('/').into(),
            authorization: format!("Basic {basic}").into(),
            breaker,
            timeout: TIMEOUT,
        }
    }

    /// The same client, giving up on a call after `timeout` (the tests' stalled gateway).
    #[must_use]
    pub fn waiting(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// Creates a Checkout Session from `body` ([`super::checkout_session::request`]), once per
    /// `idempotency_key`.
    pub fn create(&self, body: &Value, idempotency_key: &str) -> Result<Session, Failed> {
        let url = format!("{}/v2/checkout_sessions", self.api_url);
        let answer = self.call("POST", &url, Some(body), Some(idempotency_key))?;
        read_session(answer.get("data").unwrap_or(&Value::Null))
    }

    /// Reads a Checkout Session back: its status and payments.
    pub fn retrieve(&self, id: &str) -> Result<Session, Failed> {
        let url = format!("{}/v2/checkout_sessions/{}", self.api_url, segment(id)?);
        let answer = self.call("GET", &url, None, None)?;
        read_session(answer.get("data").unwrap_or(&Value::Null))
    }

    /// Expires a Checkout Session: nobody can pay in it any more.
    pub fn expire(&self, id: &str) -> Result<Session, Failed> {
        let url = format!(
            "{}/v2/checkout_sessions/{}/expire",
            self.api_url,
            segment(id)?
        );
        let answer = self.call("POST", &url, None, None)?;
        read_session(answer.get("data").unwrap_or(&Value::Null))
    }

    /// Refunds `amount` centavos of payment `payment_id` (`POST /refunds`), once per
    /// `idempotency_key`: `reason` is one of PayMongo's ([`crate::staff::orders::refund_state::RefundReason`]).
    pub fn refund(
        &self,
        payment_id: &str,
        amount: i64,
        reason: &str,
        notes: &str,
        idempotency_key: &str,
    ) -> Result<Refund, Failed> {
        let url = format!("{}/refunds", self.api_url);
        let mut attributes = serde_json::json!({
            "amount": amount,
            "payment_id": segment(payment_id)?,
            "reason": reason,
        });
        if !notes.is_empty() {
            attributes["notes"] = notes.into();
        }
        let body = serde_json::json!({ "data": { "attributes": attributes } });
        let answer = self.call("POST", &url, Some(&body), Some(idempotency_key))?;
        read_refund(answer.get("data").unwrap_or(&Value::Null))
    }

    /// Reads a refund back (`GET /refunds/{id}`): its status now.
    pub fn retrieve_refund(&self, id: &str) -> Result<Refund, Failed> {
        let url = format!("{}/refunds/{}", self.api_url, segment(id)?);
        let answer = self.call("GET", &url, None, None)?;
        read_refund(answer.get("data").unwrap_or(&Value::Null))
    }

    fn call(
        &self,
        method: &str,
        url: &str,
        body: Option<&Value>,
        idempotency_key: Option<&str>,
    ) -> Result<Value, Failed> {
        let now = domain::calendar::unix_now();
        if !self.breaker.allows(now) {
            return Err(Failed::Open);
        }
        let answer = self.send(method, url, body, idempotency_key);
        match &answer {
            Err(Failed::Unreachable(_)) => self.breaker.failed(now),
            _ => self.breaker.answered(),
        }
        answer
    }

    fn send(
        &self,
        method: &str,
        url: &str,
        body: Option<&Value>,
        idempotency_key: Option<&str>,
    ) -> Result<Value, Failed> {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(self.timeout))
            .http_status_as_error(false)
            .build()
            .into();
        let unreachable = |e: ureq::Error| Failed::Unreachable(e.to_string());
        let mut res = if method == "GET" {
            agent
                .get(url)
                .header("Authorization", &*self.authorization)
                .header("Accept", "application/json")
                .call()
                .map_err(unreachable)?
        } else {
            let mut req = agent
                .post(url)
                .header("Authorization", &*self.authorization)
                .header("Accept", "application/json");
            if let Some(key) = idempotency_key {
                req = req.header("Idempotency-Key", key);
            }
            match body {
                Some(b) => req.send_json(b).map_err(unreachable)?,
                None => req.send_empty().map_err(unreachable)?,
            }
        };
        let status = res.status().as_u16();
        let text = res
            .body_mut()
            .with_config()
            .limit(1 << 20)
            .read_to_string()
            .map_err(|e| Failed::Unreachable(e.to_string()))?;
        if status >= 500 {
            return Err(Failed::Unreachable(format!("status {status}")));
        }
        let json: Value = serde_json::from_str(&text)
            .map_err(|_| Failed::Unreadable(format!("status {status}, not JSON")))?;
        if status >= 400 {
            let detail = json
                .pointer("/errors/0/detail")
                .and_then(Value::as_str)
                .unwrap_or("no detail");
            let detail = without_keys(detail).chars().take(300).collect();
            return Err(Failed::Refused { status, detail });
        }
        Ok(json)
    }
}

/// PayMongo's words with any key in them (`sk_…`, `pk_…`, `whsk_…`) blotted out: they are shown
/// to staff and kept.
fn without_keys(text: &str) -> String {
    text.split_inclusive(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map(|word| {
            let bare = word.trim_end_matches(|c: char| !(c.is_ascii_alphanumeric() || c == '_'));
            let key = ["sk_", "pk_", "whsk_"].iter().any(|p| bare.starts_with(p));
            if key {
                format!("[a key]{}", &word[bare.len()..])
            } else {
                word.to_string()
            }
        })
        .collect()
}

/// An id as one segment of a path: PayMongo's ids are letters, digits and `_`.
fn segment(id: &str) -> Result<&str, Failed> {
    if !id.is_empty()
        && id.len() <= 100
        && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
    {
        Ok(id)
    } else {
        Err(Failed::Unreadable("not one of PayMongo's ids".into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_circuit_opens_after_failures_in_a_row_and_closes_after_a_while() {
        let b = Breaker::default();
        assert!(b.allows(1000));
        b.failed(1000);
        b.failed(1000);
        b.answered();
        b.failed(1001);
        b.failed(1001);
        assert!(
            b.allows(1001),
            "an answer between failures starts the count again"
        );
        b.failed(1001);
        assert!(!b.allows(1001));
        assert!(!b.allows(1000 + OPEN_FOR));
        assert!(b.allows(1001 + OPEN_FOR));
    }

    #[test]
    fn a_session_and_its_payments_are_read_as_paymongo_sends_them() {
        let resource = serde_json::json!({
            "id": "cs_abc", "type": "checkout_session",
            "attributes": {
                "checkout_url": "https://checkout.paymongo.com/cs_abc",
                "status": "active", "reference_number": "TB-000001",
                "payments": [{
                    "id": "pay_1", "type": "payment",
                    "attributes": { "amount": 250000, "currency": "PHP", "status": "paid",
                        "source": { "type": "gcash" }, "paid_at": 1764400000 }
                }, { "id": "pay_bad" }]
            }
        });
        let s = read_session(&resource).unwrap();
        assert_eq!(s.id, "cs_abc");
        assert_eq!(s.reference, "TB-000001");
        assert_eq!(
            s.payments.len(),
            1,
            "a payment without its attributes is not one"
        );
        assert_eq!(s.payments[0].method, "gcash");
        assert_eq!(s.payments[0].amount, 250_000);
        assert!(read_session(&serde_json::json!({"attributes": {}})).is_err());
    }

    #[test]
    fn a_refund_is_read_as_paymongo_sends_it() {
        let resource = serde_json::json!({
            "id": "ref_1", "type": "refund",
            "attributes": { "amount": 250000, "currency": "PHP", "payment_id": "pay_1",
                "reason": "requested_by_customer", "status": "pending" }
        });
        let r = read_refund(&resource).unwrap();
        assert_eq!(
            (
                r.id.as_str(),
                r.payment_id.as_str(),
                r.amount,
                r.status.as_str()
            ),
            ("ref_1", "pay_1", 250_000, "pending")
        );
        assert!(read_refund(&serde_json::json!({"id": "ref_1", "attributes": {}})).is_err());
    }

    #[test]
    fn an_events_refunds_are_read_from_a_refund_or_its_payment() {
        let refund = serde_json::json!({"id": "ref_1", "type": "refund",
            "attributes": {"amount": 100, "payment_id": "pay_1", "status": "succeeded"}});
        assert_eq!(refunds_in(&refund).len(), 1);
        let payment = serde_json::json!({"id": "pay_1", "type": "payment",
        "attributes": {"amount": 100, "refunds": [
            {"id": "ref_1", "type": "refund", "attributes": {"amount": 100, "status": "failed"}}
        ]}});
        let read = refunds_in(&payment);
        assert_eq!(read.len(), 1);
        assert_eq!(
            (read[0].payment_id.as_str(), read[0].status.as_str()),
            ("pay_1", "failed")
        );
        assert!(
            refunds_in(&serde_json::json!({"id": "cs_1", "type": "checkout_session"})).is_empty()
        );
    }

    #[test]
    fn keys_in_paymongos_words_are_blotted_out() {
        assert_eq!(
            without_keys("The key sk_test_ABC123 is invalid; pk_live_x, too."),
            "The key [a key] is invalid; [a key], too."
        );
        assert_eq!(without_keys("No such payment."), "No such payment.");
    }

    #[test]
    fn the_key_is_sent_as_basic_auth_and_never_shown() {
        let g = Gateway::new("https://api.example/", "sk_test_SECRET", Arc::default());
        assert_eq!(&*g.api_url, "https://api.example");
        assert_eq!(
            &*g.authorization,
            format!(
                "Basic {}",
                base64::engine::general_purpose::STANDARD.encode("sk_test_SECRET:")
            )
        );
        assert!(!format!("{g:?}").contains("SECRET"));
    }

    #[test]
    fn an_id_that_is_not_one_never_reaches_a_path() {
        assert!(segment("cs_abc123").is_ok());
        for bad in ["", "../x", "cs/abc", "cs abc", "cs%2F"] {
            assert!(segment(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn an_address_that_answers_nothing_is_unreachable_and_counts() {
        // Port 9 on loopback: nothing listens (connection refused at once).
        let g = Gateway::new("http://127.0.0.1:9", "sk_test_x", Arc::default());
        for _ in 0..TRIPS_AFTER {
            assert!(matches!(g.retrieve("cs_1"), Err(Failed::Unreachable(_))));
        }
        assert_eq!(g.retrieve("cs_1"), Err(Failed::Open));
    }
}
