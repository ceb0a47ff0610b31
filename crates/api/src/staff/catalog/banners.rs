//! The home page's banners in a manager's hands: each one's title, its place in the carousel and
//! the days it is shown (a banner scheduled ahead shows from its first day, and goes after its
//! last), checked by the catalog import's rules.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use super::import::ImportError;
use super::{changes_of, edit, CatalogChange, FormRecord};
use crate::staff::signed_in_as;
use db::catalog_io::BannerRecord;
use domain::staff::Role;
use framework::endpoint::{Args, Ctx, Endpoint, Json, NoBody, NoParams, Results};
use framework::error::ApiError;

framework::register!(StaffBanners, StaffBannerSave);

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct BannerPath {
    #[serde(rename = "bannerId")]
    #[param(rename = "bannerId", minimum = 1)]
    pub banner_id: i32,
}

/// A banner as its form shows it.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, TS)]
pub struct BannerEdit {
    pub id: i32,
    pub title: String,
    pub desktop_image: String,
    pub mobile_image: String,
    /// Its place in the carousel (lower first).
    pub sort_order: i32,
    /// Its first day (`YYYY-MM-DD`; none: already shown).
    pub starts_on: Option<String>,
    /// Its last day (none: shown for good).
    pub ends_on: Option<String>,
    /// Whether the home page shows it today (Manila).
    pub shown_today: bool,
    /// The version of its fields, which the form sends back (see `BannerForm::version`).
    pub version: String,
    /// Its photo, shown in place of both images; none: the images.
    pub photo: Option<crate::catalog::PhotoView>,
    /// The id of its section on the page, which its photo form's answer comes back to.
    pub anchor: String,
}

/// The fields a banner's form shows, as its version hashes them.
fn shown<'a>(
    title: &'a str,
    starts_on: &'a Option<String>,
    ends_on: &'a Option<String>,
    sort_order: i32,
) -> impl Serialize + 'a {
    (title, starts_on, ends_on, sort_order)
}

fn view(b: db::models::Banner, today: &str) -> BannerEdit {
    let shown_today = b.starts_on.as_deref().is_none_or(|s| s <= today)
        && b.ends_on.as_deref().is_none_or(|e| e >= today);
    let version = super::version_of(&shown(&b.title, &b.starts_on, &b.ends_on, b.sort_order));
    BannerEdit {
        photo: b
            .kept_photo()
            .as_ref()
            .and_then(crate::catalog::PhotoView::new),
        anchor: crate::staff::photos::Subject::Banner(b.id).anchor(),
        id: b.id,
        title: b.title,
        desktop_image: b.desktop_image,
        mobile_image: b.mobile_image,
        sort_order: b.sort_order,
        starts_on: b.starts_on,
        ends_on: b.ends_on,
        shown_today,
        version,
    }
}

/// Every banner, shown today or not by the store's clock (as the shop's banners call).
fn all(ctx: &mut Ctx) -> Result<Vec<BannerEdit>, ApiError> {
    let today = domain::calendar::iso_date(ctx.config.now(None).date());
    Ok(db::catalog::all_banners(ctx.conn)?
        .into_iter()
        .map(|b| view(b, &today))
        .collect())
}

framework::declare!(
    /// `GET /api/v1/staff/catalog/banners`: every banner, scheduled or not (managers).
    pub struct StaffBanners = Get "/api/v1/staff/catalog/banners" as "staffBanners", Session, errors [401, 404],
    (NoParams, NoParams, NoBody) -> Results<BannerEdit>,
    "Every banner of the home page with its days (managers only).");

impl Endpoint for StaffBanners {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, _: Args<Self>) -> Result<Results<BannerEdit>, ApiError> {
        signed_in_as(ctx, &[Role::Manager])?;
        Ok(all(ctx)?.into())
    }
}

/// The fields to change; a field left out stays as it is, a day left empty is an open end.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct BannerForm {
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(schema_with = super::name_rule)]
    pub title: Option<String>,
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(schema_with = day_or_nothing)]
    pub starts_on: Option<String>,
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(schema_with = day_or_nothing)]
    pub ends_on: Option<String>,
    /// Its place in the carousel (lower first).
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(schema_with = place)]
    pub sort_order: Option<i32>,
    /// Every field is sent (a page's form, which leaves a field it empties out): a day left out
    /// is an open end, a title left out is blank (refused), a place left out is 0.
    #[serde(default)]
    pub whole: Option<bool>,
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(schema_with = super::version_rule)]
    pub version: Option<String>,
}

/// A day as typed: the day, or none (left empty: an open end).
fn open_day(typed: &str) -> Option<String> {
    Some(typed.trim().to_string()).filter(|d| !d.is_empty())
}

/// A day as a form sends it: none (left out), or [`open_day`].
fn day(typed: Option<String>) -> Option<Option<String>> {
    typed.map(|d| open_day(&d))
}

/// The highest place in the carousel the catalog takes.
const PLACE_MOST: i32 = *super::import::SORT_ORDER.end() as i32;
/// The lowest place in the carousel the catalog takes.
const PLACE_LEAST: i32 = *super::import::SORT_ORDER.start() as i32;

/// A banner's place in the carousel: from [`PLACE_LEAST`] to [`PLACE_MOST`] (the catalog file's
/// sort order).
fn place() -> utoipa::openapi::schema::ObjectBuilder {
    framework::rules::int32(PLACE_LEAST, PLACE_MOST)
        .description(Some("Its place in the carousel (lower first)."))
}

/// A Manila day, or nothing (an open end).
fn day_or_nothing() -> utoipa::openapi::schema::ObjectBuilder {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .pattern(Some(r"^(|[0-9]{4}-[0-9]{2}-[0-9]{2})$"))
        .description(Some("`YYYY-MM-DD`, or empty: an open end."))
}

