//! The seed: real PSGC geography (`seed/psgc.tsv`, made by `ui/scripts/gen-psgc.mjs`) and the
//! fictional brewery's catalog (`seed/catalog.json`). Loading is all-or-nothing in one
//! transaction and only into an empty catalog.

use std::collections::HashMap;

use diesel::prelude::*;
use serde::Deserialize;

use crate::models::ProductValues;
use crate::schema::*;
use crate::{AnyConnection, DbError};

const PSGC: &str = include_str!("../seed/psgc.tsv");
const CATALOG: &str = include_str!("../seed/catalog.json");
const CONTENT: &str = include_str!("../seed/content.json");

#[derive(Debug, Default, PartialEq, Eq)]
pub struct SeedReport {
    pub provinces: usize,
    pub cities: usize,
    pub barangays: usize,
    pub streets: usize,
    pub products: usize,
    pub banners: usize,
}

#[derive(Insertable, Deserialize)]
#[diesel(table_name = packagings)]
struct NewPackaging {
    id: i32,
    name: String,
    filter_type: String,
    image: String,
    custom_description: String,
    sort_order: i32,
}

#[derive(Insertable, Deserialize)]
#[diesel(table_name = product_types)]
struct NewProductType {
    id: i32,
    name: String,
}

#[derive(Insertable, Deserialize)]
#[diesel(table_name = fulfillment_types)]
struct NewFulfillmentType {
    id: i32,
    name: String,
}

/// Where a product is sold: every served area (absent), every city of Metro Manila, or a list of
/// city PSGC codes.
#[derive(Deserialize)]
#[serde(untagged)]
enum SeedAreas {
    Named(String),
    Cities(Vec<i64>),
}

#[derive(Deserialize)]
struct SeedProduct {
    id: i32,
    slug: String,
    product_name: String,
    sku: String,
    brand: String,
    size: String,
    style: String,
    price: i64,
    price_per_case: i64,
    unit_per_case: i32,
    product_type_id: i32,
    packaging_id: i32,
    product_image: Option<String>,
    description: String,
    custom_description: String,
    orderable: bool,
    best_seller: bool,
    recommended: bool,
    sort_order: i32,
    created_on: String,
    areas: Option<SeedAreas>,
}

#[derive(Insertable, Deserialize)]
#[diesel(table_name = deposits)]
struct NewDeposit {
    id: i32,
    name: String,
    amount: i64,
    product_id: Option<i32>,
    packaging_id: Option<i32>,
}

#[derive(Insertable, Deserialize)]
#[diesel(table_name = banners)]
struct NewBanner {
    id: i32,
    title: String,
    desktop_image: String,
    mobile_image: String,
    sort_order: i32,
}

#[derive(Deserialize)]
struct SeedStreets {
    barangay_id: i64,
    streets: Vec<String>,
}

#[derive(Deserialize)]
struct Catalog {
    packagings: Vec<NewPackaging>,
    product_types: Vec<NewProductType>,
    fulfillment_types: Vec<NewFulfillmentType>,
    /// City PSGC code (or "metro-manila" for all its cities) -> fulfillment type ids.
    served_areas: HashMap<String, Vec<i32>>,
    products: Vec<SeedProduct>,
    deposits: Vec<NewDeposit>,
    banners: Vec<NewBanner>,
    streets: Vec<SeedStreets>,
    case_types: Vec<NewCaseType>,
    /// City PSGC code (or "metro-manila") -> the delivery fee there (centavos).
    delivery_fees: HashMap<String, i64>,
}

#[derive(Insertable, Deserialize)]
#[diesel(table_name = case_types)]
struct NewCaseType {
    packaging_id: i32,
    name: String,
    unit_noun: String,
    unit_per_case: i32,
    minimum_order_qty: i32,
}

#[derive(Insertable)]
#[diesel(table_name = delivery_fees)]
struct NewDeliveryFee {
    city_id: i64,
    fulfillment_type_id: i32,
    amount: i64,
}

#[derive(Insertable, Deserialize)]
#[diesel(table_name = checkout_blackouts)]
struct NewBlackout {
    id: i32,
    starts_at: String,
    ends_at: String,
}

#[derive(Insertable, Deserialize)]
#[diesel(table_name = site_texts)]
struct NewSiteText {
    key: String,
    title: String,
    body: String,
}

