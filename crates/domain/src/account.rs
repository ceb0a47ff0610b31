//! The rules of a member's details: names, the Philippine mobile number, the birth date of an
//! adult in Manila, and the password. Each rule answers the message to show on the form's field.

use std::collections::BTreeMap;

use time::{Date, Month};

/// Field errors of a form: field name -> messages, as the API's 422 carries them.
pub type FieldErrors = BTreeMap<&'static str, Vec<String>>;

/// The password rule, as the form states it.
pub const PASSWORD_RULE: &str =
    "At least 10 characters, and not a common password or one that is easy to guess.";

/// The shortest password.
pub const PASSWORD_MIN: usize = 10;
/// The longest password the store takes.
pub const PASSWORD_MAX: usize = 128;
/// How many of the most common passwords are refused.
const COMMON: usize = 10_000;
/// Fewer estimated guesses than this is too easy to guess (zxcvbn's scores 0 and 1).
const MIN_GUESSES: u64 = 1_000_000;

/// The longest first or last name.
pub const NAME_MAX: usize = 60;

pub fn validate_name(raw: &str, label: &str) -> Result<String, String> {
    let name = raw.trim();
    if name.is_empty() {
        return Err(format!("The {label} field is required."));
    }
    if name.chars().count() > NAME_MAX {
        return Err(format!(
            "The {label} must not be greater than {NAME_MAX} characters."
        ));
    }
    // The rule of every typed text (crate::text), and no symbols in a person's name.
    let typed = crate::text::check(name, 1, NAME_MAX, false);
    if typed == Err(crate::text::Problem::Length) {
        return Err(format!("The {label} field is required."));
    }
    if typed.is_err() || name.chars().any(|c| "<>{}[]\\/@#$%^*=+|~`\"".contains(c)) {
        return Err(format!(
            "The {label} may only contain letters, spaces, dots, dashes and apostrophes."
        ));
    }
    Ok(name.to_string())
}

/// A mobile number is "09" followed by 9 digits (11 in all). Spaces and dashes people type are
/// dropped.
pub fn validate_mobile(raw: &str) -> Result<String, String> {
    let digits: String = raw.chars().filter(|c| !matches!(c, ' ' | '-')).collect();
    if digits.is_empty() {
        return Err("The mobile field is required.".into());
    }
    if digits.len() == 11 && digits.starts_with("09") && digits.bytes().all(|b| b.is_ascii_digit())
    {
        Ok(digits)
    } else {
        Err("The mobile number must start with 09 followed by 9 digits.".into())
    }
}

/// A birth date (`YYYY-MM-DD`) of someone 18 or older on `today` (Manila's date). Born on
/// 29 February, one comes of age on 1 March in years without it.
pub fn validate_birth_date(raw: &str, today: Date) -> Result<Date, String> {
    let fmt = time::macros::format_description!("[year]-[month]-[day]");
    // Four digits of a year, never a sign (`time` would read "-1990-05-05").
    let raw = raw.trim();
    let shaped = raw.len() == 10 && raw.as_bytes()[..4].iter().all(u8::is_ascii_digit);
    let Ok(born) = Date::parse(raw, fmt)
        .map_err(|_| ())
        .and_then(|d| shaped.then_some(d).ok_or(()))
    else {
        return Err("The birth date must be a date (YYYY-MM-DD).".into());
    };
    if born > today {
        return Err("The birth date cannot be in the future.".into());
    }
    let year = born.year() + 18;
    let adult_on = Date::from_calendar_date(year, born.month(), born.day())
        .or_else(|_| Date::from_calendar_date(year, Month::March, 1))
        .map_err(|_| "The birth date must be a date (YYYY-MM-DD).".to_string())?;
    if today < adult_on {
        return Err("You must be 18 or older to create an account.".into());
    }
    Ok(born)
}

/// A new password: at least [`PASSWORD_MIN`] characters, at most 128, not one of the 10,000 most
/// common passwords (zxcvbn's ranked list, whole or with its letters swapped for look-alikes or
/// reversed) and not easy to guess by zxcvbn's estimate (which also knows the member's own
/// `user_inputs`: names, email, mobile).
pub fn validate_password(raw: &str, user_inputs: &[&str]) -> Result<(), String> {
    let length = raw.chars().count();
    if length < PASSWORD_MIN {
        return Err(format!(
            "The password must be at least {PASSWORD_MIN} characters. {PASSWORD_RULE}"
        ));
    }
    if length > PASSWORD_MAX {
        return Err(format!(
            "The password must not be greater than {PASSWORD_MAX} characters."
        ));
    }
    let estimate = zxcvbn::zxcvbn(raw, user_inputs);
    let common = match estimate.sequence() {
        [one] => match &one.pattern {
            zxcvbn::matching::patterns::MatchPattern::Dictionary(d) => {
                // The crate keeps its dictionary names private; their Debug form is the name.
                format!("{:?}", d.dictionary_name) == "Passwords" && d.rank <= COMMON
            }
            _ => false,
        },
        _ => false,
    };
    if common {
        return Err("This is one of the most common passwords. Choose another one.".into());
    }
    if estimate.guesses() < MIN_GUESSES {
        return Err(
            "This password is too easy to guess. Choose a longer or less common one.".into(),
        );
    }
    Ok(())
}

/// Checks a form field by field, keeping every field's messages (a form shows them all at once).
#[derive(Debug, Default)]
pub struct Checker {
    errors: FieldErrors,
}

