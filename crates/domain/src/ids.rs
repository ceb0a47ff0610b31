//! Ids as types. Each id is parsed once, where it enters (cookie, path, query, form), and then
//! travels as its own type: a barangay id cannot be passed where a city id is wanted, and nothing
//! downstream converts or re-checks it. The vocabulary (docs/glossary.md): the category the
//! category gate asks for is a *packaging* (a category is a packaging type), so its id is a
//! [`PackagingId`] everywhere, whatever the cookie (`categoryGateId`) or the query (`packaging`)
//! calls it.

use serde::{Deserialize, Serialize};

macro_rules! id_type {
    ($(#[$doc:meta])* $name:ident($inner:ty) $(, example $example:literal)?) => {
        $(#[$doc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
        #[cfg_attr(feature = "contract", derive(ts_rs::TS))]
        #[cfg_attr(feature = "contract", ts(type = "number"))]
        pub struct $name($inner);

        #[cfg(feature = "contract")]
        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                contract::id_schema((<$inner>::MAX as i64).min(MAX_ID), &[$($example)?])
            }
        }

        #[cfg(feature = "contract")]
        impl utoipa::ToSchema for $name {}

        impl $name {
            /// An id as sent in a cookie, a path, a query or a form: a positive decimal integer
            /// within range, nothing else (no sign, no exponent, no fraction).
            pub fn parse(value: &str) -> Option<Self> {
                parse_positive(value).and_then(|n| <$inner>::try_from(n).ok()).map(Self)
            }

            /// The number as the database stores it.
            pub const fn get(self) -> $inner {
                self.0
            }

            /// An id read back from the database (or a constant): already known to be one.
            pub const fn from_db(value: $inner) -> Self {
                Self(value)
            }
        }

        /// From a number or from text (a query, a path segment, a form field), checked like
        /// [`Self::parse`]; the error says what is wrong without naming the field.
        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                d.deserialize_any(IdVisitor)
                    .and_then(|n| <$inner>::try_from(n).map(Self).map_err(|_| serde::de::Error::custom(NOT_AN_ID)))
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.0.fmt(f)
            }
        }

        impl From<$inner> for $name {
            fn from(value: $inner) -> Self {
                Self(value)
            }
        }
    };
}

id_type!(
    /// A barangay: its PSGC code as a number (Bacoor's Bayanan is `402103004`).
    BarangayId(i64), example 1380300002
);
id_type!(
    /// A city or municipality: its PSGC code as a number.
    CityId(i64), example 1380300000
);
id_type!(
    /// A province: the store's own number (Metro Manila is 51).
    ProvinceId(i32), example 51
);
id_type!(
    /// A street of a barangay that needs one.
    StreetId(i32), example 1
);
id_type!(
    /// A product of the catalog.
    ProductId(i32), example 1
);
id_type!(
    /// A packaging: bottles, cans or draft beer in kegs. The category gate's category.
    PackagingId(i32), example 1
);
id_type!(
    /// A fulfillment type: delivery or pickup.
    FulfillmentId(i32), example 1
);

id_type!(
    /// A member.
    UserId(i64)
);
id_type!(
    /// A member's saved address.
    AddressId(i64)
);

/// Province 51 (Metro Manila), what the location gate starts on.
pub const DEFAULT_PROVINCE: ProvinceId = ProvinceId::from_db(51);
/// The location gate's first fulfillment type (delivery).
pub const DEFAULT_FULFILLMENT: FulfillmentId = FulfillmentId::from_db(1);
/// Delivery, the default fulfillment.
pub const DELIVERY: FulfillmentId = DEFAULT_FULFILLMENT;
/// Pickup at the brewery.
pub const PICKUP: FulfillmentId = FulfillmentId::from_db(2);

#[cfg(feature = "contract")]
mod contract {
    use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, SchemaFormat, Type};
    use utoipa::openapi::{RefOr, Schema};

    /// An id in the API contract: a whole number from 1 to the column's largest.
    /// `examples` are real ids of the seeded store (a client, and the fuzzer, start from them; a
    /// test of the server holds them to the seed).
    pub fn id_schema(max: i64, examples: &[i64]) -> RefOr<Schema> {
        let format = if max > i64::from(i32::MAX) {
            KnownFormat::Int64
        } else {
            KnownFormat::Int32
        };
        ObjectBuilder::new()
            .schema_type(Type::Integer)
            .format(Some(SchemaFormat::KnownFormat(format)))
            .minimum(Some(1))
            .maximum(Some(max))
            .examples(examples.iter().copied())
            .into()
    }
}

/// What a malformed id is told.
pub const NOT_AN_ID: &str = "must be a positive whole number.";

/// The largest id of any kind: 18 digits, as text or as a JSON number alike (the document says
/// so; a larger number was read from JSON until the contract test sent one).
pub const MAX_ID: i64 = 999_999_999_999_999_999;

struct IdVisitor;

impl serde::de::Visitor<'_> for IdVisitor {
    type Value = i64;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a positive whole number")
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<i64, E> {
        parse_positive(v).ok_or_else(|| E::custom(NOT_AN_ID))
    }

    fn visit_u64<E: serde::de::Error>(self, v: u64) -> Result<i64, E> {
        i64::try_from(v)
            .ok()
            .filter(|&n| n > 0 && n <= MAX_ID)
            .ok_or_else(|| E::custom(NOT_AN_ID))
    }

    fn visit_i64<E: serde::de::Error>(self, v: i64) -> Result<i64, E> {
        Some(v)
            .filter(|&n| n > 0 && n <= MAX_ID)
            .ok_or_else(|| E::custom(NOT_AN_ID))
    }

    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<i64, E> {
        Err(E::custom(NOT_AN_ID))
    }

    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<i64, E> {
        Err(E::custom(NOT_AN_ID))
    }
}

/// A positive decimal integer of at most 18 digits, surrounding spaces allowed.
fn parse_positive(value: &str) -> Option<i64> {
    let v = value.trim();
    if v.is_empty() || v.len() > 18 || !v.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    v.parse().ok().filter(|&n| n > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_positive_integers_in_range_only() {
        assert_eq!(
            BarangayId::parse("1380300002"),
            Some(BarangayId::from_db(1380300002))
        );
        assert_eq!(ProvinceId::parse(" 51 "), Some(DEFAULT_PROVINCE));
        for bad in [
            "0",
            "-3",
            "+3",
            "12abc",
            "1e5",
            "1.5",
            "",
            " ",
            "99999999999999999999999",
        ] {
            assert_eq!(BarangayId::parse(bad), None, "{bad:?}");
        }
        // In range for a barangay, not for a packaging (32 bits).
        assert!(BarangayId::parse("4294967296").is_some());
        assert_eq!(PackagingId::parse("4294967296"), None);
    }

    #[test]
    fn ids_travel_as_plain_numbers() {
        let id = CityId::from_db(137602000);
        assert_eq!(serde_json::to_string(&id).unwrap(), "137602000");
        assert_eq!(serde_json::from_str::<CityId>("137602000").unwrap(), id);
        assert_eq!(serde_json::from_str::<CityId>("\"137602000\"").unwrap(), id);
        for bad in [
            "0",
            "-1",
            "1.5",
            "\"x\"",
            "true",
            "99999999999999999999",
            "1000000000000000000",
        ] {
            assert!(serde_json::from_str::<CityId>(bad).is_err(), "{bad}");
        }
        assert!(serde_json::from_str::<ProvinceId>("4294967296").is_err());
        assert_eq!(id.to_string(), "137602000");
    }
}
