//! The catalog file of `store catalog export` and `store catalog import` (issue 17 section 3):
//! products with their prices and where they are sold, deposits, delivery fees, banners and
//! promos, as one JSON document of its own format (`"format": "store-catalog/1"`, described in
//! the README). The export writes exactly what the import reads, so exporting, importing that
//! file and exporting again gives the same bytes.
//!
//! An import checks the whole file first, against itself and against what the database knows
//! (packagings, product types, fulfillment types, cities, served areas), and names each problem by
//! its record and field (`products[2] (slug tala-light-330ml): price must be ...`); a file with
//! any problem changes nothing. A good file is applied in one transaction: records are matched by
//! their natural keys (a product by its slug; a deposit, banner or promo by its id; a delivery fee
//! by its city and fulfillment), new ones are added, changed ones rewritten, and what the file
//! leaves out is removed, except products: orders, carts and Go-to Cases refer to them, so a
//! product the file leaves out is kept and made not orderable. The data version is bumped with
//! the changes, so every app server's caches refresh within a second (`crate::watch`).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt::Display;

use diesel::prelude::*;
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

use crate::models::Product;
use crate::schema::*;
use crate::AnyConnection;

/// The name and version of the file's format.
pub const FORMAT: &str = "store-catalog/1";
/// The most a price, deposit or fee may be: P1,000,000.00 (a typo of a few zeros stays out, and
/// no total of 999 units of 50 products overflows).
pub const MAX_CENTAVOS: i64 = 100_000_000;
/// Problems listed before the rest are only counted.
const SHOWN: usize = 100;

/// The whole file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CatalogFile {
    pub format: String,
    pub products: Vec<ProductRecord>,
    pub deposits: Vec<DepositRecord>,
    pub delivery_fees: Vec<FeeRecord>,
    pub banners: Vec<BannerRecord>,
    pub promos: Vec<PromoRecord>,
}

/// A product, named by its slug.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProductRecord {
    pub slug: String,
    pub product_name: String,
    pub sku: String,
    pub brand: String,
    pub size: String,
    /// A product type's name (`Cans`, `Full Goods`, `Keg`).
    pub product_type: String,
    /// A packaging's family (`bottle`, `can`, `keg`).
    pub packaging: String,
    /// Centavos a unit.
    pub price: i64,
    /// Centavos a whole case.
    pub price_per_case: i64,
    pub unit_per_case: i32,
    pub orderable: bool,
    /// Where it is sold: every served city, or only these (PSGC codes).
    pub cities: Cities,
    pub product_image: Option<String>,
    pub description: String,
    pub custom_description: String,
    pub best_seller: bool,
    pub recommended: bool,
    pub sort_order: i32,
    /// `YYYY-MM-DD`: what's new is what is recent.
    pub created_on: String,
}

/// Where a product is sold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cities {
    /// Every served city (`"all"`).
    All,
    /// Only these cities, by PSGC code, ascending.
    Only(Vec<i64>),
}

impl Serialize for Cities {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Self::All => s.serialize_str("all"),
            Self::Only(ids) => ids.serialize(s),
        }
    }
}

/// A deposit on one product (its slug) or on every product of one packaging (its family).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DepositRecord {
    pub id: i32,
    pub name: String,
    pub amount: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub product: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub packaging: Option<String>,
}

/// The delivery fee of a city for a fulfillment type (by name). `city_name` is there to be read;
/// an import checks it against the city's code when given.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FeeRecord {
    pub city_id: i64,
    pub city_name: String,
    pub fulfillment: String,
    pub amount: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BannerRecord {
    pub id: i32,
    pub title: String,
    pub desktop_image: String,
    pub mobile_image: String,
    pub sort_order: i32,
}

/// A promo of one product (its slug), shown from `starts_on` to `ends_on` (Manila days, both
/// included).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PromoRecord {
    pub id: i32,
    pub product: String,
    pub title: String,
    pub description: String,
    pub starts_on: String,
    pub ends_on: String,
}

/// What the database knows that the file refers to, and its products.
struct Known {
    product_types: Vec<(i32, String)>,
    packagings: Vec<(i32, String)>,
    fulfillments: Vec<(i32, String)>,
    cities: HashMap<i64, String>,
    served: HashSet<(i64, i32)>,
    products: Vec<Product>,
}

impl Known {
    fn load(conn: &mut AnyConnection) -> QueryResult<Self> {
        Ok(Self {
            product_types: product_types::table
                .order(product_types::id)
                .select((product_types::id, product_types::name))
                .load(conn)?,
            packagings: packagings::table
                .order(packagings::id)
                .select((packagings::id, packagings::filter_type))
                .load(conn)?,
            fulfillments: fulfillment_types::table
                .order(fulfillment_types::id)
                .select((fulfillment_types::id, fulfillment_types::name))
                .load(conn)?,
            cities: cities::table
                .select((cities::id, cities::city_name))
                .load::<(i64, String)>(conn)?
                .into_iter()
                .collect(),
            served: served_areas::table
                .select((served_areas::city_id, served_areas::fulfillment_type_id))
                .load::<(i64, i32)>(conn)?
                .into_iter()
                .collect(),
            products: products::table
                .order(products::id)
                .select(Product::as_select())
                .load(conn)?,
        })
    }

    fn name_of(list: &[(i32, String)], id: i32) -> String {
        list.iter()
            .find(|(i, _)| *i == id)
            .map_or_else(|| id.to_string(), |(_, n)| n.clone())
    }