#[derive(Insertable, Deserialize)]
#[diesel(table_name = holidays)]
struct NewHoliday {
    id: i32,
    name: String,
    starts_on: String,
    ends_on: String,
}

#[derive(Insertable, Deserialize)]
#[diesel(table_name = notices)]
struct NewNotice {
    id: i32,
    title: String,
    body: String,
    starts_on: String,
    ends_on: String,
}

#[derive(Insertable, Deserialize)]
#[diesel(table_name = promos)]
struct NewPromo {
    id: i32,
    product_id: i32,
    title: String,
    description: String,
    starts_on: String,
    ends_on: String,
}

#[derive(Insertable, Deserialize)]
#[diesel(table_name = settings)]
struct NewSetting {
    key: String,
    value: String,
}

/// Texts, dated windows and switches (`seed/content.json`).
#[derive(Deserialize)]
struct Content {
    site_texts: Vec<NewSiteText>,
    holidays: Vec<NewHoliday>,
    notices: Vec<NewNotice>,
    promos: Vec<NewPromo>,
    settings: Vec<NewSetting>,
    checkout_blackouts: Vec<NewBlackout>,
}

#[derive(Insertable)]
#[diesel(table_name = provinces)]
struct NewProvince<'a> {
    id: i32,
    psgc_code: &'a str,
    province_name: &'a str,
}

#[derive(Insertable)]
#[diesel(table_name = cities)]
struct NewCity<'a> {
    id: i64,
    province_id: i32,
    city_name: &'a str,
}

#[derive(Insertable)]
#[diesel(table_name = barangays)]
struct NewBarangay<'a> {
    id: i64,
    city_id: i64,
    barangay_name: &'a str,
}

#[derive(Insertable)]
#[diesel(table_name = streets)]
struct NewStreet<'a> {
    id: i32,
    barangay_id: i64,
    street_name: &'a str,
}

#[derive(Insertable)]
#[diesel(table_name = served_areas)]
struct NewServedArea {
    city_id: i64,
    fulfillment_type_id: i32,
}

#[derive(Insertable)]
#[diesel(table_name = product_areas)]
struct NewProductArea {
    product_id: i32,
    city_id: i64,
}

fn bad(msg: impl Into<String>) -> DbError {
    DbError::Seed(msg.into())
}

fn field<'a>(cols: &[&'a str], i: usize, line: usize) -> Result<&'a str, DbError> {
    cols.get(i)
        .copied()
        .ok_or_else(|| bad(format!("psgc.tsv line {line}: missing column {i}")))
}

fn code(s: &str, line: usize) -> Result<i64, DbError> {
    s.parse()
        .map_err(|_| bad(format!("psgc.tsv line {line}: bad code {s:?}")))
}

/// Batch inserts are not available through `MultiConnection`, so they run on the backend's own
/// connection.
macro_rules! insert_all {
    ($conn:expr, $table:expr, $rows:expr) => {
        match $conn {
            AnyConnection::Sqlite(c) => diesel::insert_into($table).values($rows).execute(c),
            AnyConnection::Postgresql(c) => diesel::insert_into($table).values($rows).execute(c),
        }
    };
}

/// Rows are inserted in chunks to stay under SQLite's bound-parameter limit.
const CHUNK: usize = 500;

/// Seeds an empty database; answers `None` when a catalog is already there.
pub fn seed(conn: &mut AnyConnection) -> Result<Option<SeedReport>, DbError> {
    let catalog: Catalog =
        serde_json::from_str(CATALOG).map_err(|e| bad(format!("catalog.json: {e}")))?;
    let content: Content =
        serde_json::from_str(CONTENT).map_err(|e| bad(format!("content.json: {e}")))?;
    let existing: i64 = products::table.count().get_result(conn)?;
    if existing > 0 {
        // A store seeded before the cart existed gets the cart's data (case types, delivery
        // fees, checkout windows) once; nothing else of it is touched.
        conn.transaction(|conn| load_checkout(conn, &catalog, &content))?;
        return Ok(None);
    }
    conn.transaction(|conn| {
        let report = load(conn, &catalog)?;
        load_content(conn, &content)?;
        load_checkout(conn, &catalog, &content)?;
        Ok(report)
    })
    .map(Some)
}

