//! Text a person types: an order's contact, address and notes, a saved address, a
//! member's names, a Go-to Case's name. One rule for all of them, so that what the store keeps
//! and shows is what the shopper saw when they typed it:
//!
//! - no control characters (line breaks only where the field has lines: notes);
//! - no format characters (zero-width spaces and joiners, direction marks and overrides, the
//!   byte-order mark, tags), line and paragraph separators, private use (the pages' slot
//!   sentinels are made of it), noncharacters, the replacement character U+FFFD (what a broken
//!   encoding leaves behind) or the blank letters that look like nothing (Hangul fillers, the
//!   blank Braille pattern);
//! - a required value has at least one visible character.
//!
//! Lengths count characters (Unicode scalar values) after the ends are trimmed.

/// A client's name for one change it asks for (its idempotency key): the same key sent again
/// names the same change, which is answered without being made twice (a retry on a dropping link,
/// a double click). 16 to 64 ASCII letters, digits, `-` or `_`.
pub fn is_request_key(key: &str) -> bool {
    (REQUEST_KEY_MIN..=REQUEST_KEY_MAX).contains(&key.len())
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The fewest characters of a request key ([`is_request_key`]).
pub const REQUEST_KEY_MIN: usize = 16;
/// The most characters of a request key ([`is_request_key`]).
pub const REQUEST_KEY_MAX: usize = 64;

/// What is wrong with a typed text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Problem {
    /// It holds a character a person does not mean to type ([`refused`]).
    Characters,
    /// Fewer or more characters than the field takes (a required one given only white space).
    Length,
}

/// What a field says when its text holds a [`refused`] character.
pub const CHARACTERS: &str =
    "Use letters, numbers, spaces and punctuation only (no invisible, control or private-use characters).";

/// Characters no typed text may hold (see the module's rule); a line break is refused here and
/// allowed by [`check`] where a field has lines.
pub fn refused(c: char) -> bool {
    c.is_control()
        || matches!(c,
            // Unicode's format characters (category Cf, Unicode 15.1) but the two joiners
            // ([`JOINERS`], allowed between visible characters), and the default-ignorable
            // fillers that show as nothing.
            '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{180E}'
            | '\u{0600}'..='\u{0605}' | '\u{06DD}' | '\u{070F}' | '\u{0890}'..='\u{0891}'
            | '\u{08E2}' | '\u{17B4}'..='\u{17B5}'
            | '\u{200B}' | '\u{200E}'..='\u{200F}'
            | '\u{110BD}' | '\u{110CD}' | '\u{13430}'..='\u{1343F}'
            | '\u{1BCA0}'..='\u{1BCA3}' | '\u{1D173}'..='\u{1D17A}'
            | '\u{2028}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{2800}' | '\u{3164}' | '\u{FFA0}'
            | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFD}'
            | '\u{FDD0}'..='\u{FDEF}'
            | '\u{E000}'..='\u{F8FF}'
            | '\u{E0000}'..='\u{E007F}'
            | '\u{F0000}'..)
        || (c as u32 & 0xFFFE) == 0xFFFE
}

/// The zero-width non-joiner and joiner: needed inside words of some scripts (Persian) and in
/// the emoji phone keyboards make (a woman shrugging), so allowed between two visible characters
/// and nowhere else.
pub const JOINERS: [char; 2] = ['\u{200C}', '\u{200D}'];

/// A typed text checked: trimmed, `min` to `max` characters, none [`refused`] (`\n` and `\r`
/// allowed where `lines`) and a joiner only between two visible characters; with `min > 0`, at
/// least one visible character. Answers the trimmed text.
pub fn check(text: &str, min: usize, max: usize, lines: bool) -> Result<&str, Problem> {
    let text = text.trim();
    let bad = |c: char| refused(c) && !(lines && (c == '\n' || c == '\r'));
    if text.chars().any(bad) || !joined(text) {
        return Err(Problem::Characters);
    }
    if !(min..=max).contains(&text.chars().count()) || (min > 0 && !text.chars().any(visible)) {
        return Err(Problem::Length);
    }
    Ok(text)
}

/// Whether every joiner of `text` stands between two visible characters.
fn joined(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    chars.iter().enumerate().all(|(i, c)| {
        !JOINERS.contains(c)
            || (i > 0 && visible(chars[i - 1]) && chars.get(i + 1).is_some_and(|n| visible(*n)))
    })
}

/// Whether a character shows on its own: not white space, not a mark that only changes the one
/// before it (an accent, a variation selector).
fn visible(c: char) -> bool {
    !c.is_whitespace()
        && !JOINERS.contains(&c)
        && !refused(c)
        && !unicode_normalization::char::is_combining_mark(c)
        && !('\u{FE00}'..='\u{FE0F}').contains(&c)
}

/// A shopper's text as a terminal may print it: every [`refused`] character (and the backslash)
/// written as an escape (`\u{202e}`), so a staff listing shows what is there and is never
/// rearranged or hidden by it.
pub fn escaped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            c if refused(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// Why a form body or query string cannot be read as text: a `%` not followed by two hex
/// digits, or escapes that decode to bytes that are not UTF-8 (which a lenient reader would
/// turn into U+FFFD and keep). `None` when it reads cleanly.
pub fn encoding_fault(encoded: &[u8]) -> Option<Fault> {
    let mut decoded = Vec::with_capacity(encoded.len());
    let mut i = 0;
    while i < encoded.len() {
        match encoded[i] {
            b'%' => {
                let hex = |b: Option<&u8>| b.and_then(|b| (*b as char).to_digit(16));
                match (hex(encoded.get(i + 1)), hex(encoded.get(i + 2))) {
                    (Some(h), Some(l)) => decoded.push((h * 16 + l) as u8),
                    _ => return Some(Fault::MalformedEscape),
                }
                i += 3;
            }
            // Names and values end at `&` and `=`: each piece must be UTF-8 on its own.
            b'&' | b'=' => {
                if std::str::from_utf8(&decoded).is_err() {
                    return Some(Fault::NotUtf8);
                }
                decoded.clear();
                i += 1;
            }
            b => {
                decoded.push(b);
                i += 1;
            }
        }
    }
    std::str::from_utf8(&decoded).err().map(|_| Fault::NotUtf8)
}

/// What [`encoding_fault`] found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault {
    /// A `%` not followed by two hex digits.
    MalformedEscape,
    /// Escapes or bytes that are not UTF-8.
    NotUtf8,
}

