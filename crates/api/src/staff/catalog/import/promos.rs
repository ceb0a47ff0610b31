//! A catalog file's promos, each on a product of the file.

use std::collections::HashMap;

use db::catalog_io::PromoRecord;

use super::format::PROMO_FIELDS;

use super::checks::Check;
use super::file::RawPromo;

pub(super) fn read_promos(
    records: Vec<(usize, RawPromo)>,
    slugs: &HashMap<String, usize>,
    errors: &mut Vec<String>,
) -> Vec<PromoRecord> {
    let mut ids = HashMap::new();
    let mut promos = Vec::new();
    for (i, raw) in records {
        let (mut r, id) = Check::by_id("promos", i, raw.id, &mut ids, errors);
        let product = r.name("product", raw.product, 100);
        if !product.is_empty() && !slugs.contains_key(&product) {
            r.bad(
                "product",
                format!("{product:?} is not the slug of a product in the file"),
            );
        }
        let title = r.name("title", raw.title, 200);
        let description = r.text("description", raw.description, 2000, true);
        let starts_on = r.date("starts_on", raw.starts_on);
        let ends_on = r.date("ends_on", raw.ends_on);
        r.in_order(Some(&starts_on), Some(&ends_on));
        r.unknown(&raw.unknown, PROMO_FIELDS);
        promos.push(PromoRecord {
            id,
            product,
            title,
            description: description.unwrap_or_default(),
            starts_on,
            ends_on,
        });
    }
    promos
}
