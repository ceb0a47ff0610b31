//! Changing a Go-to Case: its name, its quantities, other cases of its type.

use super::*;

framework::register!(GotoCaseUpdate);

/// [`ItemQuantity::quantity`]: 1 to the most a Go-to Case holds of a product.
fn units() -> utoipa::openapi::schema::ObjectBuilder {
    one_quantity().description(Some(format!("Units, 1-{}.", cases::MAX_QUANTITY)))
}

/// [`UpdateBody::quantity`]: as [`units`], never `null`.
fn one_quantity() -> utoipa::openapi::schema::ObjectBuilder {
    framework::rules::int64(1, cases::MAX_QUANTITY.into())
}

/// [`UpdateBody::name`]: 1 to [`MAX_NAME`] characters, never `null`.
fn new_name() -> utoipa::openapi::schema::ObjectBuilder {
    framework::rules::up_to(MAX_NAME)
        .min_length(Some(1))
        .description(Some("Left out to keep the name; never `null`."))
}

/// An item's new quantity.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct ItemQuantity {
    pub product_id: ProductId,
    /// Units ([`units`]).
    #[schema(schema_with = units)]
    pub quantity: i64,
}

/// A change of a Go-to Case: its name, and its items' quantities (`items`, or one item as
/// `product_id` and `quantity`, as a form without JavaScript sends it).
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct UpdateBody {
    #[schema(required = true, nullable = false)]
    pub case_id: Option<i64>,
    /// Left out to keep the name ([`new_name`]).
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(schema_with = new_name)]
    pub name: Option<String>,
    #[serde(default)]
    #[schema(max_items = 50)]
    pub items: Vec<ItemQuantity>,
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(nullable = false)]
    pub product_id: Option<ProductId>,
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(schema_with = one_quantity)]
    pub quantity: Option<i64>,
    /// The barangay to price the answer for.
    #[serde(default)]
    pub barangay: Option<BarangayId>,
}

framework::declare!(
    /// `PUT /api/v1/user/goto-case`.
    pub struct GotoCaseUpdate = Put "/api/v1/user/goto-case" as "updateGotoCase", Write, errors [401, 404, 422],
    (NoParams, NoParams, Json<UpdateBody, true>) -> GotoCaseSaved,
    "Renames a Go-to Case and sets its items' quantities.");

impl Endpoint for GotoCaseUpdate {
    /// A change names something to change, and a product and its quantity come together.
    const BODY_RULES: Option<&'static str> = Some(
        r#"{"anyOf": [{"required": ["name"]}, {"required": ["items"], "properties": {"items": {"minItems": 1}}}, {"required": ["product_id"]}],
        "dependentRequired": {"product_id": ["quantity"], "quantity": ["product_id"]}}"#,
    );

    const LINKS: &'static [framework::endpoint::Link] = &[framework::endpoint::Link {
        from: "createGotoCase",
        name: "UpdateGotoCase",
        params: &[],
        body: Some(r#"{"case_id": "$response.body#/goto_case/id", "name": "Weekend"}"#),
    }];

    fn call(ctx: &mut Ctx, (_, _, Json(b), _): Args<Self>) -> Result<GotoCaseSaved, ApiError> {
        let member = ctx.member()?;
        let update = Update::of(&b)?;
        save(ctx, member.id, b.barangay, &update)
    }
}

/// A checked change of a Go-to Case: a new name, new quantities, or both.
struct Update<'a> {
    id: i64,
    name: Option<&'a str>,
    quantities: Vec<(ProductId, i32)>,
}

impl<'a> Update<'a> {
    /// The case named, the quantities, then the name, checked (in that order); one of them
    /// must change.
    fn of(b: &'a UpdateBody) -> Result<Self, ApiError> {
        let id = b.case_id.ok_or_else(|| ApiError::Invalid {
            field: "case_id",
            message: "Choose a Go-to Case.".into(),
        })?;
        let quantities = quantities(b)?;
        let name = b
            .name
            .as_deref()
            .map(|n| check_name(n, "your Go-to Case"))
            .transpose()?;
        if name.is_none() && quantities.is_empty() {
            return Err(ApiError::Invalid {
                field: "name",
                message: "Enter a new name or new quantities.".into(),
            });
        }
        Ok(Self {
            id,
            name,
            quantities,
        })
    }
}

/// The body's quantities (`items`, then a form's `product_id` and `quantity`), at most
/// [`MAX_ITEMS`], each checked.
fn quantities(b: &UpdateBody) -> Result<Vec<(ProductId, i32)>, ApiError> {
    let mut items = b.items.clone();
    match (b.product_id, b.quantity) {
        (Some(product_id), Some(quantity)) => items.push(ItemQuantity {
            product_id,
            quantity,
        }),
        (Some(_), None) => {
            return Err(ApiError::Invalid {
                field: "quantity",
                message: "Enter the quantity.".into(),
            })
        }
        (None, Some(_)) => {
            return Err(ApiError::Invalid {
                field: "product_id",
                message: "Choose the product whose quantity changes.".into(),
            })
        }
        (None, None) => {}
    }
    if items.len() > MAX_ITEMS {
        return Err(ApiError::Invalid {
            field: "items",
            message: format!("A Go-to Case holds at most {MAX_ITEMS} products."),
        });
    }
    let mut checked = Vec::new();
    for i in &items {
        let q = cases::check_quantity(i.quantity)
            .map_err(|message| ApiError::refused(422, "quantity", message))?;
        checked.push((i.product_id, q as i32));
    }
    Ok(checked)
}

impl CaseChange for Update<'_> {
    type Read = ();
    type Done = ();

    fn read(&self, _: &mut Ctx, _: &Pricing) -> Result<(), ApiError> {
        Ok(())
    }

    /// Renames the case (to a name the member uses for no other case) and sets the quantities
    /// of products it holds.
    fn write(
        &self,
        conn: &mut db::AnyConnection,
        member: UserId,
        _: &(),
        _: &Pricing,
        now: i64,
    ) -> Result<(i64, ()), ApiError> {
        let id = self.id;
        let row = db::goto_cases::find(conn, member, id)?.ok_or_else(|| not_found(id))?;
        if let Some(name) = self.name {
            if let Some(other) = db::goto_cases::find_by_name(conn, member, name)? {
                if other.id != id {
                    return Err(taken(name));
                }
            }
            db::goto_cases::rename(conn, id, name, now)?;
        }
        let have = db::goto_cases::items(conn, &[id])?;
        for (product, quantity) in &self.quantities {
            if !have.iter().any(|(_, h)| h.product.id == *product) {
                return Err(ApiError::refused(
                    404,
                    "product_id",
                    format!(
                        "Product {product} is not in your Go-to Case \"{}\".",
                        row.name
                    ),
                ));
            }
            db::goto_cases::set_quantity(conn, id, *product, *quantity, now)?;
        }
        db::goto_cases::touch(conn, id, now)?;
        Ok((id, ()))
    }

    fn name_taken(&self) -> Option<&str> {
        Some(self.name.unwrap_or(""))
    }

    fn answer(&self, _: (), _: (), view: GotoCaseView) -> GotoCaseSaved {
        GotoCaseSaved {
            message: format!("Your Go-to Case \"{}\" is saved.", view.case_name),
            link: link("saved", self.id),
            goto_case: view,
            created: false,
        }
    }
}
