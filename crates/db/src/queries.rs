//! Queries shared by the API and the pages. Each takes a connection and returns plain models.

use diesel::prelude::*;

use crate::models::*;
use crate::schema::*;
use crate::AnyConnection;

pub fn packagings(conn: &mut AnyConnection) -> QueryResult<Vec<Packaging>> {
    packagings::table
        .order((packagings::sort_order, packagings::id))
        .select(Packaging::as_select())
        .load(conn)
}

pub fn packaging(conn: &mut AnyConnection, id: i32) -> QueryResult<Option<Packaging>> {
    packagings::table
        .find(id)
        .select(Packaging::as_select())
        .first(conn)
        .optional()
}

pub fn packaging_by_filter_type(
    conn: &mut AnyConnection,
    filter_type: &str,
) -> QueryResult<Option<Packaging>> {
    packagings::table
        .filter(packagings::filter_type.eq(filter_type))
        .select(Packaging::as_select())
        .first(conn)
        .optional()
}

pub fn product_types(conn: &mut AnyConnection) -> QueryResult<Vec<ProductType>> {
    product_types::table
        .order(product_types::id)
        .select(ProductType::as_select())
        .load(conn)
}

pub fn barangay(conn: &mut AnyConnection, id: i64) -> QueryResult<Option<Barangay>> {
    barangays::table
        .find(id)
        .select(Barangay::as_select())
        .first(conn)
        .optional()
}

/// Whether the city is served with at least one fulfillment type.
pub fn city_is_served(conn: &mut AnyConnection, city_id: i64) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        served_areas::table.filter(served_areas::city_id.eq(city_id)),
    ))
    .get_result(conn)
}

/// Where the products are looked for: everywhere (no location chosen yet) or in one served city.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Area {
    Anywhere,
    City(i64),
}

/// The catalog in display order, narrowed to one packaging and to what is sold in an area.
pub fn products(
    conn: &mut AnyConnection,
    area: Area,
    packaging_id: Option<i32>,
) -> QueryResult<Vec<Product>> {
    let mut query = products::table
        .select(Product::as_select())
        .order((products::sort_order, products::id))
        .into_boxed();
    if let Some(pid) = packaging_id {
        query = query.filter(products::packaging_id.eq(pid));
    }
    if let Area::City(city_id) = area {
        let listed = product_areas::table
            .filter(product_areas::city_id.eq(city_id))
            .select(product_areas::product_id);
        query = query.filter(
            products::sold_in_all_areas
                .eq(true)
                .or(products::id.eq_any(listed)),
        );
    }
    query.load(conn)
}

pub fn banners(conn: &mut AnyConnection) -> QueryResult<Vec<Banner>> {
    banners::table
        .order((banners::sort_order, banners::id))
        .select(Banner::as_select())
        .load(conn)
}
