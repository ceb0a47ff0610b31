//! The catalog's records as the tables hold them: products with their prices and where they are
//! sold, deposits, delivery fees, banners and promos ([`CatalogRecords`]), read from the tables
//! ([`export`]) and written back ([`write`]). The catalog file of `store catalog export` and
//! `store catalog import` is these records under a `format` line: its format, reading, checks and
//! report are the import call's (`api::staff::catalog::import`), which decides what to write and
//! writes it here, in one transaction that takes its turn first ([`take_turn`]); the back office's
//! catalog forms go the same way.
//!
//! The records stay here, named as the file names them, because both sides need them: the export
//! fills them from the tables and the import writes them back (`api` may use `db`, not the other
//! way round), and serde's `Serialize`, which names their fields in the file, can only be derived
//! beside the type.
//!
//! A write matches records by their natural keys (a product by its slug; a deposit, banner or
//! promo by its id; a delivery fee by its city and fulfillment): new ones are added, changed ones
//! rewritten, and what the file leaves out is removed, except products: orders, carts and Go-to
//! Cases refer to them, so a product the file leaves out is kept and made not orderable. The data
//! version is bumped with the changes, so every app server's caches refresh within a second
//! (`crate::watch`).

use std::collections::{BTreeMap, HashMap, HashSet};

use diesel::prelude::*;
use serde::{Serialize, Serializer};

use crate::models::{Product, ProductValues};
use crate::schema::*;
use crate::AnyConnection;

/// The catalog, a list of records a section, in the catalog file's order of sections.
#[derive(Debug, Clone, PartialEq)]
pub struct CatalogRecords {
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
    /// The beer's style (`Pale Pilsen`, `IPA`); empty: none given.
    pub style: String,
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
    /// Shown from this Manila day (`YYYY-MM-DD`; none: already).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub starts_on: Option<String>,
    /// Shown until this Manila day, included (none: for good).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ends_on: Option<String>,
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
pub struct Known {
    pub product_types: Vec<(i32, String)>,
    pub packagings: Vec<(i32, String)>,
    pub fulfillments: Vec<(i32, String)>,
    pub cities: HashMap<i64, String>,
    pub served: HashSet<(i64, i32)>,
    pub products: Vec<Product>,
}

impl Known {
    pub fn load(conn: &mut AnyConnection) -> QueryResult<Self> {
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

    pub fn name_of(list: &[(i32, String)], id: i32) -> String {
        list.iter()
            .find(|(i, _)| *i == id)
            .map_or_else(|| id.to_string(), |(_, n)| n.clone())
    }

    /// The id of a name, its case ignored.
    pub fn id_of(list: &[(i32, String)], name: &str) -> Option<i32> {
        list.iter()
            .find(|(_, n)| n.eq_ignore_ascii_case(name))
            .map(|(i, _)| *i)
    }

    pub fn names(list: &[(i32, String)]) -> String {
        list.iter()
            .map(|(_, n)| n.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }

    pub fn canonical(list: &[(i32, String)], name: &str) -> String {
        Self::id_of(list, name).map_or_else(|| name.to_string(), |id| Self::name_of(list, id))
    }
}

/// The catalog as the file holds it: products, deposits and promos by id, delivery fees by city
/// and fulfillment, banners by id.
pub fn export(conn: &mut AnyConnection) -> QueryResult<CatalogRecords> {
    let known = Known::load(conn)?;
    export_with(conn, &known)
}

/// [`export`], with what the database knows already loaded.
pub fn export_with(conn: &mut AnyConnection, known: &Known) -> QueryResult<CatalogRecords> {
    let slug_of: HashMap<i32, &str> = known
        .products
        .iter()
        .map(|p| (p.id.get(), p.slug.as_str()))
        .collect();
    Ok(CatalogRecords {
        products: product_records(conn, known)?,
        deposits: deposit_records(conn, known, &slug_of)?,
        delivery_fees: fee_records(conn, known)?,
        banners: banner_records(conn)?,
        promos: promo_records(conn, &slug_of)?,
    })
}

/// A product's slug by its id (the id itself if it has none).
fn slug(slug_of: &HashMap<i32, &str>, id: i32) -> String {
    slug_of
        .get(&id)
        .map_or_else(|| id.to_string(), |s| s.to_string())
}

fn product_records(conn: &mut AnyConnection, known: &Known) -> QueryResult<Vec<ProductRecord>> {
    let mut areas: BTreeMap<i32, Vec<i64>> = BTreeMap::new();
    for (product, city) in product_areas::table
        .select((product_areas::product_id, product_areas::city_id))
        .load::<(i32, i64)>(conn)?
    {
        areas.entry(product).or_default().push(city);
    }
    Ok(known
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
            style: p.style.clone(),
            best_seller: p.best_seller,
            recommended: p.recommended,
            sort_order: p.sort_order,
            created_on: p.created_on.clone(),
        })
        .collect())
}

fn deposit_records(
    conn: &mut AnyConnection,
    known: &Known,
    slug_of: &HashMap<i32, &str>,
) -> QueryResult<Vec<DepositRecord>> {
    Ok(deposits::table
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
            product: product.map(|p| slug(slug_of, p)),
            packaging: packaging.map(|p| Known::name_of(&known.packagings, p)),
        })
        .collect())
}

