//! Adding to the cart: `POST /api/v1/cart`.

use super::*;

framework::register!(AddToCart);

/// What Add to Cart says when the units went in.
pub const ADDED: &str = "You successfully added this product to the cart.";

framework::export_const!(
    /// What Add to Cart says when the units went in.
    ADDED_TO_CART = ADDED
);

/// The add-to-cart payload.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct AddToCartBody {
    #[schema(required = true, nullable = false)]
    pub product_id: Option<ProductId>,
    /// Units to add, or cases ([`units_to_add`] says it in the document).
    #[schema(required = true, schema_with = units_to_add)]
    pub quantity: Option<i64>,
    /// What `quantity` counts: units (the default) or cases.
    #[serde(default)]
    pub pack: Option<domain::selling::Pack>,
    #[schema(required = true, nullable = false)]
    pub barangay: Option<BarangayId>,
    #[serde(default)]
    pub street_id: Option<StreetId>,
    #[serde(default)]
    pub fulfillment: Option<FulfillmentId>,
    /// The client's key for this add: sent again (a retry after a lost answer), the units are
    /// not added twice and the answer is the cart as it is.
    #[serde(default)]
    #[schema(schema_with = framework::rules::request_key)]
    pub request_key: Option<String>,
}

/// [`AddToCartBody::quantity`]: 1 to the most a cart holds of a product.
fn units_to_add() -> utoipa::openapi::schema::ObjectBuilder {
    framework::rules::int64(1, cases::MAX_QUANTITY.into()).description(Some(format!(
        "Units to add (1-{}; a recommended card sends a box of cans, 24), or with `pack` = case,\n\
         cases of the product's `unit_per_case` (the product page's type selector).",
        cases::MAX_QUANTITY
    )))
}

/// What an add puts in a cart: `quantity` units of `product`, for `place` (its `street` when
/// given), with the client's `key` for the add when it sent one.
pub struct Addition<'a> {
    pub product: &'a db::models::Product,
    pub quantity: i32,
    pub place: &'a Place,
    pub street: Option<StreetId>,
    pub key: Option<&'a str>,
}

/// Adds `quantity` units of `product` to the cart of `owner` for `place` (the product's and the
/// place's checks done by the caller): the cart after, and what it holds.
///
/// Three statements hold the write lock when the cart exists and its products are kept: the cart
/// found, taken and placed, the units added (unless they would pass the most), what it holds read
/// (its products as kept, `held_in`; with the join when one is not). A cart made by the add costs
/// two more (made, then taken). The limits are checked on what was read, and a refused add rolls
/// back. An add with the client's `key` records it first: one sent before changes nothing and
/// answers the cart as it is. Within a write call's answer on PostgreSQL the add is part of the
/// answer's transaction ([`db::write_in_answer`]): its error must end the call.
pub fn add(
    ctx: &mut Ctx,
    pricing: &Pricing,
    owner: &CartOwner,
    addition: Addition<'_>,
) -> Result<(CartRow, Held), ApiError> {
    let Addition {
        product,
        quantity,
        place,
        street,
        key,
    } = addition;
    let now = domain::calendar::unix_now();
    let (barangay, owner) = (place.barangay.id, owner.as_owner());
    // An add the client keyed is recorded first (`first_time`), which needs the cart's id: the
    // cart is found (or made) first.
    let keyed_cart = match key {
        Some(_) => Some(db::carts::find_or_create(ctx.conn, owner, now)?),
        None => None,
    };
    let kept = ctx.kept_outside();
    // Within the answer's transaction on PostgreSQL (a refused add's error ends the call, which
    // rolls back whole): no savepoint of its own.
    db::write_in_answer(ctx.conn, |conn| {
        let cart = match keyed_cart {
            Some(cart) => {
                // Where the cart is placed is part of an add (it moves the cart there).
                let change = format!("{} {quantity} {barangay} {street:?}", product.id);
                let keyed = KeyedChange {
                    what: "add",
                    change: &change,
                    key,
                };
                if !first_time(conn, cart.id, keyed, now)? {
                    let cart = db::carts::find(conn, owner)?.unwrap_or(cart);
                    let held = Held {
                        items: db::carts::items(conn, cart.id)?,
                        empties: db::carts::empties(conn, cart.id)?,
                    };
                    return Ok((cart, held));
                }
                db::carts::lock_placed(conn, cart.id, now, barangay, street)?
            }
            // Without a key: the cart found, taken and placed in one statement (a write first).
            None => db::carts::lock_owner_placed(conn, owner, now, barangay, street)?,
        };
        let most = cases::MAX_QUANTITY as i32;
        let added = db::carts::add_quantity(conn, cart.id, product.id, quantity, most, now)?;
        let held = held_in(conn, &kept, pricing.version, cart.id)?;
        check_limits(pricing, product, quantity, added, &held.items)?;
        Ok((cart, held))
    })
}

