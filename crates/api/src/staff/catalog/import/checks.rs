//! The rules a catalog file's records are checked by, a validator per rule ([`Check`]): each
//! problem is named by its record and field, in the order of the record's fields
//! (`products[2] (slug tala-light-330ml): price must be ...`).

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::fmt::Display;
use std::hash::Hash;
use std::ops::RangeInclusive;

use db::catalog_io::Known;
use serde_json::{Map, Value};

use super::file::{shown, Given};

/// The most a price, deposit or fee may be: P1,000,000.00 (a typo of a few zeros stays out, and
/// no total of 999 units of 50 products overflows).
pub const MAX_CENTAVOS: i64 = 100_000_000;
/// A sort order is a whole number in this range.
pub const SORT_ORDER: RangeInclusive<i64> = -1_000_000..=1_000_000;

/// The problem of a text, if it has one: longer than `max` characters, or holding control
/// characters (new lines and tabs are allowed when `lines`).
pub(super) fn text_problem(s: &str, max: usize, lines: bool) -> Option<String> {
    if s.chars().count() > max {
        Some(format!("must be at most {max} characters"))
    } else if s
        .chars()
        .any(|c| c.is_control() && !(lines && (c == '\n' || c == '\t')))
    {
        Some(if lines {
            "must not hold control characters (other than new lines and tabs)".into()
        } else {
            "must be one line without control characters".into()
        })
    } else {
        None
    }
}

/// A slug is the product page's address: lowercase letters and digits in words joined by single
/// hyphens, at most 100 bytes.
pub(super) fn slug_ok(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 100
        && s.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// A SKU: letters, digits, `-`, `_`, `.` or `/`, at most 50.
pub(super) fn sku_ok(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 50
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'/'))
}

/// An image's address: a path on the store (`/img/...`) or an `https://` address, without spaces.
pub(super) fn image_ok(s: &str) -> bool {
    ((s.starts_with('/') && !s.starts_with("//")) || s.starts_with("https://"))
        && !s.contains(char::is_whitespace)
}

/// The index of the record that had `key` first, if one did; otherwise `i` is noted as that
/// record.
pub(super) fn seen_before<K: Eq + Hash>(
    seen: &mut HashMap<K, usize>,
    key: K,
    i: usize,
) -> Option<usize> {
    match seen.entry(key) {
        Entry::Occupied(first) => Some(*first.get()),
        Entry::Vacant(e) => {
            e.insert(i);
            None
        }
    }
}

/// The checks of one record: each problem is noted with the record's label.
pub(super) struct Check<'a> {
    pub(super) label: String,
    pub(super) errors: &'a mut Vec<String>,
}

impl<'a> Check<'a> {
    /// Record `i` of a section whose records are named by a unique `id` (deposits, banners,
    /// promos): the record's checks, labelled by its id, and the id, checked and told apart from
    /// the ids `ids` has seen.
    pub(super) fn by_id(
        section: &str,
        i: usize,
        id: Given<i64>,
        ids: &mut HashMap<i64, usize>,
        errors: &'a mut Vec<String>,
    ) -> (Self, i32) {
        let label = match &id {
            Given::Absent => format!("{section}[{i}]"),
            given => format!("{section}[{i}] (id {})", given.shown()),
        };
        let mut r = Check { label, errors };
        let id = r.int("id", id, 1..=i64::from(i32::MAX), None);
        if let Some(first) = seen_before(ids, id, i).filter(|_| id > 0) {
            r.bad("id", format!("is listed twice (also {section}[{first}])"));
        }
        (r, i32::try_from(id).unwrap_or(0))
    }

    pub(super) fn bad(&mut self, field: &str, msg: impl Display) {
        self.errors.push(format!("{}: {field} {msg}", self.label));
    }

    pub(super) fn missing(&mut self, field: &str) {
        self.bad(field, "is missing");
    }

    /// Text that may be left out; `None` when it is, or has a problem.
    pub(super) fn text(
        &mut self,
        field: &str,
        given: Given<String>,
        max: usize,
        lines: bool,
    ) -> Option<String> {
        match given {
            Given::Absent => None,
            Given::Is(s) => match text_problem(&s, max, lines) {
                Some(problem) => {
                    self.bad(field, problem);
                    None
                }
                None => Some(s),
            },
            Given::Not(v) => {
                self.bad(field, format!("must be text (not {})", shown(&v)));
                None
            }
        }
    }

    /// Text that must be there and not blank; empty when it has another problem.
    pub(super) fn name(&mut self, field: &str, given: Given<String>, max: usize) -> String {
        if given == Given::Absent {
            self.missing(field);
            return String::new();
        }
        let s = self.text(field, given, max, false);
        if s.as_ref().is_some_and(|s| s.trim().is_empty()) {
            self.bad(field, "must not be blank");
        }
        s.unwrap_or_default()
    }