/// The cart's and checkout's data, each table only while it is empty.
fn load_checkout(
    conn: &mut AnyConnection,
    catalog: &Catalog,
    content: &Content,
) -> Result<(), DbError> {
    if case_types::table.count().get_result::<i64>(conn)? == 0 {
        insert_all!(conn, case_types::table, &catalog.case_types)?;
    }
    if delivery_fees::table.count().get_result::<i64>(conn)? == 0 {
        let delivery = domain::DEFAULT_FULFILLMENT.get();
        let mut rows = Vec::new();
        let mut keys: Vec<&String> = catalog.delivery_fees.keys().collect();
        keys.sort();
        for key in keys {
            let cities: Vec<i64> = if key == "metro-manila" {
                cities::table
                    .filter(cities::province_id.eq(domain::DEFAULT_PROVINCE.get()))
                    .select(cities::id)
                    .load(conn)?
            } else {
                vec![key
                    .parse()
                    .map_err(|_| bad(format!("delivery fee area {key:?}")))?]
            };
            // Only where delivery is offered.
            let served: Vec<i64> = served_areas::table
                .filter(served_areas::city_id.eq_any(&cities))
                .filter(served_areas::fulfillment_type_id.eq(delivery))
                .select(served_areas::city_id)
                .load(conn)?;
            rows.extend(served.into_iter().map(|city_id| NewDeliveryFee {
                city_id,
                fulfillment_type_id: delivery,
                amount: catalog.delivery_fees[key],
            }));
        }
        insert_all!(conn, delivery_fees::table, &rows)?;
    }
    if checkout_blackouts::table.count().get_result::<i64>(conn)? == 0 {
        insert_all!(conn, checkout_blackouts::table, &content.checkout_blackouts)?;
    }
    for s in content
        .settings
        .iter()
        .filter(|s| s.key.starts_with("checkout_"))
    {
        let have: i64 = settings::table
            .filter(settings::key.eq(&s.key))
            .count()
            .get_result(conn)?;
        if have == 0 {
            diesel::insert_into(settings::table)
                .values(s)
                .execute(conn)?;
        }
    }
    Ok(())
}

fn load(conn: &mut AnyConnection, catalog: &Catalog) -> Result<SeedReport, DbError> {
    let mut report = SeedReport::default();
    let metro_manila = load_places(conn, &mut report)?;
    insert_all!(conn, packagings::table, &catalog.packagings)?;
    insert_all!(conn, product_types::table, &catalog.product_types)?;
    insert_all!(conn, fulfillment_types::table, &catalog.fulfillment_types)?;
    load_served_areas(conn, catalog, &metro_manila)?;
    report.products = load_products(conn, catalog, &metro_manila)?;
    insert_all!(conn, deposits::table, &catalog.deposits)?;
    insert_all!(conn, banners::table, &catalog.banners)?;
    report.banners = catalog.banners.len();
    report.streets = load_streets(conn, catalog)?;
    Ok(report)
}

/// The PSGC geography: provinces, cities and barangays. Answers the cities of Metro Manila.
fn load_places(conn: &mut AnyConnection, report: &mut SeedReport) -> Result<Vec<i64>, DbError> {
    let (mut provs, mut cits, mut brgys) = (Vec::new(), Vec::new(), Vec::new());
    for (n, line) in PSGC.lines().enumerate() {
        let cols: Vec<&str> = line.split('\t').collect();
        let line_no = n + 1;
        match cols.first().copied() {
            Some("P") => provs.push(NewProvince {
                id: code(field(&cols, 1, line_no)?, line_no)? as i32,
                psgc_code: field(&cols, 2, line_no)?,
                province_name: field(&cols, 3, line_no)?,
            }),
            Some("C") => cits.push(NewCity {
                id: code(field(&cols, 1, line_no)?, line_no)?,
                province_id: code(field(&cols, 2, line_no)?, line_no)? as i32,
                city_name: field(&cols, 3, line_no)?,
            }),
            Some("B") => brgys.push(NewBarangay {
                id: code(field(&cols, 1, line_no)?, line_no)?,
                city_id: code(field(&cols, 2, line_no)?, line_no)?,
                barangay_name: field(&cols, 3, line_no)?,
            }),
            _ if line.is_empty() => {}
            _ => return Err(bad(format!("psgc.tsv line {line_no}: unknown record"))),
        }
    }
    insert_all!(conn, provinces::table, &provs)?;
    for chunk in cits.chunks(CHUNK) {
        insert_all!(conn, cities::table, chunk)?;
    }
    for chunk in brgys.chunks(CHUNK) {
        insert_all!(conn, barangays::table, chunk)?;
    }
    report.provinces = provs.len();
    report.cities = cits.len();
    report.barangays = brgys.len();
    Ok(cits
        .iter()
        .filter(|c| c.province_id == domain::DEFAULT_PROVINCE.get())
        .map(|c| c.id)
        .collect())
}