impl Checker {
    /// The field's value when its check passed; otherwise its message is kept.
    pub fn field<T>(&mut self, name: &'static str, checked: Result<T, String>) -> Option<T> {
        checked.map_err(|e| self.add(name, e)).ok()
    }

    /// Keeps a message for a field.
    pub fn add(&mut self, name: &'static str, message: impl Into<String>) {
        self.errors.entry(name).or_default().push(message.into());
    }

    /// The checked value, or every field's messages.
    pub fn finish<T>(self, value: Option<T>) -> Result<T, FieldErrors> {
        match value {
            Some(v) if self.errors.is_empty() => Ok(v),
            _ => Err(self.errors),
        }
    }
}

/// A member's details as the registration and profile forms ask for them, checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Details {
    pub first_name: String,
    pub last_name: String,
    /// `09` and 9 digits.
    pub mobile: String,
    /// `YYYY-MM-DD` of an adult.
    pub birth_date: String,
}

impl Details {
    /// Checks the four fields (each message kept in `c`) as of `today` in Manila.
    pub fn check(
        c: &mut Checker,
        [first, last, mobile, born]: [&str; 4],
        today: Date,
    ) -> Option<Self> {
        let first_name = c.field("first_name", validate_name(first, "first name"));
        let last_name = c.field("last_name", validate_name(last, "last name"));
        let mobile = c.field("mobile", validate_mobile(mobile));
        let birth_date = c.field(
            "birth_date",
            validate_birth_date(born, today).map(crate::calendar::iso_date),
        );
        Some(Self {
            first_name: first_name?,
            last_name: last_name?,
            mobile: mobile?,
            birth_date: birth_date?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    #[test]
    fn mobiles_are_09_and_nine_digits() {
        assert_eq!(validate_mobile("0917-123-4567").unwrap(), "09171234567");
        assert_eq!(validate_mobile(" 0917 123 4567 ").unwrap(), "09171234567");
        for bad in [
            "",
            "9171234567",
            "08171234567",
            "091712345678",
            "0917123456x",
            "+639171234567",
        ] {
            assert!(validate_mobile(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn adults_are_18_on_the_day_in_manila() {
        let today = date!(2026 - 11 - 22);
        assert!(validate_birth_date("2008-11-22", today).is_ok(), "18 today");
        assert!(
            validate_birth_date("2008-11-23", today).is_err(),
            "18 tomorrow"
        );
        assert!(validate_birth_date("2030-01-01", today).is_err());
        assert!(validate_birth_date("22/11/2000", today).is_err());
        for signed in ["-1990-05-05", "+1990-05-05", "+01990-05-05"] {
            assert!(validate_birth_date(signed, today).is_err(), "{signed}");
        }
        // Leap-day births come of age on 1 March.
        assert!(validate_birth_date("2008-02-29", date!(2026 - 02 - 28)).is_err());
        assert!(validate_birth_date("2008-02-29", date!(2026 - 03 - 01)).is_ok());
    }

    #[test]
    fn passwords_are_long_and_uncommon() {
        for good in ["golden-ale-2026", "Tala pale ale at noon", "xq7-Vb2m-Lp0w"] {
            assert_eq!(validate_password(good, &[]), Ok(()), "{good}");
        }
        let short = validate_password("beer2026", &[]).unwrap_err();
        assert!(short.contains("at least 10 characters"), "{short}");
        let long = validate_password(&"a1".repeat(65), &[]).unwrap_err();
        assert!(long.contains("128"), "{long}");
        // Common ones, as they are and disguised (within the 10,000 most common).
        for common in [
            "1234567890",
            "qwertyuiop",
            "password123",
            "PASSWORD123",
            "p@ssw0rd12",
        ] {
            assert!(validate_password(common, &[]).is_err(), "{common}");
        }
        // Easy to guess though not on the list: a repeat, a keyboard row, a word and a year.
        for easy in ["aaaaaaaaaaaa", "abcabcabcabc", "Password2026", "zxcvbnm,./"] {
            assert!(validate_password(easy, &[]).is_err(), "{easy}");
        }
        // The member's own details are easy to guess.
        assert!(validate_password("dimaculangan09", &[]).is_ok());
        assert!(validate_password("dimaculangan09", &["Maximo", "Dimaculangan"]).is_err());
    }

    #[test]
    fn names_are_trimmed_and_plain() {
        assert_eq!(validate_name("  Juan ", "first name").unwrap(), "Juan");
        assert!(validate_name("Ma. Cristina O'Neil-Santos", "first name").is_ok());
        assert!(validate_name("", "first name").is_err());
        assert!(validate_name("<script>", "first name").is_err());
    }

    #[test]
    fn details_name_every_bad_field_at_once() {
        let today = Date::from_calendar_date(2026, Month::November, 22).unwrap();
        let mut c = Checker::default();
        let d = Details::check(&mut c, ["", "Santos", "12345", "2010-01-01"], today);
        let errors = c.finish(d).unwrap_err();
        assert_eq!(
            errors.keys().copied().collect::<Vec<_>>(),
            ["birth_date", "first_name", "mobile"]
        );
        let mut c = Checker::default();
        let d = Details::check(
            &mut c,
            [" Rosa ", "Santos", "09181234567", "1988-08-08"],
            today,
        );
        let d = c.finish(d).unwrap();
        assert_eq!(
            (d.first_name.as_str(), d.birth_date.as_str()),
            ("Rosa", "1988-08-08")
        );
    }
}
