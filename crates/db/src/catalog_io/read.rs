//! Reading a catalog file. Serde types give the file's shape: its sections, each record's fields
//! and the type each field takes. They are lenient on purpose: a field of the wrong type is kept
//! as it was given ([`Given::Not`]) and a field the record does not have is collected, so one
//! reading finds every problem of the file instead of stopping at the first. A validator per rule
//! then checks each record and names each problem by its record and field, in the order of the
//! record's fields (`products[2] (slug tala-light-330ml): price must be ...`).

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::fmt::Display;
use std::hash::Hash;
use std::ops::RangeInclusive;

use serde::de::{DeserializeOwned, Deserializer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::{
    BannerRecord, CatalogFile, Cities, DepositRecord, FeeRecord, Known, ProductRecord, PromoRecord,
    FORMAT, MAX_CENTAVOS,
};

/// Problems listed before the rest are only counted.
const SHOWN: usize = 100;
/// The sections of a file, after its `format`.
const SECTIONS: [&str; 5] = ["products", "deposits", "delivery_fees", "banners", "promos"];
/// A sort order is a whole number in this range.
pub const SORT_ORDER: RangeInclusive<i64> = -1_000_000..=1_000_000;

/// A field as the file gives it: absent (`null` counts as absent), a value of the type the field
/// takes, or another value, kept so that its problem can show it.
#[derive(Debug, Clone, PartialEq, Default)]
enum Given<T> {
    #[default]
    Absent,
    Is(T),
    Not(Value),
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Given<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(match Value::deserialize(d)? {
            Value::Null => Self::Absent,
            v => match T::deserialize(&v) {
                Ok(t) => Self::Is(t),
                Err(_) => Self::Not(v),
            },
        })
    }
}

impl<T: Serialize> Given<T> {
    /// The value as a problem shows it (`null` when absent).
    fn shown(&self) -> String {
        match self {
            Self::Absent => shown(&Value::Null),
            Self::Is(t) => shown(t),
            Self::Not(v) => shown(v),
        }
    }
}

/// A section: a list of records, each of which must be an object.
type Section<T> = Given<Vec<Given<T>>>;

/// The whole file. Its `format` is kept as given, `null` included, to be named in its problem.
#[derive(Deserialize, Default)]
#[serde(default)]
struct RawFile {
    #[serde(deserialize_with = "present")]
    format: Option<Value>,
    products: Section<RawProduct>,
    deposits: Section<RawDeposit>,
    delivery_fees: Section<RawFee>,
    banners: Section<RawBanner>,
    promos: Section<RawPromo>,
    /// Sections a catalog file does not have.
    #[serde(flatten)]
    unknown: Map<String, Value>,
}

/// A field that is there, whatever its value (`null` included).
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

/// A product as the file gives it (see [`ProductRecord`]).
#[derive(Deserialize, Default)]
#[serde(default)]
struct RawProduct {
    slug: Given<String>,
    product_name: Given<String>,
    sku: Given<String>,
    brand: Given<String>,
    size: Given<String>,
    product_type: Given<String>,
    packaging: Given<String>,
    price: Given<i64>,
    price_per_case: Given<i64>,
    unit_per_case: Given<i64>,
    orderable: Given<bool>,
    cities: Given<RawCities>,
    product_image: Given<String>,
    description: Given<String>,
    custom_description: Given<String>,
    style: Given<String>,
    best_seller: Given<bool>,
    recommended: Given<bool>,
    sort_order: Given<i64>,
    created_on: Given<String>,
    /// Fields a product does not have.
    #[serde(flatten)]
    unknown: Map<String, Value>,
}

/// A product's fields, as a problem lists them.
pub(super) const PRODUCT_FIELDS: &[&str] = &[
    "slug",
    "product_name",
    "sku",
    "brand",
    "size",
    "product_type",
    "packaging",
    "price",
    "price_per_case",
    "unit_per_case",
    "orderable",
    "cities",
    "product_image",
    "description",
    "custom_description",
    "style",
    "best_seller",
    "recommended",
    "sort_order",
    "created_on",
];

/// `cities` as the file gives it: `"all"` (another word is a problem) or a list of PSGC codes.
#[derive(Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
enum RawCities {
    Word(String),
    Codes(Vec<Given<i64>>),
}

/// A deposit as the file gives it (see [`DepositRecord`]).
#[derive(Deserialize, Default)]
#[serde(default)]
struct RawDeposit {
    id: Given<i64>,
    name: Given<String>,
    amount: Given<i64>,
    product: Given<String>,
    packaging: Given<String>,
    #[serde(flatten)]
    unknown: Map<String, Value>,
}

pub(super) const DEPOSIT_FIELDS: &[&str] = &["id", "name", "amount", "product", "packaging"];