/// The cities an area of the seed names: every city of Metro Manila (`metro-manila`) or one city
/// by its PSGC code.
fn expand(key: &str, metro_manila: &[i64]) -> Result<Vec<i64>, DbError> {
    match key {
        "metro-manila" => Ok(metro_manila.to_vec()),
        other => Ok(vec![other
            .parse()
            .map_err(|_| bad(format!("served area {other:?}")))?]),
    }
}

fn load_served_areas(
    conn: &mut AnyConnection,
    catalog: &Catalog,
    metro_manila: &[i64],
) -> Result<(), DbError> {
    let mut served = Vec::new();
    let mut keys: Vec<&String> = catalog.served_areas.keys().collect();
    keys.sort();
    for key in keys {
        for city_id in expand(key, metro_manila)? {
            for &fulfillment_type_id in &catalog.served_areas[key] {
                served.push(NewServedArea {
                    city_id,
                    fulfillment_type_id,
                });
            }
        }
    }
    insert_all!(conn, served_areas::table, &served)?;
    Ok(())
}

/// The products and where they are sold; answers how many.
fn load_products(
    conn: &mut AnyConnection,
    catalog: &Catalog,
    metro_manila: &[i64],
) -> Result<usize, DbError> {
    let mut areas = Vec::new();
    let rows: Vec<ProductValues> = catalog
        .products
        .iter()
        .map(|p| {
            let cities = match &p.areas {
                None => Vec::new(),
                Some(SeedAreas::Named(name)) => expand(name, metro_manila)?,
                Some(SeedAreas::Cities(list)) => list.clone(),
            };
            areas.extend(cities.iter().map(|&city_id| NewProductArea {
                product_id: p.id,
                city_id,
            }));
            Ok(ProductValues {
                id: p.id,
                slug: &p.slug,
                product_name: &p.product_name,
                sku: &p.sku,
                brand: &p.brand,
                size: &p.size,
                style: &p.style,
                price: p.price,
                price_per_case: p.price_per_case,
                unit_per_case: p.unit_per_case,
                product_type_id: p.product_type_id,
                packaging_id: p.packaging_id,
                product_image: p.product_image.as_deref(),
                description: &p.description,
                custom_description: &p.custom_description,
                orderable: p.orderable,
                sold_in_all_areas: p.areas.is_none(),
                best_seller: p.best_seller,
                recommended: p.recommended,
                sort_order: p.sort_order,
                created_on: &p.created_on,
            })
        })
        .collect::<Result<_, DbError>>()?;
    insert_all!(conn, products::table, &rows)?;
    insert_all!(conn, product_areas::table, &areas)?;
    Ok(rows.len())
}

/// The streets of the seed's barangays; answers how many.
fn load_streets(conn: &mut AnyConnection, catalog: &Catalog) -> Result<usize, DbError> {
    let mut street_rows = Vec::new();
    for group in &catalog.streets {
        for name in &group.streets {
            street_rows.push(NewStreet {
                id: street_rows.len() as i32 + 1,
                barangay_id: group.barangay_id,
                street_name: name,
            });
        }
    }
    insert_all!(conn, streets::table, &street_rows)?;
    Ok(street_rows.len())
}

fn load_content(conn: &mut AnyConnection, content: &Content) -> Result<(), DbError> {
    insert_all!(conn, site_texts::table, &content.site_texts)?;
    insert_all!(conn, holidays::table, &content.holidays)?;
    insert_all!(conn, notices::table, &content.notices)?;
    insert_all!(conn, promos::table, &content.promos)?;
    let switches: Vec<&NewSetting> = content
        .settings
        .iter()
        .filter(|s| !s.key.starts_with("checkout_"))
        .collect();
    insert_all!(conn, settings::table, switches)?;
    Ok(())
}