fn fee_records(conn: &mut AnyConnection, known: &Known) -> QueryResult<Vec<FeeRecord>> {
    Ok(crate::carts::delivery_fees(conn)?
        .into_iter()
        .map(|fee| {
            let city_id = fee.city.get();
            FeeRecord {
                city_id,
                city_name: known.cities.get(&city_id).cloned().unwrap_or_default(),
                fulfillment: Known::name_of(&known.fulfillments, fee.fulfillment.get()),
                amount: fee.amount,
            }
        })
        .collect())
}

/// A banner's columns, as the file reads them.
type BannerRow = (
    i32,
    String,
    String,
    String,
    i32,
    Option<String>,
    Option<String>,
);

fn banner_records(conn: &mut AnyConnection) -> QueryResult<Vec<BannerRecord>> {
    Ok(banners::table
        .order(banners::id)
        .select((
            banners::id,
            banners::title,
            banners::desktop_image,
            banners::mobile_image,
            banners::sort_order,
            banners::starts_on,
            banners::ends_on,
        ))
        .load::<BannerRow>(conn)?
        .into_iter()
        .map(
            |(id, title, desktop_image, mobile_image, sort_order, starts_on, ends_on)| {
                BannerRecord {
                    id,
                    title,
                    desktop_image,
                    mobile_image,
                    sort_order,
                    starts_on,
                    ends_on,
                }
            },
        )
        .collect())
}

fn promo_records(
    conn: &mut AnyConnection,
    slug_of: &HashMap<i32, &str>,
) -> QueryResult<Vec<PromoRecord>> {
    Ok(promos::table
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
                product: slug(slug_of, product),
                title,
                description,
                starts_on,
                ends_on,
            },
        )
        .collect())
}

/// Takes the import's turn: the first statement of an import's transaction writes the row every
/// import writes, so imports take turns from here (PostgreSQL's row lock; SQLite's write lock),
/// each deciding on what the last one left.
pub fn take_turn(conn: &mut AnyConnection) -> QueryResult<()> {
    diesel::update(data_version::table.find(1))
        .set(data_version::version.eq(data_version::version))
        .execute(conn)
        .map(|_| ())
}

