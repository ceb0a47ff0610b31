//! The store's log: `tracing` events (and the `log` records of the crates that use `log`,
//! bridged) to standard error, as readable lines (`LOG_FORMAT=text`, the default) or one JSON
//! object a line (`LOG_FORMAT=json`), filtered by `RUST_LOG` (`info` by default; `target=level`
//! pairs as before, e.g. `info,store::request=warn`).
//!
//! Personal data stays out by construction: requests are logged by method, path without its
//! query (links carry tokens), status, duration and request id; nothing logs a body, a header
//! other than `x-request-id`, or a query. As a safety net for messages the store does not
//! write itself (a mail server's refusal that quotes the address, a database error), every line
//! passes [`redact`] on its way out: email addresses and Philippine mobile numbers become
//! `[email]` and `[mobile]`.

use std::borrow::Cow;
use std::io::Write;

use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::Layer;

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum LogFormat {
    /// Readable lines: time, level, target, message and fields.
    #[default]
    Text,
    /// One JSON object a line (`timestamp`, `level`, `target`, `message` and the fields).
    Json,
}

/// The filter `RUST_LOG` asks for (`info` when unset or not understood; the second value says
/// why it was not).
fn filter() -> (Targets, Option<String>) {
    let default = Targets::new().with_default(LevelFilter::INFO);
    match std::env::var("RUST_LOG") {
        Ok(v) if !v.trim().is_empty() => match v.trim().parse::<Targets>() {
            Ok(t) => (t, None),
            Err(e) => (
                default,
                Some(format!("RUST_LOG {v:?} not understood ({e}); using info")),
            ),
        },
        _ => (default, None),
    }
}

/// Installs the store's log for this process (once; later calls change nothing).
pub fn init(format: LogFormat) {
    let (targets, problem) = filter();
    let ansi = format == LogFormat::Text && std::io::IsTerminal::is_terminal(&std::io::stderr());
    let layer = match format {
        LogFormat::Text => tracing_subscriber::fmt::layer()
            .with_writer(Redacting)
            .with_ansi(ansi)
            .boxed(),
        LogFormat::Json => tracing_subscriber::fmt::layer()
            .json()
            .flatten_event(true)
            .with_current_span(false)
            .with_span_list(false)
            .with_writer(Redacting)
            .boxed(),
    };
    if tracing_subscriber::registry()
        .with(layer.with_filter(targets))
        .try_init()
        .is_ok()
    {
        if let Some(problem) = problem {
            tracing::warn!("{problem}");
        }
    }
}

/// Standard error, each line redacted ([`redact`]) before it is written.
#[derive(Debug, Clone, Copy)]
pub struct Redacting;

impl<'a> MakeWriter<'a> for Redacting {
    type Writer = RedactingWriter;

    fn make_writer(&'a self) -> Self::Writer {
        RedactingWriter
    }
}

/// Writes what the formatter hands it (one whole event at a time) to standard error, redacted.
pub struct RedactingWriter;

impl Write for RedactingWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        std::io::stderr().lock().write_all(&redact(buf))?;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stderr().flush()
    }
}

fn is_local(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'%' | b'+' | b'-')
}

fn is_domain(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-')
}

/// The span of an email address around the `@` at `at`, if there is one.
fn email_at(s: &[u8], at: usize) -> Option<(usize, usize)> {
    let mut start = at;
    while start > 0 && is_local(s[start - 1]) {
        start -= 1;
    }
    let mut end = at + 1;
    while end < s.len() && is_domain(s[end]) {
        end += 1;
    }
    // A domain ends with a letter or digit: "a@b.ph." is the address and a full stop.
    while end > at + 1 && matches!(s[end - 1], b'.' | b'-') {
        end -= 1;
    }
    let domain = &s[at + 1..end];
    let dot = domain.iter().position(|&b| b == b'.')?;
    (start < at && dot > 0 && dot + 1 < domain.len()).then_some((start, end))
}

/// Whether the digits `s[start..end]`, standing alone (no letter or digit around them), are a
/// Philippine mobile number: `09` and 9 digits, or `639` and 9 digits (`+63...`).
fn is_mobile(s: &[u8], start: usize, end: usize) -> bool {
    let alone = (start == 0 || !s[start - 1].is_ascii_alphanumeric())
        && (end == s.len() || !s[end].is_ascii_alphanumeric());
    let digits = &s[start..end];
    alone
        && ((digits.len() == 11 && digits.starts_with(b"09"))
            || (digits.len() == 12 && digits.starts_with(b"639")))
}

/// A log line with email addresses and mobile numbers replaced by `[email]` and `[mobile]`;
/// the line itself when it has none (no copy).
pub fn redact(line: &[u8]) -> Cow<'_, [u8]> {
    let mut spans: Vec<(usize, usize, &'static [u8])> = Vec::new();
    let mut i = 0;
    while i < line.len() {
        let b = line[i];
        if b == b'@' {
            if let Some((start, end)) = email_at(line, i) {
                // An address may start inside digits already taken for a mobile number.
                while spans.last().is_some_and(|&(_, e, _)| e > start) {
                    spans.pop();
                }
                spans.push((start, end, b"[email]"));
                i = end;
                continue;
            }
        } else if b.is_ascii_digit() {
            let start = i;
            while i < line.len() && line[i].is_ascii_digit() {
                i += 1;
            }
            if is_mobile(line, start, i) {
                spans.push((start, i, b"[mobile]"));
            }
            continue;
        }
        i += 1;
    }
    if spans.is_empty() {
        return Cow::Borrowed(line);
    }
    let mut out = Vec::with_capacity(line.len());
    let mut at = 0;
    for (start, end, with) in spans {
        out.extend_from_slice(&line[at..start]);
        out.extend_from_slice(with);
        at = end;
    }
    out.extend_from_slice(&line[at..]);
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> String {
        String::from_utf8(redact(s.as_bytes()).into_owned()).unwrap()
    }

    #[test]
    fn addresses_and_mobiles_are_redacted() {
        assert_eq!(
            r("mail 5 (attempt 1): 550 5.1.1 <Ana.Santos+x@mail.example.ph>: rejected"),
            "mail 5 (attempt 1): 550 5.1.1 <[email]>: rejected"
        );
        assert_eq!(r("to ana@example.com."), "to [email].");
        assert_eq!(
            r(r#"{"message":"mobile 09171234567 taken","n":"+639171234567"}"#),
            r#"{"message":"mobile [mobile] taken","n":"+[mobile]"}"#
        );
    }

    #[test]
    fn other_text_is_left_alone() {
        for s in [
            "INFO store::request: request method=GET path=/buy-beer status=200 ms=0.41",
            "request_id=a0917123456789bc barangay 1380300002 at 1767225600",
            "user@localhost said hi; an @ alone; @b.c; a@.c",
            "09171234567890 is too long to be a mobile",
        ] {
            assert_eq!(r(s), s);
            assert!(matches!(redact(s.as_bytes()), Cow::Borrowed(_)));
        }
    }
}
