//! The staff who fill the orders: their roles, how long their sessions live, and their second
//! factor (TOTP, RFC 6238: a six-digit code from an authenticator app, new every 30 seconds).

use totp_rs::{Algorithm, Secret, TOTP};

/// What a member of staff may do.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Everything: the staff, the settings, the audit log.
    Manager,
    /// Orders, runs and their reconciliation.
    Dispatcher,
    /// Only the runs given to them.
    Rider,
}

impl Role {
    pub const ALL: [Self; 3] = [Self::Manager, Self::Dispatcher, Self::Rider];

    pub fn parse(value: &str) -> Option<Self> {
        Self::ALL
            .into_iter()
            .find(|r| r.as_str() == value.trim().to_ascii_lowercase())
    }

    /// The word stored and shown.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Manager => "manager",
            Self::Dispatcher => "dispatcher",
            Self::Rider => "rider",
        }
    }
}

/// A staff session ends this long after it began, however busy.
pub const SESSION_MAX_SECS: i64 = 12 * 3600;
/// A staff session ends after this long without use.
pub const SESSION_IDLE_SECS: i64 = 30 * 60;
/// A link to choose a password holds this long.
pub const LINK_SECS: i64 = 72 * 3600;
/// How many one-time recovery codes come with a second factor.
pub const RECOVERY_CODES: usize = 10;
/// The name the authenticator app shows the account under.
pub const ISSUER: &str = "Tala Brewing Co. staff";

/// Whether a session begun at `created_at`, last used at `last_seen_at`, still holds at `now`
/// for a member whose password, role or standing last changed at `changed_at`.
pub fn session_holds(created_at: i64, last_seen_at: i64, changed_at: i64, now: i64) -> bool {
    now < created_at + SESSION_MAX_SECS
        && now < last_seen_at + SESSION_IDLE_SECS
        && created_at >= changed_at
}

/// The TOTP of a base32 secret: SHA-1, six digits, 30-second steps (what every authenticator
/// app reads from the QR code), one step of clock drift allowed either way.
fn totp(secret_base32: &str, account: &str) -> Option<TOTP> {
    let secret = Secret::Encoded(secret_base32.to_string()).to_bytes().ok()?;
    TOTP::new(
        Algorithm::SHA1,
        6,
        1,
        30,
        secret,
        Some(ISSUER.to_string()),
        account.to_string(),
    )
    .ok()
}

/// A new secret: 160 random bits (RFC 4226's recommended length), base32 as apps take it.
pub fn new_secret(random: [u8; 20]) -> String {
    Secret::Raw(random.to_vec()).to_encoded().to_string()
}

/// The `otpauth://` address the QR code holds.
pub fn otpauth_url(secret_base32: &str, account: &str) -> Option<String> {
    totp(secret_base32, account).map(|t| t.get_url())
}

/// Whether `code` is the secret's code at `unix` (or one step before or after). Spaces in the
/// code are ignored (apps show `123 456`). The store itself takes a code by its step
/// ([`code_step`]); this reads as the tests ask.
pub fn code_matches(secret_base32: &str, code: &str, unix: i64) -> bool {
    code_step(secret_base32, code, unix).is_some()
}

/// The 30-second step whose code `code` is, of the step of `unix` and the one before and after
/// it (a phone's clock a little off); none when it is none of theirs. A code is taken only when
/// its step is later than the last step taken (`db::team::take_code_step`), so neither the code
/// nor one of an earlier step is taken again. Spaces in the code are ignored.
pub fn code_step(secret_base32: &str, code: &str, unix: i64) -> Option<i64> {
    let code: String = code.chars().filter(|c| !c.is_whitespace()).collect();
    if code.len() != 6 || !code.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let t = totp(secret_base32, "x")?;
    let now = u64::try_from(unix).ok()? / 30;
    // The three compared whatever matched, each byte by byte in full: the time taken says
    // nothing of which step, or how much of a code, was right.
    let mut found = None;
    for step in [now.saturating_sub(1), now, now + 1] {
        let expected = t.generate(step * 30);
        let differs = expected
            .bytes()
            .zip(code.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b));
        if differs == 0 && expected.len() == code.len() && found.is_none() {
            found = Some(step);
        }
    }
    found.and_then(|s| i64::try_from(s).ok())
}

/// The code of the secret at `unix` (tests, and the contract test's staff session).
pub fn code_at(secret_base32: &str, unix: i64) -> Option<String> {
    totp(secret_base32, "x").map(|t| t.generate(u64::try_from(unix).unwrap_or(0)))
}

/// A recovery code as typed: letters and digits only, lower case (`ABCD-1234` is `abcd1234`).
pub fn normalize_recovery_code(code: &str) -> String {
    code.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_read_as_written() {
        assert_eq!(Role::parse(" Dispatcher"), Some(Role::Dispatcher));
        assert_eq!(Role::parse("admin"), None);
        for r in Role::ALL {
            assert_eq!(Role::parse(r.as_str()), Some(r));
        }
    }

    #[test]
    fn a_session_ends_after_12_hours_30_idle_minutes_or_a_change() {
        let t = 1_000_000;
        assert!(session_holds(t, t + 600, t - 1, t + 700));
        assert!(!session_holds(t, t, t - 1, t + SESSION_IDLE_SECS));
        assert!(!session_holds(
            t,
            t + SESSION_MAX_SECS - 1,
            t,
            t + SESSION_MAX_SECS
        ));
        assert!(
            !session_holds(t, t, t + 1, t + 5),
            "a password or role change ends it"
        );
    }

    /// RFC 6238's test vector for SHA-1 (the secret `12345678901234567890`, 8 digits there; the
    /// last six here).
    #[test]
    fn codes_are_rfc_6238s() {
        let secret = new_secret(*b"12345678901234567890");
        assert_eq!(code_at(&secret, 59).as_deref(), Some("287082"));
        // Its step, and the steps either side of the clock's, not further.
        let at = 1_111_111_109;
        assert_eq!(code_step(&secret, "081804", at), Some(at / 30));
        let next = code_at(&secret, at + 30).unwrap();
        assert_eq!(code_step(&secret, &next, at), Some(at / 30 + 1));
        let before = code_at(&secret, at - 30).unwrap();
        assert_eq!(code_step(&secret, &before, at), Some(at / 30 - 1));
        let far = code_at(&secret, at + 60).unwrap();
        assert_eq!(code_step(&secret, &far, at), None);
        assert_eq!(code_step(&secret, "08 18 04", at), Some(at / 30));
        assert_eq!(code_step(&secret, "08180", at), None);
        assert_eq!(code_at(&secret, 1_111_111_109).as_deref(), Some("081804"));
        assert!(code_matches(&secret, "081 804", 1_111_111_109));
        assert!(
            code_matches(&secret, "081804", 1_111_111_109 + 30),
            "a step of drift"
        );
        assert!(!code_matches(&secret, "081804", 1_111_111_109 + 90));
        assert!(!code_matches(&secret, "08180", 1_111_111_109));
        assert!(!code_matches(&secret, "-81804", 1_111_111_109));
        let url = otpauth_url(&secret, "ana@example.com").unwrap();
        assert!(url.starts_with("otpauth://totp/"), "{url}");
        assert!(url.contains(&secret), "{url}");
    }

    #[test]
    fn recovery_codes_are_read_loosely() {
        assert_eq!(normalize_recovery_code(" ABCD-1234 "), "abcd1234");
    }
}
