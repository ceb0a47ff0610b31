//! A catalog file's delivery fees: one per served city and fulfillment, the city named by its
//! PSGC code.

use std::collections::HashMap;

use db::catalog_io::{FeeRecord, Known};

use super::format::FEE_FIELDS;

use super::checks::{seen_before, Check};
use super::file::{Given, RawFee};

pub(super) fn read_fees(
    records: Vec<(usize, RawFee)>,
    known: &Known,
    errors: &mut Vec<String>,
) -> Vec<FeeRecord> {
    let mut pairs = HashMap::new();
    let mut fees = Vec::new();
    for (i, raw) in records {
        let label = match (&raw.city_id, &raw.fulfillment) {
            (Given::Absent, _) => format!("delivery_fees[{i}]"),
            (c, Given::Is(f)) => format!("delivery_fees[{i}] (city {}, {f})", c.shown()),
            (c, _) => format!("delivery_fees[{i}] (city {})", c.shown()),
        };
        let mut r = Check { label, errors };
        let city_id = r.int("city_id", raw.city_id, 1..=i64::MAX, None);
        let city = r.city(city_id, raw.city_name, known);
        let fulfillment = r.name("fulfillment", raw.fulfillment, 50);
        r.one_of("fulfillment", &fulfillment, &known.fulfillments);
        if let (Some(f), Some(city)) = (Known::id_of(&known.fulfillments, &fulfillment), city) {
            if !known.served.contains(&(city_id, f)) {
                r.bad(
                    "city_id",
                    format!(
                        "{city} is not served for {}: a fee there would never be charged",
                        Known::name_of(&known.fulfillments, f)
                    ),
                );
            }
        }
        let fulfillment = Known::canonical(&known.fulfillments, &fulfillment);
        if let Some(first) = seen_before(&mut pairs, (city_id, fulfillment.clone()), i) {
            r.bad(
                "city_id",
                format!("and fulfillment are listed twice (also delivery_fees[{first}])"),
            );
        }
        let amount = r.money("amount", raw.amount);
        r.unknown(&raw.unknown, FEE_FIELDS);
        fees.push(FeeRecord {
            city_id,
            city_name: city.cloned().unwrap_or_default(),
            fulfillment,
            amount,
        });
    }
    fees
}

impl Check<'_> {
    /// The city of a fee, when the store knows its code; a name given with the code must be the
    /// city's (the name is there for a reader; the code decides).
    pub(super) fn city<'k>(
        &mut self,
        city_id: i64,
        name: Given<String>,
        known: &'k Known,
    ) -> Option<&'k String> {
        let city = known.cities.get(&city_id);
        if city.is_none() && city_id > 0 {
            self.bad("city_id", format!("{city_id} is not a city's PSGC code"));
        }
        let given = self.text("city_name", name, 200, false);
        if let (Some(given), Some(city)) = (given, city) {
            if &given != city {
                self.bad(
                    "city_name",
                    format!(
                        "{given:?} is not the name of city {city_id} ({city:?}): check the code"
                    ),
                );
            }
        }
        city
    }
}
