//! Cart cases: a cart's items group by case type (keg, bottles, cans); a group is filled in cases
//! of `unit_per_case` units and is complete when it holds the minimum order quantity of every
//! case it spans. Money is integer centavos.
//!
//! The rule as worded, "missing items = minimum order times number of cases minus total units,
//! and 0 if the total exceeds the minimum", is partly unclear. The store reads it as:
//!
//! - the number of cases is the number of `unit_per_case` chunks the units fill, the last one
//!   partly (at least one: a group exists only with items), so the capacity is always a whole
//!   number of cases and never below the units;
//! - the minimum applies to every case: a group is complete when its units reach
//!   `minimum_order_qty x cases`, and "Need N More" shows that minimum less the units (0 once
//!   reached). "Exceeds the minimum" is read as the minimum of all its cases: read as the minimum
//!   of one case, a second case could ship with one bottle in a crate of 24, which a brewery that
//!   packs whole cases does not do;
//! - a minimum above `unit_per_case` could never be met without opening another case, so it is
//!   capped at `unit_per_case` (with the usual minimum equal to `unit_per_case`, cases are whole).
//!
//! Adding the missing units completes a group without opening another case.

/// The most of one product a cart holds (quantity 1-999 per item).
pub const MAX_QUANTITY: u32 = 999;
/// The most different products a cart holds.
pub const MAX_PRODUCTS: usize = 50;

/// A quantity a shopper asked for, as the field's message when it is out of bounds.
pub fn check_quantity(quantity: i64) -> Result<u32, String> {
    u32::try_from(quantity)
        .ok()
        .filter(|q| (1..=MAX_QUANTITY).contains(q))
        .ok_or_else(|| format!("The quantity must be from 1 to {MAX_QUANTITY}."))
}

/// What `units` of a product cost (centavos): each whole case at the case price, the rest at the
/// unit price (a case is cheaper than its units one by one). Saturates rather than overflowing.
pub fn line_amount(units: u32, unit_per_case: u32, price: i64, price_per_case: i64) -> i64 {
    let upc = unit_per_case.max(1);
    let cases = i64::from(units / upc);
    let rest = i64::from(units % upc);
    cases
        .saturating_mul(price_per_case)
        .saturating_add(rest.saturating_mul(price))
}

/// How a case type is filled: its chunk and the minimum each case must hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CaseRule {
    /// Units in one case (at least 1).
    pub unit_per_case: u32,
    /// Units each case must hold (capped at `unit_per_case`; at least 1).
    pub minimum_order_qty: u32,
}

/// One line of a group: its units and what they cost (centavos).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Line {
    pub units: u32,
    pub amount: i64,
}

/// What a group of lines of one case type comes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CaseFill {
    /// All the units of the group.
    pub units: u64,
    /// How many cases they fill (the last possibly partly).
    pub cases: u64,
    /// `cases x unit_per_case`.
    pub capacity: u64,
    /// Units still needed before checkout ("Need N More"); 0 when complete.
    pub missing: u64,
    /// The sum of the lines' amounts (centavos).
    pub amount: i64,
}

impl CaseFill {
    pub fn complete(&self) -> bool {
        self.missing == 0
    }
}

/// Why a group's figures cannot be had.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CaseError {
    /// A rule with a zero `unit_per_case` or minimum.
    BadRule,
    /// No lines, or lines without units: there is no case.
    Empty,
    /// The amounts do not fit in 64 bits.
    Overflow,
}

impl CaseRule {
    /// The minimum each case must hold, capped at the case's size.
    pub fn minimum(self) -> u32 {
        self.minimum_order_qty.min(self.unit_per_case)
    }

