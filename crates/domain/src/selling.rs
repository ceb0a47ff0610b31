//! How a product is sold, decided from its packaging family: cans by the box, kegs by the keg,
//! bottles by the case or by the bottle. The answer carries the options so that no client decides
//! it from a display name.

use serde::{Deserialize, Serialize};

use crate::FilterType;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum SoldAs {
    /// Only "Box of {unit_per_case}" at the case price.
    Box,
    /// "Bottle" at the unit price (the first, initial option) or "Case of {unit_per_case}".
    CaseOrBottle,
    /// By the keg at its price; no type selector.
    Keg,
}

/// What one option buys: a single unit or a case (box) of `unit_per_case`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Pack {
    Unit,
    Case,
}

/// One choice of the type selector, the initial one first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
pub struct PackOption {
    pub pack: Pack,
    pub label: String,
    /// Centavos.
    pub price: i64,
}

impl SoldAs {
    pub fn of(family: FilterType) -> Self {
        match family {
            FilterType::Can => Self::Box,
            FilterType::Bottle => Self::CaseOrBottle,
            FilterType::Keg => Self::Keg,
        }
    }

    /// The units a recommended card's Add to Cart puts in the cart: a box of cans (its units per
    /// case, 24), else one. Decided by the packaging's family, never by its display name.
    pub fn card_quantity(self, unit_per_case: i32) -> i32 {
        match self {
            Self::Box => unit_per_case.max(1),
            Self::CaseOrBottle | Self::Keg => 1,
        }
    }

    /// The options in the order the selector shows them; the first is the initial one and gives
    /// the price a product is listed with.
    pub fn options(self, unit_per_case: i32, price: i64, price_per_case: i64) -> Vec<PackOption> {
        let option = |pack, label: String, price| PackOption { pack, label, price };
        match self {
            Self::Box => vec![option(
                Pack::Case,
                format!("Box of {unit_per_case}"),
                price_per_case,
            )],
            Self::CaseOrBottle => vec![
                option(Pack::Unit, "Bottle".into(), price),
                option(
                    Pack::Case,
                    format!("Case of {unit_per_case}"),
                    price_per_case,
                ),
            ],
            Self::Keg => vec![option(Pack::Unit, "Keg".into(), price)],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_follow_spec_4() {
        let cans = SoldAs::of(FilterType::Can).options(24, 6_500, 150_000);
        assert_eq!(cans.len(), 1);
        assert_eq!(
            (cans[0].pack, cans[0].label.as_str(), cans[0].price),
            (Pack::Case, "Box of 24", 150_000)
        );
        let bottles = SoldAs::of(FilterType::Bottle).options(24, 7_000, 160_000);
        let labels: Vec<&str> = bottles.iter().map(|o| o.label.as_str()).collect();
        assert_eq!(labels, ["Bottle", "Case of 24"]);
        assert_eq!(bottles[0].price, 7_000, "bottles start on the bottle price");
        let kegs = SoldAs::of(FilterType::Keg).options(1, 750_000, 750_000);
        assert_eq!((kegs.len(), kegs[0].label.as_str()), (1, "Keg"));
    }

    #[test]
    fn a_recommended_card_adds_a_box_of_cans_and_one_of_anything_else() {
        assert_eq!(SoldAs::of(FilterType::Can).card_quantity(24), 24);
        assert_eq!(SoldAs::of(FilterType::Bottle).card_quantity(24), 1);
        assert_eq!(SoldAs::of(FilterType::Keg).card_quantity(1), 1);
    }
}
