//! Reading a catalog file: its shape ([`super::file`]), then each section's records checked
//! against the file itself and against what the database knows (packagings, product types,
//! fulfillment types, cities, served areas); the file, or every problem found.

use std::collections::HashSet;

use db::catalog_io::{CatalogRecords, Known};
use serde::Deserialize;
use serde_json::Value;

use super::banners::read_banners;
use super::deposits::read_deposits;
use super::fees::read_fees;
use super::file::{shown, Given, RawFile, RawProduct, Section};
use super::format::FORMAT;
use super::products::read_products;
use super::promos::read_promos;

/// Problems listed before the rest are only counted.
const SHOWN: usize = 100;
/// The sections of a file, after its `format`.
const SECTIONS: [&str; 5] = ["products", "deposits", "delivery_fees", "banners", "promos"];

/// Reads and checks a catalog file: the file, or every problem found (each naming its record and
/// field).
pub(super) fn parse(text: &str, known: &Known) -> Result<CatalogRecords, Vec<String>> {
    let top: Value =
        serde_json::from_str(text).map_err(|e| vec![format!("the file is not JSON: {e}")])?;
    if !top.is_object() {
        return Err(vec![format!(
            "the file must be a JSON object with \"format\": \"{FORMAT}\""
        )]);
    }
    let raw =
        RawFile::deserialize(top).map_err(|e| vec![format!("the file cannot be read: {e}")])?;
    check_format(raw.format.as_ref()).map_err(|e| vec![e])?;
    let mut errors: Vec<String> = raw
        .unknown
        .keys()
        .map(|k| {
            format!(
                "{k} is not a section of a catalog file (the sections are {})",
                SECTIONS.join(", ")
            )
        })
        .collect();
    let file_slugs = written_slugs(&raw.products);
    let products_empty = matches!(&raw.products, Given::Is(list) if list.is_empty());
    let products = records("products", raw.products, &mut errors);
    if products_empty {
        errors.push(
            "products is empty: every product would stop being orderable; list the products to keep"
                .into(),
        );
    }
    let (products, slugs) = read_products(products, known, &file_slugs, &mut errors);
    let deposits = records("deposits", raw.deposits, &mut errors);
    let deposits = read_deposits(deposits, known, &slugs, &mut errors);
    let delivery_fees = records("delivery_fees", raw.delivery_fees, &mut errors);
    let delivery_fees = read_fees(delivery_fees, known, &mut errors);
    let banners = records("banners", raw.banners, &mut errors);
    let banners = read_banners(banners, &mut errors);
    let promos = records("promos", raw.promos, &mut errors);
    let promos = read_promos(promos, &slugs, &mut errors);
    if !errors.is_empty() {
        return Err(shorten(errors));
    }
    Ok(CatalogRecords {
        products,
        deposits,
        delivery_fees,
        banners,
        promos,
    })
}

/// The file's format must be this store's.
pub(super) fn check_format(format: Option<&Value>) -> Result<(), String> {
    match format {
        Some(Value::String(f)) if f == FORMAT => Ok(()),
        Some(other) => Err(format!(
            "format must be \"{FORMAT}\" (not {}): this store reads no other",
            shown(other)
        )),
        None => Err(format!(
            "format is missing: a catalog file says \"format\": \"{FORMAT}\""
        )),
    }
}

/// The first [`SHOWN`] problems and how many more there are.
pub(super) fn shorten(mut errors: Vec<String>) -> Vec<String> {
    if errors.len() > SHOWN {
        let more = errors.len() - SHOWN;
        errors.truncate(SHOWN);
        errors.push(format!("... and {more} more problems"));
    }
    errors
}

/// A section's records, each with its index in the file: the section must be a list of objects.
pub(super) fn records<T>(
    name: &str,
    section: Section<T>,
    errors: &mut Vec<String>,
) -> Vec<(usize, T)> {
    let items = match section {
        Given::Is(items) => items,
        Given::Absent => {
            errors.push(format!(
                "{name} is missing (a list; an empty list removes every one)"
            ));
            return vec![];
        }
        Given::Not(other) => {
            errors.push(format!("{name} must be a list (not {})", shown(&other)));
            return vec![];
        }
    };
    items
        .into_iter()
        .enumerate()
        .filter_map(|(i, item)| match item {
            Given::Is(record) => Some((i, record)),
            Given::Absent => not_an_object(name, i, &Value::Null, errors),
            Given::Not(other) => not_an_object(name, i, &other, errors),
        })
        .collect()
}

pub(super) fn not_an_object<T>(
    name: &str,
    i: usize,
    v: &Value,
    errors: &mut Vec<String>,
) -> Option<T> {
    errors.push(format!("{name}[{i}] must be an object (not {})", shown(v)));
    None
}

