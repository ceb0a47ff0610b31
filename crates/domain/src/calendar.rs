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

/// Parses a `testdate` override: `YYYY-MM-DD` (midnight) or `YYYY-MM-DDTHH:MM`, in Manila time.
pub fn parse_testdate(value: &str) -> Option<PrimitiveDateTime> {
    let v = value.trim();
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
    fn manila_is_eight_hours_ahead_of_utc() {
        let utc = OffsetDateTime::now_utc();
        let manila = manila_now();
        let diff = PrimitiveDateTime::new(manila.date(), manila.time())
            - PrimitiveDateTime::new(utc.date(), utc.time());
        assert!((diff.whole_minutes() - 480).abs() <= 1);
    }
}
