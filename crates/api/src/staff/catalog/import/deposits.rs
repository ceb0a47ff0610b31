//! A catalog file's deposits: each on one product of the file or on one packaging.

use std::collections::HashMap;

use db::catalog_io::{DepositRecord, Known};

use super::format::DEPOSIT_FIELDS;

use super::checks::Check;
use super::file::RawDeposit;

pub(super) fn read_deposits(
    records: Vec<(usize, RawDeposit)>,
    known: &Known,
    slugs: &HashMap<String, usize>,
    errors: &mut Vec<String>,
) -> Vec<DepositRecord> {
    let mut ids = HashMap::new();
    let mut deposits = Vec::new();
    for (i, raw) in records {
        let (mut r, id) = Check::by_id("deposits", i, raw.id, &mut ids, errors);
        let name = r.name("name", raw.name, 200);
        let amount = r.money("amount", raw.amount);
        let product = r.text("product", raw.product, 100, false);
        let packaging = r.text("packaging", raw.packaging, 50, false);
        r.deposit_on(product.as_deref(), packaging.as_deref(), known, slugs);
        r.unknown(&raw.unknown, DEPOSIT_FIELDS);
        deposits.push(DepositRecord {
            id,
            name,
            amount,
            product,
            packaging: packaging.map(|p| Known::canonical(&known.packagings, &p)),
        });
    }
    deposits
}

impl Check<'_> {
    /// A deposit is on one product of the file or on one packaging the store knows.
    pub(super) fn deposit_on(
        &mut self,
        product: Option<&str>,
        packaging: Option<&str>,
        known: &Known,
        slugs: &HashMap<String, usize>,
    ) {
        match (product, packaging) {
            (Some(_), Some(_)) | (None, None) => self.bad(
                "product",
                "or packaging: a deposit is on one product (its slug) or on one packaging (bottle, can, keg), one of the two",
            ),
            (Some(p), None) if !slugs.contains_key(p) => self.bad(
                "product",
                format!("{p:?} is not the slug of a product in the file"),
            ),
            (None, Some(p)) if Known::id_of(&known.packagings, p).is_none() => self.bad(
                "packaging",
                format!(
                    "must be one of {} (not {p:?})",
                    Known::names(&known.packagings)
                ),
            ),
            _ => {}
        }
    }
}
