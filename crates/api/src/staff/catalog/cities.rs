//! The cities many products are sold in, changed at once: the manager ticks products and cities,
//! sees every change before it is saved (a page of its own, which works without JavaScript), then
//! saves it.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use super::{city_choices, edit, CatalogChange, CityChoice, FormRecord};
use crate::staff::runs::invalid;
use crate::staff::signed_in_as;
use db::catalog_io::Cities;
use domain::staff::Role;
use framework::endpoint::{Args, Ctx, Endpoint, Json, NoBody, NoParams};
use framework::error::ApiError;

framework::register!(StaffServedCities, StaffCitiesPlan, StaffCitiesSave);

/// The most products or cities one change names.
pub const MOST: usize = 500;

/// Ids or PSGC codes as JSON's list of numbers, or as a form's field (`1,2`: ticked boxes joined
/// by the form path, or a page's address).
pub(crate) fn codes<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Vec<i64>>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Given {
        List(Vec<i64>),
        Text(String),
    }
    // A field left out is none (`#[serde(default)]`); `null` is no list, as the document says.
    match Given::deserialize(d)? {
        // A list is what the document says: at most MOST positive numbers (an empty one is
        // refused by each call on its field, in words).
        Given::List(ids) if ids.len() > MOST => Err(serde::de::Error::custom(format!(
            "must name at most {MOST} ids."
        ))),
        Given::List(ids) if ids.iter().any(|n| *n < 1) => {
            Err(serde::de::Error::custom(domain::ids::NOT_AN_ID))
        }
        Given::List(ids) => Ok(Some(ids)),
        Given::Text(t) => parse(&t)
            .map(Some)
            .ok_or_else(|| serde::de::Error::custom(domain::ids::NOT_AN_ID)),
    }
}

/// `1,2,3` (blank: none), each a positive whole number.
fn parse(text: &str) -> Option<Vec<i64>> {
    text.split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| t.parse::<i64>().ok().filter(|n| *n > 0))
        .collect()
}

/// A list of ids or codes, as [`codes`] reads it.
pub(crate) fn codes_schema() -> utoipa::openapi::schema::ArrayBuilder {
    crate::staff::orders::status::ids_schema(MOST, "Ids or PSGC codes (a form sends `1,2`).")
}

/// Add the cities, or take them away.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum AddOrRemove {
    Add,
    Remove,
}

impl AddOrRemove {
    fn word(self) -> &'static str {
        match self {
            Self::Add => "add",
            Self::Remove => "remove",
        }
    }
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PlanQuery {
    /// The products, by id (`1,2`).
    #[param(required = true, schema_with = ids_text)]
    pub products: Option<String>,
    /// The cities, by PSGC code (`137401000,137402000`).
    #[param(required = true, schema_with = ids_text)]
    pub cities: Option<String>,
    #[param(required = true, inline)]
    pub how: Option<AddOrRemove>,
}

fn ids_text() -> utoipa::openapi::schema::ObjectBuilder {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .pattern(Some("^[1-9][0-9]{0,11}(,[1-9][0-9]{0,11}){0,499}$"))
        .description(Some("Ids joined by commas."))
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct CitiesForm {
    /// The products, by id.
    #[serde(default, deserialize_with = "codes")]
    #[schema(required = true, schema_with = codes_schema)]
    pub products: Option<Vec<i64>>,
    /// The cities, by PSGC code.
    #[serde(default, deserialize_with = "codes")]
    #[schema(required = true, schema_with = codes_schema)]
    pub cities: Option<Vec<i64>>,
    #[serde(default)]
    #[schema(required = true, nullable = false, inline)]
    pub how: Option<AddOrRemove>,
    /// Save it (else only say what it would change, and the page that shows it).
    #[serde(default)]
    pub confirm: Option<bool>,
}

/// A product a change names.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, TS)]
pub struct NamedProduct {
    pub id: domain::ProductId,
    pub sku: String,
    pub product_name: String,
}

/// What a change of cities does (or did, when `applied`).
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, TS)]
pub struct CitiesPlan {
    pub products: Vec<NamedProduct>,
    pub cities: Vec<CityChoice>,
    pub how: AddOrRemove,
    pub changes: Vec<CatalogChange>,
    pub applied: bool,
    /// Where the form goes next: the page listing the changes, or the catalog once saved.
    pub link: String,
}

