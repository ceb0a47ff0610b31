//! The catalog in a manager's hands: one product's name, description, prices, stock and cities
//! (`product`), the cities many products are sold in at once, shown before it is saved
//! (`cities`), the banners' titles, places and days (`banners`), deposits and each served city's
//! delivery fees (`charges`), the promos' titles, words and days (`promos`), and the catalog file
//! uploaded, checked and applied in the browser (`import`); the holidays and notices, which are
//! not in the catalog file, have their own forms (`calendar`). Every other form goes through the catalog file's
//! import (`import::edit_then`): the command line's rules, one transaction that starts
//! from what the last writer left, the data version bumped so every app server shows the change
//! within a second, and an audit record of each record's changed fields before and after.
//! The forms that send files, the photos (`photo_form`) and the catalog file (`import_form`), are
//! answered beside the calls they run; a photo is also given by the API's photo calls (`photo`),
//! through the same function as its form.

pub mod banners;
pub mod calendar;
pub mod charges;
pub mod cities;
pub mod import;
pub mod import_form;
pub mod photo;
pub mod photo_form;
pub mod product;
pub mod promos;

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use db::catalog_io::CatalogRecords;
use db::team::StaffRow;
use framework::error::ApiError;
use import::{Change, ImportError, Report};

/// What happens to a record of the catalog.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum ChangeKind {
    New,
    Changed,
    Removed,
    /// A product left out of an imported file: kept, and made not orderable.
    LeftOut,
}

/// One field that changes, before and after, as a person reads them (money in pesos).
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, TS)]
pub struct FieldChange {
    pub field: String,
    pub before: String,
    pub after: String,
}

/// One record that changes: its section (`products`, `deposits`, `delivery_fees`, `banners`,
/// `promos`), its key (a product's slug; an id; a fee's city and fulfillment), what happens, and
/// the fields that change.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, TS)]
pub struct CatalogChange {
    pub section: String,
    pub key: String,
    pub kind: ChangeKind,
    pub fields: Vec<FieldChange>,
}

impl From<&Change> for CatalogChange {
    fn from(c: &Change) -> Self {
        Self {
            section: c.section.into(),
            key: c.key.clone(),
            kind: c.kind,
            fields: c
                .fields
                .iter()
                .map(|f| FieldChange {
                    field: f.field.into(),
                    before: f.before_text.clone(),
                    after: f.after_text.clone(),
                })
                .collect(),
        }
    }
}

/// Whether the caller may send a catalog form with a file (a photo, the catalog file): a
/// signed-in manager, asked before the body is read.
pub fn a_manager(ctx: &mut framework::Ctx) -> Result<(), ApiError> {
    crate::staff::signed_in_as(ctx, &[domain::staff::Role::Manager]).map(|_| ())
}

/// The changes of a report, as the pages list them.
pub fn changes_of(report: &Report) -> Vec<CatalogChange> {
    report.changes.iter().map(CatalogChange::from).collect()
}

/// A served city a product may be sold in.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, TS)]
pub struct CityChoice {
    /// Its PSGC code.
    pub id: domain::CityId,
    pub name: String,
    pub province: String,
}

/// Every served city, by province and name.
pub(crate) fn city_choices(conn: &mut db::AnyConnection) -> Result<Vec<CityChoice>, ApiError> {
    let provinces = db::places::provinces(conn)?;
    let mut all: Vec<CityChoice> = db::places::served_cities(conn, None, None)?
        .into_iter()
        .map(|c| CityChoice {
            id: c.id,
            name: c.city_name,
            province: provinces
                .iter()
                .find(|p| p.id == c.province_id)
                .map(|p| p.province_name.clone())
                .unwrap_or_default(),
        })
        .collect();
    all.sort_by(|a, b| (&a.province, &a.name).cmp(&(&b.province, &b.name)));
    Ok(all)
}

