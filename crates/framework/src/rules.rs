//! The rules the store's checks enforce, as the OpenAPI document states them (the contract tells
//! the truth, so a client, and the fuzzer, can send what will be accepted). The checks themselves
//! are in `domain` (`account`, `email`); these patterns say the same in JSON Schema's regular
//! expressions, and a test holds them to the checks. A body's field takes its rule with
//! `#[schema(schema_with = framework::rules::mobile)]`.

use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};

/// A text field of a pattern and a greatest length.
fn text(pattern: &str, max: Option<usize>) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .pattern(Some(pattern))
        .max_length(max)
}

/// A first or last name ([`NAME`]).
pub fn name() -> ObjectBuilder {
    text(NAME, Some(domain::account::NAME_MAX))
}

/// An email address ([`EMAIL`]).
pub fn email() -> ObjectBuilder {
    text(EMAIL, Some(domain::email::MAX))
}

/// A mobile number ([`MOBILE`]).
pub fn mobile() -> ObjectBuilder {
    text(MOBILE, None).description(Some("`09` followed by 9 digits."))
}

/// A birth date ([`DATE`]): the store takes adults only.
pub fn birth_date() -> ObjectBuilder {
    text(DATE, None).description(Some("`YYYY-MM-DD`; 18 or older today in Manila."))
}

/// A line of an address ([`ADDRESS_LINE`]).
pub fn address_line() -> ObjectBuilder {
    text(ADDRESS_LINE, Some(200))
}

/// Text on one line: no control characters (PostgreSQL cannot even compare a NUL).
pub const LINE: &str = r"^[^\u0000-\u001F\u007F-\u009F]*$";

/// Text of at most `max` characters, of any characters (the call checks the rest). A field takes
/// a limit that is a constant so (utoipa's `max_length = ...` takes only a number written out).
pub fn up_to(max: usize) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .max_length(Some(max))
}

/// A whole number of 64 bits (`i64`) from `min` to `max`: a field's bounds that are constants
/// (utoipa's `maximum = ...` takes only a number written out).
pub fn int64(min: i64, max: i64) -> ObjectBuilder {
    whole(min, max).format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
}

/// A whole number of 32 bits (`i32`) from `min` to `max` (as [`int64`]).
pub fn int32(min: i32, max: i32) -> ObjectBuilder {
    whole(min.into(), max.into()).format(Some(SchemaFormat::KnownFormat(KnownFormat::Int32)))
}

fn whole(min: i64, max: i64) -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .minimum(Some(min))
        .maximum(Some(max))
}

/// A line of text of at most `max` characters ([`LINE`]).
pub fn line(max: usize) -> ObjectBuilder {
    text(LINE, Some(max))
}

/// What a text area takes: lines of typed text (no other control character), at most `max`
/// characters.
pub const LINES: &str = r"^[^\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]*$";

/// Words with lines (a text area), at most `max` characters.
pub fn lines(max: usize) -> ObjectBuilder {
    text(LINES, Some(max))
}

/// A search or filter text: a line of at most 60 characters.
pub fn search() -> ObjectBuilder {
    line(60)
}

/// An amount of pesos as a person types it ([`domain::money::PESOS`]: `1,250.50`).
pub fn pesos() -> ObjectBuilder {
    text(domain::money::PESOS, Some(20))
        .description(Some("Pesos, as typed: `1,250.50`, `980`, `P 75.00`."))
}

/// A Manila day, `YYYY-MM-DD` ([`DATE`]).
pub fn day() -> ObjectBuilder {
    text(DATE, None).description(Some("A day in Manila, `YYYY-MM-DD`."))
}

/// A new password: its length (how easy it is to guess is the store's judgement, a 422).
pub fn new_password() -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .min_length(Some(domain::account::PASSWORD_MIN))
        .max_length(Some(domain::account::PASSWORD_MAX))
}

/// A client's key for one change ([`domain::text::is_request_key`]).
pub const REQUEST_KEY: &str = "^[A-Za-z0-9_-]{16,64}$";

/// A write's idempotency key ([`REQUEST_KEY`]), or null: none (the change is made each time).
pub fn request_key() -> ObjectBuilder {
    use utoipa::openapi::schema::SchemaType;
    text(REQUEST_KEY, Some(domain::text::REQUEST_KEY_MAX))
        .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
        .description(Some(
        "The client's name for this change (16 to 64 letters, digits, `-`, `_`): sent again with \
         the same key (a retry after a lost answer), the change is not made twice and the \
         answer is as for the first; null or absent, none.",
        ))
}

/// The request key of a body, checked (none is fine: the change is then made each time).
pub fn checked_request_key(key: Option<&str>) -> Result<Option<&str>, crate::error::ApiError> {
    match key {
        Some(k) if !domain::text::is_request_key(k) => Err(crate::error::ApiError::Invalid {
            field: "request_key",
            message: "A request key is 16 to 64 letters, digits, '-' or '_'.".into(),
        }),
        k => Ok(k),
    }
}