/// What a save answers: every banner as it is now, and what changed.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, TS)]
pub struct BannerSaved {
    pub banners: Vec<BannerEdit>,
    pub changes: Vec<CatalogChange>,
}

/// The fields a banner's form answers problems on.
const FIELDS: &[&str] = &["title", "starts_on", "ends_on", "sort_order"];

framework::declare!(
    /// `POST /api/v1/staff/catalog/banners/{bannerId}`: changes a banner's title, place or days,
    /// checked by the catalog import's rules (managers); every app server shows it within a
    /// second.
    pub struct StaffBannerSave = Post "/api/v1/staff/catalog/banners/{bannerId}" as "staffBannerSave", Write, errors [401, 404, 409, 422],
    (BannerPath, NoParams, Json<BannerForm, true>) -> BannerSaved,
    "Changes one banner (managers only), checked as `store catalog import` checks it; recorded in the audit log.");

impl Endpoint for StaffBannerSave {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (p, _, Json(mut f), _): Args<Self>) -> Result<BannerSaved, ApiError> {
        if f.whole == Some(true) {
            for field in [&mut f.title, &mut f.starts_on, &mut f.ends_on] {
                field.get_or_insert_with(String::new);
            }
            f.sort_order.get_or_insert(0);
        }
        let by = signed_in_as(ctx, &[Role::Manager])?.member;
        let id = p.banner_id;
        db::catalog::banner(ctx.conn, id)?
            .ok_or_else(|| ApiError::NotFound("No such banner.".into()))?;
        let (starts_on, ends_on) = (day(f.starts_on), day(f.ends_on));
        let key = format!("id {id}");
        let record = FormRecord {
            section: "banners",
            key: &key,
            fields: FIELDS,
        };
        let report = edit(ctx.conn, &by, true, record, |file| {
            let b = file
                .banners
                .iter_mut()
                .find(|b| b.id == id)
                .ok_or_else(|| ImportError::Invalid(vec![format!("no banner {id}")]))?;
            super::unchanged(
                &shown(&b.title, &b.starts_on, &b.ends_on, b.sort_order),
                f.version.as_deref(),
            )?;
            if let Some(title) = f.title {
                b.title = title;
            }
            if let Some(starts_on) = starts_on {
                b.starts_on = starts_on;
            }
            if let Some(ends_on) = ends_on {
                b.ends_on = ends_on;
            }
            b.sort_order = f.sort_order.unwrap_or(b.sort_order);
            Ok(())
        })?;
        Ok(BannerSaved {
            banners: all(ctx)?,
            changes: changes_of(&report),
        })
    }
}

/// A new banner as its form gives it (its photo apart): the fields as typed.
#[derive(Debug, Clone, Default)]
pub struct NewBanner {
    pub title: String,
    pub starts_on: String,
    pub ends_on: String,
    /// Its place in the carousel as typed; empty: after the last.
    pub sort_order: String,
}

impl NewBanner {
    /// Its place as typed: none (after the others), or a whole number. Checked before its photo
    /// is read, and again when it is added.
    pub fn place(&self) -> Result<Option<i32>, ApiError> {
        match self.sort_order.trim() {
            "" => Ok(None),
            typed => typed
                .parse::<i32>()
                .map(Some)
                .map_err(|_| ApiError::Invalid {
                    field: "sort_order",
                    message: "The place must be a whole number.".into(),
                }),
        }
    }
}

/// Adds a banner with `photo` (kept by `photos::keep`), checked by the catalog import's rules,
/// recorded for `by` (`banner.add`, then `banner.photo`), all in one transaction; answers its id.
/// In the catalog file its images are the photo's own JPEG sizes (the widest, and a phone's), so
/// the file stays whole without the photo; the pages show the photo at every size made.
pub fn add(
    conn: &mut db::AnyConnection,
    by: &db::team::StaffRow,
    new: NewBanner,
    photo: &db::catalog::Photo,
) -> Result<i32, ApiError> {
    let sort_order = new.place()?;
    let width = u32::try_from(photo.width).map_err(|e| ApiError::Internal(e.to_string()))?;
    let jpeg = |up_to: u32| {
        media::address(
            &photo.hash,
            media::fallback_width(width, up_to),
            media::Format::Jpeg,
        )
    };
    // Its id is the next one when the catalog is held (two managers adding at once take turns).
    let added = std::cell::Cell::new(0);
    let title = new.title.clone();
    let change = |file: &mut db::catalog_io::CatalogRecords| {
        added.set(file.banners.iter().map(|b| b.id).max().unwrap_or(0) + 1);
        let last = file.banners.iter().map(|b| b.sort_order).max().unwrap_or(0);
        file.banners.push(BannerRecord {
            id: added.get(),
            title: new.title,
            desktop_image: jpeg(u32::MAX),
            mobile_image: jpeg(480),
            sort_order: sort_order.unwrap_or(last.saturating_add(1).min(PLACE_MOST)),
            starts_on: open_day(&new.starts_on),
            ends_on: open_day(&new.ends_on),
        });
        Ok(())
    };
    let also = |conn: &mut db::AnyConnection| {
        crate::staff::photos::of_new_banner(conn, by, added.get(), &title, photo)
    };
    super::edit_and(conn, by, true, change, also).map_err(|e| {
        // The banner's id, known once the edit ran.
        let key = format!("id {}", added.get());
        let record = FormRecord {
            section: "banners",
            key: &key,
            fields: FIELDS,
        };
        super::refused(e, record)
    })?;
    Ok(added.get())
}