/// Writes `file` over `current` (the catalog as [`export_with`] read it, with `known`): new and
/// changed records are written, those the file leaves out removed (products: made not orderable),
/// and the data version bumped. A file that is the catalog writes nothing and leaves the version.
/// Called in the import's transaction, after [`take_turn`].
pub fn write(
    conn: &mut AnyConnection,
    file: &CatalogRecords,
    current: &CatalogRecords,
    known: &Known,
) -> QueryResult<()> {
    let plan = plan(file, current, known);
    if plan.is_empty() {
        return Ok(());
    }
    write_plan(conn, file, &plan, known)?;
    // The triggers bumped it with each write; this says so once more, explicitly.
    diesel::update(data_version::table.find(1))
        .set(data_version::version.eq(data_version::version + 1))
        .execute(conn)
        .map(|_| ())
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

impl Plan {
    /// Nothing to write: the file is the catalog.
    fn is_empty(&self) -> bool {
        self.products.is_empty()
            && self.retire.is_empty()
            && self.deposits.is_empty()
            && self.remove_deposits.is_empty()
            && self.fees.is_empty()
            && self.remove_fees.is_empty()
            && self.banners.is_empty()
            && self.remove_banners.is_empty()
            && self.promos.is_empty()
            && self.remove_promos.is_empty()
    }
}

/// Compares the records of one kind by key: the indexes of the new and changed ones, and the keys
/// of those to remove.
fn compare<T: PartialEq, K: Eq + std::hash::Hash + Clone>(
    new: &[T],
    old: &[T],
    key: impl Fn(&T) -> K,
) -> (Vec<usize>, Vec<K>) {
    let old_by_key: HashMap<K, &T> = old.iter().map(|r| (key(r), r)).collect();
    let write = new
        .iter()
        .enumerate()
        .filter(|(_, r)| old_by_key.get(&key(r)).is_none_or(|o| *o != *r))
        .map(|(i, _)| i)
        .collect();
    let kept: HashSet<K> = new.iter().map(&key).collect();
    let removed: Vec<K> = old.iter().map(&key).filter(|k| !kept.contains(k)).collect();
    (write, removed)
}

fn plan(file: &CatalogRecords, current: &CatalogRecords, known: &Known) -> Plan {
    let (products, left_out) = compare(&file.products, &current.products, |p| p.slug.clone());
    let left_out: HashSet<String> = left_out.into_iter().collect();
    let (deposits, remove_deposits) = compare(&file.deposits, &current.deposits, |d| d.id);
    let (fees, remove_fees) = compare(&file.delivery_fees, &current.delivery_fees, |f| {
        (f.city_id, f.fulfillment.clone())
    });
    let (banners, remove_banners) = compare(&file.banners, &current.banners, |b| b.id);
    let (promos, remove_promos) = compare(&file.promos, &current.promos, |p| p.id);
    Plan {
        products,
        retire: known
            .products
            .iter()
            .filter(|p| p.orderable && left_out.contains(&p.slug))
            .map(|p| p.id.get())
            .collect(),
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
#[diesel(table_name = deposits, treat_none_as_null = true)]
struct DepositValues<'a> {
    name: &'a str,
    amount: i64,
    product_id: Option<i32>,
    packaging_id: Option<i32>,
}

#[derive(Insertable, AsChangeset)]
#[diesel(table_name = banners, treat_none_as_null = true)]
struct BannerValues<'a> {
    title: &'a str,
    desktop_image: &'a str,
    mobile_image: &'a str,
    sort_order: i32,
    starts_on: Option<&'a str>,
    ends_on: Option<&'a str>,
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

fn write_plan(
    conn: &mut AnyConnection,
    file: &CatalogRecords,
    plan: &Plan,
    known: &Known,
) -> QueryResult<()> {
    let ids = write_products(conn, file, plan, known)?;
    write_deposits(conn, file, plan, known, &ids)?;
    write_fees(conn, file, plan, known)?;
    write_banners(conn, file, plan)?;
    write_promos(conn, file, plan, &ids)
}

/// Writes the new and changed products and makes those the file leaves out not orderable;
/// answers the id of every product by its slug, the new ones included.
fn write_products(
    conn: &mut AnyConnection,
    file: &CatalogRecords,
    plan: &Plan,
    known: &Known,
) -> QueryResult<HashMap<String, i32>> {
    let mut ids: HashMap<String, i32> = known
        .products
        .iter()
        .map(|p| (p.slug.clone(), p.id.get()))
        .collect();
    free_changed_skus(conn, file, plan, known)?;
    let mut next_id = known.products.iter().map(|p| p.id.get()).max().unwrap_or(0) + 1;
    for &i in &plan.products {
        let p = &file.products[i];
        match ids.get(&p.slug) {
            Some(&id) => write_product(conn, p, id, false, known)?,
            None => {
                write_product(conn, p, next_id, true, known)?;
                ids.insert(p.slug.clone(), next_id);
                next_id += 1;
            }
        }
    }
    if !plan.retire.is_empty() {
        diesel::update(products::table.filter(products::id.eq_any(&plan.retire)))
            .set(products::orderable.eq(false))
            .execute(conn)?;
    }
    Ok(ids)
}

/// SKUs are unique: one moving from a product to another within the file must not meet itself on
/// the way. The products whose SKU changes take a placeholder first (no real SKU holds a `~`).
fn free_changed_skus(
    conn: &mut AnyConnection,
    file: &CatalogRecords,
    plan: &Plan,
    known: &Known,
) -> QueryResult<()> {
    let old: HashMap<&str, (i32, &str)> = known
        .products
        .iter()
        .map(|p| (p.slug.as_str(), (p.id.get(), p.sku.as_str())))
        .collect();
    for &i in &plan.products {
        let p = &file.products[i];
        if let Some(&(id, _)) = old.get(p.slug.as_str()).filter(|(_, sku)| *sku != p.sku) {
            diesel::update(products::table.find(id))
                .set(products::sku.eq(format!("~{id}~")))
                .execute(conn)?;
        }
    }
    Ok(())
}

/// Writes one product as product `id`, added when `new`, otherwise rewritten, with the cities it
/// is sold in.
fn write_product(
    conn: &mut AnyConnection,
    p: &ProductRecord,
    id: i32,
    new: bool,
    known: &Known,
) -> QueryResult<()> {
    let values = ProductValues {
        id,
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
        style: &p.style,
        orderable: p.orderable,
        sold_in_all_areas: p.cities == Cities::All,
        best_seller: p.best_seller,
        recommended: p.recommended,
        sort_order: p.sort_order,
        created_on: &p.created_on,
    };
    if new {
        diesel::insert_into(products::table)
            .values(&values)
            .execute(conn)?;
    } else {
        diesel::update(products::table.find(id))
            .set(&values)
            .execute(conn)?;
        diesel::delete(product_areas::table.filter(product_areas::product_id.eq(id)))
            .execute(conn)?;
    }
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
    Ok(())
}

fn write_deposits(
    conn: &mut AnyConnection,
    file: &CatalogRecords,
    plan: &Plan,
    known: &Known,
    ids: &HashMap<String, i32>,
) -> QueryResult<()> {
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
    Ok(())
}

fn write_fees(
    conn: &mut AnyConnection,
    file: &CatalogRecords,
    plan: &Plan,
    known: &Known,
) -> QueryResult<()> {
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
    Ok(())
}

fn write_banners(conn: &mut AnyConnection, file: &CatalogRecords, plan: &Plan) -> QueryResult<()> {
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
            starts_on: b.starts_on.as_deref(),
            ends_on: b.ends_on.as_deref(),
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
    Ok(())
}

fn write_promos(
    conn: &mut AnyConnection,
    file: &CatalogRecords,
    plan: &Plan,
    ids: &HashMap<String, i32>,
) -> QueryResult<()> {
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