framework::declare!(
    /// `GET /api/v1/staff/catalog/areas`: the served cities products may be sold in (managers).
    pub struct StaffServedCities = Get "/api/v1/staff/catalog/areas" as "staffServedCities", Session, errors [401, 404],
    (NoParams, NoParams, NoBody) -> framework::endpoint::Results<CityChoice>,
    "The cities the store serves, by province and name, that products may be sold in (managers only).");

impl Endpoint for StaffServedCities {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(
        ctx: &mut Ctx,
        _: Args<Self>,
    ) -> Result<framework::endpoint::Results<CityChoice>, ApiError> {
        signed_in_as(ctx, &[Role::Manager])?;
        Ok(city_choices(ctx.conn)?.into())
    }
}

framework::declare!(
    /// `GET /api/v1/staff/catalog/cities`: what adding cities to products, or taking them away,
    /// would change (managers); nothing is written.
    pub struct StaffCitiesPlan = Get "/api/v1/staff/catalog/cities" as "staffCitiesPlan", Session, errors [401, 404, 409, 422],
    (NoParams, PlanQuery, NoBody) -> CitiesPlan,
    "Every change that selling products in more cities, or fewer, would make (managers only).");

impl Endpoint for StaffCitiesPlan {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (_, q, ..): Args<Self>) -> Result<CitiesPlan, ApiError> {
        let by = signed_in_as(ctx, &[Role::Manager])?.member;
        let listed = |field: &'static str, t: Option<String>| {
            parse(t.as_deref().unwrap_or_default())
                .ok_or_else(|| invalid(field, domain::ids::NOT_AN_ID))
        };
        let products = listed("products", q.products)?;
        let cities = listed("cities", q.cities)?;
        let change = CitiesChange {
            products,
            cities,
            how: q.how,
        };
        plan(ctx.conn, &by, change, false)
    }
}

framework::declare!(
    /// `POST /api/v1/staff/catalog/cities`: adds cities to products or takes them away
    /// (managers), with `confirm`; without it, answers what it would change and the page that
    /// shows it.
    pub struct StaffCitiesSave = Post "/api/v1/staff/catalog/cities" as "staffCitiesSave", Write, errors [401, 404, 409, 422],
    (NoParams, NoParams, Json<CitiesForm, true>) -> CitiesPlan,
    "Sells products in more cities, or fewer (managers only): checked as `store catalog import` checks them; each product's change in the audit log.");

impl Endpoint for StaffCitiesSave {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (_, _, Json(f), _): Args<Self>) -> Result<CitiesPlan, ApiError> {
        let by = signed_in_as(ctx, &[Role::Manager])?.member;
        let change = CitiesChange {
            products: f.products.unwrap_or_default(),
            cities: f.cities.unwrap_or_default(),
            how: f.how,
        };
        plan(ctx.conn, &by, change, f.confirm == Some(true))
    }
}

/// A change a manager asks for: the `products` (ids) sold in the `cities` (PSGC codes) added to
/// or taken from their cities (`how`, none when the form left it out).
struct CitiesChange {
    products: Vec<i64>,
    cities: Vec<i64>,
    how: Option<AddOrRemove>,
}

