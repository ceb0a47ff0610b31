//! Deposits (the cart answer's `cart_order_summary.deposits`): a deposit row's amount
//! is for one case of its product (a crate of 24 bottles, one keg), given per packaging or, where
//! a product has its own (grande bottles, a 20 L keg), per product. Integer centavos.
//!
//! The rule decided here: each line is charged its share of a case's deposit, `amount x units /
//! unit_per_case`, summed per deposit row and rounded once per row to the nearest centavo (half up).
//! A whole case is charged exactly its deposit; a crate mixing two bottle sizes is charged each
//! size's share (12 regular and 12 grande: half of each crate deposit). The summary lists the
//! rows by name, and the deposits total is the sum of what it lists.
//!
//! Returned empties lower them: a shopper who returns `n` empty cases of a row is credited `n`
//! times its amount, never more than that row charges (the store takes back what it lends).

use std::collections::BTreeMap;

/// One line's part in the deposits: its deposit row, that row's amount for one case, the line's
/// units and its product's case size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DepositLine {
    /// The deposit row (its id).
    pub row: i64,
    /// The row's amount for one case (centavos).
    pub per_case: i64,
    pub units: u32,
    pub unit_per_case: u32,
}

/// What each deposit row charges for `lines` (rows with nothing to charge left out).
pub fn charged(lines: &[DepositLine]) -> BTreeMap<i64, i64> {
    // Per row: the sum of amount x units over the case size, as an exact fraction per case size.
    let mut parts: BTreeMap<(i64, u32), i128> = BTreeMap::new();
    for l in lines {
        if l.unit_per_case == 0 || l.per_case <= 0 || l.units == 0 {
            continue;
        }
        *parts.entry((l.row, l.unit_per_case)).or_default() +=
            i128::from(l.per_case) * i128::from(l.units);
    }
    let mut rows: BTreeMap<i64, i128> = BTreeMap::new();
    for ((row, size), numerator) in parts {
        let size = i128::from(size);
        // Half up: (2n + d) / 2d.
        *rows.entry(row).or_default() += (2 * numerator + size) / (2 * size);
    }
    rows.into_iter()
        .filter(|(_, amount)| *amount > 0)
        .map(|(row, amount)| (row, i64::try_from(amount).unwrap_or(i64::MAX)))
        .collect()
}

/// The credit for `returned` empty cases of a row whose amount is `per_case`, when the cart is
/// charged `charged` for that row: at most what is charged.
pub fn credit(charged: i64, per_case: i64, returned: u32) -> i64 {
    per_case
        .max(0)
        .saturating_mul(i64::from(returned))
        .min(charged.max(0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const CRATE: i64 = 24_000;
    const GRANDE: i64 = 28_800;
    const KEG: i64 = 300_000;

    fn line(row: i64, per_case: i64, units: u32, unit_per_case: u32) -> DepositLine {
        DepositLine {
            row,
            per_case,
            units,
            unit_per_case,
        }
    }

    #[test]
    fn whole_cases_are_charged_their_deposit() {
        let got = charged(&[line(1, CRATE, 48, 24), line(4, KEG, 2, 1)]);
        assert_eq!(got, BTreeMap::from([(1, 2 * CRATE), (4, 2 * KEG)]));
    }

    #[test]
    fn a_mixed_crate_is_charged_each_sizes_share() {
        let got = charged(&[line(1, CRATE, 12, 24), line(2, GRANDE, 12, 24)]);
        assert_eq!(got, BTreeMap::from([(1, 12_000), (2, 14_400)]));
        // Two products on one row (two regular beers) are one row in the summary.
        let got = charged(&[line(1, CRATE, 10, 24), line(1, CRATE, 14, 24)]);
        assert_eq!(got, BTreeMap::from([(1, CRATE)]));
    }

    #[test]
    fn shares_round_once_per_row_half_up() {
        // 1,000 centavos a crate of 3: a third is 333.33, two thirds 666.67.
        assert_eq!(charged(&[line(1, 1_000, 1, 3)])[&1], 333);
        assert_eq!(charged(&[line(1, 1_000, 2, 3)])[&1], 667);
        // Rounded once over the row, not per line (334 + 333 + 333 would not be asked).
        let thirds = [
            line(1, 1_000, 1, 3),
            line(1, 1_000, 1, 3),
            line(1, 1_000, 1, 3),
        ];
        assert_eq!(charged(&thirds)[&1], 1_000);
        // Cans: no deposit row, nothing listed.
        assert!(charged(&[line(9, 0, 24, 24)]).is_empty());
    }

    #[test]
    fn returned_empties_are_credited_up_to_the_charge() {
        assert_eq!(credit(2 * CRATE, CRATE, 1), CRATE);
        assert_eq!(credit(2 * CRATE, CRATE, 5), 2 * CRATE);
        assert_eq!(credit(0, KEG, 1), 0);
        assert_eq!(credit(KEG, KEG, u32::MAX), KEG);
    }

    fn lines() -> impl Strategy<Value = Vec<DepositLine>> {
        prop::collection::vec(
            (1i64..=4, 0i64..=500_000, 0u32..=999, 1u32..=48)
                .prop_map(|(row, per_case, units, size)| line(row, per_case, units, size)),
            0..=50,
        )
    }

    proptest! {
        #[test]
        fn never_negative_and_whole_cases_exact(lines in lines()) {
            let got = charged(&lines);
            prop_assert!(got.values().all(|a| *a > 0));
            // Lines of whole cases are charged exactly cases x the row's amount.
            let whole: Vec<DepositLine> = lines
                .iter()
                .map(|l| DepositLine { units: l.units - l.units % l.unit_per_case, ..*l })
                .collect();
            let exact: i64 = whole
                .iter()
                .map(|l| l.per_case * i64::from(l.units / l.unit_per_case))
                .sum();
            prop_assert_eq!(charged(&whole).values().sum::<i64>(), exact);
        }

        #[test]
        fn each_row_is_within_half_a_centavo_of_its_share(lines in lines()) {
            let got = charged(&lines);
            for (row, amount) in &got {
                // The exact share, in halves of a centavo, against the rounded amount.
                let mut by_size: BTreeMap<u32, i128> = BTreeMap::new();
                for l in lines.iter().filter(|l| l.row == *row) {
                    *by_size.entry(l.unit_per_case).or_default() += i128::from(l.per_case) * i128::from(l.units);
                }
                let sizes = by_size.len() as i128;
                let exact_twice: f64 = by_size
                    .iter()
                    .map(|(size, n)| 2.0 * (*n as f64) / f64::from(*size))
                    .sum();
                prop_assert!((2.0 * (*amount as f64) - exact_twice).abs() <= sizes as f64 + 1e-6);
            }
        }

        #[test]
        fn more_units_never_lower_a_row(lines in lines(), extra in 1u32..=24) {
            prop_assume!(!lines.is_empty());
            let before = charged(&lines);
            let mut more = lines.clone();
            more[0].units += extra;
            let after = charged(&more);
            for (row, amount) in before {
                prop_assert!(after.get(&row).copied().unwrap_or(0) >= amount);
            }
        }

        #[test]
        fn a_credit_is_never_above_the_charge(charged in 0i64..=10_000_000, per_case in 0i64..=500_000, returned in 0u32..=1_000) {
            let c = credit(charged, per_case, returned);
            prop_assert!(c >= 0 && c <= charged);
            prop_assert!(c <= per_case * i64::from(returned));
        }
    }
}