/// A delivery fee as the file gives it (see [`FeeRecord`]).
#[derive(Deserialize, Default)]
#[serde(default)]
struct RawFee {
    city_id: Given<i64>,
    city_name: Given<String>,
    fulfillment: Given<String>,
    amount: Given<i64>,
    #[serde(flatten)]
    unknown: Map<String, Value>,
}

pub(super) const FEE_FIELDS: &[&str] = &["city_id", "city_name", "fulfillment", "amount"];

/// A banner as the file gives it (see [`BannerRecord`]).
#[derive(Deserialize, Default)]
#[serde(default)]
struct RawBanner {
    id: Given<i64>,
    title: Given<String>,
    desktop_image: Given<String>,
    mobile_image: Given<String>,
    sort_order: Given<i64>,
    starts_on: Given<String>,
    ends_on: Given<String>,
    #[serde(flatten)]
    unknown: Map<String, Value>,
}

pub(super) const BANNER_FIELDS: &[&str] = &[
    "id",
    "title",
    "desktop_image",
    "mobile_image",
    "sort_order",
    "starts_on",
    "ends_on",
];

/// A promo as the file gives it (see [`PromoRecord`]).
#[derive(Deserialize, Default)]
#[serde(default)]
struct RawPromo {
    id: Given<i64>,
    product: Given<String>,
    title: Given<String>,
    description: Given<String>,
    starts_on: Given<String>,
    ends_on: Given<String>,
    #[serde(flatten)]
    unknown: Map<String, Value>,
}

pub(super) const PROMO_FIELDS: &[&str] = &[
    "id",
    "product",
    "title",
    "description",
    "starts_on",
    "ends_on",
];

/// A value as a problem shows it: as JSON, short, on one line.
fn shown(v: &impl Serialize) -> String {
    let s = serde_json::to_string(v).unwrap_or_default();
    if s.chars().count() > 40 {
        format!("{}...", s.chars().take(37).collect::<String>())
    } else {
        s
    }
}

/// The problem of a text, if it has one: longer than `max` characters, or holding control
/// characters (new lines and tabs are allowed when `lines`).
fn text_problem(s: &str, max: usize, lines: bool) -> Option<String> {
    if s.chars().count() > max {
        Some(format!("must be at most {max} characters"))
    } else if s
        .chars()
        .any(|c| c.is_control() && !(lines && (c == '\n' || c == '\t')))
    {
        Some(if lines {
            "must not hold control characters (other than new lines and tabs)".into()
        } else {
            "must be one line without control characters".into()
        })
    } else {
        None
    }
}

/// A slug is the product page's address: lowercase letters and digits in words joined by single
/// hyphens, at most 100 bytes.
fn slug_ok(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 100
        && s.split('-').all(|part| {
            !part.is_empty()
                && part
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

/// A SKU: letters, digits, `-`, `_`, `.` or `/`, at most 50.
fn sku_ok(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 50
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'/'))
}

/// An image's address: a path on the store (`/img/...`) or an `https://` address, without spaces.
fn image_ok(s: &str) -> bool {
    ((s.starts_with('/') && !s.starts_with("//")) || s.starts_with("https://"))
        && !s.contains(char::is_whitespace)
}

/// The index of the record that had `key` first, if one did; otherwise `i` is noted as that
/// record.
fn seen_before<K: Eq + Hash>(seen: &mut HashMap<K, usize>, key: K, i: usize) -> Option<usize> {
    match seen.entry(key) {
        Entry::Occupied(first) => Some(*first.get()),
        Entry::Vacant(e) => {
            e.insert(i);
            None
        }
    }
}

/// The checks of one record: each problem is noted with the record's label.
struct Check<'a> {
    label: String,
    errors: &'a mut Vec<String>,
}

impl<'a> Check<'a> {
    /// Record `i` of a section whose records are named by a unique `id` (deposits, banners,
    /// promos): the record's checks, labelled by its id, and the id, checked and told apart from
    /// the ids `ids` has seen.
    fn by_id(
        section: &str,
        i: usize,
        id: Given<i64>,
        ids: &mut HashMap<i64, usize>,
        errors: &'a mut Vec<String>,
    ) -> (Self, i32) {
        let label = match &id {
            Given::Absent => format!("{section}[{i}]"),
            given => format!("{section}[{i}] (id {})", given.shown()),
        };
        let mut r = Check { label, errors };
        let id = r.int("id", id, 1..=i64::from(i32::MAX), None);
        if let Some(first) = seen_before(ids, id, i).filter(|_| id > 0) {
            r.bad("id", format!("is listed twice (also {section}[{first}])"));
        }
        (r, i32::try_from(id).unwrap_or(0))
    }

