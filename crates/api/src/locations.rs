//! Location answers for the location gate (SPEC 7): fulfillment types, provinces, cities,
//! barangays and streets.

use db::models::{Barangay, City, FulfillmentType, Province, Street};
use db::queries;
use db::AnyConnection;
use serde::{Deserialize, Serialize};

use crate::catalog::Results;
use crate::error::ApiError;
use crate::params::Params;

/// A city as SPEC 3 gives it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct CityView {
    pub city_id: i64,
    pub city_province: i32,
    pub city_name: String,
    pub province_name: String,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Locations {
    pub locations: Vec<CityView>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct LocationsAnswer {
    pub results: Locations,
}

fn id32(value: i64, what: &str) -> Result<i32, ApiError> {
    i32::try_from(value).map_err(|_| ApiError::NotFound(format!("{what} {value} not found")))
}

fn city_views(conn: &mut AnyConnection, cities: Vec<City>) -> Result<Vec<CityView>, ApiError> {
    let provinces = queries::provinces(conn)?;
    Ok(cities
        .into_iter()
        .map(|c| CityView {
            province_name: provinces
                .iter()
                .find(|p| p.id == c.province_id)
                .map(|p| p.province_name.clone())
                .unwrap_or_default(),
            city_id: c.id,
            city_province: c.province_id,
            city_name: c.city_name,
        })
        .collect())
}

fn existing_province(conn: &mut AnyConnection, id: i64) -> Result<Province, ApiError> {
    queries::province(conn, id32(id, "Province")?)?
        .ok_or_else(|| ApiError::NotFound(format!("Province {id} not found")))
}

pub fn existing_city(conn: &mut AnyConnection, id: i64) -> Result<City, ApiError> {
    queries::city(conn, id)?.ok_or_else(|| ApiError::NotFound(format!("City {id} not found")))
}

pub fn existing_barangay(conn: &mut AnyConnection, id: i64) -> Result<Barangay, ApiError> {
    queries::barangay(conn, id)?
        .ok_or_else(|| ApiError::NotFound(format!("Barangay {id} not found")))
}

/// `GET /api/v3/fulfillment-types`.
pub fn fulfillment_types(conn: &mut AnyConnection) -> Result<Results<FulfillmentType>, ApiError> {
    Ok(Results {
        results: queries::fulfillment_types(conn)?,
    })
}

/// `GET /api/v1/provinces`: the default province (Metro Manila, id 51) first.
pub fn provinces(conn: &mut AnyConnection) -> Result<Results<Province>, ApiError> {
    Ok(Results {
        results: queries::provinces(conn)?,
    })
}

/// `GET /api/v3/locations/provinces/{provinceId}/fulfillments/{fulfillmentId}/cities`: the cities
/// of the province served with that fulfillment type.
pub fn cities_for(
    conn: &mut AnyConnection,
    province_id: i64,
    fulfillment_id: i64,
) -> Result<LocationsAnswer, ApiError> {
    let province = existing_province(conn, province_id)?;
    let f = queries::fulfillment_type(conn, id32(fulfillment_id, "Fulfillment type")?)?
        .ok_or_else(|| {
            ApiError::NotFound(format!("Fulfillment type {fulfillment_id} not found"))
        })?;
    let cities = queries::served_cities(conn, Some(province.id), Some(f.id))?;
    Ok(LocationsAnswer {
        results: Locations {
            locations: city_views(conn, cities)?,
        },
    })
}

/// Body of `POST /api/v3/locations/cities`; every field optional.
#[derive(Debug, Default, Deserialize)]
pub struct KegCitiesBody {
    pub province_id: Option<i64>,
}

/// `POST /api/v3/locations/cities`: the served cities where draft beer in kegs is sold.
pub fn keg_cities(
    conn: &mut AnyConnection,
    body: &KegCitiesBody,
) -> Result<Results<CityView>, ApiError> {
    let province = match body.province_id {
        Some(id) => Some(existing_province(conn, id)?.id),
        None => None,
    };
    let keg = queries::packaging_by_filter_type(conn, "keg")?
        .ok_or_else(|| ApiError::NotFound("Draft beer in kegs is not sold".into()))?;
    let cities = queries::cities_selling_packaging(conn, keg.id, province)?;
    Ok(Results {
        results: city_views(conn, cities)?,
    })
}

/// `GET /api/v3/locations/city/{cityId}/barangays`.
pub fn barangays(
    conn: &mut AnyConnection,
    city_id: i64,
) -> Result<Results<BarangayView>, ApiError> {
    let city = existing_city(conn, city_id)?;
    Ok(Results {
        results: queries::barangays_of_city(conn, city.id)?
            .into_iter()
            .map(BarangayView::from)
            .collect(),
    })
}

/// A barangay as SPEC 3 gives it.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct BarangayView {
    pub id: i64,
    pub barangay_name: String,
}

impl From<Barangay> for BarangayView {
    fn from(b: Barangay) -> Self {
        Self {
            id: b.id,
            barangay_name: b.barangay_name,
        }
    }
}

/// `GET /api/v3/locations/barangay/{barangayId}/streets`: empty when the barangay needs none.
pub fn streets(conn: &mut AnyConnection, barangay_id: i64) -> Result<Results<Street>, ApiError> {
    let b = existing_barangay(conn, barangay_id)?;
    Ok(Results {
        results: queries::streets_of_barangay(conn, b.id)?,
    })
}

fn required_id(params: &Params, name: &str) -> Result<i64, ApiError> {
    params
        .id(name)?
        .ok_or_else(|| ApiError::BadRequest(format!("{name} is required.")))
}

/// Legacy `GET /api/v1/cities?filterByProvince=`: the served cities of a province.
pub fn legacy_cities(
    conn: &mut AnyConnection,
    params: &Params,
) -> Result<Results<CityView>, ApiError> {
    let province = existing_province(conn, required_id(params, "filterByProvince")?)?;
    let cities = queries::served_cities(conn, Some(province.id), None)?;
    Ok(Results {
        results: city_views(conn, cities)?,
    })
}

/// Legacy `GET /api/v1/barangay?filterByCity=`.
pub fn legacy_barangays(
    conn: &mut AnyConnection,
    params: &Params,
) -> Result<Results<BarangayView>, ApiError> {
    barangays(conn, required_id(params, "filterByCity")?)
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct AreaCity {
    pub city_name: String,
    pub fulfillments: Vec<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Area {
    pub province_name: String,
    pub cities: Vec<AreaCity>,
}

/// `GET /api/v1/delivery-areas`: every served city by province, with its fulfillment types.
pub fn delivery_areas(conn: &mut AnyConnection) -> Result<Results<Area>, ApiError> {
    let types = queries::fulfillment_types(conn)?;
    let mut per_type = Vec::new();
    for t in &types {
        per_type.push((
            t.name.clone(),
            queries::served_cities(conn, None, Some(t.id))?,
        ));
    }
    let mut results = Vec::new();
    for province in queries::provinces(conn)? {
        let cities: Vec<AreaCity> = queries::served_cities(conn, Some(province.id), None)?
            .into_iter()
            .map(|c| AreaCity {
                fulfillments: per_type
                    .iter()
                    .filter(|(_, list)| list.iter().any(|x| x.id == c.id))
                    .map(|(name, _)| name.clone())
                    .collect(),
                city_name: c.city_name,
            })
            .collect();
        if !cities.is_empty() {
            results.push(Area {
                province_name: province.province_name,
                cities,
            });
        }
    }
    Ok(Results { results })
}
