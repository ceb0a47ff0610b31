//! Deleting a Go-to Case, or items of one.

use super::read::CasePath;
use super::*;

framework::register!(GotoCaseDelete, GotoCaseRemoveItems);

framework::declare!(
    /// `DELETE /api/v1/user/goto-case/{id}`.
    pub struct GotoCaseDelete = Delete "/api/v1/user/goto-case/{id}" as "deleteGotoCase", Write, errors [401, 404],
    (CasePath, NoParams, NoBody) -> GotoCaseDeleted,
    "Deletes one of the member's Go-to Cases.");

impl Endpoint for GotoCaseDelete {
    const LINKS: &'static [framework::endpoint::Link] = &[framework::endpoint::Link {
        from: "createGotoCase",
        name: "DeleteGotoCase",
        params: &[("id", "$response.body#/goto_case/id")],
        body: None,
    }];

    fn call(ctx: &mut Ctx, (p, _, _, _): Args<Self>) -> Result<GotoCaseDeleted, ApiError> {
        let member = ctx.member()?;
        let row = own_case(ctx, member.id, p.id)?;
        let gone = db::write_transaction(ctx.conn, |conn| {
            db::goto_cases::hold_member(conn, member.id)?;
            db::goto_cases::delete(conn, member.id, p.id)
        })?;
        if !gone {
            return Err(not_found(p.id));
        }
        Ok(GotoCaseDeleted {
            message: format!("Your Go-to Case \"{}\" is deleted.", row.name),
            case_name: row.name,
        })
    }
}

/// [`RemoveItemsBody::items`]: 1 to [`MAX_ITEMS`] products.
fn items() -> utoipa::openapi::schema::ArrayBuilder {
    super::product_ids(MAX_ITEMS).description(Some(format!(
        "1 to {MAX_ITEMS} product ids: a list, or a form's `1,5,12`."
    )))
}

/// Items to take out of a Go-to Case.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct RemoveItemsBody {
    #[schema(required = true, nullable = false)]
    pub case_id: Option<i64>,
    /// 1 to [`MAX_ITEMS`] product ids: a list, or a form's `1,5,12`.
    #[serde(default, deserialize_with = "crate::cart::change::one_or_many")]
    #[schema(schema_with = items, required = true)]
    pub items: Vec<ProductId>,
    /// The barangay to price the answer for.
    #[serde(default)]
    pub barangay: Option<BarangayId>,
}

framework::declare!(
    /// `DELETE /api/v1/user/goto-case/items`.
    pub struct GotoCaseRemoveItems = Delete "/api/v1/user/goto-case/items" as "removeGotoCaseItems", Write, errors [401, 404, 422],
    (NoParams, NoParams, Json<RemoveItemsBody, true>) -> GotoCaseSaved,
    "Takes items out of a Go-to Case (the case stays, empty or not).");

impl Endpoint for GotoCaseRemoveItems {
    const LINKS: &'static [framework::endpoint::Link] = &[framework::endpoint::Link {
        from: "createGotoCase",
        name: "RemoveGotoCaseItems",
        params: &[],
        body: Some(
            r#"{"case_id": "$response.body#/goto_case/id", "items": "$request.body#/cart_items"}"#,
        ),
    }];

    fn call(ctx: &mut Ctx, (_, _, Json(b), _): Args<Self>) -> Result<GotoCaseSaved, ApiError> {
        let member = ctx.member()?;
        let id = b.case_id.ok_or_else(|| ApiError::Invalid {
            field: "case_id",
            message: "Choose a Go-to Case.".into(),
        })?;
        if b.items.is_empty() || b.items.len() > MAX_ITEMS {
            return Err(ApiError::Invalid {
                field: "items",
                message: format!("Name 1 to {MAX_ITEMS} products to remove."),
            });
        }
        let remove = RemoveItems {
            id,
            items: &b.items,
        };
        save(ctx, member.id, b.barangay, &remove)
    }
}

/// Products taken out of the member's case `id`.
struct RemoveItems<'a> {
    id: i64,
    items: &'a [ProductId],
}

impl CaseChange for RemoveItems<'_> {
    type Read = ();
    /// How many items were taken out.
    type Done = usize;

    fn read(&self, _: &mut Ctx, _: &Pricing) -> Result<(), ApiError> {
        Ok(())
    }

    fn write(
        &self,
        conn: &mut db::AnyConnection,
        member: UserId,
        _: &(),
        _: &Pricing,
        now: i64,
    ) -> Result<(i64, usize), ApiError> {
        let id = self.id;
        db::goto_cases::find(conn, member, id)?.ok_or_else(|| not_found(id))?;
        let n = db::goto_cases::remove(conn, id, self.items)?;
        if n == 0 {
            return Err(ApiError::refused(
                404,
                "items",
                "None of these products is in this Go-to Case.",
            ));
        }
        db::goto_cases::touch(conn, id, now)?;
        Ok((id, n))
    }

    fn name_taken(&self) -> Option<&str> {
        None
    }

    fn answer(&self, _: (), removed: usize, view: GotoCaseView) -> GotoCaseSaved {
        GotoCaseSaved {
            message: format!(
                "Removed {removed} item(s) from your Go-to Case \"{}\".",
                view.case_name
            ),
            link: link("removed", self.id),
            goto_case: view,
            created: false,
        }
    }
}
