//! The promos in a manager's hands: each one's title, words and days (a promo shows on its
//! product's page from its first day to its last), checked by the catalog import's rules; a page
//! opened before another's save cannot overwrite it (`version`).

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use super::import::ImportError;
use super::{changes_of, edit, unchanged, version_of, CatalogChange, FormRecord};
use crate::staff::signed_in_as;
use db::catalog_io::PromoRecord;
use domain::staff::Role;
use framework::endpoint::{Args, Ctx, Endpoint, Json, NoBody, NoParams, Results};
use framework::error::ApiError;

framework::register!(StaffPromos, StaffPromoSave);

/// A promo as its form shows it.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, TS)]
pub struct PromoEdit {
    pub id: i32,
    /// Its product's name, and slug (its page in the shop).
    pub product_name: String,
    pub product_slug: String,
    pub title: String,
    pub description: String,
    /// Its first day (`YYYY-MM-DD`).
    pub starts_on: String,
    /// Its last day.
    pub ends_on: String,
    /// Whether its product's page shows it today (Manila).
    pub shown_today: bool,
    /// The version of its fields, which the form sends back.
    pub version: String,
}

fn shown(p: &PromoRecord) -> impl Serialize + '_ {
    (&p.title, &p.description, &p.starts_on, &p.ends_on)
}

/// Every promo, shown today or not by the store's clock.
fn all(ctx: &mut Ctx) -> Result<Vec<PromoEdit>, ApiError> {
    let today = domain::calendar::iso_date(ctx.config.now(None).date());
    let file = db::catalog_io::export(ctx.conn)?;
    Ok(file
        .promos
        .iter()
        .map(|p| PromoEdit {
            id: p.id,
            product_name: file
                .products
                .iter()
                .find(|r| r.slug == p.product)
                .map_or_else(|| p.product.clone(), |r| r.product_name.clone()),
            product_slug: p.product.clone(),
            title: p.title.clone(),
            description: p.description.clone(),
            starts_on: p.starts_on.clone(),
            ends_on: p.ends_on.clone(),
            shown_today: p.starts_on <= today && today <= p.ends_on,
            version: version_of(&shown(p)),
        })
        .collect())
}

framework::declare!(
    /// `GET /api/v1/staff/catalog/promos`: every promo, shown today or not (managers).
    pub struct StaffPromos = Get "/api/v1/staff/catalog/promos" as "staffPromos", Session, errors [401, 404],
    (NoParams, NoParams, NoBody) -> Results<PromoEdit>,
    "Every promo with its product and days (managers only).");

impl Endpoint for StaffPromos {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, _: Args<Self>) -> Result<Results<PromoEdit>, ApiError> {
        signed_in_as(ctx, &[Role::Manager])?;
        Ok(all(ctx)?.into())
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct PromoPath {
    #[serde(rename = "promoId")]
    #[param(rename = "promoId", minimum = 1)]
    pub promo_id: i32,
}

/// The fields to change; one left out stays as it is.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct PromoForm {
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(schema_with = super::name_rule)]
    pub title: Option<String>,
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(schema_with = description_rule)]
    pub description: Option<String>,
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(schema_with = framework::rules::day)]
    pub starts_on: Option<String>,
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(schema_with = framework::rules::day)]
    pub ends_on: Option<String>,
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(schema_with = super::version_rule)]
    pub version: Option<String>,
}

fn description_rule() -> utoipa::openapi::schema::ObjectBuilder {
    framework::rules::lines(2000).description(Some(
        "What its product's page says about it (lines allowed).",
    ))
}

/// What a save answers: every promo as it is now, and what changed.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, TS)]
pub struct PromoSaved {
    pub promos: Vec<PromoEdit>,
    pub changes: Vec<CatalogChange>,
}

/// The fields a promo's form answers problems on.
const FIELDS: &[&str] = &["title", "description", "starts_on", "ends_on"];

framework::declare!(
    /// `POST /api/v1/staff/catalog/promos/{promoId}`: changes a promo's title, words or days,
    /// checked by the catalog import's rules (managers); every app server shows it within a
    /// second.
    pub struct StaffPromoSave = Post "/api/v1/staff/catalog/promos/{promoId}" as "staffPromoSave", Write, errors [401, 404, 409, 422],
    (PromoPath, NoParams, Json<PromoForm, true>) -> PromoSaved,
    "Changes one promo (managers only), checked as `store catalog import` checks it; recorded in the audit log.");

impl Endpoint for StaffPromoSave {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (p, _, Json(f), _): Args<Self>) -> Result<PromoSaved, ApiError> {
        let by = signed_in_as(ctx, &[Role::Manager])?.member;
        let id = p.promo_id;
        let key = format!("id {id}");
        let mut found = true;
        let record = FormRecord {
            section: "promos",
            key: &key,
            fields: FIELDS,
        };
        let report = edit(ctx.conn, &by, true, record, |file| {
            let Some(r) = file.promos.iter_mut().find(|r| r.id == id) else {
                found = false;
                return Err(ImportError::Invalid(vec![format!("no promo {id}")]));
            };
            unchanged(&shown(r), f.version.as_deref())?;
            let keep = |v: Option<String>, r: &mut String| {
                if let Some(v) = v {
                    *r = v.trim().to_string();
                }
            };
            keep(f.title, &mut r.title);
            // A browser sends a text area's lines ended by CR LF; the catalog keeps LF.
            keep(f.description.map(super::as_lines), &mut r.description);
            keep(f.starts_on, &mut r.starts_on);
            keep(f.ends_on, &mut r.ends_on);
            Ok(())
        });
        if !found {
            return Err(ApiError::NotFound("No such promo.".into()));
        }
        Ok(PromoSaved {
            changes: changes_of(&report?),
            promos: all(ctx)?,
        })
    }
}