impl Fault {
    /// What a form post is answered (400).
    pub fn in_form(self) -> &'static str {
        match self {
            Self::MalformedEscape => "The form holds a malformed escape (a % not followed by two hex digits); nothing was saved. Please send it again from the store's page.",
            Self::NotUtf8 => "The form holds text that is not UTF-8; nothing was saved. Please send it again from the store's page.",
        }
    }

    /// What a call's query string is answered (400), naming the parameter (`name`).
    pub fn in_query(self, name: &str) -> String {
        match self {
            Self::MalformedEscape => {
                format!("{name} holds a malformed escape (a % not followed by two hex digits).")
            }
            Self::NotUtf8 => format!("{name} holds text that is not UTF-8."),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invisible_reordering_and_broken_text_is_refused() {
        for bad in [
            "\u{200B}\u{200B}",
            "\u{202E}Juan Cruz",
            "Juan\u{2028}Cruz",
            "Juan\u{FFFD}\u{FFFD}",
            "\u{FEFF}Ana",
            "Ana\u{E000}csrf\u{E000}",
            "A\u{0}na",
            "An\u{7}a",
            "Ana\u{E0041}",
            "Ana\u{FFFF}",
            "\u{3164}\u{3164}",
            "\u{2800}\u{2800}",
            "Ana\tSantos",
            "\u{1D173}\u{1D173}",
            "\u{0600}Ana",
            "\u{200D}\u{200D}",
            "Ana\u{200D}",
            "\u{200C}Ana",
            "Ana \u{200D} Cruz",
            "A\u{200D}\u{200D}na",
        ] {
            assert_eq!(
                check(bad, 2, 100, false),
                Err(Problem::Characters),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn a_required_value_needs_something_visible_and_lengths_count_characters() {
        assert_eq!(check("   ", 2, 100, false), Err(Problem::Length));
        assert_eq!(check("", 0, 500, true), Ok(""));
        assert_eq!(check("  Ana Santos ", 2, 100, false), Ok("Ana Santos"));
        assert_eq!(check("Niño Peña", 2, 9, false), Ok("Niño Peña"));
        assert_eq!(check("Niño Peñas", 2, 9, false), Err(Problem::Length));
        assert_eq!(check("Tagay 🍺", 2, 100, false), Ok("Tagay 🍺"));
        // The joiners inside a word and an emoji a phone keyboard makes.
        assert_eq!(
            check("می\u{200C}خواهم", 2, 100, false),
            Ok("می\u{200C}خواهم")
        );
        assert_eq!(
            check("🤷\u{200D}♀\u{FE0F}", 2, 100, false),
            Ok("🤷\u{200D}♀\u{FE0F}")
        );
        assert_eq!(check("A", 2, 100, false), Err(Problem::Length));
        assert_eq!(
            check("\u{301}\u{301}\u{FE0F}", 2, 100, false),
            Err(Problem::Length)
        );
        assert_eq!(check("Jose\u{301}", 2, 100, false), Ok("Jose\u{301}"));
    }

    #[test]
    fn line_breaks_only_where_a_field_has_lines() {
        assert_eq!(check("Ring\r\ntwice", 0, 500, true), Ok("Ring\r\ntwice"));
        assert_eq!(
            check("Ring\ntwice", 2, 100, false),
            Err(Problem::Characters)
        );
        assert_eq!(
            check("Ring\u{2029}twice", 0, 500, true),
            Err(Problem::Characters)
        );
    }

    #[test]
    fn staff_see_escapes_not_hidden_or_reordered_text() {
        assert_eq!(escaped("\u{202E}Juan"), "\\u{202e}Juan");
        assert_eq!(escaped("a\u{200B}b\\c"), "a\\u{200b}b\\\\c");
        assert_eq!(escaped("\u{1b}[2J"), "\\u{1b}[2J");
        assert_eq!(escaped("Niño 🍺"), "Niño 🍺");
    }

    #[test]
    fn a_form_with_a_malformed_escape_or_bytes_that_are_not_utf8_is_refused() {
        for ok in [
            &b"contact_name=Ana+Santos&notes=Ring%20twice"[..],
            b"name=Ni%C3%B1o",
            b"",
            b"a=%F0%9F%8D%BA",
        ] {
            assert_eq!(
                encoding_fault(ok),
                None,
                "{:?}",
                String::from_utf8_lossy(ok)
            );
        }
        for (bad, why) in [
            (&b"address=100%"[..], Fault::MalformedEscape),
            (b"address=%zz", Fault::MalformedEscape),
            (b"address=%4", Fault::MalformedEscape),
            (b"address=%FF%FE", Fault::NotUtf8),
            (b"address=%C3", Fault::NotUtf8),
            (b"address=\xff", Fault::NotUtf8),
            // A character split across two fields is two broken pieces.
            (b"a=%C3&b=%B1", Fault::NotUtf8),
        ] {
            assert_eq!(
                encoding_fault(bad),
                Some(why),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
    }
}
