//! Saving a case of the cart as a Go-to Case.

use super::*;

framework::register!(GotoCaseCreate);

/// SPEC 3's creation payload: a cart case saved as a new Go-to Case (`name`) or added to one the
/// member has (`case_id`).
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct CreateBody {
    /// The new Go-to Case's name (ignored when `case_id` is given).
    #[serde(default)]
    #[schema(max_length = 60)]
    pub name: Option<String>,
    /// An existing Go-to Case to add the cart case to.
    #[serde(default)]
    pub case_id: Option<i64>,
    /// The products of the cart case (its items, with the cart's quantities): a list, or a
    /// form's `1,5,12`.
    #[serde(default, deserialize_with = "crate::cart::change::one_or_many")]
    #[schema(min_items = 1, max_items = 50)]
    pub cart_items: Vec<ProductId>,
    /// The barangay to price the answer for.
    #[serde(default)]
    pub barangay: Option<BarangayId>,
}

framework::declare!(
    /// `POST /api/v1/user/goto-case`.
    pub struct GotoCaseCreate = Post "/api/v1/user/goto-case" as "createGotoCase", Write, errors [401, 404, 422],
    (NoParams, NoParams, Json<CreateBody, true>) -> GotoCaseSaved,
    "Saves a case of the member's cart as a new Go-to Case (name), or adds it to one they have (case_id).");

impl Endpoint for GotoCaseCreate {
    fn call(ctx: &mut Ctx, (_, _, Json(b), _): Args<Self>) -> Result<GotoCaseSaved, ApiError> {
        let member = ctx.member()?;
        if b.cart_items.is_empty() || b.cart_items.len() > MAX_ITEMS {
            return Err(ApiError::Invalid {
                field: "cart_items",
                message: format!("Choose a case of your cart (1 to {MAX_ITEMS} products)."),
            });
        }
        let name = match (b.case_id, b.name.as_deref()) {
            // Adding to a case: a name typed as well is not used, but it is never one the
            // store would refuse (the document bounds it either way).
            (Some(_), Some(n)) if !n.is_empty() => {
                check_name(n, "your new Go-to Case")?;
                None
            }
            (Some(_), _) => None,
            (None, Some(n)) => Some(check_name(n, "your new Go-to Case")?.to_string()),
            (None, None) => {
                return Err(ApiError::Invalid {
                    field: "name",
                    message: "Choose one of your Go-to Cases, or enter a name for a new one."
                        .into(),
                })
            }
        };
        let place = place_for(ctx, b.barangay)?;
        let pricing = Pricing::load(ctx)?;
        // The cart case: the cart's items named, all of one case type.
        let cart = db::carts::find(ctx.conn, db::carts::Owner::Member(member.id))?;
        let in_cart = match &cart {
            Some(c) => db::carts::items(ctx.conn, c.id)?,
            None => Vec::new(),
        };
        let mut chosen: Vec<&Item> = Vec::new();
        for id in &b.cart_items {
            let item = in_cart
                .iter()
                .find(|i| i.product.id == *id)
                .ok_or_else(|| {
                    ApiError::refused(
                        422,
                        "cart_items",
                        format!("Product {id} is not in your cart."),
                    )
                })?;
            if !chosen.iter().any(|c| c.product.id == *id) {
                chosen.push(item);
            }
        }
        let packaging = chosen[0].product.packaging_id.get();
        if chosen
            .iter()
            .any(|i| i.product.packaging_id.get() != packaging)
        {
            return Err(ApiError::refused(
                422,
                "cart_items",
                "A Go-to Case holds one case type: choose the items of one case of your cart.",
            ));
        }
        let (cart_case, _, _) = case_type(&pricing, packaging);
        let now = domain::calendar::unix_now();
        let saved = db::write_transaction(ctx.conn, |conn| {
            db::goto_cases::hold_member(conn, member.id)?;
            let (id, clipped) = match (b.case_id, &name) {
                (Some(id), _) => {
                    let row =
                        db::goto_cases::find(conn, member.id, id)?.ok_or_else(|| not_found(id))?;
                    if row.packaging_id != packaging {
                        let (theirs, _, _) = case_type(&pricing, row.packaging_id);
                        return Err(ApiError::refused(
                            422,
                            "case_id",
                            format!(
                                "Your Go-to Case \"{}\" holds {theirs}: add this case of {cart_case} to a Go-to Case of {cart_case}, or create a new one.",
                                row.name
                            ),
                        ));
                    }
                    let have = db::goto_cases::items(conn, &[id])?;
                    let new = chosen
                        .iter()
                        .filter(|c| !have.iter().any(|(_, h)| h.product.id == c.product.id))
                        .count();
                    if have.len() + new > MAX_ITEMS {
                        return Err(ApiError::refused(
                            422,
                            "case_id",
                            format!(
                                "A Go-to Case holds at most {MAX_ITEMS} products; \"{}\" has {}.",
                                row.name,
                                have.len()
                            ),
                        ));
                    }
                    let mut clipped = false;
                    for item in &chosen {
                        let before = have
                            .iter()
                            .find(|(_, h)| h.product.id == item.product.id)
                            .map_or(0, |(_, h)| h.quantity);
                        let total = before + item.quantity;
                        clipped |= total > cases::MAX_QUANTITY as i32;
                        db::goto_cases::set_quantity(
                            conn,
                            id,
                            item.product.id,
                            total.min(cases::MAX_QUANTITY as i32),
                            now,
                        )?;
                    }
                    db::goto_cases::touch(conn, id, now)?;
                    (id, clipped)
                }
                (None, Some(name)) => {
                    if db::goto_cases::find_by_name(conn, member.id, name)?.is_some() {
                        return Err(taken(name));
                    }
                    if db::goto_cases::count(conn, member.id)? >= MAX_CASES {
                        return Err(ApiError::refused(
                            422,
                            "name",
                            format!(
                                "You have {MAX_CASES} Go-to Cases, the most you can keep. Delete one first, or add to one you have."
                            ),
                        ));
                    }
                    let id = db::goto_cases::create(conn, member.id, name, packaging, now)?;
                    for item in &chosen {
                        db::goto_cases::set_quantity(
                            conn,
                            id,
                            item.product.id,
                            item.quantity,
                            now,
                        )?;
                    }
                    (id, false)
                }
                (None, None) => unreachable!("checked above"),
            };
            Ok::<_, ApiError>((id, clipped))
        });
        let (id, clipped) = match saved {
            Err(e) if is_unique_violation(&e) => return Err(taken(name.as_deref().unwrap_or(""))),
            other => other?,
        };
        let view = view_one(ctx, &pricing, member.id, id, place.as_ref())?;
        let mut message = if b.case_id.is_some() {
            format!(
                "You successfully added from your case \"{cart_case}\" to your existing Go-to Case \"{}\"",
                view.case_name
            )
        } else {
            format!(
                "You successfully created Go-to Case \"{}\" from your case \"{cart_case}\"",
                view.case_name
            )
        };
        if clipped {
            message.push_str(&format!(
                ". A Go-to Case holds at most {} of a product: the rest was left out.",
                cases::MAX_QUANTITY
            ));
        }
        Ok(GotoCaseSaved {
            message,
            link: link(
                if b.case_id.is_some() {
                    "added"
                } else {
                    "created"
                },
                id,
            ),
            goto_case: view,
            created: b.case_id.is_none(),
        })
    }
}
