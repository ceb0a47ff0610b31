//! Saving a case of the cart as a Go-to Case.

use super::*;

framework::register!(GotoCaseCreate);

/// What a member who keeps the most Go-to Cases is told: the form's note, and a save refused.
pub fn cases_full() -> String {
    format!(
        "You have {MAX_CASES} Go-to Cases, the most you can keep: add to one of them, or delete one first."
    )
}

/// What an add to a Go-to Case that passed the most of a product says after its success.
pub fn clipped_note() -> String {
    format!(
        "A Go-to Case holds at most {} of a product: the rest was left out.",
        cases::MAX_QUANTITY
    )
}

framework::export_const!(
    /// What a member who keeps the most Go-to Cases is told.
    GOTO_CASES_FULL = cases_full()
);
framework::export_const!(
    /// What an add to a Go-to Case that passed the most of a product says after its success.
    GOTO_CASE_CLIPPED = clipped_note()
);

/// [`CreateBody::cart_items`]: 1 to [`MAX_ITEMS`] products.
fn cart_items() -> utoipa::openapi::schema::ArrayBuilder {
    super::product_ids(MAX_ITEMS).description(Some(
        "The products of the cart case (its items, with the cart's quantities): a list, or a\nform's `1,5,12`.",
    ))
}

/// [`CreateBody::name`]: at most [`MAX_NAME`] characters, or none.
fn new_name() -> utoipa::openapi::schema::ObjectBuilder {
    use utoipa::openapi::schema::{SchemaType, Type};
    framework::rules::up_to(MAX_NAME)
        .schema_type(SchemaType::from_iter([Type::String, Type::Null]))
        .description(Some(
            "The new Go-to Case's name (ignored when `case_id` is given).",
        ))
}

/// The creation payload: a cart case saved as a new Go-to Case (`name`) or added to one the
/// member has (`case_id`).
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct CreateBody {
    /// The new Go-to Case's name ([`new_name`]).
    #[serde(default)]
    #[schema(schema_with = new_name)]
    pub name: Option<String>,
    /// An existing Go-to Case to add the cart case to.
    #[serde(default)]
    pub case_id: Option<i64>,
    /// The products of the cart case (its items, with the cart's quantities): a list, or a
    /// form's `1,5,12`.
    #[serde(default, deserialize_with = "crate::cart::change::one_or_many")]
    #[schema(schema_with = cart_items, required = true)]
    pub cart_items: Vec<ProductId>,
    /// The barangay to price the answer for.
    #[serde(default)]
    pub barangay: Option<BarangayId>,
    /// The client's key for this save: sent again (a retry after a lost answer), nothing is
    /// saved twice and the answer is the Go-to Case as it is.
    #[serde(default)]
    #[schema(schema_with = framework::rules::request_key)]
    pub request_key: Option<String>,
}

framework::declare!(
    /// `POST /api/v1/user/goto-case`.
    pub struct GotoCaseCreate = Post "/api/v1/user/goto-case" as "createGotoCase", Write, errors [401, 404, 422],
    (NoParams, NoParams, Json<CreateBody, true>) -> GotoCaseSaved,
    "Saves a case of the member's cart as a new Go-to Case (name), or adds it to one they have (case_id).");

impl Endpoint for GotoCaseCreate {
    fn call(ctx: &mut Ctx, (_, _, Json(b), _): Args<Self>) -> Result<GotoCaseSaved, ApiError> {
        let member = ctx.member()?;
        let name = checked_name(&b)?;
        framework::rules::checked_request_key(b.request_key.as_deref())?;
        let create = Create {
            body: &b,
            member: member.id,
            name,
        };
        save(ctx, member.id, b.barangay, &create)
    }
}

/// The cart items named (1 to [`MAX_ITEMS`]), then the name: a new case's, checked; none when
/// adding to a case.
fn checked_name(b: &CreateBody) -> Result<Option<String>, ApiError> {
    if b.cart_items.is_empty() || b.cart_items.len() > MAX_ITEMS {
        return Err(ApiError::Invalid {
            field: "cart_items",
            message: format!("Choose a case of your cart (1 to {MAX_ITEMS} products)."),
        });
    }
    match (b.case_id, b.name.as_deref()) {
        // Adding to a case: a name typed as well is not used, but it is never one the store
        // would refuse (the document bounds it either way).
        (Some(_), Some(n)) if !n.is_empty() => {
            check_name(n, "your new Go-to Case")?;
            Ok(None)
        }
        (Some(_), _) => Ok(None),
        (None, Some(n)) => Ok(Some(check_name(n, "your new Go-to Case")?.to_string())),
        (None, None) => Err(ApiError::Invalid {
            field: "name",
            message: "Choose one of your Go-to Cases, or enter a name for a new one.".into(),
        }),
    }
}

/// A cart case saved as a new Go-to Case (`name`), or added to one the member has (the body's
/// `case_id`).
struct Create<'a> {
    body: &'a CreateBody,
    member: UserId,
    /// The new case's name; none when adding to a case.
    name: Option<String>,
}

/// The cart case: the cart's items named, once each, all of one case type.
struct CartCase {
    /// The cart they are in.
    cart: i64,
    items: Vec<Item>,
    packaging: i32,
    /// Its case type's name.
    case_type: String,
}

