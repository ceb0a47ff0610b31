//! Deposits and delivery fees in a manager's hands: each deposit's name and amount, and the fee of
//! each served city for each fulfillment (a fee a city lacks can be set), checked by the catalog
//! import's rules; a page opened before another's save cannot overwrite it (`version`).

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use super::import::ImportError;
use super::{changes_of, city_choices, edit, unchanged, version_of, CatalogChange, FormRecord};
use crate::staff::runs::pesos;
use crate::staff::signed_in_as;
use db::catalog_io::{CatalogRecords, DepositRecord, FeeRecord};
use domain::staff::Role;
use framework::endpoint::{Args, Ctx, Endpoint, Json, NoBody, NoParams};
use framework::error::ApiError;

framework::register!(StaffCharges, StaffDepositSave, StaffFeeSave);

/// A deposit as its form shows it.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, TS)]
pub struct DepositEdit {
    pub id: i32,
    pub name: String,
    /// Centavos a case.
    pub amount: i64,
    /// What it is charged on, in words (a product's name, or `Every bottle product`).
    pub charged_on: String,
    /// The version of its name and amount, which the form sends back.
    pub version: String,
}

/// A served city's fee for one fulfillment, as its form shows it.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, TS)]
pub struct FeeEdit {
    pub city_id: domain::CityId,
    pub city_name: String,
    pub province: String,
    pub fulfillment_id: domain::FulfillmentId,
    /// The fulfillment's name (`Delivery`, `Pickup`).
    pub fulfillment: String,
    /// Centavos; none: the city has no fee for it yet.
    pub amount: Option<i64>,
    /// The version of its amount, which the form sends back.
    pub version: String,
}

/// Every deposit, and every served city's fees.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, TS)]
pub struct Charges {
    pub deposits: Vec<DepositEdit>,
    pub fees: Vec<FeeEdit>,
}

fn shown_deposit(d: &DepositRecord) -> impl Serialize + '_ {
    (&d.name, d.amount)
}

fn shown_fee(f: Option<&FeeRecord>) -> impl Serialize + '_ {
    f.map(|f| f.amount)
}

fn fee_of<'a>(file: &'a CatalogRecords, city: i64, fulfillment: &str) -> Option<&'a FeeRecord> {
    file.delivery_fees
        .iter()
        .find(|f| f.city_id == city && f.fulfillment == fulfillment)
}

/// The charges as the page shows them: deposits by id, fees by province, city and fulfillment.
fn charges(conn: &mut db::AnyConnection) -> Result<Charges, ApiError> {
    let file = db::catalog_io::export(conn)?;
    let deposits = file
        .deposits
        .iter()
        .map(|d| DepositEdit {
            id: d.id,
            name: d.name.clone(),
            amount: d.amount,
            charged_on: match (&d.product, &d.packaging) {
                (Some(slug), _) => file
                    .products
                    .iter()
                    .find(|p| &p.slug == slug)
                    .map_or_else(|| slug.clone(), |p| p.product_name.clone()),
                (None, Some(family)) => format!("Every {family} product"),
                (None, None) => String::new(),
            },
            version: version_of(&shown_deposit(d)),
        })
        .collect();
    let fulfillments = db::places::fulfillment_types(conn)?;
    let mut fees = Vec::new();
    for city in city_choices(conn)? {
        for f in &fulfillments {
            let fee = fee_of(&file, city.id.get(), &f.name);
            fees.push(FeeEdit {
                city_id: city.id,
                city_name: city.name.clone(),
                province: city.province.clone(),
                fulfillment_id: f.id,
                fulfillment: f.name.clone(),
                amount: fee.map(|f| f.amount),
                version: version_of(&shown_fee(fee)),
            });
        }
    }
    Ok(Charges { deposits, fees })
}

framework::declare!(
    /// `GET /api/v1/staff/catalog/charges`: every deposit and every served city's delivery fees
    /// (managers).
    pub struct StaffCharges = Get "/api/v1/staff/catalog/charges" as "staffCharges", Session, errors [401, 404],
    (NoParams, NoParams, NoBody) -> Charges,
    "Every deposit and every served city's fee for each fulfillment (managers only).");

impl Endpoint for StaffCharges {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, _: Args<Self>) -> Result<Charges, ApiError> {
        signed_in_as(ctx, &[Role::Manager])?;
        charges(ctx.conn)
    }
}

/// What a save answers: the charges as they are now, and what changed.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, TS)]
pub struct ChargesSaved {
    pub charges: Charges,
    pub changes: Vec<CatalogChange>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct DepositPath {
    #[serde(rename = "depositId")]
    #[param(rename = "depositId", minimum = 1)]
    pub deposit_id: i32,
}

/// A deposit's fields to change; one left out stays as it is.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct DepositForm {
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(schema_with = super::name_rule)]
    pub name: Option<String>,
    /// Pesos a case, as typed.
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(schema_with = framework::rules::pesos)]
    pub amount: Option<String>,
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(schema_with = super::version_rule)]
    pub version: Option<String>,
}

