//! Business time is Asia/Manila (UTC+8, no daylight saving). Dates travel as ISO text
//! (`YYYY-MM-DD`), which compares correctly as text.

use time::macros::{format_description, offset};
use time::{Date, OffsetDateTime, PrimitiveDateTime, Time};

/// The store's clock: now in Manila.
pub fn manila_now() -> PrimitiveDateTime {
    let now = OffsetDateTime::now_utc().to_offset(offset!(+8));
    PrimitiveDateTime::new(now.date(), now.time())
}

/// Now as Unix seconds: what sessions, links and rate limits count in.
pub fn unix_now() -> i64 {
    OffsetDateTime::now_utc().unix_timestamp()
}

/// Now as Unix milliseconds (a session's id counts its start in them).
pub fn unix_millis() -> i64 {
    i64::try_from(OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000).unwrap_or(i64::MAX)
}

/// Parses a `testdate` override: `YYYY-MM-DD` (midnight) or `YYYY-MM-DDTHH:MM`, in Manila time.
pub fn parse_testdate(value: &str) -> Option<PrimitiveDateTime> {
    let v = value.trim();
    // Four digits of a year, never a sign (`time` would read "-2026-11-24").
    if !v.as_bytes().iter().take(4).all(u8::is_ascii_digit) || v.len() < 10 {
        return None;
    }
    let date_fmt = format_description!("[year]-[month]-[day]");
    if let Ok(d) = Date::parse(v, date_fmt) {
        return Some(PrimitiveDateTime::new(d, Time::MIDNIGHT));
    }
    let dt_fmt = format_description!("[year]-[month]-[day]T[hour]:[minute]");
    PrimitiveDateTime::parse(v, dt_fmt).ok()
}

/// `YYYY-MM-DD`.
pub fn iso_date(d: Date) -> String {
    let fmt = format_description!("[year]-[month]-[day]");
    d.format(fmt).unwrap_or_default()
}

/// A `YYYY-MM-DD` date, strictly (no time, no blanks), if it is a real day.
pub fn parse_iso_date(value: &str) -> Option<Date> {
    Date::parse(value, format_description!("[year]-[month]-[day]")).ok()
}

/// The first second of a Manila day given as `YYYY-MM-DD`, as Unix seconds.
pub fn manila_day_start(value: &str) -> Option<i64> {
    let day = parse_iso_date(value.trim())?;
    Some(
        PrimitiveDateTime::new(day, Time::MIDNIGHT)
            .assume_offset(offset!(+8))
            .unix_timestamp(),
    )
}

/// Unix seconds as Manila time to the minute: `YYYY-MM-DD HH:MM`.
pub fn manila_minute(unix: i64) -> String {
    let fmt = format_description!("[year]-[month]-[day] [hour]:[minute]");
    OffsetDateTime::from_unix_timestamp(unix)
        .map(|t| t.to_offset(offset!(+8)))
        .ok()
        .and_then(|t| t.format(fmt).ok())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::datetime;

    #[test]
    fn testdates_parse_as_dates_or_minutes() {
        assert_eq!(
            parse_testdate("2025-05-05"),
            Some(datetime!(2025-05-05 00:00))
        );
        assert_eq!(
            parse_testdate("2025-05-10T20:00"),
            Some(datetime!(2025-05-10 20:00))
        );
        assert_eq!(parse_testdate("2025-13-01"), None);
        assert_eq!(parse_testdate("yesterday"), None);
        assert_eq!(parse_testdate(""), None);
    }

    #[test]
    fn dates_are_iso() {
        assert_eq!(iso_date(datetime!(2025-05-05 10:00).date()), "2025-05-05");
    }

    #[test]
    fn manila_days_and_minutes() {
        assert_eq!(parse_iso_date("2026-02-29"), None);
        assert_eq!(
            parse_iso_date("2028-02-29").map(iso_date).as_deref(),
            Some("2028-02-29")
        );
        assert_eq!(parse_iso_date("2026-11-24T10:00"), None);
        // Midnight in Manila is 16:00 UTC the day before.
        assert_eq!(manila_day_start("2026-11-24"), Some(1_795_449_600));
        assert_eq!(manila_day_start("24/11/2026"), None);
        assert_eq!(manila_minute(1_795_449_600), "2026-11-24 00:00");
        assert_eq!(
            manila_minute(1_795_449_600 + 14 * 3600 + 59),
            "2026-11-24 14:00"
        );
    }

    #[test]
    fn manila_is_eight_hours_ahead_of_utc() {
        let utc = OffsetDateTime::now_utc();
        let manila = manila_now();
        let diff = PrimitiveDateTime::new(manila.date(), manila.time())
            - PrimitiveDateTime::new(utc.date(), utc.time());
        assert!((diff.whole_minutes() - 480).abs() <= 1);
    }
}
