//! Location calls for the location gate, and the location rules the no-JS gate form
//! follows too: which cities are offered, which barangays and streets belong to them.

use db::models::{City, Packaging};
use db::AnyConnection;
use domain::{
    BarangayId, CityId, FilterType, FulfillmentId, PackagingId, ProvinceId, StreetId,
    DEFAULT_FULFILLMENT, DEFAULT_PROVINCE,
};
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use framework::endpoint::Results;
use framework::endpoint::{Args, Ctx, Endpoint, Json, NoBody, NoParams};
use framework::error::ApiError;

framework::export_const!(
    /// The default province (Metro Manila): where the location gate starts.
    DEFAULT_PROVINCE = DEFAULT_PROVINCE.get()
);
framework::export_const!(
    /// The location gate's first fulfillment type (delivery).
    DEFAULT_FULFILLMENT = DEFAULT_FULFILLMENT.get()
);

framework::register!(
    Cities,
    KegCities,
    FulfillmentTypes,
    Provinces,
    Barangays,
    Streets,
    LegacyCities,
    LegacyBarangays,
    DeliveryAreas,
);

/// A city as the location calls give it.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct CityView {
    pub city_id: CityId,
    pub city_province: ProvinceId,
    pub city_name: String,
    pub province_name: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct Locations {
    pub locations: Vec<CityView>,
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct LocationsAnswer {
    pub results: Locations,
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct FulfillmentView {
    pub id: FulfillmentId,
    pub name: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct ProvinceView {
    pub id: ProvinceId,
    pub province_name: String,
}

/// A barangay as the location calls give it.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct BarangayView {
    pub id: BarangayId,
    pub barangay_name: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct StreetView {
    pub id: StreetId,
    pub street_name: String,
}

fn city_views(conn: &mut AnyConnection, cities: Vec<City>) -> Result<Vec<CityView>, ApiError> {
    let provinces = db::places::provinces(conn)?;
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

fn existing_province(conn: &mut AnyConnection, id: ProvinceId) -> Result<ProvinceId, ApiError> {
    db::places::province(conn, id)?
        .map(|p| p.id)
        .ok_or_else(|| ApiError::NotFound(format!("Province {id} not found")))
}

fn existing_city(conn: &mut AnyConnection, id: CityId) -> Result<CityId, ApiError> {
    db::places::city(conn, id)?
        .map(|c| c.id)
        .ok_or_else(|| ApiError::NotFound(format!("City {id} not found")))
}

/// Which cities the location gate offers.
#[derive(Debug, Clone, Copy)]
pub enum Offer {
    /// Draft beer in kegs: the served cities where a keg is sold, in one province or all.
    Kegs(PackagingId, Option<ProvinceId>),
    /// The cities of a province served with a fulfillment type.
    Served(ProvinceId, FulfillmentId),
}

/// The places a call looked up, by barangay (a page asks once, however many calls need one).
type Places = std::collections::HashMap<BarangayId, Option<db::places::Place>>;

/// The barangay with its city and whether that is served; looked up once per request.
pub fn place(ctx: &mut Ctx, id: BarangayId) -> Result<Option<db::places::Place>, ApiError> {
    if let Some(p) = ctx.memo::<Places>().get(&id) {
        return Ok(p.clone());
    }
    let place = db::places::place(ctx.conn, id)?;
    ctx.memo::<Places>().insert(id, place.clone());
    Ok(place)
}

/// Like [`place`], but an unknown barangay is a 404.
pub fn existing_place(ctx: &mut Ctx, id: BarangayId) -> Result<db::places::Place, ApiError> {
    place(ctx, id)?.ok_or_else(|| ApiError::NotFound(format!("Barangay {id} not found")))
}

/// The location rule: the cities an offer holds, by name.
pub fn offered_cities(conn: &mut AnyConnection, offer: Offer) -> Result<Vec<City>, ApiError> {
    Ok(match offer {
        Offer::Kegs(keg, province) => db::places::cities_selling_packaging(conn, keg, province)?,
        Offer::Served(province, f) => db::places::served_cities(conn, Some(province), Some(f))?,
    })
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct CitiesPath {
    #[serde(rename = "provinceId")]
    #[param(rename = "provinceId")]
    pub province_id: ProvinceId,
    #[serde(rename = "fulfillmentId")]
    #[param(rename = "fulfillmentId")]
    pub fulfillment_id: FulfillmentId,
}

framework::declare!(
    /// `GET /api/v3/locations/provinces/{provinceId}/fulfillments/{fulfillmentId}/cities`.
    pub struct Cities = Get "/api/v3/locations/provinces/{provinceId}/fulfillments/{fulfillmentId}/cities" as "cities", Public, errors [404],
    (CitiesPath, NoParams, NoBody) -> LocationsAnswer, "The cities of a province served with a fulfillment type.");

impl Endpoint for Cities {
    fn call(ctx: &mut Ctx, (p, _, _, _): Args<Self>) -> Result<Self::Answer, ApiError> {
        let province = existing_province(ctx.conn, p.province_id)?;
        let f = db::places::fulfillment_type(ctx.conn, p.fulfillment_id)?.ok_or_else(|| {
            ApiError::NotFound(format!("Fulfillment type {} not found", p.fulfillment_id))
        })?;
        let cities = offered_cities(ctx.conn, Offer::Served(province, f.id))?;
        Ok(LocationsAnswer {
            results: Locations {
                locations: city_views(ctx.conn, cities)?,
            },
        })
    }
}

/// Body of `POST /api/v3/locations/cities`; every field optional, the body too.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct KegCitiesBody {
    /// Only this province's cities.
    #[serde(default)]
    pub province_id: Option<ProvinceId>,
}

/// The packaging of draft beer in kegs.
pub fn keg_packaging(conn: &mut AnyConnection) -> Result<Packaging, ApiError> {
    db::catalog::packaging_by_filter_type(conn, FilterType::Keg.as_str())?
        .ok_or_else(|| ApiError::NotFound("Draft beer in kegs is not sold".into()))
}

framework::declare!(
    /// `POST /api/v3/locations/cities`: the served cities where draft beer in kegs is sold.
    pub struct KegCities = Post "/api/v3/locations/cities" as "kegCities", Public, errors [404],
    (NoParams, NoParams, Json<KegCitiesBody, false>) -> Results<CityView>, "The served cities where draft beer in kegs is sold.");

impl Endpoint for KegCities {
    fn call(ctx: &mut Ctx, (_, _, Json(body), _): Args<Self>) -> Result<Self::Answer, ApiError> {
        let province = body
            .province_id
            .map(|id| existing_province(ctx.conn, id))
            .transpose()?;
        let keg = keg_packaging(ctx.conn)?;
        let cities = offered_cities(ctx.conn, Offer::Kegs(keg.id, province))?;
        Ok(city_views(ctx.conn, cities)?.into())
    }
}

framework::declare!(
    /// `GET /api/v3/fulfillment-types`.
    pub struct FulfillmentTypes = Get "/api/v3/fulfillment-types" as "fulfillments", Public, errors [],
    (NoParams, NoParams, NoBody) -> Results<FulfillmentView>, "Delivery and pickup.");

impl Endpoint for FulfillmentTypes {
    fn call(ctx: &mut Ctx, (_, _, _, _): Args<Self>) -> Result<Self::Answer, ApiError> {
        Ok(db::places::fulfillment_types(ctx.conn)?
            .into_iter()
            .map(|f| FulfillmentView {
                id: f.id,
                name: f.name,
            })
            .collect::<Vec<_>>()
            .into())
    }
}

framework::declare!(
    /// `GET /api/v1/provinces`: the default province (Metro Manila) first.
    pub struct Provinces = Get "/api/v1/provinces" as "provinces", Public, errors [],
    (NoParams, NoParams, NoBody) -> Results<ProvinceView>, "The provinces, the default (Metro Manila) first.");

impl Endpoint for Provinces {
    fn call(ctx: &mut Ctx, (_, _, _, _): Args<Self>) -> Result<Self::Answer, ApiError> {
        Ok(db::places::provinces(ctx.conn)?
            .into_iter()
            .map(|p| ProvinceView {
                id: p.id,
                province_name: p.province_name,
            })
            .collect::<Vec<_>>()
            .into())
    }
}

fn barangays_of(conn: &mut AnyConnection, city: CityId) -> Result<Results<BarangayView>, ApiError> {
    let city = existing_city(conn, city)?;
    Ok(db::places::barangays_of_city(conn, city)?
        .into_iter()
        .map(|b| BarangayView {
            id: b.id,
            barangay_name: b.barangay_name,
        })
        .collect::<Vec<_>>()
        .into())
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct CityPath {
    #[serde(rename = "cityId")]
    #[param(rename = "cityId")]
    pub city_id: CityId,
}

framework::declare!(
    /// `GET /api/v3/locations/city/{cityId}/barangays`.
    pub struct Barangays = Get "/api/v3/locations/city/{cityId}/barangays" as "barangays", Public, errors [404],
    (CityPath, NoParams, NoBody) -> Results<BarangayView>, "The barangays of a city.");

impl Endpoint for Barangays {
    fn call(ctx: &mut Ctx, (p, _, _, _): Args<Self>) -> Result<Self::Answer, ApiError> {
        barangays_of(ctx.conn, p.city_id)
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct BarangayPath {
    #[serde(rename = "barangayId")]
    #[param(rename = "barangayId")]
    pub barangay_id: BarangayId,
}

framework::declare!(
    /// `GET /api/v3/locations/barangay/{barangayId}/streets`: empty when the barangay needs none.
    pub struct Streets = Get "/api/v3/locations/barangay/{barangayId}/streets" as "streets", Public, errors [404],
    (BarangayPath, NoParams, NoBody) -> Results<StreetView>, "The streets of a barangay; empty when it needs none.");

impl Endpoint for Streets {
    fn call(ctx: &mut Ctx, (p, _, _, _): Args<Self>) -> Result<Self::Answer, ApiError> {
        let place = crate::locations::existing_place(ctx, p.barangay_id)?;
        Ok(streets_of(ctx.conn, place.barangay.id)?.into())
    }
}

fn streets_of(conn: &mut AnyConnection, barangay: BarangayId) -> Result<Vec<StreetView>, ApiError> {
    Ok(db::places::streets_of_barangay(conn, barangay)?
        .into_iter()
        .map(|s| StreetView {
            id: s.id,
            street_name: s.street_name,
        })
        .collect())
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LegacyCitiesQuery {
    #[serde(rename = "filterByProvince")]
    #[param(rename = "filterByProvince")]
    pub filter_by_province: ProvinceId,
}

framework::declare!(
    /// Legacy `GET /api/v1/cities?filterByProvince=`: the served cities of a province.
    pub struct LegacyCities = Get "/api/v1/cities" as "legacyCities", Public, errors [404],
    (NoParams, LegacyCitiesQuery, NoBody) -> Results<CityView>, "The served cities of a province (legacy).");

impl Endpoint for LegacyCities {
    fn call(ctx: &mut Ctx, (_, q, _, _): Args<Self>) -> Result<Self::Answer, ApiError> {
        let province = existing_province(ctx.conn, q.filter_by_province)?;
        let cities = db::places::served_cities(ctx.conn, Some(province), None)?;
        Ok(city_views(ctx.conn, cities)?.into())
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LegacyBarangaysQuery {
    #[serde(rename = "filterByCity")]
    #[param(rename = "filterByCity")]
    pub filter_by_city: CityId,
}

framework::declare!(
    /// Legacy `GET /api/v1/barangay?filterByCity=`.
    pub struct LegacyBarangays = Get "/api/v1/barangay" as "legacyBarangays", Public, errors [404],
    (NoParams, LegacyBarangaysQuery, NoBody) -> Results<BarangayView>, "The barangays of a city (legacy).");

impl Endpoint for LegacyBarangays {
    fn call(ctx: &mut Ctx, (_, q, _, _): Args<Self>) -> Result<Self::Answer, ApiError> {
        barangays_of(ctx.conn, q.filter_by_city)
    }
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct AreaCity {
    pub city_name: String,
    pub fulfillments: Vec<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct Area {
    pub province_name: String,
    pub cities: Vec<AreaCity>,
}

framework::declare!(
    /// `GET /api/v1/delivery-areas`: every served city by province, with its fulfillment types.
    pub struct DeliveryAreas = Get "/api/v1/delivery-areas" as "deliveryAreas", Public, errors [],
    (NoParams, NoParams, NoBody) -> Results<Area>, "Every served city by province, with its fulfillment types.");

impl Endpoint for DeliveryAreas {
    fn call(ctx: &mut Ctx, (_, _, _, _): Args<Self>) -> Result<Self::Answer, ApiError> {
        let types = db::places::fulfillment_types(ctx.conn)?;
        let pairs = db::places::served_pairs(ctx.conn)?;
        let cities = db::places::served_cities(ctx.conn, None, None)?;
        let mut results = Vec::new();
        for province in db::places::provinces(ctx.conn)? {
            let cities: Vec<AreaCity> = cities
                .iter()
                .filter(|c| c.province_id == province.id)
                .map(|c| AreaCity {
                    fulfillments: types
                        .iter()
                        .filter(|t| pairs.contains(&(c.id, t.id)))
                        .map(|t| t.name.clone())
                        .collect(),
                    city_name: c.city_name.clone(),
                })
                .collect();
            if !cities.is_empty() {
                results.push(Area {
                    province_name: province.province_name,
                    cities,
                });
            }
        }
        Ok(results.into())
    }
}

/// A location as the no-JS gate form posts it, step by step.
#[derive(Debug, Default, Clone, Copy)]
pub struct ChoiceInput {
    pub fulfillment: Option<FulfillmentId>,
    pub province: Option<ProvinceId>,
    pub city: Option<CityId>,
    pub barangay: Option<BarangayId>,
    pub street: Option<StreetId>,
}

/// A location as far as the shopper has chosen it, each step checked against the one before.
#[derive(Debug, PartialEq, Eq)]
pub struct Choice {
    pub fulfillment: FulfillmentId,
    pub province: ProvinceId,
    pub city: Option<(CityId, String)>,
    pub barangay: Option<(BarangayId, String)>,
    pub street: Option<StreetId>,
    pub needs_street: bool,
}

impl Choice {
    pub fn complete(&self) -> bool {
        self.city.is_some()
            && self.barangay.is_some()
            && (!self.needs_street || self.street.is_some())
    }
}

/// Checks a posted location with the same rules the API's lists follow: a step that does not
/// belong to the one before is dropped, with the steps after it. `packaging` is the shopper's
/// category (kegs are offered in fewer cities).
pub fn check_choice(
    ctx: &mut Ctx,
    input: ChoiceInput,
    packaging: Option<PackagingId>,
) -> Result<Choice, ApiError> {
    let fulfillment = match input.fulfillment {
        Some(f) => db::places::fulfillment_type(ctx.conn, f)?.map(|f| f.id),
        None => None,
    }
    .unwrap_or(DEFAULT_FULFILLMENT);
    let province = match input.province {
        Some(p) => db::places::province(ctx.conn, p)?.map(|p| p.id),
        None => None,
    }
    .unwrap_or(DEFAULT_PROVINCE);
    let mut choice = Choice {
        fulfillment,
        province,
        city: None,
        barangay: None,
        street: None,
        needs_street: false,
    };
    let keg = match packaging {
        Some(id) => db::catalog::packaging(ctx.conn, id)?
            .filter(|p| p.filter_type == FilterType::Keg.as_str())
            .map(|p| p.id),
        None => None,
    };
    let Some(city_id) = input.city else {
        return Ok(choice);
    };
    let offer = match keg {
        Some(keg) => Offer::Kegs(keg, Some(province)),
        None => Offer::Served(province, fulfillment),
    };
    let Some(city) = offered_cities(ctx.conn, offer)?
        .into_iter()
        .find(|c| c.id == city_id)
    else {
        return Ok(choice);
    };
    choice.city = Some((city.id, city.city_name));
    let Some(place) = input
        .barangay
        .map(|b| crate::locations::place(ctx, b))
        .transpose()?
        .flatten()
    else {
        return Ok(choice);
    };
    if place.city.id != city.id {
        return Ok(choice);
    }
    let streets = streets_of(ctx.conn, place.barangay.id)?;
    choice.needs_street = !streets.is_empty();
    choice.street = input.street.filter(|s| streets.iter().any(|x| x.id == *s));
    choice.barangay = Some((place.barangay.id, place.barangay.barangay_name));
    Ok(choice)
}