framework::declare!(
    /// `POST /api/v1/staff/catalog/deposits/{depositId}`: changes a deposit's name or amount,
    /// checked by the catalog import's rules (managers); every app server charges it within a
    /// second.
    pub struct StaffDepositSave = Post "/api/v1/staff/catalog/deposits/{depositId}" as "staffDepositSave", Write, errors [401, 404, 409, 422],
    (DepositPath, NoParams, Json<DepositForm, true>) -> ChargesSaved,
    "Changes one deposit (managers only), checked as `store catalog import` checks it; recorded in the audit log.");

impl Endpoint for StaffDepositSave {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (p, _, Json(f), _): Args<Self>) -> Result<ChargesSaved, ApiError> {
        let by = signed_in_as(ctx, &[Role::Manager])?.member;
        let id = p.deposit_id;
        // A missing deposit is a 404 whatever the form says.
        if !db::carts::deposits(ctx.conn)?.iter().any(|d| d.id == id) {
            return Err(ApiError::NotFound("No such deposit.".into()));
        }
        let amount = f
            .amount
            .map(|t| pesos("amount", &t, "deposit"))
            .transpose()?;
        let key = format!("id {id}");
        let mut found = true;
        let report = edit(
            ctx.conn,
            &by,
            true,
            FormRecord {
                section: "deposits",
                key: &key,
                fields: &["name", "amount"],
            },
            |file| {
                let Some(d) = file.deposits.iter_mut().find(|d| d.id == id) else {
                    found = false;
                    return Err(ImportError::Invalid(vec![format!("no deposit {id}")]));
                };
                unchanged(&shown_deposit(d), f.version.as_deref())?;
                if let Some(name) = f.name {
                    d.name = name;
                }
                d.amount = amount.unwrap_or(d.amount);
                Ok(())
            },
        );
        if !found {
            return Err(ApiError::NotFound("No such deposit.".into()));
        }
        Ok(ChargesSaved {
            changes: changes_of(&report?),
            charges: charges(ctx.conn)?,
        })
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct FeePath {
    /// The city's PSGC code.
    #[serde(rename = "cityId")]
    #[param(rename = "cityId")]
    pub city_id: domain::CityId,
    /// Delivery (1) or pickup (2).
    #[serde(rename = "fulfillmentId")]
    #[param(rename = "fulfillmentId")]
    pub fulfillment_id: domain::FulfillmentId,
}

/// A fee's amount.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct FeeForm {
    /// Pesos, as typed (`0` for free). Required: left out, it is refused on its field (after the
    /// session is checked, as every staff call).
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(required = true, schema_with = framework::rules::pesos)]
    pub amount: Option<String>,
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(schema_with = super::version_rule)]
    pub version: Option<String>,
}

framework::declare!(
    /// `POST /api/v1/staff/catalog/fees/{cityId}/{fulfillmentId}`: sets a served city's fee for a
    /// fulfillment (a fee it lacked is added), checked by the catalog import's rules (managers);
    /// every app server charges it within a second.
    pub struct StaffFeeSave = Post "/api/v1/staff/catalog/fees/{cityId}/{fulfillmentId}" as "staffFeeSave", Write, errors [401, 404, 409, 422],
    (FeePath, NoParams, Json<FeeForm, true>) -> ChargesSaved,
    "Sets one served city's fee for one fulfillment (managers only), checked as `store catalog import` checks it; recorded in the audit log.");

impl Endpoint for StaffFeeSave {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (p, _, Json(f), _): Args<Self>) -> Result<ChargesSaved, ApiError> {
        let by = signed_in_as(ctx, &[Role::Manager])?.member;
        let city = city_choices(ctx.conn)?
            .into_iter()
            .find(|c| c.id == p.city_id)
            .ok_or_else(|| ApiError::NotFound("The store does not serve that city.".into()))?;
        let fulfillment = db::places::fulfillment_type(ctx.conn, p.fulfillment_id)?
            .ok_or_else(|| ApiError::NotFound("No such fulfillment.".into()))?
            .name;
        let amount = pesos("amount", f.amount.as_deref().unwrap_or_default(), "fee")?;
        let code = p.city_id.get();
        let key = format!("city {code}, {fulfillment}");
        let report = edit(
            ctx.conn,
            &by,
            true,
            FormRecord {
                section: "delivery_fees",
                key: &key,
                fields: &["amount"],
            },
            |file| {
                unchanged(
                    &shown_fee(fee_of(file, code, &fulfillment)),
                    f.version.as_deref(),
                )?;
                match file
                    .delivery_fees
                    .iter_mut()
                    .find(|x| x.city_id == code && x.fulfillment == fulfillment)
                {
                    Some(fee) => fee.amount = amount,
                    None => file.delivery_fees.push(FeeRecord {
                        city_id: code,
                        city_name: city.name,
                        fulfillment: fulfillment.clone(),
                        amount,
                    }),
                }
                Ok(())
            },
        )?;
        Ok(ChargesSaved {
            changes: changes_of(&report),
            charges: charges(ctx.conn)?,
        })
    }
}
