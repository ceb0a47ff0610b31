//! PayMongo's webhook signature. Each webhook carries `Paymongo-Signature: t=<unix seconds>,
//! te=<hex>,li=<hex>`: HMAC-SHA256, keyed by the webhook's secret, over the timestamp, a `.` and
//! the raw body, in `te` for a test-mode event and `li` for a live one. The store checks the one of
//! its own mode (a test event never counts as a live payment), in constant time, and refuses a
//! timestamp more than [`TOLERANCE_SECS`] from its clock (a captured request replayed later).

use hmac::{Hmac, Mac};
use sha2::Sha256;

use super::Mode;

/// How far a signature's time may be from the store's clock.
pub const TOLERANCE_SECS: i64 = 5 * 60;

/// Why a webhook was not taken as PayMongo's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("the Paymongo-Signature header is missing or not of the form t=…,te=…,li=…")]
    Malformed,
    #[error("the signature's time is more than 5 minutes from the store's clock")]
    Stale,
    #[error("the signature does not match the body")]
    Mismatch,
}

fn mac(secret: &str, t: i64, body: &[u8]) -> Hmac<Sha256> {
    // HMAC takes a key of any length.
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("any key length");
    mac.update(t.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    mac
}

/// The signature PayMongo makes for `body` at time `t` (hex): what the simulator in the tests
/// signs with.
pub fn sign(secret: &str, t: i64, body: &[u8]) -> String {
    mac(secret, t, body)
        .finalize()
        .into_bytes()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// 64 hex digits as the 32 bytes they spell; none for anything else.
fn unhex(s: &str) -> Option<Vec<u8>> {
    if s.len() != 64 || !s.is_ascii() {
        return None;
    }
    (0..32)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok())
        .collect()
}

/// Checks `header` (the `Paymongo-Signature` value) against the raw `body`, for a store in `mode`
/// whose webhook's secret is `secret`, at `now` (unix seconds).
pub fn verify(
    header: &str,
    body: &[u8],
    secret: &str,
    mode: Mode,
    now: i64,
) -> Result<(), Refused> {
    let mut t = None;
    let mut test = None;
    let mut live = None;
    for part in header.split(',') {
        let (name, value) = part.split_once('=').ok_or(Refused::Malformed)?;
        let value = value.trim();
        let slot = match name.trim() {
            "t" => {
                let at = value.parse::<i64>().map_err(|_| Refused::Malformed)?;
                if t.replace(at).is_some() {
                    return Err(Refused::Malformed);
                }
                continue;
            }
            "te" => &mut test,
            "li" => &mut live,
            _ => return Err(Refused::Malformed),
        };
        if slot.replace(value).is_some() {
            // A part named twice: which one would count is anyone's guess.
            return Err(Refused::Malformed);
        }
    }
    let t = t.ok_or(Refused::Malformed)?;
    // `abs_diff`: a time near i64's ends (`t=-9223372036854775808`) overflows no subtraction.
    if now.abs_diff(t) > TOLERANCE_SECS.unsigned_abs() {
        return Err(Refused::Stale);
    }
    let given = match mode {
        Mode::Test => test,
        Mode::Live => live,
    };
    let given = given.and_then(unhex).ok_or(Refused::Mismatch)?;
    mac(secret, t, body)
        .verify_slice(&given)
        .map_err(|_| Refused::Mismatch)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "whsk_test_secret";
    const BODY: &[u8] = br#"{"data":{"id":"evt_1","attributes":{"type":"checkout_session.payment.paid","livemode":false}}}"#;
    const NOW: i64 = 1_780_000_000;

    fn header(te: &str, li: &str) -> String {
        format!("t={NOW},te={te},li={li}")
    }

    #[test]
    fn a_body_signed_with_the_secret_for_the_stores_mode_is_taken() {
        let sig = sign(SECRET, NOW, BODY);
        assert_eq!(sig.len(), 64);
        assert_eq!(
            verify(&header(&sig, ""), BODY, SECRET, Mode::Test, NOW),
            Ok(())
        );
        assert_eq!(
            verify(&header("", &sig), BODY, SECRET, Mode::Live, NOW + 299),
            Ok(())
        );
        // Spaces after the commas, as some proxies rewrite headers.
        assert_eq!(
            verify(
                &format!("t={NOW}, te={sig}, li="),
                BODY,
                SECRET,
                Mode::Test,
                NOW
            ),
            Ok(())
        );
    }

    #[test]
    fn a_known_signature_checks_out() {
        // HMAC-SHA256 keyed "key" over "1.{}", computed apart (Python's hmac module).
        assert_eq!(
            sign("key", 1, b"{}"),
            "1ba6b8171186efc613e8bcc0cbdab2748f24984d7c5a84faa2637afa0e40d224"
        );
    }

    #[test]
    fn a_test_signature_never_counts_for_a_live_store_nor_the_reverse() {
        let sig = sign(SECRET, NOW, BODY);
        assert_eq!(
            verify(&header(&sig, ""), BODY, SECRET, Mode::Live, NOW),
            Err(Refused::Mismatch)
        );
        assert_eq!(
            verify(&header("", &sig), BODY, SECRET, Mode::Test, NOW),
            Err(Refused::Mismatch)
        );
    }

    #[test]
    fn a_changed_body_another_secret_or_a_forged_signature_is_refused() {
        let sig = sign(SECRET, NOW, BODY);
        let mut changed = BODY.to_vec();
        changed[20] ^= 1;
        assert_eq!(
            verify(&header(&sig, ""), &changed, SECRET, Mode::Test, NOW),
            Err(Refused::Mismatch)
        );
        assert_eq!(
            verify(&header(&sig, ""), BODY, "another", Mode::Test, NOW),
            Err(Refused::Mismatch)
        );
        let forged = sign(SECRET, NOW + 1, BODY);
        assert_eq!(
            verify(&header(&forged, ""), BODY, SECRET, Mode::Test, NOW),
            Err(Refused::Mismatch),
            "signed for another time"
        );
        for bad in ["", "zz", &sig[..63], &format!("{sig}0"), &"é".repeat(32)] {
            assert_eq!(
                verify(&header(bad, ""), BODY, SECRET, Mode::Test, NOW),
                Err(Refused::Mismatch),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn an_old_or_future_time_is_refused_as_a_replay() {
        let sig = sign(SECRET, NOW, BODY);
        for now in [NOW + TOLERANCE_SECS + 1, NOW - TOLERANCE_SECS - 1] {
            assert_eq!(
                verify(&header(&sig, ""), BODY, SECRET, Mode::Test, now),
                Err(Refused::Stale)
            );
        }
        assert!(verify(
            &header(&sig, ""),
            BODY,
            SECRET,
            Mode::Test,
            NOW + TOLERANCE_SECS
        )
        .is_ok());
        // Times at i64's ends are stale, not an overflow.
        for t in [i64::MIN, i64::MAX] {
            let h = format!("t={t},te={sig},li=");
            assert_eq!(
                verify(&h, BODY, SECRET, Mode::Test, NOW),
                Err(Refused::Stale)
            );
        }
    }

    #[test]
    fn a_header_not_of_paymongos_form_is_refused() {
        let sig = sign(SECRET, NOW, BODY);
        for bad in [
            String::new(),
            format!("te={sig}"),
            format!("t=soon,te={sig}"),
            format!("t={NOW},te={sig},te={sig}"),
            format!("t={NOW},t={NOW},te={sig}"),
            format!("t={NOW};te={sig}"),
            format!("t={NOW},v1={sig}"),
            format!("t=99999999999999999999,te={sig}"),
        ] {
            assert_eq!(
                verify(&bad, BODY, SECRET, Mode::Test, NOW),
                Err(Refused::Malformed),
                "{bad}"
            );
        }
    }
}
