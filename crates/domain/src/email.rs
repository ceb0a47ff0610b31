//! Newsletter email validation (server-side only; the first error is shown).

pub const REQUIRED: &str = "The email field is required.";
pub const INVALID: &str = "The email must be a valid email address.";
pub const TOO_LONG: &str = "The email must not be greater than 254 characters.";
/// The longest address (RFC 5321's path limit), as [`TOO_LONG`] says.
pub const MAX: usize = 254;

/// Normalises (trims, lowercases: mail providers treat addresses case-insensitively, and one
/// person should not be subscribed twice) and validates an address; answers the message to
/// show when it is not acceptable.
pub fn validate_email(raw: &str) -> Result<String, &'static str> {
    let email = raw.trim();
    if email.is_empty() {
        return Err(REQUIRED);
    }
    if email.chars().count() > MAX {
        return Err(TOO_LONG);
    }
    let Some((local, domain)) = email.rsplit_once('@') else {
        return Err(INVALID);
    };
    let local_ok = !local.is_empty()
        && local.len() <= 64
        && !local.starts_with('.')
        && !local.ends_with('.')
        && !local.contains("..")
        && local
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "!#$%&'*+/=?^_`{|}~.-".contains(c));
    let labels: Vec<&str> = domain.split('.').collect();
    let domain_ok = labels.len() >= 2
        && labels.iter().all(|l| {
            !l.is_empty()
                && l.len() <= 63
                && !l.starts_with('-')
                && !l.ends_with('-')
                && l.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        })
        && labels
            .last()
            .is_some_and(|tld| tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic()));
    if !(local_ok && domain_ok) {
        return Err(INVALID);
    }
    Ok(email.to_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_ordinary_addresses() {
        assert_eq!(
            validate_email(" juan.dela-cruz+beer@Example.PH ").unwrap(),
            "juan.dela-cruz+beer@example.ph"
        );
        assert!(validate_email("a@b.co").is_ok());
    }

    #[test]
    fn rejects_what_cannot_receive_mail() {
        assert_eq!(validate_email(""), Err(REQUIRED));
        assert_eq!(validate_email("   "), Err(REQUIRED));
        for bad in [
            "juan",
            "juan@",
            "@example.ph",
            "juan@example",
            "juan@@example.ph",
            "ju an@example.ph",
            "juan@exa_mple.ph",
            ".juan@example.ph",
            "juan..x@example.ph",
            "juan@-example.ph",
            "juan@example.p",
        ] {
            assert_eq!(validate_email(bad), Err(INVALID), "{bad}");
        }
        let long = format!("{}@example.ph", "a".repeat(250));
        assert_eq!(validate_email(&long), Err(TOO_LONG));
    }
}