    fn bad(&mut self, field: &str, msg: impl Display) {
        self.errors.push(format!("{}: {field} {msg}", self.label));
    }

    fn missing(&mut self, field: &str) {
        self.bad(field, "is missing");
    }

    /// Text that may be left out; `None` when it is, or has a problem.
    fn text(
        &mut self,
        field: &str,
        given: Given<String>,
        max: usize,
        lines: bool,
    ) -> Option<String> {
        match given {
            Given::Absent => None,
            Given::Is(s) => match text_problem(&s, max, lines) {
                Some(problem) => {
                    self.bad(field, problem);
                    None
                }
                None => Some(s),
            },
            Given::Not(v) => {
                self.bad(field, format!("must be text (not {})", shown(&v)));
                None
            }
        }
    }

    /// Text that must be there and not blank; empty when it has another problem.
    fn name(&mut self, field: &str, given: Given<String>, max: usize) -> String {
        if given == Given::Absent {
            self.missing(field);
            return String::new();
        }
        let s = self.text(field, given, max, false);
        if s.as_ref().is_some_and(|s| s.trim().is_empty()) {
            self.bad(field, "must not be blank");
        }
        s.unwrap_or_default()
    }

    /// A whole number in `range`; `default` when left out, if it may be (0 on a problem).
    fn int(
        &mut self,
        field: &str,
        given: Given<i64>,
        range: RangeInclusive<i64>,
        default: Option<i64>,
    ) -> i64 {
        match (given, default) {
            (Given::Absent, Some(d)) => d,
            (Given::Absent, None) => {
                self.missing(field);
                0
            }
            (Given::Is(n), _) if range.contains(&n) => n,
            (given, _) => {
                let (min, max) = range.into_inner();
                self.bad(
                    field,
                    format!(
                        "must be a whole number from {min} to {max} (not {})",
                        given.shown()
                    ),
                );
                0
            }
        }
    }

    /// Centavos: a whole number from 0 to [`MAX_CENTAVOS`] (0 on a problem).
    fn money(&mut self, field: &str, given: Given<i64>) -> i64 {
        match given {
            Given::Absent => self.missing(field),
            Given::Is(n) if (0..=MAX_CENTAVOS).contains(&n) => return n,
            Given::Is(n) if n > MAX_CENTAVOS => self.bad(
                field,
                format!(
                    "must be at most {} ({MAX_CENTAVOS} centavos), not {} ({n})",
                    domain::money::format_php(MAX_CENTAVOS),
                    domain::money::format_php(n)
                ),
            ),
            given => self.bad(
                field,
                format!(
                    "must be a whole number of centavos >= 0 (not {})",
                    given.shown()
                ),
            ),
        }
        0
    }

    /// True or false; `default` when left out, if it may be (false on a problem).
    fn flag(&mut self, field: &str, given: Given<bool>, default: Option<bool>) -> bool {
        match (given, default) {
            (Given::Is(b), _) => b,
            (Given::Absent, Some(d)) => d,
            (Given::Absent, None) => {
                self.missing(field);
                false
            }
            (given, _) => {
                self.bad(
                    field,
                    format!("must be true or false (not {})", given.shown()),
                );
                false
            }
        }
    }

    /// A day, `YYYY-MM-DD`; empty on a problem.
    fn date(&mut self, field: &str, given: Given<String>) -> String {
        match given {
            Given::Absent => self.missing(field),
            Given::Is(s) if domain::calendar::parse_iso_date(&s).is_some() => return s,
            given => self.bad(
                field,
                format!("must be a date, YYYY-MM-DD (not {})", given.shown()),
            ),
        }
        String::new()
    }

    /// A day, `YYYY-MM-DD`, that may be left out (an open end); none on a problem.
    fn open_date(&mut self, field: &str, given: Given<String>) -> Option<String> {
        match given {
            Given::Absent => None,
            given => Some(self.date(field, given)).filter(|d| !d.is_empty()),
        }
    }

    /// A span's end is not before its start (either may be open, or empty after a problem).
    fn in_order(&mut self, starts_on: Option<&str>, ends_on: Option<&str>) {
        if let (Some(start), Some(end)) = (starts_on, ends_on) {
            if !start.is_empty() && !end.is_empty() && end < start {
                self.bad("ends_on", format!("{end} is before starts_on {start}"));
            }
        }
    }

    /// An image's address (see [`image_ok`]), which may be left out unless `required`.
    fn image(&mut self, field: &str, given: Given<String>, required: bool) -> Option<String> {
        if required && given == Given::Absent {
            self.missing(field);
            return None;
        }
        let s = self.text(field, given, 500, false)?;
        if !image_ok(&s) {
            self.bad(
                field,
                format!(
                    "must be a path on the store (/img/...) or an https:// address (not {})",
                    shown(&s)
                ),
            );
        }
        Some(s)
    }

