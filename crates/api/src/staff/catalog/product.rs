//! One product in a manager's hands: its name, description, prices per unit and per case, whether
//! it is in stock, and the cities it is sold in.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use super::import::ImportError;
use super::{city_choices, edit, CatalogChange, CityChoice, FormRecord};
use crate::staff::runs::pesos;
use crate::staff::signed_in_as;
use db::catalog_io::{Cities, ProductRecord};
use domain::staff::Role;
use framework::endpoint::{Args, Ctx, Endpoint, Json, NoBody, NoParams};
use framework::error::ApiError;

framework::register!(StaffProduct, StaffProductSave);

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct ProductPath {
    #[serde(rename = "productId")]
    #[param(rename = "productId", minimum = 1)]
    pub product_id: i32,
}

/// A product as its form shows it.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, TS)]
pub struct ProductEdit {
    pub id: domain::ProductId,
    pub sku: String,
    pub slug: String,
    pub product_name: String,
    pub description: String,
    /// Centavos a unit.
    pub price: i64,
    /// Centavos a whole case.
    pub price_per_case: i64,
    pub unit_per_case: i32,
    /// In stock (false: the shop shows Out Of Stock).
    pub orderable: bool,
    /// Sold in every served city (else only in `cities`).
    pub every_city: bool,
    /// The cities it is sold in, when not in every one (PSGC codes).
    pub cities: Vec<i64>,
    /// The served cities it may be sold in.
    pub choices: Vec<CityChoice>,
    /// Its row on the catalog page.
    pub anchor: String,
    /// The version of the fields above, which the form sends back (see `ProductForm::version`).
    pub version: String,
}

/// The fields a product's form shows, as its version hashes them.
fn shown(r: &ProductRecord) -> impl Serialize + '_ {
    (
        &r.product_name,
        &r.description,
        r.price,
        r.price_per_case,
        r.orderable,
        &r.cities,
    )
}

/// Where a product is sold, as the form says it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Sold {
    /// Every served city.
    Everywhere,
    /// Only the cities named in `cities`.
    TheseCities,
}

/// The fields to change; a field left out stays as it is.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ProductForm {
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(schema_with = super::name_rule)]
    pub product_name: Option<String>,
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(schema_with = description_rule)]
    pub description: Option<String>,
    /// Pesos a unit, as typed (`65.00`, `P1,250`).
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(schema_with = framework::rules::pesos)]
    pub price: Option<String>,
    /// Pesos a whole case, as typed.
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(schema_with = framework::rules::pesos)]
    pub price_per_case: Option<String>,
    /// In stock (false: Out Of Stock).
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(nullable = false)]
    pub orderable: Option<bool>,
    /// Every served city, or only those in `cities`.
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(inline, nullable = false)]
    pub sold: Option<Sold>,
    /// The cities (PSGC codes; a form sends `137401000,137402000`), with `these_cities`.
    #[serde(default, deserialize_with = "super::cities::codes")]
    #[schema(schema_with = super::cities::codes_schema)]
    pub cities: Option<Vec<i64>>,
    /// Every text field is sent (a page's form, which leaves a field it empties out): one left
    /// out is empty, and refused where it may not be.
    #[serde(default)]
    pub whole: Option<bool>,
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(schema_with = super::version_rule)]
    pub version: Option<String>,
}

fn description_rule() -> utoipa::openapi::schema::ObjectBuilder {
    framework::rules::lines(5000)
        .description(Some("What the product page says about it (lines allowed)."))
}

/// What a save answers: the product as it is now, and what changed.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, TS)]
pub struct ProductSaved {
    pub product: ProductEdit,
    pub changes: Vec<CatalogChange>,
}

framework::declare!(
    /// `GET /api/v1/staff/catalog/products/{productId}`: one product as its form shows it
    /// (managers).
    pub struct StaffProduct = Get "/api/v1/staff/catalog/products/{productId}" as "staffProduct", Session, errors [401, 404],
    (ProductPath, NoParams, NoBody) -> ProductEdit,
    "One product's name, description, prices, stock and cities (managers only).");

impl Endpoint for StaffProduct {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (p, ..): Args<Self>) -> Result<ProductEdit, ApiError> {
        signed_in_as(ctx, &[Role::Manager])?;
        view(ctx.conn, p.product_id)
    }
}

/// The record of the product `slug` in the catalog file.
fn record(file: db::catalog_io::CatalogRecords, slug: &str) -> Result<ProductRecord, ApiError> {
    file.products
        .into_iter()
        .find(|r| r.slug == slug)
        .ok_or_else(|| ApiError::NotFound("No such product.".into()))
}

fn product(conn: &mut db::AnyConnection, id: i32) -> Result<db::models::Product, ApiError> {
    db::carts::product(conn, domain::ProductId::from_db(id))?
        .ok_or_else(|| ApiError::NotFound("No such product.".into()))
}

fn view(conn: &mut db::AnyConnection, id: i32) -> Result<ProductEdit, ApiError> {
    let p = product(conn, id)?;
    let r = record(db::catalog_io::export(conn)?, &p.slug)?;
    let version = super::version_of(&shown(&r));
    let (every_city, cities) = match r.cities {
        Cities::All => (true, vec![]),
        Cities::Only(ids) => (false, ids),
    };
    Ok(ProductEdit {
        id: p.id,
        sku: r.sku,
        slug: r.slug,
        product_name: r.product_name,
        description: r.description,
        price: r.price,
        price_per_case: r.price_per_case,
        unit_per_case: r.unit_per_case,
        orderable: r.orderable,
        every_city,
        cities,
        choices: city_choices(conn)?,
        anchor: crate::staff::photos::anchor_of(&p.sku),
        version,
    })
}