/// A changed record's fields as the audit log keeps them: before (or `after`) the change, each
/// by its name (`null` on a side the record did not exist).
pub(crate) fn side(c: &Change, after: bool) -> serde_json::Value {
    let fields: serde_json::Map<String, serde_json::Value> = c
        .fields
        .iter()
        .map(|f| {
            let v = if after { &f.after } else { &f.before };
            (f.field.to_string(), v.clone().unwrap_or_default())
        })
        .collect();
    serde_json::Value::Object(fields)
}

/// A record's version as its form carries it: the fields the form shows (`fields`, serialized),
/// hashed; it changes whenever one of them does.
pub(crate) fn version_of(fields: &impl Serialize) -> String {
    use sha2::Digest;
    let bytes = serde_json::to_vec(fields).unwrap_or_default();
    sha2::Sha256::digest(&bytes)
        .iter()
        .take(8)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The problem an edit answers when its record changed since its form was opened.
const STALE: &str = "the record changed since its form was opened";

/// What a manager is told when another saved the record first.
pub const STALE_MESSAGE: &str = "Someone else changed this since you opened the page, and nothing was saved. Reload the page to see their change, then make yours again.";

/// Refuses the edit when the record's fields are no longer those its form was opened with
/// (`seen`: their version then; none or empty: no check, as an API client that sends only the
/// fields it changes). Checked inside the edit's transaction, so of two managers saving the same
/// record from the same page, the second is told and nothing of theirs overwrites the first's.
pub(crate) fn unchanged(now: &impl Serialize, seen: Option<&str>) -> Result<(), ImportError> {
    if is_stale(&version_of(now), seen) {
        return Err(ImportError::Invalid(vec![STALE.into()]));
    }
    Ok(())
}

/// Whether a form opened at version `seen` is stale, the record being at `now` (none or empty:
/// no check).
pub(crate) fn is_stale(now: &str, seen: Option<&str>) -> bool {
    seen.map(str::trim)
        .is_some_and(|v| !v.is_empty() && v != now)
}

/// A text area's words as the store keeps them: a browser ends its lines by CR LF, the store by
/// LF.
pub(crate) fn as_lines(text: String) -> String {
    text.replace("\r\n", "\n").replace('\r', "\n")
}

/// A record's name or title: a line of 1 to 200 characters.
pub(crate) fn name_rule() -> utoipa::openapi::schema::ObjectBuilder {
    framework::rules::line(200).min_length(Some(1))
}

/// A record's version, as the document describes it.
pub(crate) fn version_rule() -> utoipa::openapi::schema::ObjectBuilder {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .pattern(Some(r"^([0-9a-f]{16})?$"))
        .description(Some(
            "The `version` the form was opened with: the save is refused (409) when the record \
             changed since; empty or left out: no check.",
        ))
}

/// The audit records of an edit: one per record it changes, its changed fields before and after.
fn audit(
    conn: &mut db::AnyConnection,
    by: &StaffRow,
    report: &Report,
    ids: &std::collections::HashMap<String, (i32, String)>,
) -> Result<(), ImportError> {
    for c in &report.changes {
        let (action, subject) = match (c.section, ids.get(&c.key)) {
            ("products", Some((id, sku))) => ("product.change", format!("product {id} ({sku})")),
            // A product known only by its slug (a new one): named so, never read as an id.
            ("products", None) => ("product.change", format!("product ({})", c.key)),
            ("banners", _) if c.kind == ChangeKind::New => {
                ("banner.add", format!("banner {}", c.key))
            }
            ("banners", _) => ("banner.change", format!("banner {}", c.key)),
            ("deposits", _) => ("deposit.change", format!("deposit {}", c.key)),
            ("delivery_fees", _) => ("fee.change", format!("delivery fee {}", c.key)),
            _ => ("promo.change", format!("promo {}", c.key)),
        };
        super::entry(
            conn,
            Some(by),
            action,
            &subject,
            Some(side(c, false)),
            Some(side(c, true)),
        )?;
    }
    Ok(())
}

/// The record of the catalog file a form edits: its `section` (`products`), its `key` there
/// (`slug x`, `id 2`), and the `fields` the form shows, on which its problems are answered.
pub struct FormRecord<'a> {
    pub section: &'a str,
    pub key: &'a str,
    pub fields: &'a [&'static str],
}

