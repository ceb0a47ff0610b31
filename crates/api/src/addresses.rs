//! A member's saved addresses: the list the location gate's saved-address
//! dialog shows (USE THIS ADDRESS fills the gate), and create, update, delete. Every lookup is
//! scoped to its owner: another member's address answers 404, exactly like an unknown one.

use db::addresses::AddressRow;
use domain::{AddressId, BarangayId, CityId, ProvinceId, StreetId};
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use crate::accounts::MessageAnswer;
use framework::endpoint::Results;
use framework::endpoint::{Args, Ctx, Endpoint, Json, NoBody, NoParams};
use framework::error::ApiError;

framework::register!(AddressList, CreateAddress, UpdateAddress, DeleteAddress);

/// How many addresses a member may keep.
pub const MAX_ADDRESSES: i64 = 10;

/// A saved address, with what the location gate needs to use it.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct AddressView {
    pub id: AddressId,
    /// House or unit, building, street: the line a rider reads.
    pub address: String,
    pub barangay_id: BarangayId,
    pub barangay_name: String,
    pub street_id: Option<StreetId>,
    pub street_name: Option<String>,
    pub city_id: CityId,
    pub city_name: String,
    pub province_id: ProvinceId,
    pub province_name: String,
}

impl From<AddressRow> for AddressView {
    fn from(a: AddressRow) -> Self {
        Self {
            id: a.id,
            address: a.address,
            barangay_id: a.barangay.id,
            barangay_name: a.barangay.barangay_name,
            street_id: a.street.as_ref().map(|s| s.id),
            street_name: a.street.map(|s| s.street_name),
            city_id: a.city.id,
            city_name: a.city.city_name,
            province_id: a.city.province_id,
            province_name: a.province_name,
        }
    }
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct AddressForm {
    #[serde(default)]
    #[schema(required = true, schema_with = address_line)]
    pub address: String,
    #[schema(required = true, nullable = false)]
    pub barangay_id: Option<BarangayId>,
    #[serde(default)]
    pub street_id: Option<StreetId>,
}

/// The address line, with an address of the seeded store's Makati as its example.
fn address_line() -> utoipa::openapi::schema::ObjectBuilder {
    framework::rules::address_line().examples(["Unit 5B, 12 Jupiter St."])
}

/// The form's address, checked: a line of 5 to 200 characters, a barangay of a served city, and
/// the barangay's street where it has streets.
fn check(
    ctx: &mut Ctx,
    f: &AddressForm,
) -> Result<(String, BarangayId, Option<StreetId>), ApiError> {
    let line =
        match domain::text::check(&f.address, 5, 200, false) {
            Ok(line) => line,
            Err(problem) => return Err(ApiError::Invalid {
                field: "address",
                message: match problem {
                    domain::text::Problem::Characters => domain::text::CHARACTERS.into(),
                    domain::text::Problem::Length => {
                        "Enter the house or unit number, building and street (5 to 200 characters)."
                            .into()
                    }
                },
            }),
        };
    let barangay = f.barangay_id.ok_or_else(|| ApiError::Invalid {
        field: "barangay_id",
        message: "Choose the barangay.".into(),
    })?;
    let place = crate::locations::place(ctx, barangay)?
        .filter(|p| p.served)
        .ok_or_else(|| ApiError::Invalid {
            field: "barangay_id",
            message: "We do not deliver to this barangay yet.".into(),
        })?;
    let streets = db::places::streets_of_barangay(ctx.conn, place.barangay.id)?;
    let street = match f.street_id {
        Some(s) if streets.iter().any(|x| x.id == s) => Some(s),
        Some(_) => {
            return Err(ApiError::Invalid {
                field: "street_id",
                message: "Choose a street of this barangay.".into(),
            })
        }
        None if !streets.is_empty() => {
            return Err(ApiError::Invalid {
                field: "street_id",
                message: "Choose the street.".into(),
            })
        }
        None => None,
    };
    Ok((line.to_string(), place.barangay.id, street))
}

use domain::calendar::unix_now as now;

fn not_found(id: AddressId) -> ApiError {
    ApiError::NotFound(format!("Address {id} not found"))
}

framework::declare!(
    /// `GET /api/v1/user/addresses/list`.
    pub struct AddressList = Get "/api/v1/user/addresses/list" as "addresses", Session, errors [401],
    (NoParams, NoParams, NoBody) -> Results<AddressView>, "The member's saved addresses, newest first.");

impl Endpoint for AddressList {
    fn call(ctx: &mut Ctx, (_, _, _, _): Args<Self>) -> Result<Self::Answer, ApiError> {
        let user = ctx.member()?;
        Ok(db::addresses::addresses_of(ctx.conn, user.id, None)?
            .into_iter()
            .map(AddressView::from)
            .collect::<Vec<_>>()
            .into())
    }
}

framework::declare!(
    /// `POST /api/v1/user/addresses`.
    pub struct CreateAddress = Post "/api/v1/user/addresses" as "createAddress", Write, errors [401, 422],
    (NoParams, NoParams, Json<AddressForm, true>) -> AddressView, "Saves an address for the member.", status 201);

impl Endpoint for CreateAddress {
    fn call(ctx: &mut Ctx, (_, _, Json(f), _): Args<Self>) -> Result<AddressView, ApiError> {
        let user = ctx.member()?;
        if db::addresses::count_addresses(ctx.conn, user.id)? >= MAX_ADDRESSES {
            return Err(ApiError::Invalid {
                field: "address",
                message: format!("You can keep up to {MAX_ADDRESSES} addresses. Delete one first."),
            });
        }
        let (line, barangay, street) = check(ctx, &f)?;
        let id = db::addresses::create_address(ctx.conn, user.id, &line, barangay, street, now())?;
        db::addresses::addresses_of(ctx.conn, user.id, Some(id))?
            .pop()
            .map(AddressView::from)
            .ok_or_else(|| not_found(id))
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct AddressPath {
    #[serde(rename = "addressId")]
    #[param(rename = "addressId")]
    pub address_id: AddressId,
}

framework::declare!(
    /// `PUT /api/v1/user/addresses/{addressId}`.
    pub struct UpdateAddress = Put "/api/v1/user/addresses/{addressId}" as "updateAddress", Write, errors [401, 404, 422],
    (AddressPath, NoParams, Json<AddressForm, true>) -> AddressView, "Changes one of the member's addresses.");

impl Endpoint for UpdateAddress {
    const LINKS: &'static [framework::endpoint::Link] = &[framework::endpoint::Link {
        from: "createAddress",
        name: "UpdateAddress",
        params: &[("addressId", "$response.body#/id")],
        body: None,
    }];

