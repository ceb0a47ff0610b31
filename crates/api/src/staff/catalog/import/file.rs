//! A catalog file's shape as it is read: serde types of its sections, each record's fields and
//! the type each field takes. They are lenient on purpose: a field of the wrong type is kept as it
//! was given ([`Given::Not`]) and a field the record does not have is collected, so one reading
//! finds every problem of the file instead of stopping at the first.

use serde::de::{DeserializeOwned, Deserializer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A field as the file gives it: absent (`null` counts as absent), a value of the type the field
/// takes, or another value, kept so that its problem can show it.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) enum Given<T> {
    #[default]
    Absent,
    Is(T),
    Not(Value),
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Given<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match Value::deserialize(d)? {
            Value::Null => Self::Absent,
            v => match T::deserialize(&v) {
                Ok(t) => Self::Is(t),
                Err(_) => Self::Not(v),
            },
        })
    }
}

impl<T: Serialize> Given<T> {
    /// The value as a problem shows it (`null` when absent).
    pub(super) fn shown(&self) -> String {
        match self {
            Self::Absent => shown(&Value::Null),
            Self::Is(t) => shown(t),
            Self::Not(v) => shown(v),
        }
    }
}

/// A section: a list of records, each of which must be an object.
pub(super) type Section<T> = Given<Vec<Given<T>>>;

/// The whole file. Its `format` is kept as given, `null` included, to be named in its problem.
#[derive(Deserialize, Default)]
#[serde(default)]
pub(super) struct RawFile {
    #[serde(deserialize_with = "present")]
    pub(super) format: Option<Value>,
    pub(super) products: Section<RawProduct>,
    pub(super) deposits: Section<RawDeposit>,
    pub(super) delivery_fees: Section<RawFee>,
    pub(super) banners: Section<RawBanner>,
    pub(super) promos: Section<RawPromo>,
    /// Sections a catalog file does not have.
    #[serde(flatten)]
    pub(super) unknown: Map<String, Value>,
}

/// A field that is there, whatever its value (`null` included).
pub(super) fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// A product as the file gives it (see [`db::catalog_io::ProductRecord`]).
#[derive(Deserialize, Default)]
#[serde(default)]
pub(super) struct RawProduct {
    pub(super) slug: Given<String>,
    pub(super) product_name: Given<String>,
    pub(super) sku: Given<String>,
    pub(super) brand: Given<String>,
    pub(super) size: Given<String>,
    pub(super) product_type: Given<String>,
    pub(super) packaging: Given<String>,
    pub(super) price: Given<i64>,
    pub(super) price_per_case: Given<i64>,
    pub(super) unit_per_case: Given<i64>,
    pub(super) orderable: Given<bool>,
    pub(super) cities: Given<RawCities>,
    pub(super) product_image: Given<String>,
    pub(super) description: Given<String>,
    pub(super) custom_description: Given<String>,
    pub(super) style: Given<String>,
    pub(super) best_seller: Given<bool>,
    pub(super) recommended: Given<bool>,
    pub(super) sort_order: Given<i64>,
    pub(super) created_on: Given<String>,
    /// Fields a product does not have.
    #[serde(flatten)]
    pub(super) unknown: Map<String, Value>,
}

/// `cities` as the file gives it: `"all"` (another word is a problem) or a list of PSGC codes.
#[derive(Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
pub(super) enum RawCities {
    Word(String),
    Codes(Vec<Given<i64>>),
}

/// A deposit as the file gives it (see [`db::catalog_io::DepositRecord`]).
#[derive(Deserialize, Default)]
#[serde(default)]
pub(super) struct RawDeposit {
    pub(super) id: Given<i64>,
    pub(super) name: Given<String>,
    pub(super) amount: Given<i64>,
    pub(super) product: Given<String>,
    pub(super) packaging: Given<String>,
    #[serde(flatten)]
    pub(super) unknown: Map<String, Value>,
}

/// A delivery fee as the file gives it (see [`db::catalog_io::FeeRecord`]).
#[derive(Deserialize, Default)]
#[serde(default)]
pub(super) struct RawFee {
    pub(super) city_id: Given<i64>,
    pub(super) city_name: Given<String>,
    pub(super) fulfillment: Given<String>,
    pub(super) amount: Given<i64>,
    #[serde(flatten)]
    pub(super) unknown: Map<String, Value>,
}

/// A banner as the file gives it (see [`db::catalog_io::BannerRecord`]).
#[derive(Deserialize, Default)]
#[serde(default)]
pub(super) struct RawBanner {
    pub(super) id: Given<i64>,
    pub(super) title: Given<String>,
    pub(super) desktop_image: Given<String>,
    pub(super) mobile_image: Given<String>,
    pub(super) sort_order: Given<i64>,
    pub(super) starts_on: Given<String>,
    pub(super) ends_on: Given<String>,
    #[serde(flatten)]
    pub(super) unknown: Map<String, Value>,
}

/// A promo as the file gives it (see [`db::catalog_io::PromoRecord`]).
#[derive(Deserialize, Default)]
#[serde(default)]
pub(super) struct RawPromo {
    pub(super) id: Given<i64>,
    pub(super) product: Given<String>,
    pub(super) title: Given<String>,
    pub(super) description: Given<String>,
    pub(super) starts_on: Given<String>,
    pub(super) ends_on: Given<String>,
    #[serde(flatten)]
    pub(super) unknown: Map<String, Value>,
}

/// A value as a problem shows it: as JSON, short, on one line.
pub(super) fn shown(v: &impl Serialize) -> String {
    let s = serde_json::to_string(v).unwrap_or_default();
    if s.chars().count() > 40 {
        format!("{}...", s.chars().take(37).collect::<String>())
    } else {
        s
    }
}
