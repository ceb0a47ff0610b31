//! A product's or a banner's photo by the API (managers): `PUT` its one file as
//! `multipart/form-data` (the part `photo`) to give it, `DELETE` to take it away (its drawing
//! shows again). The same way as the pages' photo forms (`photo_form`), in the same function
//! ([`photos::receive`]): who may send it and what the path names asked before a byte of the body
//! is read, the body read within the forms' limits, the photo checked and kept on a blocking
//! thread with no database connection held, then given with its audit record. The staff session
//! and the cross-site rule as every staff write; no HTML form can send a `PUT` or a `DELETE`.
//!
//! `PUT`, not `POST`: the call sets the owner's one photo to the file sent, whatever it had (the
//! same file twice is the same photo); and the address is the photo's own, which `DELETE` takes
//! away.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use super::banners::BannerPath;
use crate::catalog::PhotoView;
use crate::staff::photos::{self, Subject};
use crate::staff::signed_in_as;
use domain::staff::Role;
use framework::endpoint::{
    Args, Ctx, Endpoint, File, FilePart, FileRules, NoBody, NoParams, Receive,
};
use framework::error::ApiError;

framework::register!(
    StaffProductPhoto,
    StaffProductPhotoRemove,
    StaffBannerPhoto,
    StaffBannerPhotoRemove
);

/// A product named by its SKU.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct SkuPath {
    /// The product's SKU, as the catalog lists it.
    #[param(min_length = 1, max_length = 100, example = "TBC-KEG-023")]
    pub sku: String,
}

/// An owner's photo after a photo call, as the catalog's answers show it: none, its drawing
/// shows.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct OwnerPhoto {
    pub photo: Option<PhotoView>,
}

/// The part a photo call takes.
pub struct PhotoPart;

impl FilePart for PhotoPart {
    fn rules() -> FileRules {
        FileRules {
            part: "photo",
            most: photos::body_limit(),
            said: "The photo: a JPEG, PNG or WebP file (its type read from its content) of at \
                   most 10 MB, 40 megapixels and 10,000 pixels a side.",
            too_large: photos::too_large(),
            wrong_type: "The body is not multipart/form-data, or its photo is not a JPEG, PNG or \
                         WebP image.",
        }
    }
}

/// The photo body.
type PhotoBody = File<PhotoPart>;

/// A managers' call: a path that names nothing is a 404 (a product's unknown SKU too).
fn admit(ctx: &mut Ctx, subject: &Subject) -> Result<(), ApiError> {
    signed_in_as(ctx, &[Role::Manager])?;
    photos::known(ctx.conn, subject).map_err(not_found)
}

/// What a photo call's path names not being there (a product's unknown SKU, said as a field to
/// correct to the command line and the forms), as a 404.
fn not_found(e: ApiError) -> ApiError {
    match e {
        ApiError::Invalid {
            field: "sku",
            message,
        } => ApiError::NotFound(message),
        other => other,
    }
}

/// Gives `subject` the photo sent (see [`photos::receive`]).
async fn give(
    state: &framework::ApiState,
    caller: framework::Caller,
    subject: Subject,
    body: PhotoBody,
) -> Result<OwnerPhoto, ApiError> {
    let given = photos::receive(state, caller, subject, body.file.bytes)
        .await
        .map_err(not_found)?;
    Ok(OwnerPhoto {
        photo: PhotoView::new(&given),
    })
}

/// Takes the photo away from `subject`, recorded for the manager.
fn take_away(ctx: &mut Ctx, subject: &Subject) -> Result<OwnerPhoto, ApiError> {
    let signed = signed_in_as(ctx, &[Role::Manager])?;
    photos::take_away(ctx.conn, Some(&signed.member), subject).map_err(not_found)?;
    Ok(OwnerPhoto { photo: None })
}

/// What a photo call answers a body without its file (a page form's fields).
fn no_file() -> ApiError {
    framework::endpoint::not_multipart(&PhotoPart::rules())
}

