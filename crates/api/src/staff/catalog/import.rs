//! The catalog file in the browser: a manager uploads a file (the catalog page's upload form,
//! [`super::import_form`]), sees every change it would make on a page of its own, then applies it,
//! as `store catalog import` would (the same rules, one transaction, the data version bumped);
//! the import is one audit record with every change before and after. The file waits for its
//! import in `catalog_drafts`, seen only by its uploader, for a day.
//!
//! What a catalog file means and what it refuses are here too, one file a concern: its format
//! (`format`: its name, each record's fields, the file written), its shape as it is read
//! (`file`), the rules of a record (`checks`), reading it (`read`), each section's records
//! (`products`, `deposits`, `fees`, `banners`, `promos`), and the report of what it changes
//! (`report`). [`import`] reads a file by them, reports it against the catalog as it stands and,
//! applied, has `db::catalog_io` write it, in one transaction; the command line's
//! `store catalog import` and the back office's forms ([`edit_then`]) go the same way.
//!
//! An import checks the whole file first, against itself and against what the database knows
//! (`db::catalog_io::Known`: packagings, product types, fulfillment types, cities, served areas),
//! and names every problem by its record and field (`products[2] (slug tala-light-330ml): price
//! must be ...`); a file with any problem changes nothing. A good file is applied in one
//! transaction that starts from what the last writer left (`db::catalog_io::take_turn`), so two
//! imports, or two managers' forms, lose neither's change.

mod banners;
mod checks;
mod deposits;
mod fees;
mod file;
mod format;
mod products;
mod promos;
mod read;
mod report;

pub use checks::{MAX_CENTAVOS, SORT_ORDER};
pub use format::{
    to_json, BANNER_FIELDS, DEPOSIT_FIELDS, FEE_FIELDS, FORMAT, PRODUCT_FIELDS, PROMO_FIELDS,
};
pub use report::{Change, ChangedField, Report, Tally};

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::{IntoParams, ToSchema};

use super::{changes_of, CatalogChange};
use crate::staff::signed_in_as;
use db::catalog_io::{self, CatalogRecords, Known};
use db::team::StaffRow;
use db::AnyConnection;
use domain::staff::Role;
use framework::endpoint::{Args, Ctx, Endpoint, Json, NoBody, NoParams};
use framework::error::ApiError;

framework::register!(StaffDraft, StaffDraftApply);

/// The largest catalog file taken: 8 MB (about 15,000 products).
pub const MAX_FILE: usize = 8 * 1024 * 1024;
/// How long an uploaded file waits to be applied, in seconds: a day.
pub const DRAFT_KEPT_FOR: i64 = 24 * 60 * 60;
/// The most files one member of staff keeps waiting (an upload past it forgets their oldest).
pub const MOST_DRAFTS_EACH: i64 = 10;
/// The field a file's problems are answered on (the import names 100, then counts the rest).
const FIELD: &str = "file";

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct DraftPath {
    /// The uploaded file's id (as its page's address names it).
    #[serde(rename = "draftId")]
    #[param(rename = "draftId", pattern = "^[A-Za-z0-9_-]{43}$")]
    pub draft_id: String,
}

/// An uploaded file as its page shows it: what it would change now, or why it no longer can.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, TS)]
pub struct DraftView {
    pub id: String,
    pub file_name: String,
    /// When it was uploaded, Manila time (`YYYY-MM-DD HH:MM`).
    pub uploaded_at: String,
    /// Each kind of record: how many are new, changed, unchanged and removed.
    pub summary: Vec<String>,
    pub changes: Vec<CatalogChange>,
    /// The file's problems, when the store changed since it was uploaded and it no longer holds
    /// (nothing can be applied then).
    pub problems: Vec<String>,
}

/// What an import did.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema, TS)]
pub struct ImportDone {
    pub changes: Vec<CatalogChange>,
    /// The data version after it: every app server shows it within a second.
    pub data_version: i64,
}

/// Why an import changed nothing.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The file's problems, each naming its record and field.
    #[error("{}", .0.join("\n"))]
    Invalid(Vec<String>),
    #[error("database: {0}")]
    Db(#[from] db::diesel::result::Error),
}

/// Checks `text` and, when `apply`, writes it in one transaction (see the module's words).
/// Checked only, nothing is written and the report says what would change.
pub fn import(conn: &mut AnyConnection, text: &str, apply: bool) -> Result<Report, ImportError> {
    import_then(conn, text, apply, |_, _| Ok(()))
}

/// [`import`], and `then` in the same transaction when the file changed the store (its audit
/// record).
pub fn import_then(
    conn: &mut AnyConnection,
    text: &str,
    apply: bool,
    then: impl FnOnce(&mut AnyConnection, &Report) -> Result<(), ImportError>,
) -> Result<Report, ImportError> {
    import_with(
        conn,
        apply,
        |known, _| read::parse(text, known).map_err(ImportError::Invalid),
        then,
    )
}