/// Runs `edit` on the catalog through the import's rules (see the module's words), recorded for
/// `by`; a problem of the record of `section` named `key` (`slug x`, `id 2`) is answered on its
/// field, as `fields` names them (another field's, or another record's, as a conflict naming it).
pub fn edit(
    conn: &mut db::AnyConnection,
    by: &StaffRow,
    apply: bool,
    mine: FormRecord<'_>,
    change: impl FnOnce(&mut CatalogRecords) -> Result<(), ImportError>,
) -> Result<Report, ApiError> {
    edit_and(conn, by, apply, change, |_| Ok(())).map_err(|e| refused(e, mine))
}

/// [`edit`] with `also` written in its transaction after the audit records (when it applies),
/// its problems as the import names them.
fn edit_and(
    conn: &mut db::AnyConnection,
    by: &StaffRow,
    apply: bool,
    change: impl FnOnce(&mut CatalogRecords) -> Result<(), ImportError>,
    also: impl FnOnce(&mut db::AnyConnection) -> db::diesel::QueryResult<()>,
) -> Result<Report, ImportError> {
    let ids: std::collections::HashMap<String, (i32, String)> =
        db::catalog::products(conn, db::catalog::Area::Anywhere, None)?
            .into_iter()
            .map(|p| (p.slug, (p.id.get(), p.sku)))
            .collect();
    import::edit_then(conn, apply, change, |conn, report| {
        audit(conn, by, report, &ids)?;
        also(conn).map_err(ImportError::Db)
    })
}

/// An edit's problems as the form shows them.
fn refused(e: ImportError, record: FormRecord<'_>) -> ApiError {
    let FormRecord {
        section,
        key,
        fields,
    } = record;
    let problems = match e {
        ImportError::Db(e) => return e.into(),
        ImportError::Invalid(problems) => problems,
    };
    if problems == [STALE] {
        return ApiError::Conflict(STALE_MESSAGE.into());
    }
    let mut errors = domain::account::FieldErrors::new();
    for (field, what) in import::problems_of(&problems, section, key) {
        match fields.iter().find(|f| **f == field) {
            Some(f) => errors.entry(f).or_default().push(format!(
                "{} {}",
                label(f),
                in_words(&what, fields)
            )),
            None => {
                return ApiError::Conflict(format!(
                    "The catalog refuses this change: {field} {what}."
                ))
            }
        }
    }
    if errors.is_empty() {
        return ApiError::Conflict(format!(
            "The catalog refuses this change: {}",
            problems.join("; ")
        ));
    }
    ApiError::Fields(errors)
}

/// The import's words for a problem with the fields it names (`starts_on`) said as the form
/// labels them (`the first day`).
fn in_words(what: &str, fields: &[&str]) -> String {
    what.split(' ')
        .map(|word| match fields.iter().find(|f| **f == word) {
            Some(f) => {
                let l = label(f);
                l[..1].to_lowercase() + &l[1..]
            }
            None => word.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A field of the catalog as a form's message names it.
fn label(field: &str) -> &'static str {
    match field {
        "product_name" => "The name",
        "description" => "The description",
        "price" => "The price",
        "price_per_case" => "The price per case",
        "orderable" => "In stock",
        "cities" => "The cities",
        "title" => "The title",
        "starts_on" => "The first day",
        "ends_on" => "The last day",
        "sort_order" => "The place",
        "name" => "The name",
        "amount" => "The amount",
        _ => "This field",
    }
}