/// Refuses an add of `quantity` units of `product` past a cart's limits, judged on the cart's
/// `items` read after it (`added`: whether the units went in, which they do not past the most):
/// the other family than the cart's, no room for another product, or more units of the product
/// than a cart may hold.
fn check_limits(
    pricing: &Pricing,
    product: &db::models::Product,
    quantity: i32,
    added: bool,
    items: &[db::carts::Item],
) -> Result<(), ApiError> {
    let family = pricing.family(product.packaging_id);
    let most = cases::MAX_QUANTITY as i32;
    let others = items.iter().filter(|i| i.product.id != product.id);
    if resets(
        others.map(|i| pricing.family(i.product.packaging_id)),
        family,
    ) {
        return Err(ApiError::Refused {
            status: 422,
            field: "product_id",
            message: "Orders for Bottles/ Cans and Draft Beer should be in a separate transaction. Check out or empty your cart first.".into(),
            products: vec![named(product, "Another family than your cart's.")],
        });
    }
    let held = items
        .iter()
        .find(|i| i.product.id == product.id)
        .map_or(0, |i| i.quantity);
    // Past the most, nothing was added and the cart holds what it held.
    let (have, total) = if added {
        (held - quantity, held)
    } else {
        (held, held + quantity)
    };
    if have == 0 && items.len() > cases::MAX_PRODUCTS {
        return Err(ApiError::Refused {
            status: 422,
            field: "product_id",
            message: format!(
                "Your cart holds {} different products, the most it can. Remove one first.",
                cases::MAX_PRODUCTS
            ),
            products: vec![named(product, "Your cart has no room for another product.")],
        });
    }
    if total > most {
        return Err(ApiError::Refused {
            status: 422,
            field: "quantity",
            message: format!(
                "You can have at most {} of {} in your cart (you have {have}).",
                cases::MAX_QUANTITY,
                product.product_name
            ),
            products: vec![named(
                product,
                &format!("At most {} in a cart.", cases::MAX_QUANTITY),
            )],
        });
    }
    Ok(())
}

framework::declare!(
    /// `POST /api/v1/cart`.
    pub struct AddToCart = Post "/api/v1/cart" as "addToCart", Write, errors [401, 404, 422],
    (NoParams, NoParams, Json<AddToCartBody, true>) -> CartAnswer,
    "Adds units of a product to the session's cart; answers the cart.");

impl Endpoint for AddToCart {
    fn call(ctx: &mut Ctx, (_, _, Json(b), _): Args<Self>) -> Result<CartAnswer, ApiError> {
        let quantity = check_quantity(b.quantity)?;
        let key = framework::rules::checked_request_key(b.request_key.as_deref())?;
        let product_id = required(b.product_id, "product_id", "Choose a product.")?;
        let barangay = required(
            b.barangay,
            "barangay",
            "Choose your delivery location first.",
        )?;
        let owner = live_owner(ctx, true)?;
        // The catalog's version first: the product, the place and the prices are then read as of
        // it, kept across requests under it (two round trips fewer an add once kept).
        let version = crate::catalog::data_version(ctx)?;
        let product = product_at(ctx, version, product_id)?;
        let quantity = match b.pack {
            Some(domain::selling::Pack::Case) => {
                let units = i64::from(quantity) * i64::from(product.unit_per_case);
                if units > i64::from(cases::MAX_QUANTITY) {
                    return Err(ApiError::refused(
                        422,
                        "quantity",
                        format!(
                            "{quantity} cases of {} come to {units}: a cart holds at most {} of a product.",
                            product.unit_per_case,
                            cases::MAX_QUANTITY
                        ),
                    ));
                }
                units as i32
            }
            _ => quantity,
        };
        let place = place_at(ctx, version, barangay)?;
        let street = street_of(ctx, &place, b.street_id)?;
        check_available(ctx, &product, &place)?;
        let pricing = Pricing::at(ctx, version)?;
        let fulfillment = fulfillment_of(ctx, &place, b.fulfillment)?;
        let mut a = ctx.with_answer(|ctx| {
            let addition = Addition {
                product: &product,
                quantity,
                place: &place,
                street,
                key,
            };
            let (cart, held) = add(ctx, &pricing, &owner, addition)?;
            answer_with(ctx, &pricing, &cart, held, &place, fulfillment)
        })?;
        a.message = ADDED.into();
        changed(ctx, a.revision);
        Ok(a)
    }
}
