//! The import's report: what a file changes in the catalog, kind by kind ([`Tally`]) and record by
//! record, field by field ([`Change`]), as a dry run shows it, `store catalog import` prints it,
//! the back office lists it and the audit log keeps it.

use std::collections::{HashMap, HashSet};

use db::catalog_io::{CatalogRecords, Known, ProductRecord};
use serde::Serialize;

use super::format::{BANNER_FIELDS, DEPOSIT_FIELDS, FEE_FIELDS, PRODUCT_FIELDS, PROMO_FIELDS};
use crate::staff::catalog::ChangeKind;

/// What happened to one kind of record.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    pub new: usize,
    pub changed: usize,
    pub unchanged: usize,
    /// Removed (products: left out of the file, kept and not orderable).
    pub removed: usize,
}

/// What an import did, or (checked only) would do.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Report {
    pub products: Tally,
    /// The products the file leaves out that were orderable and are not any more (slugs).
    pub retired: Vec<String>,
    pub deposits: Tally,
    pub delivery_fees: Tally,
    pub banners: Tally,
    pub promos: Tally,
    /// Every record that differs, in the file's order of sections and records.
    pub changes: Vec<Change>,
    /// Whether the database was written.
    pub applied: bool,
    /// The data version after the import.
    pub data_version: i64,
}

impl Report {
    /// What `file` changes in `current` (the catalog as it stands, with what the database
    /// `known`s): not applied, at data version 0 until the import says otherwise.
    pub fn of(file: &CatalogRecords, current: &CatalogRecords, known: &Known) -> Self {
        let slugs: HashSet<&str> = file.products.iter().map(|p| p.slug.as_str()).collect();
        Self {
            products: count_by_key(&file.products, &current.products, |p| p.slug.clone()),
            retired: known
                .products
                .iter()
                .filter(|p| p.orderable && !slugs.contains(p.slug.as_str()))
                .map(|p| p.slug.clone())
                .collect(),
            deposits: count_by_key(&file.deposits, &current.deposits, |d| d.id),
            delivery_fees: count_by_key(&file.delivery_fees, &current.delivery_fees, |f| {
                (f.city_id, f.fulfillment.clone())
            }),
            banners: count_by_key(&file.banners, &current.banners, |b| b.id),
            promos: count_by_key(&file.promos, &current.promos, |p| p.id),
            changes: changes(file, current),
            applied: false,
            data_version: 0,
        }
    }

    /// Whether the file differs from the database at all.
    pub fn changes(&self) -> bool {
        let t = [self.deposits, self.delivery_fees, self.banners, self.promos];
        self.products.new + self.products.changed > 0
            || !self.retired.is_empty()
            || t.iter().any(|t| t.new + t.changed + t.removed > 0)
    }
}

/// Counts the records of one kind by key: new, changed and unchanged in `new`, and those of `old`
/// that `new` leaves out.
fn count_by_key<T: PartialEq, K: Eq + std::hash::Hash>(
    new: &[T],
    old: &[T],
    key: impl Fn(&T) -> K,
) -> Tally {
    let old_by_key: HashMap<K, &T> = old.iter().map(|r| (key(r), r)).collect();
    let mut tally = Tally::default();
    for r in new {
        match old_by_key.get(&key(r)) {
            None => tally.new += 1,
            Some(o) if *o != r => tally.changed += 1,
            Some(_) => tally.unchanged += 1,
        }
    }
    let kept: HashSet<K> = new.iter().map(&key).collect();
    tally.removed = old.iter().filter(|r| !kept.contains(&key(r))).count();
    tally
}

/// One field of a record that changes: its value before and after (absent on a new or removed
/// record), and both as a person reads them (money in pesos).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChangedField {
    pub field: &'static str,
    pub before: Option<serde_json::Value>,
    pub after: Option<serde_json::Value>,
    pub before_text: String,
    pub after_text: String,
}

/// One record that an import adds, changes or removes, named by its section and key (a
/// product's slug; a deposit's, banner's or promo's id; a fee's city and fulfillment).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Change {
    pub section: &'static str,
    pub key: String,
    pub kind: ChangeKind,
    /// The fields that change, in the record's order (every field of a new record, and of a
    /// removed one).
    pub fields: Vec<ChangedField>,
}

/// The fields of each section that are money (centavos, shown in pesos).
const MONEY_FIELDS: [&str; 3] = ["price", "price_per_case", "amount"];