    /// The id of a name, its case ignored.
    fn id_of(list: &[(i32, String)], name: &str) -> Option<i32> {
        list.iter()
            .find(|(_, n)| n.eq_ignore_ascii_case(name))
            .map(|(i, _)| *i)
    }

    fn names(list: &[(i32, String)]) -> String {
        list.iter()
            .map(|(_, n)| n.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn canonical(list: &[(i32, String)], name: &str) -> String {
        Self::id_of(list, name).map_or_else(|| name.to_string(), |id| Self::name_of(list, id))
    }
}

/// The catalog as the file holds it: products, deposits and promos by id, delivery fees by city
/// and fulfillment, banners by id.
pub fn export(conn: &mut AnyConnection) -> QueryResult<CatalogFile> {
    let known = Known::load(conn)?;
    export_with(conn, &known)
}

fn export_with(conn: &mut AnyConnection, known: &Known) -> QueryResult<CatalogFile> {
    let mut areas: BTreeMap<i32, Vec<i64>> = BTreeMap::new();
    for (product, city) in product_areas::table
        .select((product_areas::product_id, product_areas::city_id))
        .load::<(i32, i64)>(conn)?
    {
        areas.entry(product).or_default().push(city);
    }
    let slug_of: HashMap<i32, &str> = known
        .products
        .iter()
        .map(|p| (p.id.get(), p.slug.as_str()))
        .collect();
    let products = known
        .products
        .iter()
        .map(|p| ProductRecord {
            slug: p.slug.clone(),
            product_name: p.product_name.clone(),
            sku: p.sku.clone(),
            brand: p.brand.clone(),
            size: p.size.clone(),
            product_type: Known::name_of(&known.product_types, p.product_type_id),
            packaging: Known::name_of(&known.packagings, p.packaging_id.get()),
            price: p.price,
            price_per_case: p.price_per_case,
            unit_per_case: p.unit_per_case,
            orderable: p.orderable,
            cities: if p.sold_in_all_areas {
                Cities::All
            } else {
                let mut ids = areas.remove(&p.id.get()).unwrap_or_default();
                ids.sort_unstable();
                Cities::Only(ids)
            },
            product_image: p.product_image.clone(),
            description: p.description.clone(),
            custom_description: p.custom_description.clone(),
            best_seller: p.best_seller,
            recommended: p.recommended,
            sort_order: p.sort_order,
            created_on: p.created_on.clone(),
        })
        .collect();
    let deposits = deposits::table
        .order(deposits::id)
        .select((
            deposits::id,
            deposits::name,
            deposits::amount,
            deposits::product_id,
            deposits::packaging_id,
        ))
        .load::<(i32, String, i64, Option<i32>, Option<i32>)>(conn)?
        .into_iter()
        .map(|(id, name, amount, product, packaging)| DepositRecord {
            id,
            name,
            amount,
            product: product.map(|p| {
                slug_of
                    .get(&p)
                    .map_or_else(|| p.to_string(), |s| s.to_string())
            }),
            packaging: packaging.map(|p| Known::name_of(&known.packagings, p)),
        })
        .collect();
    let delivery_fees = delivery_fees::table
        .order((delivery_fees::city_id, delivery_fees::fulfillment_type_id))
        .select((
            delivery_fees::city_id,
            delivery_fees::fulfillment_type_id,
            delivery_fees::amount,
        ))
        .load::<(i64, i32, i64)>(conn)?
        .into_iter()
        .map(|(city_id, fulfillment, amount)| FeeRecord {
            city_id,
            city_name: known.cities.get(&city_id).cloned().unwrap_or_default(),
            fulfillment: Known::name_of(&known.fulfillments, fulfillment),
            amount,
        })
        .collect();
    let banners = banners::table
        .order(banners::id)
        .select((
            banners::id,
            banners::title,
            banners::desktop_image,
            banners::mobile_image,
            banners::sort_order,
        ))
        .load::<(i32, String, String, String, i32)>(conn)?
        .into_iter()
        .map(
            |(id, title, desktop_image, mobile_image, sort_order)| BannerRecord {
                id,
                title,
                desktop_image,
                mobile_image,
                sort_order,
            },
        )
        .collect();
    let promos = promos::table
        .order(promos::id)
        .select((
            promos::id,
            promos::product_id,
            promos::title,
            promos::description,
            promos::starts_on,
            promos::ends_on,
        ))
        .load::<(i32, i32, String, String, String, String)>(conn)?
        .into_iter()
        .map(
            |(id, product, title, description, starts_on, ends_on)| PromoRecord {
                id,
                product: slug_of
                    .get(&product)
                    .map_or_else(|| product.to_string(), |s| s.to_string()),
                title,
                description,
                starts_on,
                ends_on,
            },
        )
        .collect();
    Ok(CatalogFile {
        format: FORMAT.into(),
        products,
        deposits,
        delivery_fees,
        banners,
        promos,
    })
}

/// The file as JSON text, pretty-printed, ending with a newline.
pub fn to_json(file: &CatalogFile) -> String {
    let mut s = serde_json::to_string_pretty(file).unwrap_or_default();
    s.push('\n');
    s
}

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
    /// Whether the database was written.
    pub applied: bool,
    /// The data version after the import.
    pub data_version: i64,
}

impl Report {
    /// Whether the file differs from the database at all.
    pub fn changes(&self) -> bool {
        let t = [self.deposits, self.delivery_fees, self.banners, self.promos];
        self.products.new + self.products.changed > 0
            || !self.retired.is_empty()
            || t.iter().any(|t| t.new + t.changed + t.removed > 0)
    }
}

/// Why an import changed nothing.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The file's problems, each naming its record and field.
    #[error("{}", .0.join("\n"))]
    Invalid(Vec<String>),
    #[error("database: {0}")]
    Db(#[from] diesel::result::Error),
}

/// Checks `text` and, when `apply`, writes it in one transaction (see the module's words).
/// Checked only, nothing is written and the report says what would change.
pub fn import(conn: &mut AnyConnection, text: &str, apply: bool) -> Result<Report, ImportError> {
    if !apply {
        let known = Known::load(conn)?;
        let file = parse(text, &known).map_err(ImportError::Invalid)?;
        let current = export_with(conn, &known)?;
        let mut report = plan(&file, &current, &known).report;
        report.data_version = data_version(conn)?;
        return Ok(report);
    }
    crate::write_transaction(conn, |conn| {
        // The first statement writes the row every import writes: imports take turns from here
        // (PostgreSQL's row lock; SQLite's write lock), each deciding on what the last one left.
        diesel::update(data_version::table.find(1))
            .set(data_version::version.eq(data_version::version))
            .execute(conn)?;
        let known = Known::load(conn)?;
        let file = parse(text, &known).map_err(ImportError::Invalid)?;
        let current = export_with(conn, &known)?;
        let plan = plan(&file, &current, &known);
        let mut report = plan.report.clone();
        if report.changes() {
            write(conn, &file, &plan, &known)?;
            // The triggers bumped it with each write; this says so once more, explicitly.
            diesel::update(data_version::table.find(1))
                .set(data_version::version.eq(data_version::version + 1))
                .execute(conn)?;
        }
        report.applied = true;
        report.data_version = data_version(conn)?;
        Ok(report)
    })
}

/// The data version now.
pub fn data_version(conn: &mut AnyConnection) -> QueryResult<i64> {
    data_version::table
        .find(1)
        .select(data_version::version)
        .first(conn)
}

/// What to write: the records of each kind that are new or changed (by index into the file) and
/// the keys of those to remove.
struct Plan {
    report: Report,
    products: Vec<usize>,
    retire: Vec<i32>,
    deposits: Vec<usize>,
    remove_deposits: Vec<i32>,
    fees: Vec<usize>,
    remove_fees: Vec<(i64, String)>,
    banners: Vec<usize>,
    remove_banners: Vec<i32>,
    promos: Vec<usize>,
    remove_promos: Vec<i32>,
}

/// Compares the records of one kind by key: the indexes to write, the keys to remove, the tally.
fn compare<T: PartialEq, K: Eq + std::hash::Hash + Clone>(
    new: &[T],
    old: &[T],
    key: impl Fn(&T) -> K,
) -> (Vec<usize>, Vec<K>, Tally) {
    let old_by_key: HashMap<K, &T> = old.iter().map(|r| (key(r), r)).collect();
    let mut tally = Tally::default();
    let mut write = Vec::new();
    for (i, r) in new.iter().enumerate() {
        match old_by_key.get(&key(r)) {
            None => {
                tally.new += 1;
                write.push(i);
            }
            Some(o) if *o != r => {
                tally.changed += 1;
                write.push(i);
            }
            Some(_) => tally.unchanged += 1,
        }
    }
    let kept: HashSet<K> = new.iter().map(&key).collect();
    let removed: Vec<K> = old.iter().map(&key).filter(|k| !kept.contains(k)).collect();
    tally.removed = removed.len();
    (write, removed, tally)
}

fn plan(file: &CatalogFile, current: &CatalogFile, known: &Known) -> Plan {
    let (products, left_out, products_tally) =
        compare(&file.products, &current.products, |p| p.slug.clone());
    let left_out: HashSet<String> = left_out.into_iter().collect();
    let retired: Vec<&Product> = known
        .products
        .iter()
        .filter(|p| p.orderable && left_out.contains(&p.slug))
        .collect();
    let (deposits, remove_deposits, deposits_tally) =
        compare(&file.deposits, &current.deposits, |d| d.id);
    let (fees, remove_fees, fees_tally) =
        compare(&file.delivery_fees, &current.delivery_fees, |f| {
            (f.city_id, f.fulfillment.clone())
        });
    let (banners, remove_banners, banners_tally) =
        compare(&file.banners, &current.banners, |b| b.id);
    let (promos, remove_promos, promos_tally) = compare(&file.promos, &current.promos, |p| p.id);
    Plan {
        report: Report {
            products: products_tally,
            retired: retired.iter().map(|p| p.slug.clone()).collect(),
            deposits: deposits_tally,
            delivery_fees: fees_tally,
            banners: banners_tally,
            promos: promos_tally,
            applied: false,
            data_version: 0,
        },
        products,
        retire: retired.iter().map(|p| p.id.get()).collect(),
        deposits,
        remove_deposits,
        fees,
        remove_fees,
        banners,
        remove_banners,
        promos,
        remove_promos,
    }
}

#[derive(Insertable, AsChangeset)]
#[diesel(table_name = products, treat_none_as_null = true)]
struct ProductValues<'a> {
    slug: &'a str,
    product_name: &'a str,
    sku: &'a str,
    brand: &'a str,
    size: &'a str,
    price: i64,
    price_per_case: i64,
    unit_per_case: i32,
    product_type_id: i32,
    packaging_id: i32,
    product_image: Option<&'a str>,
    description: &'a str,
    custom_description: &'a str,
    orderable: bool,
    sold_in_all_areas: bool,
    best_seller: bool,
    recommended: bool,
    sort_order: i32,
    created_on: &'a str,
}

