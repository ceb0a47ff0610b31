//! Names a member gives things (Go-to Cases): what a name may hold, and the key two
//! names are the same by. Two names are one when they differ only in case or in Unicode form
//! ("Straße" and "STRASSE", a composed and a decomposed "Café", full-width letters, a no-break
//! space): the key is Unicode's compatibility caseless form (NFKC of the case-folded NFD, twice,
//! as Unicode's D146 says), with runs of spaces made one.

use caseless::Caseless;
use unicode_normalization::UnicodeNormalization;

/// The key a name is unique by.
pub fn key(name: &str) -> String {
    let folded: String = name
        .nfd()
        .default_case_fold()
        .nfkc()
        .default_case_fold()
        .nfkc()
        .collect();
    folded.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A name as typed, checked: 1 to `max` UTF-16 units (what a browser's `maxlength` counts) of
/// visible text; the name trimmed, or the message saying what is wrong.
pub fn check(name: &str, max: usize) -> Result<&str, String> {
    let name = name.trim();
    if name.is_empty() {
        return Err("Enter a name.".into());
    }
    if crate::text::check(name, 0, usize::MAX, false) == Err(crate::text::Problem::Characters) {
        return Err("Use letters, numbers, spaces and punctuation in the name.".into());
    }
    if name.encode_utf16().count() > max {
        return Err(format!("A name has at most {max} characters."));
    }
    if key(name).is_empty() {
        return Err("Enter a name.".into());
    }
    Ok(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_differ_only_in_case_or_form_are_one() {
        for (a, b) in [
            ("Friday", "FRIDAY"),
            ("Straße", "STRASSE"),
            ("Café", "Cafe\u{301}"),
            ("ﬀ", "ff"),
            ("Ｆｒｉｄａｙ", "Friday"),
            ("A\u{A0}B", "a b"),
            ("  Friday   night ", "friday night"),
            ("ΣΊΣΥΦΟΣ", "σίσυφος"),
        ] {
            assert_eq!(key(a), key(b), "{a:?} and {b:?}");
        }
        assert_ne!(key("Friday"), key("Fri day"));
        assert_ne!(key("Pale"), key("Palé"));
    }

    #[test]
    fn invisible_and_private_characters_are_refused() {
        for bad in [
            "Fri\u{200B}day",
            "\u{FEFF}",
            "a\u{202E}b",
            "a\u{2028}b",
            "a\u{E0041}",
            "a\u{E000}",
            "a\u{0}b",
            "a\u{FFFF}",
            "\u{200D}",
            "Fri\u{200C}",
            "   ",
            "",
        ] {
            assert!(check(bad, 60).is_err(), "{bad:?}");
        }
        assert_eq!(check("  Friday ", 60), Ok("Friday"));
        assert_eq!(check("Tagay 🍺 night", 60), Ok("Tagay 🍺 night"));
        assert!(check(&"x".repeat(61), 60).is_err());
        assert!(
            check(&"🍺".repeat(31), 60).is_err(),
            "UTF-16 units, as maxlength counts"
        );
        assert!(check(&"🍺".repeat(30), 60).is_ok());
    }
}