/// The slugs of the file's products, as written (whatever their problems).
pub(super) fn written_slugs(products: &Section<RawProduct>) -> HashSet<String> {
    let Given::Is(items) = products else {
        return HashSet::new();
    };
    items
        .iter()
        .filter_map(|p| match p {
            Given::Is(RawProduct {
                slug: Given::Is(s), ..
            }) => Some(s.clone()),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use db::catalog_io::export_with;
    use db::diesel::Connection;
    use serde::de::DeserializeOwned;
    use serde_json::{json, Map};

    use super::super::file::{RawBanner, RawDeposit, RawFee, RawPromo};
    use super::super::format::{
        to_json, BANNER_FIELDS, DEPOSIT_FIELDS, FEE_FIELDS, PRODUCT_FIELDS, PROMO_FIELDS,
    };
    use super::*;

    /// What a seeded store knows, and its catalog as a file.
    fn seeded() -> (Known, Value) {
        let mut conn = db::AnyConnection::establish(":memory:").unwrap();
        db::migrate(&mut conn).unwrap();
        db::seed::seed(&mut conn).unwrap();
        let known = Known::load(&mut conn).unwrap();
        let file = export_with(&mut conn, &known).unwrap();
        let text = to_json(&file);
        assert_eq!(parse(&text, &known), Ok(file), "the export reads back");
        (known, serde_json::from_str(&text).unwrap())
    }

    fn problems(file: &Value, known: &Known) -> Vec<String> {
        parse(&file.to_string(), known).expect_err("a bad file")
    }

    #[test]
    fn every_problem_is_named_by_its_record_and_field() {
        let (known, mut file) = seeded();
        file["products"][0]["price"] = json!(1);
        file["products"][2]["price"] = json!(-5);
        file["products"][3]["price_per_case"] = json!(52.5);
        file["products"][4]["packaging"] = json!("crate");
        file["products"][5]["prcie"] = json!(100);
        file["products"][6]["sku"] = file["products"][0]["sku"].clone();
        file["products"][7]["cities"] = json!([42]);
        file["products"][8]
            .as_object_mut()
            .unwrap()
            .remove("created_on");
        file["deposits"][1]["product"] = json!("no-such-beer");
        file["delivery_fees"][0]["city_name"] = json!("Cebu City");
        file["banners"][0]["desktop_image"] = json!("javascript:alert(1)");
        file["promos"][0]["ends_on"] = json!("2020-01-01");
        let fields = PRODUCT_FIELDS.join(", ");
        assert_eq!(
            problems(&file, &known),
            [
                "products[2] (slug tala-light-330ml): price must be a whole number of centavos >= 0 (not -5)".to_string(),
                "products[3] (slug tala-dark-lager-330ml): price_per_case must be a whole number of centavos >= 0 (not 52.5)".into(),
                "products[4] (slug habagat-strong-lager-330ml): packaging must be one of bottle, can, keg (not \"crate\")".into(),
                format!("products[5] (slug habagat-extra-strong-500ml): prcie is not a field here (the fields are {fields})"),
                "products[6] (slug amihan-wheat-330ml): sku is listed twice (also products[0])".into(),
                "products[7] (slug amihan-mango-ale-330ml): cities holds 42, which is not a city's PSGC code".into(),
                "products[8] (slug bangkal-ipa-330ml): created_on is missing".into(),
                "deposits[1] (id 2): product \"no-such-beer\" is not the slug of a product in the file".into(),
                "delivery_fees[0] (city 301410000, Delivery): city_name \"Cebu City\" is not the name of city 301410000 (\"Malolos City\"): check the code".into(),
                "banners[0] (id 1): desktop_image must be a path on the store (/img/...) or an https:// address (not \"javascript:alert(1)\")".into(),
                "promos[0] (id 1): ends_on 2020-01-01 is before starts_on 2026-11-01".into(),
            ]
        );
    }

    #[test]
    fn a_file_that_is_not_a_catalog_is_named_once() {
        let (known, _) = seeded();
        let sections = r#""products": [], "deposits": [], "delivery_fees": [], "banners": []"#;
        for (text, problem) in [
            (
                "{",
                "the file is not JSON: EOF while parsing an object at line 1 column 1",
            ),
            (
                "[]",
                "the file must be a JSON object with \"format\": \"store-catalog/1\"",
            ),
            (
                r#"{"products": []}"#,
                "format is missing: a catalog file says \"format\": \"store-catalog/1\"",
            ),
            (
                r#"{"format": null}"#,
                "format must be \"store-catalog/1\" (not null): this store reads no other",
            ),
            (
                &format!(r#"{{"format": "store-catalog/1", {sections}}}"#),
                "promos is missing (a list; an empty list removes every one)",
            ),
            (
                &format!(r#"{{"format": "store-catalog/1", {sections}, "promos": 1}}"#),
                "promos must be a list (not 1)",
            ),
        ] {
            let said = parse(text, &known).expect_err(text);
            assert!(said.contains(&problem.to_string()), "{text}: {said:?}");
        }
        let text = format!(
            r#"{{"format": "store-catalog/1", {sections}, "promos": [], "sales": [], "products2": 1}}"#
        );
        assert_eq!(
            parse(&text, &known),
            Err(vec![
                "products2 is not a section of a catalog file (the sections are products, deposits, delivery_fees, banners, promos)".into(),
                "sales is not a section of a catalog file (the sections are products, deposits, delivery_fees, banners, promos)".into(),
                "products is empty: every product would stop being orderable; list the products to keep".into(),
            ])
        );
    }

    #[test]
    fn a_record_that_is_not_an_object_or_has_fields_of_the_wrong_type() {
        let (known, mut file) = seeded();
        file["banners"][1] = json!(null);
        file["banners"][2] = json!("banner");
        file["products"][0]["orderable"] = json!("yes");
        file["products"][0]["sort_order"] = json!(1e3);
        file["products"][0]["cities"] = json!("some");
        file["products"][1]["cities"] = json!([null, 1380300000, 1380300000, [1]]);
        file["deposits"][0]["id"] = json!("one");
        assert_eq!(
            problems(&file, &known),
            [
                "products[0] (slug tala-pale-pilsen-320ml): orderable must be true or false (not \"yes\")",
                "products[0] (slug tala-pale-pilsen-320ml): cities must be \"all\" or a list of cities' PSGC codes (not \"some\")",
                "products[0] (slug tala-pale-pilsen-320ml): sort_order must be a whole number from -1000000 to 1000000 (not 1000.0)",
                "products[1] (slug tala-pale-pilsen-500ml): cities holds null, which is not a city's PSGC code",
                "products[1] (slug tala-pale-pilsen-500ml): cities lists 1380300000 twice",
                "products[1] (slug tala-pale-pilsen-500ml): cities holds [1], which is not a city's PSGC code",
                "deposits[0] (id \"one\"): id must be a whole number from 1 to 2147483647 (not \"one\")",
                "banners[1] must be an object (not null)",
                "banners[2] must be an object (not \"banner\")",
            ]
        );
    }

    #[test]
    fn a_name_with_a_problem_is_not_also_called_blank() {
        let (known, mut file) = seeded();
        file["products"][0]["product_name"] = json!("x".repeat(201));
        file["products"][1]["brand"] = json!("\n");
        file["products"][2]["size"] = json!("   ");
        file["products"][3]["sku"] = json!(7);
        assert_eq!(
            problems(&file, &known),
            [
                "products[0] (slug tala-pale-pilsen-320ml): product_name must be at most 200 characters",
                "products[1] (slug tala-pale-pilsen-500ml): brand must be one line without control characters",
                "products[2] (slug tala-light-330ml): size must not be blank",
                "products[3] (slug tala-dark-lager-330ml): sku must be text (not 7)",
            ]
        );
    }

    #[test]
    fn past_a_hundred_problems_the_rest_are_counted() {
        let (known, mut file) = seeded();
        for p in file["products"].as_array_mut().unwrap() {
            for field in [
                "price",
                "price_per_case",
                "unit_per_case",
                "sort_order",
                "orderable",
            ] {
                p[field] = json!("?");
            }
        }
        let said = problems(&file, &known);
        assert_eq!(said.len(), 101);
        assert_eq!(said[100], "... and 30 more problems");
    }

    /// Each list of fields a problem shows is the record's fields, in order.
    #[test]
    fn the_fields_named_are_the_records_fields() {
        fn unknown<T: DeserializeOwned>(fields: &[&str], get: fn(T) -> Map<String, Value>) {
            let mut record: Map<String, Value> =
                fields.iter().map(|f| (f.to_string(), json!(1))).collect();
            record.insert("extra".into(), json!(1));
            let unknown = get(T::deserialize(Value::Object(record)).unwrap());
            assert_eq!(unknown.keys().collect::<Vec<_>>(), ["extra"], "{fields:?}");
        }
        unknown::<RawProduct>(PRODUCT_FIELDS, |r| r.unknown);
        unknown::<RawDeposit>(DEPOSIT_FIELDS, |r| r.unknown);
        unknown::<RawFee>(FEE_FIELDS, |r| r.unknown);
        unknown::<RawBanner>(BANNER_FIELDS, |r| r.unknown);
        unknown::<RawPromo>(PROMO_FIELDS, |r| r.unknown);
    }
}