/// What selling `products` in `cities` more or less does, saved when `apply`.
fn plan(
    conn: &mut db::AnyConnection,
    by: &db::team::StaffRow,
    CitiesChange {
        products,
        cities,
        how,
    }: CitiesChange,
    apply: bool,
) -> Result<CitiesPlan, ApiError> {
    let how = how.ok_or_else(|| invalid("how", "Choose to add the cities or take them away."))?;
    if products.is_empty() {
        return Err(invalid("products", "Tick at least one product."));
    }
    if cities.is_empty() {
        return Err(invalid("cities", "Tick at least one city."));
    }
    if products.len() > MOST || cities.len() > MOST {
        return Err(invalid(
            "products",
            format!("One change names at most {MOST} products and {MOST} cities."),
        ));
    }
    let all = db::catalog::products(conn, db::catalog::Area::Anywhere, None)?;
    let named: Vec<NamedProduct> = products
        .iter()
        .map(|id| {
            all.iter()
                .find(|p| i64::from(p.id.get()) == *id)
                .map(|p| NamedProduct {
                    id: p.id,
                    sku: p.sku.clone(),
                    product_name: p.product_name.clone(),
                })
                .ok_or_else(|| invalid("products", format!("No product has the id {id}.")))
        })
        .collect::<Result<_, _>>()?;
    let choices = city_choices(conn)?;
    let chosen: Vec<CityChoice> = cities
        .iter()
        .map(|c| {
            choices
                .iter()
                .find(|x| x.id.get() == *c)
                .cloned()
                .ok_or_else(|| invalid("cities", format!("{c} is not a city the store serves.")))
        })
        .collect::<Result<_, _>>()?;
    let slugs: Vec<String> = named
        .iter()
        .filter_map(|n| all.iter().find(|p| p.id == n.id).map(|p| p.slug.clone()))
        .collect();
    let served: Vec<i64> = choices.iter().map(|c| c.id.get()).collect();
    let record = FormRecord {
        section: "products",
        key: "",
        fields: &[],
    };
    let report = edit(conn, by, apply, record, |file| {
        for r in file.products.iter_mut().filter(|r| slugs.contains(&r.slug)) {
            r.cities = moved(&r.cities, &cities, how, &served);
        }
        Ok(())
    })?;
    let ids = |list: &[i64]| {
        list.iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(",")
    };
    let link = if apply {
        "/staff/catalog?done=cities".to_string()
    } else {
        format!(
            "/staff/catalog/cities?products={}&cities={}&how={}",
            ids(&products),
            ids(&cities),
            how.word()
        )
    };
    Ok(CitiesPlan {
        products: named,
        cities: chosen,
        how,
        changes: super::changes_of(&report),
        applied: apply,
        link,
    })
}

/// Where a product sold in `now` is sold once `cities` are added or taken away; a product sold in
/// every city loses one by being sold in every other served city.
fn moved(now: &Cities, cities: &[i64], how: AddOrRemove, served: &[i64]) -> Cities {
    match (now, how) {
        (Cities::All, AddOrRemove::Add) => Cities::All,
        (Cities::All, AddOrRemove::Remove) => Cities::Only(
            served
                .iter()
                .copied()
                .filter(|c| !cities.contains(c))
                .collect(),
        ),
        (Cities::Only(ids), AddOrRemove::Add) => {
            let mut ids: Vec<i64> = ids.iter().chain(cities).copied().collect();
            ids.sort_unstable();
            ids.dedup();
            Cities::Only(ids)
        }
        (Cities::Only(ids), AddOrRemove::Remove) => Cities::Only(
            ids.iter()
                .copied()
                .filter(|c| !cities.contains(c))
                .collect(),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cities_are_added_and_taken_away() {
        let served = [1, 2, 3];
        let only = Cities::Only(vec![2]);
        assert_eq!(
            moved(&only, &[3, 1, 2], AddOrRemove::Add, &served),
            Cities::Only(vec![1, 2, 3])
        );
        assert_eq!(
            moved(&only, &[2], AddOrRemove::Remove, &served),
            Cities::Only(vec![])
        );
        assert_eq!(
            moved(&Cities::All, &[2], AddOrRemove::Add, &served),
            Cities::All
        );
        assert_eq!(
            moved(&Cities::All, &[2], AddOrRemove::Remove, &served),
            Cities::Only(vec![1, 3])
        );
    }

    #[test]
    fn ids_are_read_from_a_list_or_a_form() {
        assert_eq!(parse("1, 2,,3"), Some(vec![1, 2, 3]));
        assert_eq!(parse(""), Some(vec![]));
        assert_eq!(parse("1,-2"), None);
        assert_eq!(parse("1,x"), None);
        let f: CitiesForm = serde_json::from_str(r#"{"products":"4,5","cities":[7]}"#).unwrap();
        assert_eq!(f.products, Some(vec![4, 5]));
        assert_eq!(f.cities, Some(vec![7]));
        let f: CitiesForm = serde_json::from_str(r#"{"how":"add"}"#).unwrap();
        assert_eq!(f.products, None);
        assert!(serde_json::from_str::<CitiesForm>(r#"{"cities":null}"#).is_err());
        // A list is held to the document (the contract test sent `[0]`, which a product's form
        // ignored when selling it everywhere): no zero or negative code, at most MOST of them.
        for list in ["[0]", "[5,-1]"] {
            let body = format!(r#"{{"cities":{list}}}"#);
            assert!(serde_json::from_str::<CitiesForm>(&body).is_err(), "{list}");
        }
        let many = format!(r#"{{"cities":[{}]}}"#, vec!["7"; MOST + 1].join(","));
        assert!(serde_json::from_str::<CitiesForm>(&many).is_err());
    }
}