/// The catalog as it stands, changed by `edit` (a form's few fields) and then checked by the
/// import's rules and, when `apply`, written, all in one transaction: the edit starts from what
/// the last writer left (two managers saving two products at once lose neither). `then` runs in
/// the transaction when the store changed.
pub fn edit_then(
    conn: &mut AnyConnection,
    apply: bool,
    edit: impl FnOnce(&mut CatalogRecords) -> Result<(), ImportError>,
    then: impl FnOnce(&mut AnyConnection, &Report) -> Result<(), ImportError>,
) -> Result<Report, ImportError> {
    import_with(
        conn,
        apply,
        |known, current| {
            let mut file = current.clone();
            edit(&mut file)?;
            read::parse(&to_json(&file), known).map_err(ImportError::Invalid)
        },
        then,
    )
}

/// Imports the catalog `make` makes of what the database knows and the catalog as it stands
/// (read from a file, or a form's edit of the catalog): reported against the catalog and, when
/// `apply`, written in one transaction that starts from what the last writer left; `then` runs in
/// the transaction when the import changed the store (its audit record). Not applied, nothing is
/// written and the report says what would change.
fn import_with(
    conn: &mut AnyConnection,
    apply: bool,
    make: impl FnOnce(&Known, &CatalogRecords) -> Result<CatalogRecords, ImportError>,
    then: impl FnOnce(&mut AnyConnection, &Report) -> Result<(), ImportError>,
) -> Result<Report, ImportError> {
    if !apply {
        let known = Known::load(conn)?;
        let current = catalog_io::export_with(conn, &known)?;
        let file = make(&known, &current)?;
        let mut report = Report::of(&file, &current, &known);
        report.data_version = catalog_io::data_version(conn)?;
        return Ok(report);
    }
    db::write_transaction(conn, |conn| {
        catalog_io::take_turn(conn)?;
        let known = Known::load(conn)?;
        let current = catalog_io::export_with(conn, &known)?;
        let file = make(&known, &current)?;
        let mut report = Report::of(&file, &current, &known);
        if report.changes() {
            catalog_io::write(conn, &file, &current, &known)?;
        }
        report.applied = true;
        report.data_version = catalog_io::data_version(conn)?;
        if report.changes() {
            then(conn, &report)?;
        }
        Ok(report)
    })
}

/// The problems `import` names for the record of `section` named `key` (`slug x`, `id 2`: as
/// in `products[2] (slug x): price must be ...`), each as its field and what is wrong with it
/// (`must be ...`).
pub fn problems_of(problems: &[String], section: &str, key: &str) -> Vec<(String, String)> {
    let named = format!("] ({key}): ");
    problems
        .iter()
        .filter_map(|p| {
            let index = p.strip_prefix(section)?.strip_prefix('[')?;
            let rest = index.trim_start_matches(|c: char| c.is_ascii_digit());
            let (field, what) = rest.strip_prefix(named.as_str())?.split_once(' ')?;
            Some((field.to_string(), what.to_string()))
        })
        .collect()
}

/// One kind of record's tally in words.
fn tally(what: &str, t: Tally, removed: &str) -> String {
    let parts: Vec<String> = [
        (t.new, "new"),
        (t.changed, "changed"),
        (t.unchanged, "unchanged"),
        (t.removed, removed),
    ]
    .iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, w)| format!("{n} {w}"))
    .collect();
    let parts = if parts.is_empty() {
        "none".to_string()
    } else {
        parts.join(", ")
    };
    format!("{what}: {parts}")
}

/// A report's tallies, one line a kind of record, as `store catalog import` prints them.
pub fn summary(r: &Report) -> Vec<String> {
    vec![
        tally(
            "products",
            r.products,
            "left out of the file (kept, not orderable)",
        ),
        tally("deposits", r.deposits, "removed"),
        tally("delivery fees", r.delivery_fees, "removed"),
        tally("banners", r.banners, "removed"),
        tally("promos", r.promos, "removed"),
    ]
}

/// The import's problems, on the file's field.
fn refused(e: ImportError) -> ApiError {
    match e {
        ImportError::Db(e) => e.into(),
        ImportError::Invalid(problems) => {
            let mut errors = domain::account::FieldErrors::new();
            errors.insert(FIELD, problems);
            ApiError::Fields(errors)
        }
    }
}