/// A Philippine mobile number: `09` and 9 digits.
pub const MOBILE: &str = "^09[0-9]{9}$";
/// An email address as `domain::email::validate_email` takes it (at most 254 characters).
pub const EMAIL: &str = r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$";
/// A name (first or last): at most 60 characters, something besides spaces, none of
/// `<>{}[]\/@#$%^*=+|~` and backquote, nor quotes or controls.
pub const NAME: &str = r#"^[^<>{}\[\]\\/@#$%^*=+|~`"\u0000-\u001F\u007F-\u009F]*[^\s<>{}\[\]\\/@#$%^*=+|~`"\u0000-\u001F\u007F-\u009F][^<>{}\[\]\\/@#$%^*=+|~`"\u0000-\u001F\u007F-\u009F]*$"#;
/// A date `YYYY-MM-DD` that exists in the calendar (February 29 only in leap years), so that
/// whatever matches is a date the store reads.
pub const DATE: &str = concat!(
    "^([0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])",
    "|[0-9]{4}-(0[13-9]|1[0-2])-(29|30)",
    "|[0-9]{4}-(0[13578]|1[02])-31",
    "|([0-9]{2}(0[48]|[2468][048]|[13579][26])|([02468][048]|[13579][26])00)-02-29)$"
);
/// A `testdate` (development and tests): a date, or a date and a Manila time `THH:MM`.
pub const TESTDATE: &str = concat!(
    "^([0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|1[0-9]|2[0-8])",
    "|[0-9]{4}-(0[13-9]|1[0-2])-(29|30)",
    "|[0-9]{4}-(0[13578]|1[02])-31",
    "|([0-9]{2}(0[48]|[2468][048]|[13579][26])|([02468][048]|[13579][26])00)-02-29)",
    "(T([01][0-9]|2[0-3]):[0-5][0-9])?$"
);
/// A line of an address: 5 to 200 characters, no control characters, no space at either end
/// (the store trims Unicode's white space; spelled out, as engines read `\s` differently).
pub const ADDRESS_LINE: &str = concat!(
    r"^[^ \u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\u0000-\u001F\u007F-\u009F]",
    r"[^\u0000-\u001F\u007F-\u009F]{3,198}",
    r"[^ \u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000\u0000-\u001F\u007F-\u009F]$"
);

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, text: &str) -> bool {
        regex_lite::Regex::new(pattern).unwrap().is_match(text)
    }

    #[test]
    fn the_pesos_pattern_reads_what_the_parser_does() {
        for text in [
            "1250",
            "1,250",
            "1,250.5",
            "P 980.00",
            "₱12,345,678.90",
            "0",
            " 7.05 ",
            "",
            "-5",
            "1,25",
            "12,3456",
            "1.234",
            "1e3",
            "1234567890",
            "1,000,000,000",
            "P",
            ".5",
            "1,2345",
        ] {
            assert_eq!(
                matches(domain::money::PESOS, text),
                domain::money::parse_pesos(text).is_some(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn the_patterns_say_what_the_checks_do() {
        for (text, ok) in [
            ("09171234567", true),
            ("0917123456", false),
            ("+639171234567", false),
        ] {
            assert_eq!(matches(MOBILE, text), ok, "{text}");
            assert_eq!(domain::account::validate_mobile(text).is_ok(), ok, "{text}");
        }
        for (text, ok) in [
            ("ana@example.com", true),
            ("ana.maria+beer@sub.example.ph", true),
            ("ana@example", false),
            (".ana@example.com", false),
            ("ana..m@example.com", false),
            ("ana@-example.com", false),
            ("ana@example.c0m", false),
        ] {
            assert_eq!(matches(EMAIL, text), ok, "{text}");
            assert_eq!(domain::email::validate_email(text).is_ok(), ok, "{text}");
        }
        for (text, ok) in [
            ("Ana", true),
            ("Dela Cruz", true),
            ("  ", false),
            ("<b>", false),
            ("a@b", false),
        ] {
            assert_eq!(matches(NAME, text), ok, "{text}");
            assert_eq!(
                domain::account::validate_name(text, "name").is_ok(),
                ok,
                "{text}"
            );
        }
        for (text, ok) in [
            ("0123456789abcdef", true),
            ("0123456789abcde", false),
            ("A-b_c".repeat(12).as_str(), true),
            ("x".repeat(65).as_str(), false),
            ("0123456789abcdef ", false),
            ("0123456789abcdé", false),
            ("0123456789abcdef\n", false),
        ] {
            assert_eq!(matches(REQUEST_KEY, text), ok, "{text}");
            assert_eq!(domain::text::is_request_key(text), ok, "{text}");
            assert_eq!(checked_request_key(Some(text)).is_ok(), ok, "{text}");
        }
        assert!(matches(DATE, "1990-01-02") && !matches(DATE, "1990-1-2"));
        assert!(!matches(DATE, "0000-00-00") && !matches(DATE, "1990-13-01"));
        for (text, ok) in [
            ("2026-11-24", true),
            ("2026-11-24T14:00", true),
            ("2026-11-24T24:00", false),
            ("2026-11-24T14", false),
            ("2026-00-24", false),
            ("2026-02-29", false),
            ("2028-02-29T09:30", true),
            ("2100-02-29", false),
            ("2000-02-29", true),
            ("2026-04-31", false),
            ("2026-12-31", true),
            ("-2026-11-24", false),
            ("+2026-11-24", false),
        ] {
            assert_eq!(matches(TESTDATE, text), ok, "{text}");
            assert_eq!(
                domain::calendar::parse_testdate(text).is_some(),
                ok,
                "{text}"
            );
        }
        assert!(
            matches(ADDRESS_LINE, "Unit 5B, 12 Jupiter St.")
                && !matches(ADDRESS_LINE, "a\u{7}bcdef")
        );
        assert!(!matches(ADDRESS_LINE, "abc"));
        assert!(matches(LINE, "Out of kegs, sorry") && matches(LINE, ""));
        assert!(!matches(LINE, "a\nb") && !matches(LINE, "a\u{0}b") && !matches(LINE, "a\u{85}"));
        assert!(!matches(ADDRESS_LINE, "  abc ") && !matches(ADDRESS_LINE, "abcde\u{a0}"));
    }
}
