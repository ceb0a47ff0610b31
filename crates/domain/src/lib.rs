//! Pure rules of the store, no I/O and no framework: money, filters, identifiers.

pub mod account;
pub mod calendar;
pub mod cases;
pub mod deposits;
pub mod dispatch;
pub mod email;
pub mod ids;
pub mod money;
pub mod naming;
pub mod ordering;
pub mod selling;
pub mod staff;
pub mod text;

pub use ids::*;
pub use money::format_php;

/// The `filterByType` values of /buy-beer: which packaging family to list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum FilterType {
    Keg,
    Bottle,
    Can,
}

impl FilterType {
    /// Parses a `filterByType` value; unknown values are `None` (the filter is then ignored).
    pub fn parse(value: &str) -> Option<Self> {
        match value.trim().to_ascii_lowercase().as_str() {
            "keg" => Some(Self::Keg),
            "bottle" => Some(Self::Bottle),
            "can" => Some(Self::Can),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Keg => "keg",
            Self::Bottle => "bottle",
            Self::Can => "can",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filter_types_parse_case_insensitively() {
        assert_eq!(FilterType::parse("keg"), Some(FilterType::Keg));
        assert_eq!(FilterType::parse(" Bottle "), Some(FilterType::Bottle));
        assert_eq!(FilterType::parse("CAN"), Some(FilterType::Can));
        assert_eq!(FilterType::parse("cans"), None);
        assert_eq!(FilterType::parse(""), None);
        for t in [FilterType::Keg, FilterType::Bottle, FilterType::Can] {
            assert_eq!(FilterType::parse(t.as_str()), Some(t));
        }
    }
}
