//! Places: provinces, cities and which are served, barangays, streets, fulfillment types. Each function takes a connection, so several compose in one
//! `conn.transaction(...)`.

use diesel::prelude::*;

use crate::models::*;
use crate::schema::*;
use crate::AnyConnection;
use domain::{BarangayId, CityId, FulfillmentId, PackagingId, ProvinceId, StreetId};

pub fn barangay(conn: &mut AnyConnection, id: BarangayId) -> QueryResult<Option<Barangay>> {
    barangays::table
        .find(id.get())
        .select(Barangay::as_select())
        .first(conn)
        .optional()
}

/// A barangay with its city and whether the city is served: what a chosen location means.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Place {
    pub barangay: Barangay,
    pub city: City,
    pub served: bool,
}

/// The place of a barangay, in one query.
pub fn place(conn: &mut AnyConnection, id: BarangayId) -> QueryResult<Option<Place>> {
    let served = diesel::dsl::exists(
        served_areas::table.filter(served_areas::city_id.eq(barangays::city_id)),
    );
    barangays::table
        .inner_join(cities::table)
        .filter(barangays::id.eq(id.get()))
        .select((Barangay::as_select(), City::as_select(), served))
        .first::<(Barangay, City, bool)>(conn)
        .optional()
        .map(|row| {
            row.map(|(barangay, city, served)| Place {
                barangay,
                city,
                served,
            })
        })
}

pub fn fulfillment_types(conn: &mut AnyConnection) -> QueryResult<Vec<FulfillmentType>> {
    fulfillment_types::table
        .order(fulfillment_types::id)
        .select(FulfillmentType::as_select())
        .load(conn)
}

pub fn fulfillment_type(
    conn: &mut AnyConnection,
    id: FulfillmentId,
) -> QueryResult<Option<FulfillmentType>> {
    fulfillment_types::table
        .find(id.get())
        .select(FulfillmentType::as_select())
        .first(conn)
        .optional()
}

/// Provinces, the default (Metro Manila, id 51) first.
pub fn provinces(conn: &mut AnyConnection) -> QueryResult<Vec<Province>> {
    provinces::table
        .order(provinces::id)
        .select(Province::as_select())
        .load(conn)
}

pub fn province(conn: &mut AnyConnection, id: ProvinceId) -> QueryResult<Option<Province>> {
    provinces::table
        .find(id.get())
        .select(Province::as_select())
        .first(conn)
        .optional()
}

pub fn city(conn: &mut AnyConnection, id: CityId) -> QueryResult<Option<City>> {
    cities::table
        .find(id.get())
        .select(City::as_select())
        .first(conn)
        .optional()
}

/// Cities of a province served with a fulfillment type (any type when `None`), by name.
pub fn served_cities(
    conn: &mut AnyConnection,
    province_id: Option<ProvinceId>,
    fulfillment_type_id: Option<FulfillmentId>,
) -> QueryResult<Vec<City>> {
    let served: Vec<i64> = match fulfillment_type_id {
        Some(f) => served_areas::table
            .filter(served_areas::fulfillment_type_id.eq(f.get()))
            .select(served_areas::city_id)
            .load(conn)?,
        None => served_areas::table
            .select(served_areas::city_id)
            .distinct()
            .load(conn)?,
    };
    let mut query = cities::table
        .filter(cities::id.eq_any(served))
        .order((cities::city_name, cities::id))
        .select(City::as_select())
        .into_boxed();
    if let Some(p) = province_id {
        query = query.filter(cities::province_id.eq(p.get()));
    }
    query.load(conn)
}

/// Every (city, fulfillment type) pair that is served.
pub fn served_pairs(conn: &mut AnyConnection) -> QueryResult<Vec<(CityId, FulfillmentId)>> {
    let rows: Vec<(i64, i32)> = served_areas::table
        .select((served_areas::city_id, served_areas::fulfillment_type_id))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(c, f)| (CityId::from_db(c), FulfillmentId::from_db(f)))
        .collect())
}

/// Served cities where at least one product of a packaging is sold.
pub fn cities_selling_packaging(
    conn: &mut AnyConnection,
    packaging_id: PackagingId,
    province_id: Option<ProvinceId>,
) -> QueryResult<Vec<City>> {
    let everywhere: bool = diesel::select(diesel::dsl::exists(
        products::table
            .filter(products::packaging_id.eq(packaging_id.get()))
            .filter(products::sold_in_all_areas.eq(true)),
    ))
    .get_result(conn)?;
    let served = served_cities(conn, province_id, None)?;
    if everywhere {
        return Ok(served);
    }
    let listed: Vec<i64> = product_areas::table
        .inner_join(products::table)
        .filter(products::packaging_id.eq(packaging_id.get()))
        .select(product_areas::city_id)
        .distinct()
        .load(conn)?;
    Ok(served
        .into_iter()
        .filter(|c| listed.contains(&c.id.get()))
        .collect())
}

pub fn barangays_of_city(conn: &mut AnyConnection, city_id: CityId) -> QueryResult<Vec<Barangay>> {
    barangays::table
        .filter(barangays::city_id.eq(city_id.get()))
        .order((barangays::barangay_name, barangays::id))
        .select(Barangay::as_select())
        .load(conn)
}

pub fn streets_of_barangay(
    conn: &mut AnyConnection,
    barangay_id: BarangayId,
) -> QueryResult<Vec<Street>> {
    streets::table
        .filter(streets::barangay_id.eq(barangay_id.get()))
        .order((streets::street_name, streets::id))
        .select(Street::as_select())
        .load(conn)
}

pub fn street(conn: &mut AnyConnection, id: StreetId) -> QueryResult<Option<Street>> {
    streets::table
        .find(id.get())
        .select(Street::as_select())
        .first(conn)
        .optional()
}
