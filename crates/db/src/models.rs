//! The rows of the catalog, places and content that the queries answer, as Rust types (ids as
//! the domain's id types).

use diesel::prelude::*;
use domain::{BarangayId, CityId, FulfillmentId, PackagingId, ProductId, ProvinceId, StreetId};

use crate::schema::*;

#[derive(Debug, Clone, Queryable, Selectable, PartialEq, serde::Serialize)]
#[diesel(table_name = packagings)]
pub struct Packaging {
    #[diesel(deserialize_as = i32)]
    pub id: PackagingId,
    pub name: String,
    pub filter_type: String,
    pub image: String,
    pub custom_description: String,
    pub sort_order: i32,
}

#[derive(Debug, Clone, Queryable, Selectable, PartialEq)]
#[diesel(table_name = product_types)]
pub struct ProductType {
    pub id: i32,
    pub name: String,
}

#[derive(Debug, Clone, Queryable, Selectable, PartialEq, serde::Serialize)]
#[diesel(table_name = products)]
pub struct Product {
    #[diesel(deserialize_as = i32)]
    pub id: ProductId,
    pub slug: String,
    pub product_name: String,
    pub sku: String,
    pub brand: String,
    pub size: String,
    pub price: i64,
    pub price_per_case: i64,
    pub unit_per_case: i32,
    pub product_type_id: i32,
    #[diesel(deserialize_as = i32)]
    pub packaging_id: PackagingId,
    pub product_image: Option<String>,
    pub description: String,
    pub custom_description: String,
    pub orderable: bool,
    pub sold_in_all_areas: bool,
    pub best_seller: bool,
    pub recommended: bool,
    pub sort_order: i32,
    pub created_on: String,
    /// The photo's name in `MEDIA_DIR` and its size upright; none: the drawing.
    pub photo: Option<String>,
    pub photo_width: Option<i32>,
    pub photo_height: Option<i32>,
    /// The beer's style (`Pale Pilsen`, `IPA`); empty when none is given.
    pub style: String,
}

#[derive(Debug, Clone, Queryable, Selectable, PartialEq, serde::Serialize)]
#[diesel(table_name = barangays)]
pub struct Barangay {
    #[diesel(deserialize_as = i64)]
    pub id: BarangayId,
    #[diesel(deserialize_as = i64)]
    pub city_id: CityId,
    pub barangay_name: String,
}

#[derive(Debug, Clone, Queryable, Selectable, PartialEq)]
#[diesel(table_name = banners)]
pub struct Banner {
    pub id: i32,
    pub title: String,
    pub desktop_image: String,
    pub mobile_image: String,
    pub sort_order: i32,
    /// Shown from this Manila day (none: already) until `ends_on`, included (none: for good).
    pub starts_on: Option<String>,
    pub ends_on: Option<String>,
    /// The photo's name in `MEDIA_DIR` and its size upright, shown on every screen in place of
    /// both drawings; none: the drawings.
    pub photo: Option<String>,
    pub photo_width: Option<i32>,
    pub photo_height: Option<i32>,
}

#[derive(Debug, Clone, Queryable, Selectable, PartialEq)]
#[diesel(table_name = fulfillment_types)]
pub struct FulfillmentType {
    #[diesel(deserialize_as = i32)]
    pub id: FulfillmentId,
    pub name: String,
}

#[derive(Debug, Clone, Queryable, Selectable, PartialEq)]
#[diesel(table_name = provinces)]
pub struct Province {
    #[diesel(deserialize_as = i32)]
    pub id: ProvinceId,
    pub psgc_code: String,
    pub province_name: String,
}

#[derive(Debug, Clone, Queryable, Selectable, PartialEq, serde::Serialize)]
#[diesel(table_name = cities)]
pub struct City {
    #[diesel(deserialize_as = i64)]
    pub id: CityId,
    #[diesel(deserialize_as = i32)]
    pub province_id: ProvinceId,
    pub city_name: String,
}

#[derive(Debug, Clone, Queryable, Selectable, PartialEq)]
#[diesel(table_name = streets)]
pub struct Street {
    #[diesel(deserialize_as = i32)]
    pub id: StreetId,
    #[diesel(deserialize_as = i64)]
    pub barangay_id: BarangayId,
    pub street_name: String,
}

#[derive(Debug, Clone, Queryable, Selectable, PartialEq)]
#[diesel(table_name = site_texts)]
pub struct SiteText {
    pub key: String,
    pub title: String,
    pub body: String,
}

#[derive(Debug, Clone, Queryable, Selectable, PartialEq)]
#[diesel(table_name = notices)]
pub struct Notice {
    pub id: i32,
    pub title: String,
    pub body: String,
    pub starts_on: String,
    pub ends_on: String,
}

#[derive(Debug, Clone, Queryable, Selectable, PartialEq)]
#[diesel(table_name = holidays)]
pub struct Holiday {
    pub id: i32,
    pub name: String,
    pub starts_on: String,
    pub ends_on: String,
}

#[derive(Debug, Clone, Queryable, Selectable, PartialEq)]
#[diesel(table_name = promos)]
pub struct Promo {
    pub id: i32,
    #[diesel(deserialize_as = i32)]
    pub product_id: ProductId,
    pub title: String,
    pub description: String,
    pub starts_on: String,
    pub ends_on: String,
}

/// A product as it is written: added with its id by the seed (`seed`), the generated catalog (the
/// `fixtures` crate) and the catalog file (`catalog_io`), or changed by the catalog file
/// (`AsChangeset` never changes the id).
#[derive(Insertable, AsChangeset)]
#[diesel(table_name = products, treat_none_as_null = true)]
pub struct ProductValues<'a> {
    pub id: i32,
    pub slug: &'a str,
    pub product_name: &'a str,
    pub sku: &'a str,
    pub brand: &'a str,
    pub size: &'a str,
    pub style: &'a str,
    pub price: i64,
    pub price_per_case: i64,
    pub unit_per_case: i32,
    pub product_type_id: i32,
    pub packaging_id: i32,
    pub product_image: Option<&'a str>,
    pub description: &'a str,
    pub custom_description: &'a str,
    pub orderable: bool,
    pub sold_in_all_areas: bool,
    pub best_seller: bool,
    pub recommended: bool,
    pub sort_order: i32,
    pub created_on: &'a str,
}