/// The form's fields, read: what the catalog's rules do not check (pesos as typed, a choice of
/// cities that names one).
struct ProductChange {
    product_name: Option<String>,
    description: Option<String>,
    price: Option<i64>,
    price_per_case: Option<i64>,
    orderable: Option<bool>,
    cities: Option<Cities>,
    version: Option<String>,
}

fn read_change(mut f: ProductForm) -> Result<ProductChange, ApiError> {
    if f.whole == Some(true) {
        for field in [
            &mut f.product_name,
            &mut f.description,
            &mut f.price,
            &mut f.price_per_case,
        ] {
            field.get_or_insert_with(String::new);
        }
    }
    let mut errors = domain::account::FieldErrors::new();
    let mut money = |field: &'static str, text: Option<String>, what: &str| {
        text.and_then(|t| match pesos(field, &t, what) {
            Ok(c) => Some(c),
            Err(e) => {
                errors.entry(field).or_default().push(e.to_string());
                None
            }
        })
    };
    let price = money("price", f.price, "price");
    let price_per_case = money("price_per_case", f.price_per_case, "price per case");
    let cities = match (f.sold, f.cities) {
        // A list names one city at least (the document says so): none is not "every city".
        (_, Some(ids)) if ids.is_empty() => {
            errors
                .entry("cities")
                .or_default()
                .push("Tick the cities it is sold in, or sell it in every city.".into());
            None
        }
        (Some(Sold::Everywhere), _) => Some(Cities::All),
        (Some(Sold::TheseCities) | None, Some(ids)) if !ids.is_empty() => Some(Cities::Only(ids)),
        (Some(Sold::TheseCities), _) => {
            errors
                .entry("cities")
                .or_default()
                .push("Tick the cities it is sold in, or sell it in every city.".into());
            None
        }
        (None, _) => None,
    };
    if !errors.is_empty() {
        return Err(ApiError::Fields(errors));
    }
    Ok(ProductChange {
        product_name: f.product_name,
        // A browser sends a text area's lines ended by CR LF; the catalog keeps LF.
        description: f.description.map(super::as_lines),
        price,
        price_per_case,
        orderable: f.orderable,
        cities,
        version: f.version,
    })
}

/// The fields a product's form answers problems on.
const FIELDS: &[&str] = &[
    "product_name",
    "description",
    "price",
    "price_per_case",
    "orderable",
    "cities",
];

framework::declare!(
    /// `POST /api/v1/staff/catalog/products/{productId}`: changes a product's name, description,
    /// prices, stock or cities, checked by the catalog import's rules (managers); every app server
    /// shows it within a second.
    pub struct StaffProductSave = Post "/api/v1/staff/catalog/products/{productId}" as "staffProductSave", Write, errors [401, 404, 409, 422],
    (ProductPath, NoParams, Json<ProductForm, true>) -> ProductSaved,
    "Changes one product (managers only): the fields sent, checked as `store catalog import` checks them; recorded in the audit log.");

impl Endpoint for StaffProductSave {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (p, _, Json(f), _): Args<Self>) -> Result<ProductSaved, ApiError> {
        let by = signed_in_as(ctx, &[Role::Manager])?.member;
        let slug = product(ctx.conn, p.product_id)?.slug;
        let w = read_change(f)?;
        let key = format!("slug {slug}");
        let record = FormRecord {
            section: "products",
            key: &key,
            fields: FIELDS,
        };
        let report = edit(ctx.conn, &by, true, record, |file| {
            let r = file
                .products
                .iter_mut()
                .find(|r| r.slug == slug)
                .ok_or_else(|| ImportError::Invalid(vec![format!("no product {slug}")]))?;
            super::unchanged(&shown(r), w.version.as_deref())?;
            let keep = |v: Option<String>, r: &mut String| {
                if let Some(v) = v {
                    *r = v;
                }
            };
            keep(w.product_name, &mut r.product_name);
            keep(w.description, &mut r.description);
            r.price = w.price.unwrap_or(r.price);
            r.price_per_case = w.price_per_case.unwrap_or(r.price_per_case);
            r.orderable = w.orderable.unwrap_or(r.orderable);
            if let Some(c) = w.cities {
                r.cities = c;
            }
            Ok(())
        })?;
        Ok(ProductSaved {
            product: view(ctx.conn, p.product_id)?,
            changes: super::changes_of(&report),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_form_reads_pesos_and_a_choice_of_cities() {
        let f = ProductForm {
            price: Some("P1,250.50".into()),
            sold: Some(Sold::Everywhere),
            cities: Some(vec![137401000]),
            ..ProductForm::default()
        };
        let w = read_change(f).unwrap();
        assert_eq!(w.price, Some(125_050));
        assert_eq!(w.cities, Some(Cities::All));
        let only = read_change(ProductForm {
            cities: Some(vec![137401000]),
            ..ProductForm::default()
        })
        .unwrap();
        assert_eq!(only.cities, Some(Cities::Only(vec![137401000])));
        let Err(ApiError::Fields(errors)) = read_change(ProductForm {
            price: Some("-5".into()),
            price_per_case: Some("abc".into()),
            sold: Some(Sold::TheseCities),
            ..ProductForm::default()
        }) else {
            panic!("refused")
        };
        assert_eq!(
            errors.keys().copied().collect::<Vec<_>>(),
            ["cities", "price", "price_per_case"]
        );
        assert!(errors["price"][0].contains("in pesos"), "{errors:?}");
        assert!(read_change(ProductForm {
            cities: Some(vec![]),
            ..ProductForm::default()
        })
        .is_err());
    }
}