    fn call(ctx: &mut Ctx, (p, _, Json(f), _): Args<Self>) -> Result<AddressView, ApiError> {
        let user = ctx.member()?;
        // Another member's address is missing, before anything about the form is said.
        if db::addresses::addresses_of(ctx.conn, user.id, Some(p.address_id))?.is_empty() {
            return Err(not_found(p.address_id));
        }
        let (line, barangay, street) = check(ctx, &f)?;
        if !db::addresses::update_address(ctx.conn, user.id, p.address_id, &line, barangay, street)?
        {
            return Err(not_found(p.address_id));
        }
        db::addresses::addresses_of(ctx.conn, user.id, Some(p.address_id))?
            .pop()
            .map(AddressView::from)
            .ok_or_else(|| not_found(p.address_id))
    }
}

framework::declare!(
    /// `DELETE /api/v1/user/addresses/{addressId}`.
    pub struct DeleteAddress = Delete "/api/v1/user/addresses/{addressId}" as "deleteAddress", Write, errors [401, 404],
    (AddressPath, NoParams, NoBody) -> MessageAnswer, "Deletes one of the member's addresses.");

impl Endpoint for DeleteAddress {
    const LINKS: &'static [framework::endpoint::Link] = &[framework::endpoint::Link {
        from: "createAddress",
        name: "DeleteAddress",
        params: &[("addressId", "$response.body#/id")],
        body: None,
    }];

    fn call(ctx: &mut Ctx, (p, _, _, _): Args<Self>) -> Result<MessageAnswer, ApiError> {
        let user = ctx.member()?;
        if !db::addresses::delete_address(ctx.conn, user.id, p.address_id)? {
            return Err(not_found(p.address_id));
        }
        Ok(crate::accounts::message("The address has been deleted."))
    }
}