#[derive(Insertable, AsChangeset)]
#[diesel(table_name = deposits, treat_none_as_null = true)]
struct DepositValues<'a> {
    name: &'a str,
    amount: i64,
    product_id: Option<i32>,
    packaging_id: Option<i32>,
}

#[derive(Insertable, AsChangeset)]
#[diesel(table_name = banners)]
struct BannerValues<'a> {
    title: &'a str,
    desktop_image: &'a str,
    mobile_image: &'a str,
    sort_order: i32,
}

#[derive(Insertable, AsChangeset)]
#[diesel(table_name = promos)]
struct PromoValues<'a> {
    product_id: i32,
    title: &'a str,
    description: &'a str,
    starts_on: &'a str,
    ends_on: &'a str,
}

fn write(
    conn: &mut AnyConnection,
    file: &CatalogFile,
    plan: &Plan,
    known: &Known,
) -> QueryResult<()> {
    let mut ids: HashMap<String, i32> = known
        .products
        .iter()
        .map(|p| (p.slug.clone(), p.id.get()))
        .collect();
    let old_sku: HashMap<i32, &str> = known
        .products
        .iter()
        .map(|p| (p.id.get(), p.sku.as_str()))
        .collect();
    // SKUs are unique: one moving from a product to another within the file must not meet
    // itself on the way. Those that change step aside first (no real SKU holds a `~`).
    for &i in &plan.products {
        let p = &file.products[i];
        if let Some(&id) = ids.get(&p.slug) {
            if old_sku.get(&id) != Some(&p.sku.as_str()) {
                diesel::update(products::table.find(id))
                    .set(products::sku.eq(format!("~{id}~")))
                    .execute(conn)?;
            }
        }
    }
    let mut next_id = known.products.iter().map(|p| p.id.get()).max().unwrap_or(0) + 1;
    for &i in &plan.products {
        let p = &file.products[i];
        let values = ProductValues {
            slug: &p.slug,
            product_name: &p.product_name,
            sku: &p.sku,
            brand: &p.brand,
            size: &p.size,
            price: p.price,
            price_per_case: p.price_per_case,
            unit_per_case: p.unit_per_case,
            product_type_id: Known::id_of(&known.product_types, &p.product_type).unwrap_or(0),
            packaging_id: Known::id_of(&known.packagings, &p.packaging).unwrap_or(0),
            product_image: p.product_image.as_deref(),
            description: &p.description,
            custom_description: &p.custom_description,
            orderable: p.orderable,
            sold_in_all_areas: p.cities == Cities::All,
            best_seller: p.best_seller,
            recommended: p.recommended,
            sort_order: p.sort_order,
            created_on: &p.created_on,
        };
        let id = match ids.get(&p.slug) {
            Some(&id) => {
                diesel::update(products::table.find(id))
                    .set(&values)
                    .execute(conn)?;
                diesel::delete(product_areas::table.filter(product_areas::product_id.eq(id)))
                    .execute(conn)?;
                id
            }
            None => {
                let id = next_id;
                next_id += 1;
                diesel::insert_into(products::table)
                    .values((products::id.eq(id), &values))
                    .execute(conn)?;
                ids.insert(p.slug.clone(), id);
                id
            }
        };
        if let Cities::Only(cities) = &p.cities {
            for &city in cities {
                diesel::insert_into(product_areas::table)
                    .values((
                        product_areas::product_id.eq(id),
                        product_areas::city_id.eq(city),
                    ))
                    .execute(conn)?;
            }
        }
    }
    if !plan.retire.is_empty() {
        diesel::update(products::table.filter(products::id.eq_any(&plan.retire)))
            .set(products::orderable.eq(false))
            .execute(conn)?;
    }

    if !plan.remove_deposits.is_empty() {
        // Empties a cart returns for a deposit no longer charged would credit nothing.
        diesel::delete(
            cart_empties::table.filter(cart_empties::deposit_id.eq_any(&plan.remove_deposits)),
        )
        .execute(conn)?;
        diesel::delete(deposits::table.filter(deposits::id.eq_any(&plan.remove_deposits)))
            .execute(conn)?;
    }
    let existing: HashSet<i32> = deposits::table
        .select(deposits::id)
        .load::<i32>(conn)?
        .into_iter()
        .collect();
    for &i in &plan.deposits {
        let d = &file.deposits[i];
        let values = DepositValues {
            name: &d.name,
            amount: d.amount,
            product_id: d.product.as_ref().and_then(|s| ids.get(s).copied()),
            packaging_id: d
                .packaging
                .as_deref()
                .and_then(|p| Known::id_of(&known.packagings, p)),
        };
        if existing.contains(&d.id) {
            diesel::update(deposits::table.find(d.id))
                .set(&values)
                .execute(conn)?;
        } else {
            diesel::insert_into(deposits::table)
                .values((deposits::id.eq(d.id), &values))
                .execute(conn)?;
        }
    }

    for (city, fulfillment) in &plan.remove_fees {
        let f = Known::id_of(&known.fulfillments, fulfillment).unwrap_or(0);
        diesel::delete(delivery_fees::table.find((*city, f))).execute(conn)?;
    }
    for &i in &plan.fees {
        let fee = &file.delivery_fees[i];
        let f = Known::id_of(&known.fulfillments, &fee.fulfillment).unwrap_or(0);
        let changed = diesel::update(delivery_fees::table.find((fee.city_id, f)))
            .set(delivery_fees::amount.eq(fee.amount))
            .execute(conn)?;
        if changed == 0 {
            diesel::insert_into(delivery_fees::table)
                .values((
                    delivery_fees::city_id.eq(fee.city_id),
                    delivery_fees::fulfillment_type_id.eq(f),
                    delivery_fees::amount.eq(fee.amount),
                ))
                .execute(conn)?;
        }
    }

    if !plan.remove_banners.is_empty() {
        diesel::delete(banners::table.filter(banners::id.eq_any(&plan.remove_banners)))
            .execute(conn)?;
    }
    for &i in &plan.banners {
        let b = &file.banners[i];
        let values = BannerValues {
            title: &b.title,
            desktop_image: &b.desktop_image,
            mobile_image: &b.mobile_image,
            sort_order: b.sort_order,
        };
        let changed = diesel::update(banners::table.find(b.id))
            .set(&values)
            .execute(conn)?;
        if changed == 0 {
            diesel::insert_into(banners::table)
                .values((banners::id.eq(b.id), &values))
                .execute(conn)?;
        }
    }

    if !plan.remove_promos.is_empty() {
        diesel::delete(promos::table.filter(promos::id.eq_any(&plan.remove_promos)))
            .execute(conn)?;
    }
    for &i in &plan.promos {
        let p = &file.promos[i];
        let values = PromoValues {
            product_id: ids.get(&p.product).copied().unwrap_or(0),
            title: &p.title,
            description: &p.description,
            starts_on: &p.starts_on,
            ends_on: &p.ends_on,
        };
        let changed = diesel::update(promos::table.find(p.id))
            .set(&values)
            .execute(conn)?;
        if changed == 0 {
            diesel::insert_into(promos::table)
                .values((promos::id.eq(p.id), &values))
                .execute(conn)?;
        }
    }
    Ok(())
}