    /// A whole number in `range`; `default` when left out, if it may be (0 on a problem).
    pub(super) fn int(
        &mut self,
        field: &str,
        given: Given<i64>,
        range: RangeInclusive<i64>,
        default: Option<i64>,
    ) -> i64 {
        match (given, default) {
            (Given::Absent, Some(d)) => d,
            (Given::Absent, None) => {
                self.missing(field);
                0
            }
            (Given::Is(n), _) if range.contains(&n) => n,
            (given, _) => {
                let (min, max) = range.into_inner();
                self.bad(
                    field,
                    format!(
                        "must be a whole number from {min} to {max} (not {})",
                        given.shown()
                    ),
                );
                0
            }
        }
    }

    /// Centavos: a whole number from 0 to [`MAX_CENTAVOS`] (0 on a problem).
    pub(super) fn money(&mut self, field: &str, given: Given<i64>) -> i64 {
        match given {
            Given::Absent => self.missing(field),
            Given::Is(n) if (0..=MAX_CENTAVOS).contains(&n) => return n,
            Given::Is(n) if n > MAX_CENTAVOS => self.bad(
                field,
                format!(
                    "must be at most {} ({MAX_CENTAVOS} centavos), not {} ({n})",
                    domain::money::format_php(MAX_CENTAVOS),
                    domain::money::format_php(n)
                ),
            ),
            given => self.bad(
                field,
                format!(
                    "must be a whole number of centavos >= 0 (not {})",
                    given.shown()
                ),
            ),
        }
        0
    }

    /// True or false; `default` when left out, if it may be (false on a problem).
    pub(super) fn flag(&mut self, field: &str, given: Given<bool>, default: Option<bool>) -> bool {
        match (given, default) {
            (Given::Is(b), _) => b,
            (Given::Absent, Some(d)) => d,
            (Given::Absent, None) => {
                self.missing(field);
                false
            }
            (given, _) => {
                self.bad(
                    field,
                    format!("must be true or false (not {})", given.shown()),
                );
                false
            }
        }
    }

    /// A day, `YYYY-MM-DD`; empty on a problem.
    pub(super) fn date(&mut self, field: &str, given: Given<String>) -> String {
        match given {
            Given::Absent => self.missing(field),
            Given::Is(s) if domain::calendar::parse_iso_date(&s).is_some() => return s,
            given => self.bad(
                field,
                format!("must be a date, YYYY-MM-DD (not {})", given.shown()),
            ),
        }
        String::new()
    }

    /// A day, `YYYY-MM-DD`, that may be left out (an open end); none on a problem.
    pub(super) fn open_date(&mut self, field: &str, given: Given<String>) -> Option<String> {
        match given {
            Given::Absent => None,
            given => Some(self.date(field, given)).filter(|d| !d.is_empty()),
        }
    }

    /// A span's end is not before its start (either may be open, or empty after a problem).
    pub(super) fn in_order(&mut self, starts_on: Option<&str>, ends_on: Option<&str>) {
        if let (Some(start), Some(end)) = (starts_on, ends_on) {
            if !start.is_empty() && !end.is_empty() && end < start {
                self.bad("ends_on", format!("{end} is before starts_on {start}"));
            }
        }
    }

    /// An image's address (see [`image_ok`]), which may be left out unless `required`.
    pub(super) fn image(
        &mut self,
        field: &str,
        given: Given<String>,
        required: bool,
    ) -> Option<String> {
        if required && given == Given::Absent {
            self.missing(field);
            return None;
        }
        let s = self.text(field, given, 500, false)?;
        if !image_ok(&s) {
            self.bad(
                field,
                format!(
                    "must be a path on the store (/img/...) or an https:// address (not {})",
                    shown(&s)
                ),
            );
        }
        Some(s)
    }

    /// `name` must be one of `list`'s names (its case ignored), unless it is empty (a problem
    /// already noted).
    pub(super) fn one_of(&mut self, field: &str, name: &str, list: &[(i32, String)]) {
        if !name.is_empty() && Known::id_of(list, name).is_none() {
            self.bad(
                field,
                format!("must be one of {} (not {name:?})", Known::names(list)),
            );
        }
    }

    /// Notes the fields the record does not have (a typo is not silently dropped).
    pub(super) fn unknown(self, unknown: &Map<String, Value>, fields: &[&str]) {
        for k in unknown.keys() {
            self.errors.push(format!(
                "{}: {k} is not a field here (the fields are {})",
                self.label,
                fields.join(", ")
            ));
        }
    }
}