    /// The figures of a group of `lines` under this rule.
    pub fn fill(self, lines: &[Line]) -> Result<CaseFill, CaseError> {
        if self.unit_per_case == 0 || self.minimum_order_qty == 0 {
            return Err(CaseError::BadRule);
        }
        let units: u64 = lines.iter().map(|l| u64::from(l.units)).sum();
        if units == 0 {
            return Err(CaseError::Empty);
        }
        let amount = lines
            .iter()
            .try_fold(0i64, |sum, l| sum.checked_add(l.amount))
            .ok_or(CaseError::Overflow)?;
        let size = u64::from(self.unit_per_case);
        let cases = units.div_ceil(size);
        let capacity = cases * size;
        let needed = u64::from(self.minimum()) * cases;
        Ok(CaseFill {
            units,
            cases,
            capacity,
            missing: needed.saturating_sub(units),
            amount,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn lines(units: &[u32]) -> Vec<Line> {
        units
            .iter()
            .map(|&u| Line {
                units: u,
                amount: i64::from(u) * 6_500,
            })
            .collect()
    }

    #[test]
    fn whole_cases_cost_the_case_price_and_the_rest_the_unit_price() {
        // Tala Pale Pilsen: P52.00 a bottle, P1,188.00 a case of 24.
        assert_eq!(line_amount(24, 24, 5_200, 118_800), 118_800);
        assert_eq!(line_amount(30, 24, 5_200, 118_800), 118_800 + 6 * 5_200);
        assert_eq!(line_amount(5, 24, 5_200, 118_800), 5 * 5_200);
        assert_eq!(line_amount(2, 1, 725_000, 725_000), 1_450_000);
        assert_eq!(line_amount(3, 0, 100, 999), 3 * 999);
        assert_eq!(line_amount(u32::MAX, 1, i64::MAX, i64::MAX), i64::MAX);
    }

    #[test]
    fn a_crate_of_24_is_filled_whole() {
        let rule = CaseRule {
            unit_per_case: 24,
            minimum_order_qty: 24,
        };
        let f = rule.fill(&lines(&[6, 6])).unwrap();
        assert_eq!((f.cases, f.capacity, f.missing), (1, 24, 12));
        assert!(!f.complete());
        let f = rule.fill(&lines(&[24])).unwrap();
        assert_eq!((f.cases, f.capacity, f.missing), (1, 24, 0));
        // A second crate opened with six bottles needs eighteen more.
        let f = rule.fill(&lines(&[24, 6])).unwrap();
        assert_eq!((f.cases, f.capacity, f.missing), (2, 48, 18));
        assert_eq!(f.amount, 30 * 6_500);
    }

    #[test]
    fn quantities_are_1_to_999() {
        assert_eq!(check_quantity(1), Ok(1));
        assert_eq!(check_quantity(999), Ok(999));
        for bad in [0, -1, 1_000, i64::MAX, i64::MIN] {
            assert!(check_quantity(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn kegs_are_one_a_case() {
        let rule = CaseRule {
            unit_per_case: 1,
            minimum_order_qty: 1,
        };
        let f = rule.fill(&lines(&[3])).unwrap();
        assert_eq!((f.cases, f.capacity, f.missing), (3, 3, 0));
    }

    #[test]
    fn a_smaller_minimum_counts_over_all_cases() {
        let rule = CaseRule {
            unit_per_case: 24,
            minimum_order_qty: 12,
        };
        assert_eq!(rule.fill(&lines(&[10])).unwrap().missing, 2);
        assert_eq!(rule.fill(&lines(&[25])).unwrap().missing, 0);
        // A minimum above the case's size is capped at it.
        let rule = CaseRule {
            unit_per_case: 6,
            minimum_order_qty: 10,
        };
        assert_eq!(rule.fill(&lines(&[4])).unwrap().missing, 2);
    }

    #[test]
    fn no_case_without_units_or_rule() {
        let rule = CaseRule {
            unit_per_case: 24,
            minimum_order_qty: 24,
        };
        assert_eq!(rule.fill(&[]), Err(CaseError::Empty));
        assert_eq!(rule.fill(&lines(&[0, 0])), Err(CaseError::Empty));
        let bad = CaseRule {
            unit_per_case: 0,
            minimum_order_qty: 1,
        };
        assert_eq!(bad.fill(&lines(&[1])), Err(CaseError::BadRule));
        let huge = [
            Line {
                units: 1,
                amount: i64::MAX,
            },
            Line {
                units: 1,
                amount: 1,
            },
        ];
        assert_eq!(rule.fill(&huge), Err(CaseError::Overflow));
    }

    fn rule() -> impl Strategy<Value = CaseRule> {
        (1u32..=48, 1u32..=60).prop_map(|(unit_per_case, minimum_order_qty)| CaseRule {
            unit_per_case,
            minimum_order_qty,
        })
    }

    fn some_lines() -> impl Strategy<Value = Vec<Line>> {
        prop::collection::vec(
            (1u32..=999, 0i64..=10_000_000).prop_map(|(units, price)| Line {
                units,
                amount: i64::from(units) * price,
            }),
            1..=50,
        )
    }

    proptest! {
        #[test]
        fn missing_is_never_negative_and_zero_exactly_when_complete(rule in rule(), lines in some_lines()) {
            let f = rule.fill(&lines).unwrap();
            let needed = u64::from(rule.minimum()) * f.cases;
            prop_assert_eq!(f.missing == 0, f.units >= needed);
            prop_assert_eq!(f.complete(), f.missing == 0);
            prop_assert!(f.missing <= f.capacity);
        }

        #[test]
        fn capacity_is_whole_cases_holding_the_units(rule in rule(), lines in some_lines()) {
            let f = rule.fill(&lines).unwrap();
            let size = u64::from(rule.unit_per_case);
            prop_assert_eq!(f.capacity % size, 0);
            prop_assert_eq!(f.capacity, f.cases * size);
            prop_assert!(f.capacity >= f.units);
            prop_assert!(f.capacity - f.units < size, "no empty case");
            prop_assert!(f.cases >= 1);
        }

        #[test]
        fn totals_are_the_sum_of_the_lines(rule in rule(), lines in some_lines()) {
            let f = rule.fill(&lines).unwrap();
            prop_assert_eq!(f.units, lines.iter().map(|l| u64::from(l.units)).sum::<u64>());
            prop_assert_eq!(f.amount, lines.iter().map(|l| l.amount).sum::<i64>());
        }

        #[test]
        fn adding_the_missing_units_completes_without_a_new_case(rule in rule(), lines in some_lines()) {
            let f = rule.fill(&lines).unwrap();
            let mut more = lines.clone();
            more.push(Line { units: u32::try_from(f.missing).unwrap(), amount: 0 });
            let g = rule.fill(&more).unwrap();
            prop_assert!(g.complete());
            prop_assert_eq!(g.cases, f.cases);
        }
    }
}