/// A value as a problem shows it: short, on one line.
fn shown(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 40 {
        format!("{}...", s.chars().take(37).collect::<String>())
    } else {
        s
    }
}

/// One record of the file being read: its fields are taken one by one, each problem is noted
/// with the record's label, and fields nobody asked for are problems too (a typo is not
/// silently dropped).
struct Rec<'a> {
    label: String,
    obj: &'a Map<String, Value>,
    asked: Vec<&'static str>,
    errors: &'a mut Vec<String>,
}

impl<'a> Rec<'a> {
    /// Record `i` of a section whose records are named by a unique `id` (deposits, banners,
    /// promos): the record, labelled by its id, and the id, checked and told apart from the ids
    /// `ids` has seen.
    fn by_id(
        section: &str,
        i: usize,
        obj: &'a Map<String, Value>,
        ids: &mut HashMap<i64, usize>,
        errors: &'a mut Vec<String>,
    ) -> (Self, i64) {
        let label = match obj.get("id") {
            Some(v) if !v.is_null() => format!("{section}[{i}] (id {})", shown(v)),
            _ => format!("{section}[{i}]"),
        };
        let mut r = Rec {
            label,
            obj,
            asked: vec![],
            errors,
        };
        let id = r.int("id", 1, i32::MAX as i64, None);
        if let Some(first) = ids.get(&id).filter(|_| id > 0) {
            r.bad("id", format!("is listed twice (also {section}[{first}])"));
        }
        ids.entry(id).or_insert(i);
        (r, id)
    }