impl Create<'_> {
    /// With the client's key, records it (on the member's cart, which the case is saved from):
    /// the Go-to Case the same key saved before, if this is a repeat and the case is still there.
    fn saved_before(
        &self,
        conn: &mut db::AnyConnection,
        member: UserId,
        cart_case: &CartCase,
        now: i64,
    ) -> Result<Option<i64>, ApiError> {
        let key = self.body.request_key.as_deref();
        let change = format!(
            "{:?} {:?} {}",
            self.body.case_id,
            self.name,
            crate::cart::named_once(&self.body.cart_items)
        );
        if crate::cart::first_time(
            conn,
            cart_case.cart,
            crate::cart::KeyedChange {
                what: "goto save",
                change: &change,
                key,
            },
            now,
        )? {
            return Ok(None);
        }
        Ok(match (self.body.case_id, &self.name) {
            (Some(id), _) => db::goto_cases::find(conn, member, id)?.map(|r| r.id),
            (None, Some(name)) => db::goto_cases::find_by_name(conn, member, name)?.map(|r| r.id),
            (None, None) => None,
        })
    }
}

impl CaseChange for Create<'_> {
    type Read = CartCase;
    /// Whether a quantity was clipped to the most a case holds.
    type Done = bool;

    fn read(&self, ctx: &mut Ctx, pricing: &Pricing) -> Result<CartCase, ApiError> {
        let cart = db::carts::find(ctx.conn, db::carts::Owner::Member(self.member))?;
        let (cart, in_cart) = match &cart {
            Some(c) => (c.id, db::carts::items(ctx.conn, c.id)?),
            None => (0, Vec::new()),
        };
        let mut items: Vec<Item> = Vec::new();
        for id in &self.body.cart_items {
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
            if !items.iter().any(|c| c.product.id == *id) {
                items.push(item.clone());
            }
        }
        let packaging = items[0].product.packaging_id.get();
        if items
            .iter()
            .any(|i| i.product.packaging_id.get() != packaging)
        {
            return Err(ApiError::refused(
                422,
                "cart_items",
                "A Go-to Case holds one case type: choose the items of one case of your cart.",
            ));
        }
        let (case_type, _, _) = case_type(pricing, packaging);
        Ok(CartCase {
            cart,
            items,
            packaging,
            case_type,
        })
    }

    fn write(
        &self,
        conn: &mut db::AnyConnection,
        member: UserId,
        cart_case: &CartCase,
        pricing: &Pricing,
        now: i64,
    ) -> Result<(i64, bool), ApiError> {
        if let Some(id) = self.saved_before(conn, member, cart_case, now)? {
            return Ok((id, false));
        }
        match (self.body.case_id, &self.name) {
            (Some(id), _) => cart_case.add_to(conn, member, id, pricing, now),
            (None, Some(name)) => Ok((cart_case.save_as(conn, member, name, now)?, false)),
            (None, None) => unreachable!("checked above"),
        }
    }

    fn name_taken(&self) -> Option<&str> {
        Some(self.name.as_deref().unwrap_or(""))
    }

    fn answer(&self, cart_case: CartCase, clipped: bool, view: GotoCaseView) -> GotoCaseSaved {
        let cart_case = cart_case.case_type;
        let adding = self.body.case_id.is_some();
        let mut message = if adding {
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
            message.push_str(". ");
            message.push_str(&clipped_note());
        }
        GotoCaseSaved {
            message,
            link: link(if adding { "added" } else { "created" }, view.id),
            goto_case: view,
            created: !adding,
        }
    }
}

impl CartCase {
    /// Adds the items to the member's case `id` (of the same case type, with room for the new
    /// products): quantities add, up to the most a case holds. Answers whether one was clipped.
    fn add_to(
        &self,
        conn: &mut db::AnyConnection,
        member: UserId,
        id: i64,
        pricing: &Pricing,
        now: i64,
    ) -> Result<(i64, bool), ApiError> {
        let row = db::goto_cases::find(conn, member, id)?.ok_or_else(|| not_found(id))?;
        if row.packaging_id != self.packaging {
            let (theirs, _, _) = case_type(pricing, row.packaging_id);
            let cart_case = &self.case_type;
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
        let new = self
            .items
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
        for item in &self.items {
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
        Ok((id, clipped))
    }

    /// Saves the items as the member's new case `name` (a name they do not use yet, within
    /// [`MAX_CASES`]): its id.
    fn save_as(
        &self,
        conn: &mut db::AnyConnection,
        member: UserId,
        name: &str,
        now: i64,
    ) -> Result<i64, ApiError> {
        if db::goto_cases::find_by_name(conn, member, name)?.is_some() {
            return Err(taken(name));
        }
        if db::goto_cases::count(conn, member)? >= MAX_CASES {
            return Err(ApiError::refused(422, "name", cases_full()));
        }
        let id = db::goto_cases::create(conn, member, name, self.packaging, now)?;
        for item in &self.items {
            db::goto_cases::set_quantity(conn, id, item.product.id, item.quantity, now)?;
        }
        Ok(id)
    }
}
