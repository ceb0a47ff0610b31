//! A catalog file's products: each one's fields, its slug and SKU unique (in the file, and a SKU
//! among the products the file leaves out), where it is sold.

use std::collections::{HashMap, HashSet};

use db::catalog_io::{Cities, Known, ProductRecord};

use super::format::PRODUCT_FIELDS;
use serde::Serialize;

use super::checks::{seen_before, sku_ok, slug_ok, Check, SORT_ORDER};
use super::file::{shown, Given, RawCities, RawProduct};

/// What the products' checks remember from one record to the next: the first record of each
/// slug and of each SKU.
#[derive(Default)]
pub(super) struct Seen {
    pub(super) slugs: HashMap<String, usize>,
    pub(super) skus: HashMap<String, usize>,
}

/// The file's products, and the index of each slug the file names (a deposit or a promo names
/// its product by slug).
pub(super) fn read_products(
    records: Vec<(usize, RawProduct)>,
    known: &Known,
    file_slugs: &HashSet<String>,
    errors: &mut Vec<String>,
) -> (Vec<ProductRecord>, HashMap<String, usize>) {
    let mut seen = Seen::default();
    let products = records
        .into_iter()
        .map(|(i, raw)| read_product(i, raw, known, file_slugs, &mut seen, errors))
        .collect();
    (products, seen.slugs)
}

pub(super) fn read_product(
    i: usize,
    raw: RawProduct,
    known: &Known,
    file_slugs: &HashSet<String>,
    seen: &mut Seen,
    errors: &mut Vec<String>,
) -> ProductRecord {
    let label = match &raw.slug {
        Given::Is(s) => format!("products[{i}] (slug {s})"),
        _ => format!("products[{i}]"),
    };
    let mut r = Check { label, errors };
    let slug = r.slug(raw.slug, i, &mut seen.slugs);
    let product_name = r.name("product_name", raw.product_name, 200);
    let sku = r.sku(raw.sku, i, &mut seen.skus);
    let brand = r.name("brand", raw.brand, 100);
    let size = r.name("size", raw.size, 50);
    let product_type = r.name("product_type", raw.product_type, 100);
    r.one_of("product_type", &product_type, &known.product_types);
    let packaging = r.name("packaging", raw.packaging, 50);
    r.one_of("packaging", &packaging, &known.packagings);
    let price = r.money("price", raw.price);
    let price_per_case = r.money("price_per_case", raw.price_per_case);
    let unit_per_case = r.int("unit_per_case", raw.unit_per_case, 1..=999, None);
    let orderable = r.flag("orderable", raw.orderable, None);
    let cities = r.cities(raw.cities, known);
    let product_image = r.image("product_image", raw.product_image, false);
    let description = r.text("description", raw.description, 5000, true);
    let custom_description = r.text("custom_description", raw.custom_description, 5000, true);
    let style = r.text("style", raw.style, 50, false);
    let best_seller = r.flag("best_seller", raw.best_seller, Some(false));
    let recommended = r.flag("recommended", raw.recommended, Some(false));
    let sort_order = r.int("sort_order", raw.sort_order, SORT_ORDER, Some(0));
    let created_on = r.date("created_on", raw.created_on);
    r.sku_kept_elsewhere(&sku, known, file_slugs);
    r.unknown(&raw.unknown, PRODUCT_FIELDS);
    ProductRecord {
        slug,
        product_name,
        sku,
        brand,
        size,
        product_type: Known::canonical(&known.product_types, &product_type),
        packaging: Known::canonical(&known.packagings, &packaging),
        price,
        price_per_case,
        unit_per_case: i32::try_from(unit_per_case).unwrap_or(0),
        orderable,
        cities,
        product_image,
        description: description.unwrap_or_default(),
        custom_description: custom_description.unwrap_or_default(),
        style: style.unwrap_or_default(),
        best_seller,
        recommended,
        sort_order: i32::try_from(sort_order).unwrap_or(0),
        created_on,
    }
}

impl Check<'_> {
    /// A product's slug (see [`slug_ok`]), unique in the file.
    pub(super) fn slug(
        &mut self,
        given: Given<String>,
        i: usize,
        seen: &mut HashMap<String, usize>,
    ) -> String {
        let slug = self.name("slug", given, 100);
        if !slug.is_empty() && !slug_ok(&slug) {
            self.bad(
                "slug",
                "must be lowercase letters and digits in words joined by single hyphens (it is the product page's address)",
            );
        }
        if let Some(first) = seen_before(seen, slug.clone(), i).filter(|_| !slug.is_empty()) {
            self.bad("slug", format!("is listed twice (also products[{first}])"));
        }
        slug
    }

    /// A product's SKU (see [`sku_ok`]), unique in the file.
    pub(super) fn sku(
        &mut self,
        given: Given<String>,
        i: usize,
        seen: &mut HashMap<String, usize>,
    ) -> String {
        let sku = self.name("sku", given, 50);
        if !sku.is_empty() && !sku_ok(&sku) {
            self.bad(
                "sku",
                "must be letters, digits, '-', '_', '.' or '/' (at most 50)",
            );
        }
        if let Some(first) = seen_before(seen, sku.clone(), i).filter(|_| !sku.is_empty()) {
            self.bad("sku", format!("is listed twice (also products[{first}])"));
        }
        sku
    }

    /// A SKU is unique among all products, those the file leaves out included (they stay).
    pub(super) fn sku_kept_elsewhere(
        &mut self,
        sku: &str,
        known: &Known,
        file_slugs: &HashSet<String>,
    ) {
        if let Some(other) = known
            .products
            .iter()
            .find(|p| p.sku == sku && !file_slugs.contains(&p.slug))
        {
            self.bad(
                "sku",
                format!(
                    "is the sku of product {}, which the file leaves out (it stays, not orderable): give one of them another sku",
                    other.slug
                ),
            );
        }
    }

    pub(super) fn not_cities(&mut self, given: &impl Serialize) -> Cities {
        self.bad(
            "cities",
            format!(
                "must be \"all\" or a list of cities' PSGC codes (not {})",
                shown(given)
            ),
        );
        Cities::All
    }

    /// Where a product is sold: every served city when left out or `"all"`, or a list of cities
    /// the store knows, each once (the list is sorted).
    pub(super) fn cities(&mut self, given: Given<RawCities>, known: &Known) -> Cities {
        let codes = match given {
            Given::Absent => return Cities::All,
            Given::Is(RawCities::Word(w)) if w == "all" => return Cities::All,
            Given::Is(RawCities::Codes(codes)) => codes,
            Given::Is(RawCities::Word(other)) => return self.not_cities(&other),
            Given::Not(other) => return self.not_cities(&other),
        };
        let mut ids = Vec::new();
        for code in codes {
            match code {
                Given::Is(id) if known.cities.contains_key(&id) => {
                    if ids.contains(&id) {
                        self.bad("cities", format!("lists {id} twice"));
                    }
                    ids.push(id);
                }
                other => self.bad(
                    "cities",
                    format!("holds {}, which is not a city's PSGC code", other.shown()),
                ),
            }
        }
        ids.sort_unstable();
        ids.dedup();
        Cities::Only(ids)
    }
}