    fn bad(&mut self, field: &str, msg: impl Display) {
        self.errors.push(format!("{}: {field} {msg}", self.label));
    }

    /// The field, `null` counting as absent.
    fn get(&mut self, field: &'static str) -> Option<&'a Value> {
        self.asked.push(field);
        self.obj.get(field).filter(|v| !v.is_null())
    }

    fn required(&mut self, field: &'static str) -> Option<&'a Value> {
        let v = self.get(field);
        if v.is_none() {
            self.bad(field, "is missing");
        }
        v
    }

    fn check_text(&mut self, field: &str, s: &str, max: usize, lines: bool) -> bool {
        if s.chars().count() > max {
            self.bad(field, format!("must be at most {max} characters"));
            false
        } else if s
            .chars()
            .any(|c| c.is_control() && !(lines && (c == '\n' || c == '\t')))
        {
            self.bad(
                field,
                if lines {
                    "must not hold control characters (other than new lines and tabs)"
                } else {
                    "must be one line without control characters"
                },
            );
            false
        } else {
            true
        }
    }

    fn opt_text(&mut self, field: &'static str, max: usize, lines: bool) -> Option<String> {
        match self.get(field)? {
            Value::String(s) => self.check_text(field, s, max, lines).then(|| s.clone()),
            other => {
                self.bad(field, format!("must be text (not {})", shown(other)));
                None
            }
        }
    }

    /// Text that must be there and not blank.
    fn name(&mut self, field: &'static str, max: usize) -> String {
        if self.obj.get(field).is_none_or(Value::is_null) {
            self.asked.push(field);
            self.bad(field, "is missing");
            return String::new();
        }
        let s = self.opt_text(field, max, false).unwrap_or_default();
        if s.trim().is_empty() && self.obj.get(field).is_some_and(Value::is_string) {
            self.bad(field, "must not be blank");
        }
        s
    }

    fn int(&mut self, field: &'static str, min: i64, max: i64, default: Option<i64>) -> i64 {
        let v = match default {
            Some(d) => match self.get(field) {
                Some(v) => v,
                None => return d,
            },
            None => match self.required(field) {
                Some(v) => v,
                None => return 0,
            },
        };
        match v.as_i64().filter(|n| (min..=max).contains(n)) {
            Some(n) => n,
            None => {
                self.bad(
                    field,
                    format!(
                        "must be a whole number from {min} to {max} (not {})",
                        shown(v)
                    ),
                );
                0
            }
        }
    }

    /// Centavos: a whole number from 0 to [`MAX_CENTAVOS`].
    fn money(&mut self, field: &'static str) -> i64 {
        let Some(v) = self.required(field) else {
            return 0;
        };
        match v.as_i64() {
            Some(n) if (0..=MAX_CENTAVOS).contains(&n) => n,
            Some(n) if n > MAX_CENTAVOS => {
                self.bad(
                    field,
                    format!(
                        "must be at most {MAX_CENTAVOS} centavos ({}), not {n}",
                        domain::money::format_php(MAX_CENTAVOS)
                    ),
                );
                0
            }
            _ => {
                self.bad(
                    field,
                    format!("must be a whole number of centavos >= 0 (not {})", shown(v)),
                );
                0
            }
        }
    }

    fn flag(&mut self, field: &'static str, default: Option<bool>) -> bool {
        let v = match default {
            Some(d) => match self.get(field) {
                Some(v) => v,
                None => return d,
            },
            None => match self.required(field) {
                Some(v) => v,
                None => return false,
            },
        };
        match v.as_bool() {
            Some(b) => b,
            None => {
                self.bad(field, format!("must be true or false (not {})", shown(v)));
                false
            }
        }
    }

    fn date(&mut self, field: &'static str) -> String {
        let Some(v) = self.required(field) else {
            return String::new();
        };
        match v.as_str() {
            Some(s) if domain::calendar::parse_iso_date(s).is_some() => s.to_string(),
            _ => {
                self.bad(
                    field,
                    format!("must be a date, YYYY-MM-DD (not {})", shown(v)),
                );
                String::new()
            }
        }
    }

    /// An image's address: a path on the store (`/img/...`) or an `https://` address.
    fn image(&mut self, field: &'static str, required: bool) -> Option<String> {
        if required && self.obj.get(field).is_none_or(Value::is_null) {
            self.asked.push(field);
            self.bad(field, "is missing");
            return None;
        }
        let s = self.opt_text(field, 500, false)?;
        let ok = (s.starts_with('/') && !s.starts_with("//")) || s.starts_with("https://");
        if !ok || s.contains(char::is_whitespace) {
            self.bad(
                field,
                format!(
                    "must be a path on the store (/img/...) or an https:// address (not {})",
                    shown(&Value::String(s.clone()))
                ),
            );
        }
        Some(s)
    }

    /// Notes the fields nobody asked for.
    fn finish(self) {
        let unknown: Vec<&String> = self
            .obj
            .keys()
            .filter(|k| !self.asked.contains(&k.as_str()))
            .collect();
        for k in unknown {
            self.errors.push(format!(
                "{}: {k} is not a field here (the fields are {})",
                self.label,
                self.asked.join(", ")
            ));
        }
    }
}

/// A section's records: `name` must be a list of objects.
fn section<'a>(
    top: &'a Map<String, Value>,
    name: &str,
    errors: &mut Vec<String>,
) -> Vec<&'a Map<String, Value>> {
    match top.get(name) {
        None | Some(Value::Null) => {
            errors.push(format!(
                "{name} is missing (a list; an empty list removes every one)"
            ));
            vec![]
        }
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .filter_map(|(i, v)| match v {
                Value::Object(o) => Some(o),
                other => {
                    errors.push(format!(
                        "{name}[{i}] must be an object (not {})",
                        shown(other)
                    ));
                    None
                }
            })
            .collect(),
        Some(other) => {
            errors.push(format!("{name} must be a list (not {})", shown(other)));
            vec![]
        }
    }
}