framework::declare!(
    /// `PUT /api/v1/staff/catalog/products/{sku}/photo`: gives a product a photo (managers).
    pub struct StaffProductPhoto = Put "/api/v1/staff/catalog/products/{sku}/photo" as "staffProductPhoto", Write, errors [401, 404, 413, 415, 422],
    (SkuPath, NoParams, PhotoBody) -> OwnerPhoto,
    "Gives a product its photo (managers only): one JPEG, PNG or WebP file in the part `photo` of a multipart/form-data body, checked and kept as `store catalog photo` does; replaces the photo it had; recorded in the audit log.");

impl Endpoint for StaffProductPhoto {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;
    const RECEIVE: Option<Receive<Self>> = Some(|state, caller, (path, _, body, _)| {
        Box::pin(give(state, caller, Subject::Product(path.sku), body))
    });

    fn admit(ctx: &mut Ctx, path: &SkuPath) -> Result<(), ApiError> {
        admit(ctx, &Subject::Product(path.sku.clone()))
    }

    fn call(_: &mut Ctx, _: Args<Self>) -> Result<OwnerPhoto, ApiError> {
        Err(no_file())
    }
}

framework::declare!(
    /// `DELETE /api/v1/staff/catalog/products/{sku}/photo`: takes a product's photo away
    /// (managers).
    pub struct StaffProductPhotoRemove = Delete "/api/v1/staff/catalog/products/{sku}/photo" as "staffProductPhotoRemove", Write, errors [401, 404],
    (SkuPath, NoParams, NoBody) -> OwnerPhoto,
    "Takes a product's photo away (managers only): its drawing shows again; recorded in the audit log when it had one.");

impl Endpoint for StaffProductPhotoRemove {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (path, _, _, _): Args<Self>) -> Result<OwnerPhoto, ApiError> {
        take_away(ctx, &Subject::Product(path.sku))
    }
}

framework::declare!(
    /// `PUT /api/v1/staff/catalog/banners/{bannerId}/photo`: gives a home page banner a photo
    /// (managers).
    pub struct StaffBannerPhoto = Put "/api/v1/staff/catalog/banners/{bannerId}/photo" as "staffBannerPhoto", Write, errors [401, 404, 413, 415, 422],
    (BannerPath, NoParams, PhotoBody) -> OwnerPhoto,
    "Gives a home page banner its photo, shown in place of its two drawings (managers only): one JPEG, PNG or WebP file in the part `photo` of a multipart/form-data body, checked and kept as `store catalog photo` does; replaces the photo it had; recorded in the audit log.");

impl Endpoint for StaffBannerPhoto {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;
    const RECEIVE: Option<Receive<Self>> = Some(|state, caller, (path, _, body, _)| {
        Box::pin(give(state, caller, Subject::Banner(path.banner_id), body))
    });

    fn admit(ctx: &mut Ctx, path: &BannerPath) -> Result<(), ApiError> {
        admit(ctx, &Subject::Banner(path.banner_id))
    }

    fn call(_: &mut Ctx, _: Args<Self>) -> Result<OwnerPhoto, ApiError> {
        Err(no_file())
    }
}

framework::declare!(
    /// `DELETE /api/v1/staff/catalog/banners/{bannerId}/photo`: takes a banner's photo away
    /// (managers).
    pub struct StaffBannerPhotoRemove = Delete "/api/v1/staff/catalog/banners/{bannerId}/photo" as "staffBannerPhotoRemove", Write, errors [401, 404],
    (BannerPath, NoParams, NoBody) -> OwnerPhoto,
    "Takes a home page banner's photo away (managers only): its two drawings show again; recorded in the audit log when it had one.");

impl Endpoint for StaffBannerPhotoRemove {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (path, _, _, _): Args<Self>) -> Result<OwnerPhoto, ApiError> {
        take_away(ctx, &Subject::Banner(path.banner_id))
    }
}