    /// `name` must be one of `list`'s names (its case ignored), unless it is empty (a problem
    /// already noted).
    fn one_of(&mut self, field: &str, name: &str, list: &[(i32, String)]) {
        if !name.is_empty() && Known::id_of(list, name).is_none() {
            self.bad(
                field,
                format!("must be one of {} (not {name:?})", Known::names(list)),
            );
        }
    }

    /// Notes the fields the record does not have (a typo is not silently dropped).
    fn unknown(self, unknown: &Map<String, Value>, fields: &[&str]) {
        for k in unknown.keys() {
            self.errors.push(format!(
                "{}: {k} is not a field here (the fields are {})",
                self.label,
                fields.join(", ")
            ));
        }
    }
}

/// Reads and checks a catalog file: the file, or every problem found (each naming its record and
/// field).
pub(super) fn parse(text: &str, known: &Known) -> Result<CatalogFile, Vec<String>> {
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
    Ok(CatalogFile {
        format: FORMAT.into(),
        products,
        deposits,
        delivery_fees,
        banners,
        promos,
    })
}

/// The file's format must be this store's.
fn check_format(format: Option<&Value>) -> Result<(), String> {
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
fn shorten(mut errors: Vec<String>) -> Vec<String> {
    if errors.len() > SHOWN {
        let more = errors.len() - SHOWN;
        errors.truncate(SHOWN);
        errors.push(format!("... and {more} more problems"));
    }
    errors
}

/// A section's records, each with its index in the file: the section must be a list of objects.
fn records<T>(name: &str, section: Section<T>, errors: &mut Vec<String>) -> Vec<(usize, T)> {
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

fn not_an_object<T>(name: &str, i: usize, v: &Value, errors: &mut Vec<String>) -> Option<T> {
    errors.push(format!("{name}[{i}] must be an object (not {})", shown(v)));
    None
}

/// The slugs of the file's products, as written (whatever their problems).
fn written_slugs(products: &Section<RawProduct>) -> HashSet<String> {
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

/// What the products' checks remember from one record to the next: the first record of each
/// slug and of each SKU.
#[derive(Default)]
struct Seen {
    slugs: HashMap<String, usize>,
    skus: HashMap<String, usize>,
}

/// The file's products, and the index of each slug the file names (a deposit or a promo names
/// its product by slug).
fn read_products(
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

fn read_product(
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
    fn slug(
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
    fn sku(&mut self, given: Given<String>, i: usize, seen: &mut HashMap<String, usize>) -> String {
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
    fn sku_kept_elsewhere(&mut self, sku: &str, known: &Known, file_slugs: &HashSet<String>) {
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

    fn not_cities(&mut self, given: &impl Serialize) -> Cities {
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
    fn cities(&mut self, given: Given<RawCities>, known: &Known) -> Cities {
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

fn read_deposits(
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
    fn deposit_on(
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

fn read_fees(
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
    fn city<'k>(
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

fn read_banners(records: Vec<(usize, RawBanner)>, errors: &mut Vec<String>) -> Vec<BannerRecord> {
    let mut ids = HashMap::new();
    let mut banners = Vec::new();
    for (i, raw) in records {
        let (mut r, id) = Check::by_id("banners", i, raw.id, &mut ids, errors);
        let title = r.name("title", raw.title, 200);
        let desktop_image = r.image("desktop_image", raw.desktop_image, true);
        let mobile_image = r.image("mobile_image", raw.mobile_image, true);
        let sort_order = r.int("sort_order", raw.sort_order, SORT_ORDER, Some(0));
        let starts_on = r.open_date("starts_on", raw.starts_on);
        let ends_on = r.open_date("ends_on", raw.ends_on);
        r.in_order(starts_on.as_deref(), ends_on.as_deref());
        r.unknown(&raw.unknown, BANNER_FIELDS);
        banners.push(BannerRecord {
            id,
            title,
            desktop_image: desktop_image.unwrap_or_default(),
            mobile_image: mobile_image.unwrap_or_default(),
            sort_order: i32::try_from(sort_order).unwrap_or(0),
            starts_on,
            ends_on,
        });
    }
    banners
}

fn read_promos(
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

#[cfg(test)]
mod tests {
    use diesel::Connection;
    use serde_json::json;

    use super::*;
    use crate::catalog_io::{export_with, to_json};

    /// What a seeded store knows, and its catalog as a file.
    fn seeded() -> (Known, Value) {
        let mut conn = crate::AnyConnection::establish(":memory:").unwrap();
        crate::migrate(&mut conn).unwrap();
        crate::seed::seed(&mut conn).unwrap();
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
