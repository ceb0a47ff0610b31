//! The catalog file's format: its name and version (`"format": "store-catalog/1"`, described in
//! docs/operations.md), each record's fields in their order, and the file written as JSON. The
//! export writes exactly what the import reads, so exporting, importing that file and exporting
//! again gives the same bytes. The records themselves are `db::catalog_io`'s, which reads them
//! from the tables and writes them back.

use db::catalog_io::{
    BannerRecord, CatalogRecords, DepositRecord, FeeRecord, ProductRecord, PromoRecord,
};
use serde::Serialize;

/// The name and version of the file's format.
pub const FORMAT: &str = "store-catalog/1";

/// A product's fields, as a problem lists them.
pub const PRODUCT_FIELDS: &[&str] = &[
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

/// A deposit's fields.
pub const DEPOSIT_FIELDS: &[&str] = &["id", "name", "amount", "product", "packaging"];

/// A delivery fee's fields.
pub const FEE_FIELDS: &[&str] = &["city_id", "city_name", "fulfillment", "amount"];

/// A banner's fields.
pub const BANNER_FIELDS: &[&str] = &[
    "id",
    "title",
    "desktop_image",
    "mobile_image",
    "sort_order",
    "starts_on",
    "ends_on",
];

/// A promo's fields.
pub const PROMO_FIELDS: &[&str] = &[
    "id",
    "product",
    "title",
    "description",
    "starts_on",
    "ends_on",
];

/// The whole file as it is written: its format, then its sections.
#[derive(Serialize)]
struct File<'a> {
    format: &'static str,
    products: &'a [ProductRecord],
    deposits: &'a [DepositRecord],
    delivery_fees: &'a [FeeRecord],
    banners: &'a [BannerRecord],
    promos: &'a [PromoRecord],
}

/// The catalog as the file's JSON text, pretty-printed, ending with a newline.
pub fn to_json(catalog: &CatalogRecords) -> String {
    let file = File {
        format: FORMAT,
        products: &catalog.products,
        deposits: &catalog.deposits,
        delivery_fees: &catalog.delivery_fees,
        banners: &catalog.banners,
        promos: &catalog.promos,
    };
    let mut s = serde_json::to_string_pretty(&file).unwrap_or_default();
    s.push('\n');
    s
}