/// Checks the file `text` uploaded by `by` and keeps it for its import; answers its id. A file
/// with a problem is not kept: its problems are answered on the `file` field.
pub fn upload(
    conn: &mut db::AnyConnection,
    by: &StaffRow,
    file_name: &str,
    text: &str,
) -> Result<String, ApiError> {
    if text.len() > MAX_FILE {
        return Err(ApiError::Invalid {
            field: FIELD,
            message: format!(
                "This file is larger than the {} MB a catalog file may be.",
                MAX_FILE >> 20
            ),
        });
    }
    import(conn, text, false).map_err(refused)?;
    let name: String = file_name
        .chars()
        .filter(|c| !c.is_control())
        .take(200)
        .collect();
    let draft = db::catalog_drafts::Draft {
        id: framework::session::new_token(),
        staff_id: by.id,
        file_name: if name.trim().is_empty() {
            "catalog.json".into()
        } else {
            name
        },
        body: text.to_string(),
        created_at: domain::calendar::unix_now(),
    };
    db::catalog_drafts::add(conn, &draft, DRAFT_KEPT_FOR, MOST_DRAFTS_EACH)?;
    Ok(draft.id)
}

/// The catalog file as `store catalog export` writes it, for a signed-in manager.
pub fn export(ctx: &mut Ctx) -> Result<String, ApiError> {
    signed_in_as(ctx, &[Role::Manager])?;
    Ok(to_json(&catalog_io::export(ctx.conn)?))
}

fn draft(
    conn: &mut db::AnyConnection,
    by: &StaffRow,
    id: &str,
) -> Result<db::catalog_drafts::Draft, ApiError> {
    let now = domain::calendar::unix_now();
    db::catalog_drafts::get(conn, id, by.id, now, DRAFT_KEPT_FOR)?.ok_or_else(|| {
        ApiError::NotFound(
            "This file is gone: it was applied, or uploaded more than a day ago. Upload it again."
                .into(),
        )
    })
}

framework::declare!(
    /// `GET /api/v1/staff/catalog/drafts/{draftId}`: an uploaded catalog file and every change it
    /// would make now (its uploader, a manager); nothing is written.
    pub struct StaffDraft = Get "/api/v1/staff/catalog/drafts/{draftId}" as "staffDraft", Session, errors [401, 404],
    (DraftPath, NoParams, NoBody) -> DraftView,
    "An uploaded catalog file's dry run: every change it would make (its uploader only).");

impl Endpoint for StaffDraft {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (p, ..): Args<Self>) -> Result<DraftView, ApiError> {
        let by = signed_in_as(ctx, &[Role::Manager])?.member;
        let d = draft(ctx.conn, &by, &p.draft_id)?;
        let (summary, changes, problems) = match import(ctx.conn, &d.body, false) {
            Ok(r) => (summary(&r), changes_of(&r), vec![]),
            Err(ImportError::Invalid(problems)) => (vec![], vec![], problems),
            Err(ImportError::Db(e)) => return Err(e.into()),
        };
        Ok(DraftView {
            id: d.id,
            file_name: d.file_name,
            uploaded_at: domain::calendar::manila_minute(d.created_at),
            summary,
            changes,
            problems,
        })
    }
}

/// Nothing to send: the file is the one uploaded.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ApplyForm {}

framework::declare!(
    /// `POST /api/v1/staff/catalog/drafts/{draftId}/apply`: imports an uploaded catalog file (its
    /// uploader, a manager), as `store catalog import` does; the file is then gone.
    pub struct StaffDraftApply = Post "/api/v1/staff/catalog/drafts/{draftId}/apply" as "staffDraftApply", Write, errors [401, 404, 422],
    (DraftPath, NoParams, Json<ApplyForm, false>) -> ImportDone,
    "Imports an uploaded catalog file in one transaction, recorded in the audit log with every change.");

impl Endpoint for StaffDraftApply {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (p, ..): Args<Self>) -> Result<ImportDone, ApiError> {
        let by = signed_in_as(ctx, &[Role::Manager])?.member;
        let d = draft(ctx.conn, &by, &p.draft_id)?;
        let subject = format!("catalog file {}", d.file_name);
        let report = import_then(ctx.conn, &d.body, true, |conn, report| {
            let side = |after: bool| {
                let all: serde_json::Map<String, serde_json::Value> = report
                    .changes
                    .iter()
                    .map(|c| (format!("{} {}", c.section, c.key), super::side(c, after)))
                    .collect();
                serde_json::Value::Object(all)
            };
            crate::staff::entry(
                conn,
                Some(&by),
                "catalog.import",
                &subject,
                Some(side(false)),
                Some(side(true)),
            )?;
            // Applied at once from two tabs: the second finds it gone and changes nothing.
            if !db::catalog_drafts::remove(conn, &d.id)? {
                return Err(ImportError::Invalid(vec![
                    "This file was applied already.".into()
                ]));
            }
            Ok(())
        })
        .map_err(refused)?;
        if !report.changes() {
            db::catalog_drafts::remove(ctx.conn, &d.id)?;
        }
        Ok(ImportDone {
            changes: changes_of(&report),
            data_version: report.data_version,
        })
    }
}