/// A field's value as a person reads it: money in pesos, text as it is, the rest as JSON.
fn shown_value(field: &str, v: Option<&serde_json::Value>) -> String {
    match v {
        None | Some(serde_json::Value::Null) => String::new(),
        Some(serde_json::Value::Number(n)) if MONEY_FIELDS.contains(&field) => n
            .as_i64()
            .map_or_else(|| n.to_string(), domain::money::format_php),
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    }
}

/// The fields of `section`'s records, in their order.
fn section_fields(section: &str) -> &'static [&'static str] {
    match section {
        "products" => PRODUCT_FIELDS,
        "deposits" => DEPOSIT_FIELDS,
        "delivery_fees" => FEE_FIELDS,
        "banners" => BANNER_FIELDS,
        _ => PROMO_FIELDS,
    }
}

/// The fields whose values differ between `before` and `after` (either may be absent).
fn field_changes<T: Serialize>(
    section: &str,
    before: Option<&T>,
    after: Option<&T>,
) -> Vec<ChangedField> {
    let object = |r: Option<&T>| match r.map(serde_json::to_value) {
        Some(Ok(serde_json::Value::Object(m))) => m,
        _ => serde_json::Map::new(),
    };
    let (old, new) = (object(before), object(after));
    section_fields(section)
        .iter()
        .filter_map(|&field| {
            let (b, a) = (old.get(field), new.get(field));
            (b != a).then(|| ChangedField {
                field,
                before_text: shown_value(field, b),
                after_text: shown_value(field, a),
                before: b.cloned(),
                after: a.cloned(),
            })
        })
        .collect()
}

/// The changes of one section: the file's new and changed records, then the removed ones.
fn section_changes<T: Serialize + PartialEq, K: Eq + std::hash::Hash + Clone>(
    section: &'static str,
    new: &[T],
    old: &[T],
    key: impl Fn(&T) -> K,
    name: impl Fn(&K) -> String,
) -> Vec<Change> {
    let old_by_key: HashMap<K, &T> = old.iter().map(|r| (key(r), r)).collect();
    let kept: HashSet<K> = new.iter().map(&key).collect();
    let mut changes: Vec<Change> = new
        .iter()
        .filter_map(|r| {
            let k = key(r);
            let before = old_by_key.get(&k).copied();
            let kind = match before {
                None => ChangeKind::New,
                Some(o) if o != r => ChangeKind::Changed,
                Some(_) => return None,
            };
            Some(Change {
                section,
                key: name(&k),
                kind,
                fields: field_changes(section, before, Some(r)),
            })
        })
        .collect();
    changes.extend(
        old.iter()
            .filter(|r| !kept.contains(&key(r)))
            .map(|r| Change {
                section,
                key: name(&key(r)),
                kind: ChangeKind::Removed,
                fields: field_changes(section, Some(r), None),
            }),
    );
    changes
}

/// Every record `file` changes in `current`.
fn changes(file: &CatalogRecords, current: &CatalogRecords) -> Vec<Change> {
    let same = |k: &String| k.clone();
    let id = |k: &i32| k.to_string();
    let mut all = section_changes(
        "products",
        &file.products,
        &current.products,
        |p| p.slug.clone(),
        same,
    );
    // A product left out is kept: it changes only when it was orderable.
    for c in all.iter_mut().filter(|c| c.kind == ChangeKind::Removed) {
        c.kind = ChangeKind::LeftOut;
        let before = current.products.iter().find(|p| p.slug == c.key);
        let after = before.map(|p| ProductRecord {
            orderable: false,
            ..p.clone()
        });
        c.fields = field_changes("products", before, after.as_ref());
    }
    all.retain(|c| c.kind != ChangeKind::LeftOut || !c.fields.is_empty());
    all.extend(section_changes(
        "deposits",
        &file.deposits,
        &current.deposits,
        |d| d.id,
        id,
    ));
    all.extend(section_changes(
        "delivery_fees",
        &file.delivery_fees,
        &current.delivery_fees,
        |f| (f.city_id, f.fulfillment.clone()),
        |(city, f)| format!("{city} {f}"),
    ));
    all.extend(section_changes(
        "banners",
        &file.banners,
        &current.banners,
        |b| b.id,
        id,
    ));
    all.extend(section_changes(
        "promos",
        &file.promos,
        &current.promos,
        |p| p.id,
        id,
    ));
    all
}
