use diesel::prelude::*;
use serde::Serialize;

use crate::schema::*;

#[derive(Debug, Clone, Queryable, Selectable, Serialize, PartialEq)]
#[diesel(table_name = packagings)]
pub struct Packaging {
    pub id: i32,
    pub name: String,
    pub filter_type: String,
    pub image: String,
    pub custom_description: String,
    #[serde(skip)]
    pub sort_order: i32,
}

#[derive(Debug, Clone, Queryable, Selectable, Serialize, PartialEq)]
#[diesel(table_name = product_types)]
pub struct ProductType {
    pub id: i32,
    pub name: String,
}

#[derive(Debug, Clone, Queryable, Selectable, PartialEq)]
#[diesel(table_name = products)]
pub struct Product {
    pub id: i32,
    pub slug: String,
    pub product_name: String,
    pub sku: String,
    pub brand: String,
    pub size: String,
    pub price: i64,
    pub price_per_case: i64,
    pub unit_per_case: i32,
    pub product_type_id: i32,
    pub packaging_id: i32,
    pub product_image: Option<String>,
    pub description: String,
    pub custom_description: String,
    pub orderable: bool,
    pub sold_in_all_areas: bool,
    pub best_seller: bool,
    pub recommended: bool,
    pub sort_order: i32,
    pub created_on: String,
}

#[derive(Debug, Clone, Queryable, Selectable, Serialize, PartialEq)]
#[diesel(table_name = barangays)]
pub struct Barangay {
    pub id: i64,
    pub city_id: i64,
    pub barangay_name: String,
}

#[derive(Debug, Clone, Queryable, Selectable, Serialize, PartialEq)]
#[diesel(table_name = banners)]
pub struct Banner {
    pub id: i32,
    pub title: String,
    pub desktop_image: String,
    pub mobile_image: String,
    #[serde(skip)]
    pub sort_order: i32,
}

#[derive(Debug, Clone, Queryable, Selectable, Serialize, PartialEq)]
#[diesel(table_name = fulfillment_types)]
pub struct FulfillmentType {
    pub id: i32,
    pub name: String,
}

#[derive(Debug, Clone, Queryable, Selectable, Serialize, PartialEq)]
#[diesel(table_name = provinces)]
pub struct Province {
    pub id: i32,
    #[serde(skip)]
    pub psgc_code: String,
    pub province_name: String,
}

#[derive(Debug, Clone, Queryable, Selectable, PartialEq)]
#[diesel(table_name = cities)]
pub struct City {
    pub id: i64,
    pub province_id: i32,
    pub city_name: String,
}

#[derive(Debug, Clone, Queryable, Selectable, Serialize, PartialEq)]
#[diesel(table_name = streets)]
pub struct Street {
    pub id: i32,
    #[serde(skip)]
    pub barangay_id: i64,
    pub street_name: String,
}

#[derive(Debug, Clone, Queryable, Selectable, Serialize, PartialEq)]
#[diesel(table_name = site_texts)]
pub struct SiteText {
    pub key: String,
    pub title: String,
    pub body: String,
}

#[derive(Debug, Clone, Queryable, Selectable, Serialize, PartialEq)]
#[diesel(table_name = notices)]
pub struct Notice {
    pub id: i32,
    pub title: String,
    pub body: String,
    pub starts_on: String,
    pub ends_on: String,
}

#[derive(Debug, Clone, Queryable, Selectable, Serialize, PartialEq)]
#[diesel(table_name = promos)]
pub struct Promo {
    pub id: i32,
    pub product_id: i32,
    pub title: String,
    pub description: String,
    pub starts_on: String,
    pub ends_on: String,
}