/// The index of each object of a section (objects that were not are skipped by `section`).
fn indexes(top: &Map<String, Value>, name: &str) -> Vec<usize> {
    match top.get(name) {
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .filter(|(_, v)| v.is_object())
            .map(|(i, _)| i)
            .collect(),
        _ => vec![],
    }
}

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

fn sku_ok(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 50
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'/'))
}

/// Reads and checks a catalog file: the file, or every problem found (each naming its record and
/// field).
fn parse(text: &str, known: &Known) -> Result<CatalogFile, Vec<String>> {
    let top: Value =
        serde_json::from_str(text).map_err(|e| vec![format!("the file is not JSON: {e}")])?;
    let Value::Object(top) = top else {
        return Err(vec![format!(
            "the file must be a JSON object with \"format\": \"{FORMAT}\""
        )]);
    };
    let mut errors = Vec::new();
    match top.get("format") {
        Some(Value::String(f)) if f == FORMAT => {}
        Some(other) => {
            return Err(vec![format!(
                "format must be \"{FORMAT}\" (not {}): this store reads no other",
                shown(other)
            )])
        }
        None => {
            return Err(vec![format!(
                "format is missing: a catalog file says \"format\": \"{FORMAT}\""
            )])
        }
    }
    const SECTIONS: [&str; 6] = [
        "format",
        "products",
        "deposits",
        "delivery_fees",
        "banners",
        "promos",
    ];
    for k in top.keys().filter(|k| !SECTIONS.contains(&k.as_str())) {
        errors.push(format!(
            "{k} is not a section of a catalog file (the sections are {})",
            SECTIONS[1..].join(", ")
        ));
    }

    // Products.
    let file_slugs = obj_slugs(&top);
    let mut products = Vec::new();
    let mut slugs: HashMap<String, usize> = HashMap::new();
    let mut skus: HashMap<String, usize> = HashMap::new();
    let objects = section(&top, "products", &mut errors);
    let at = indexes(&top, "products");
    if matches!(top.get("products"), Some(Value::Array(a)) if a.is_empty()) {
        errors.push(
            "products is empty: every product would stop being orderable; list the products to keep"
                .into(),
        );
    }
    for (obj, i) in objects.into_iter().zip(at) {
        let slug_v = obj.get("slug").and_then(Value::as_str);
        let label = match slug_v {
            Some(s) => format!("products[{i}] (slug {s})"),
            None => format!("products[{i}]"),
        };
        let mut r = Rec {
            label,
            obj,
            asked: vec![],
            errors: &mut errors,
        };
        let slug = r.name("slug", 100);
        if !slug.is_empty() && !slug_ok(&slug) {
            r.bad(
                "slug",
                "must be lowercase letters and digits in words joined by single hyphens (it is the product page's address)",
            );
        }
        if let Some(first) = slugs.get(&slug).filter(|_| !slug.is_empty()) {
            r.bad("slug", format!("is listed twice (also products[{first}])"));
        }
        slugs.entry(slug.clone()).or_insert(i);
        let product_name = r.name("product_name", 200);
        let sku = r.name("sku", 50);
        if !sku.is_empty() && !sku_ok(&sku) {
            r.bad(
                "sku",
                "must be letters, digits, '-', '_', '.' or '/' (at most 50)",
            );
        }
        if let Some(first) = skus.get(&sku).filter(|_| !sku.is_empty()) {
            r.bad("sku", format!("is listed twice (also products[{first}])"));
        }
        skus.entry(sku.clone()).or_insert(i);
        let brand = r.name("brand", 100);
        let size = r.name("size", 50);
        let product_type = r.name("product_type", 100);
        if !product_type.is_empty() && Known::id_of(&known.product_types, &product_type).is_none() {
            r.bad(
                "product_type",
                format!(
                    "must be one of {} (not {product_type:?})",
                    Known::names(&known.product_types)
                ),
            );
        }
        let packaging = r.name("packaging", 50);
        if !packaging.is_empty() && Known::id_of(&known.packagings, &packaging).is_none() {
            r.bad(
                "packaging",
                format!(
                    "must be one of {} (not {packaging:?})",
                    Known::names(&known.packagings)
                ),
            );
        }
        let price = r.money("price");
        let price_per_case = r.money("price_per_case");
        let unit_per_case = r.int("unit_per_case", 1, 999, None) as i32;
        let orderable = r.flag("orderable", None);
        let cities = match r.get("cities") {
            None => Cities::All,
            Some(Value::String(s)) if s == "all" => Cities::All,
            Some(Value::Array(list)) => {
                let mut ids = Vec::new();
                for v in list {
                    match v.as_i64() {
                        Some(id) if known.cities.contains_key(&id) => {
                            if ids.contains(&id) {
                                r.bad("cities", format!("lists {id} twice"));
                            }
                            ids.push(id);
                        }
                        _ => r.bad(
                            "cities",
                            format!("holds {}, which is not a city's PSGC code", shown(v)),
                        ),
                    }
                }
                ids.sort_unstable();
                ids.dedup();
                Cities::Only(ids)
            }
            Some(other) => {
                r.bad(
                    "cities",
                    format!(
                        "must be \"all\" or a list of cities' PSGC codes (not {})",
                        shown(other)
                    ),
                );
                Cities::All
            }
        };
        let product_image = r.image("product_image", false);
        let description = r.opt_text("description", 5000, true).unwrap_or_default();
        let custom_description = r
            .opt_text("custom_description", 5000, true)
            .unwrap_or_default();
        let best_seller = r.flag("best_seller", Some(false));
        let recommended = r.flag("recommended", Some(false));
        let sort_order = r.int("sort_order", -1_000_000, 1_000_000, Some(0)) as i32;
        let created_on = r.date("created_on");
        // A SKU is unique among all products, those the file leaves out included (they stay).
        if let Some(other) = known
            .products
            .iter()
            .find(|p| p.sku == sku && !file_slugs.contains(&p.slug))
        {
            r.bad(
                "sku",
                format!(
                    "is the sku of product {}, which the file leaves out (it stays, not orderable): give one of them another sku",
                    other.slug
                ),
            );
        }
        r.finish();
        products.push(ProductRecord {
            slug,
            product_name,
            sku,
            brand,
            size,
            product_type: Known::canonical(&known.product_types, &product_type),
            packaging: Known::canonical(&known.packagings, &packaging),
            price,
            price_per_case,
            unit_per_case,
            orderable,
            cities,
            product_image,
            description,
            custom_description,
            best_seller,
            recommended,
            sort_order,
            created_on,
        });
    }
    let product_named = |s: &str| slugs.contains_key(s);

    // Deposits.
    let mut deposits = Vec::new();
    let mut ids: HashMap<i64, usize> = HashMap::new();
    let objects = section(&top, "deposits", &mut errors);
    for (obj, i) in objects.into_iter().zip(indexes(&top, "deposits")) {
        let (mut r, id) = Rec::by_id("deposits", i, obj, &mut ids, &mut errors);
        let name = r.name("name", 200);
        let amount = r.money("amount");
        let product = r.opt_text("product", 100, false);
        let packaging = r.opt_text("packaging", 50, false);
        match (&product, &packaging) {
            (Some(_), Some(_)) | (None, None) => r.bad(
                "product",
                "or packaging: a deposit is on one product (its slug) or on one packaging (bottle, can, keg), one of the two",
            ),
            (Some(p), None) if !product_named(p) => r.bad(
                "product",
                format!("{p:?} is not the slug of a product in the file"),
            ),
            (None, Some(p)) if Known::id_of(&known.packagings, p).is_none() => r.bad(
                "packaging",
                format!(
                    "must be one of {} (not {p:?})",
                    Known::names(&known.packagings)
                ),
            ),
            _ => {}
        }
        r.finish();
        deposits.push(DepositRecord {
            id: id as i32,
            name,
            amount,
            product,
            packaging: packaging.map(|p| Known::canonical(&known.packagings, &p)),
        });
    }

    // Delivery fees.
    let mut delivery_fees = Vec::new();
    let mut pairs: HashMap<(i64, String), usize> = HashMap::new();
    let objects = section(&top, "delivery_fees", &mut errors);
    for (obj, i) in objects.into_iter().zip(indexes(&top, "delivery_fees")) {
        let label = match (
            obj.get("city_id"),
            obj.get("fulfillment").and_then(Value::as_str),
        ) {
            (Some(c), Some(f)) if !c.is_null() => {
                format!("delivery_fees[{i}] (city {}, {f})", shown(c))
            }
            (Some(c), _) if !c.is_null() => format!("delivery_fees[{i}] (city {})", shown(c)),
            _ => format!("delivery_fees[{i}]"),
        };
        let mut r = Rec {
            label,
            obj,
            asked: vec![],
            errors: &mut errors,
        };
        let city_id = r.int("city_id", 1, i64::MAX, None);
        let city = known.cities.get(&city_id);
        if city.is_none() && city_id > 0 {
            r.bad("city_id", format!("{city_id} is not a city's PSGC code"));
        }
        let given_name = r.opt_text("city_name", 200, false);
        if let (Some(given), Some(city)) = (&given_name, city) {
            if given != city {
                r.bad(
                    "city_name",
                    format!(
                        "{given:?} is not the name of city {city_id} ({city:?}): check the code"
                    ),
                );
            }
        }
        let fulfillment = r.name("fulfillment", 50);
        let f = Known::id_of(&known.fulfillments, &fulfillment);
        if f.is_none() && !fulfillment.is_empty() {
            r.bad(
                "fulfillment",
                format!(
                    "must be one of {} (not {fulfillment:?})",
                    Known::names(&known.fulfillments)
                ),
            );
        }
        if let (Some(f), Some(city)) = (f, city) {
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
        if let Some(first) = pairs.get(&(city_id, fulfillment.clone())) {
            r.bad(
                "city_id",
                format!("and fulfillment are listed twice (also delivery_fees[{first}])"),
            );
        }
        pairs.entry((city_id, fulfillment.clone())).or_insert(i);
        let amount = r.money("amount");
        r.finish();
        delivery_fees.push(FeeRecord {
            city_id,
            city_name: city.cloned().unwrap_or_default(),
            fulfillment,
            amount,
        });
    }

    // Banners.
    let mut banners = Vec::new();
    let mut ids: HashMap<i64, usize> = HashMap::new();
    let objects = section(&top, "banners", &mut errors);
    for (obj, i) in objects.into_iter().zip(indexes(&top, "banners")) {
        let (mut r, id) = Rec::by_id("banners", i, obj, &mut ids, &mut errors);
        let title = r.name("title", 200);
        let desktop_image = r.image("desktop_image", true).unwrap_or_default();
        let mobile_image = r.image("mobile_image", true).unwrap_or_default();
        let sort_order = r.int("sort_order", -1_000_000, 1_000_000, Some(0)) as i32;
        r.finish();
        banners.push(BannerRecord {
            id: id as i32,
            title,
            desktop_image,
            mobile_image,
            sort_order,
        });
    }

    // Promos.
    let mut promos = Vec::new();
    let mut ids: HashMap<i64, usize> = HashMap::new();
    let objects = section(&top, "promos", &mut errors);
    for (obj, i) in objects.into_iter().zip(indexes(&top, "promos")) {
        let (mut r, id) = Rec::by_id("promos", i, obj, &mut ids, &mut errors);
        let product = r.name("product", 100);
        if !product.is_empty() && !product_named(&product) {
            r.bad(
                "product",
                format!("{product:?} is not the slug of a product in the file"),
            );
        }
        let title = r.name("title", 200);
        let description = r.opt_text("description", 2000, true).unwrap_or_default();
        let starts_on = r.date("starts_on");
        let ends_on = r.date("ends_on");
        if !starts_on.is_empty() && !ends_on.is_empty() && ends_on < starts_on {
            r.bad(
                "ends_on",
                format!("{ends_on} is before starts_on {starts_on}"),
            );
        }
        r.finish();
        promos.push(PromoRecord {
            id: id as i32,
            product,
            title,
            description,
            starts_on,
            ends_on,
        });
    }

    if errors.is_empty() {
        Ok(CatalogFile {
            format: FORMAT.into(),
            products,
            deposits,
            delivery_fees,
            banners,
            promos,
        })
    } else {
        if errors.len() > SHOWN {
            let more = errors.len() - SHOWN;
            errors.truncate(SHOWN);
            errors.push(format!("... and {more} more problems"));
        }
        Err(errors)
    }
}

/// The slugs of the file's products, as written.
fn obj_slugs(top: &Map<String, Value>) -> HashSet<String> {
    match top.get("products") {
        Some(Value::Array(items)) => items
            .iter()
            .filter_map(|p| p.get("slug").and_then(Value::as_str))
            .map(str::to_string)
            .collect(),
        _ => HashSet::new(),
    }
}
