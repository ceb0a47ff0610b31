//! The visitor's cart as every page shows it (count, drawer): what a page's state holds of it and
//! what the drawer's body is rendered from (`web::visitor` renders, keeps and fills them in); and
//! the category gate's reset.

use super::change::{RemoveFromCart, RemoveFromCartBody};
use super::*;

/// What a page shows of the visitor's cart (the header's count and the drawer).
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct Visitor {
    pub cart_count: u32,
    /// The cart priced for the gate's place; none when empty or no place is chosen yet.
    pub cart: Option<CartAnswer>,
    /// The cart's revision (0 without a cart), whatever its place: what a refill form sends so
    /// that one click refills once (`RefillBody::revision`).
    pub cart_revision: i64,
}

impl Visitor {
    /// A visitor without a cart.
    pub fn none() -> Self {
        Self {
            cart_count: 0,
            cart: None,
            cart_revision: 0,
        }
    }
}

/// The part of the render bundle that renders the cart drawer's body alone (`ssr-bundle`'s
/// `part`).
const DRAWER_PART: &str = "cart-drawer";

/// The render input of the drawer's body alone for `cart` (a [`Visitor`]'s `cart`, as JSON; null:
/// the empty drawer).
pub fn drawer_input(cart: &serde_json::Value) -> String {
    serde_json::json!({ "part": DRAWER_PART, "cart": cart }).to_string()
}

/// The header cart link's name, as `cartLinkLabel` of ui/src/features/cart/rules.ts says it (both
/// are tested against `cart_label_cases.json` beside this file).
pub fn cart_label(items: u32) -> String {
    format!(
        "Cart, {items} {}",
        if items == 1 { "item" } else { "items" }
    )
}

/// The revision of the member's cart (0 without one): what their page parts are kept by.
pub fn member_revision(ctx: &mut Ctx, member: domain::UserId) -> Result<i64, ApiError> {
    Ok(db::carts::find(ctx.conn, Owner::Member(member))?.map_or(0, |c| c.revision))
}

/// What choosing a category does to the visitor's cart: kegs and bottles/cans go in separate
/// orders, so a cart holding the other family than the one chosen is emptied first, once the
/// shopper says yes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reset {
    /// Nothing of the other family in the cart: go on.
    Kept,
    /// The cart holds the other family and the shopper has not said yes yet.
    Ask,
    /// The cart was emptied (its new revision goes out in the cart's cookies).
    Emptied,
}

/// Empties the visitor's cart before `family` is chosen when it holds the other family and the
/// shopper `confirmed` ([`Reset`]). The cart's family is known without a place: it is priced
/// where it was last added for.
pub fn reset_for(
    ctx: &mut Ctx,
    barangay: Option<BarangayId>,
    family: domain::FilterType,
    confirmed: bool,
) -> Result<Reset, ApiError> {
    let Some(cart) = visitor(ctx, barangay, None)?.cart else {
        return Ok(Reset::Kept);
    };
    if !resets(cart.shopping_cart.iter().map(|case| case.family), family) {
        return Ok(Reset::Kept);
    }
    if !confirmed {
        return Ok(Reset::Ask);
    }
    let product_id = cart
        .shopping_cart
        .iter()
        .flat_map(|case| case.items.iter().map(|item| item.id))
        .collect();
    let body = RemoveFromCartBody {
        product_id,
        barangay: Some(cart.barangay_id),
        fulfillment: None,
        request_key: None,
    };
    RemoveFromCart::call(ctx, (NoParams {}, NoParams {}, Json(body), NoParams {}))?;
    Ok(Reset::Emptied)
}

/// The visitor's cart for a page, priced for the gate's barangay and fulfillment.
pub fn visitor(
    ctx: &mut Ctx,
    barangay: Option<BarangayId>,
    fulfillment: Option<FulfillmentId>,
) -> Result<Visitor, ApiError> {
    let Some(cart) = find(ctx)? else {
        return Ok(Visitor::none());
    };
    // Before a place is chosen (the category form clears it) the cart is priced where it was
    // last added for, so the drawer never says "empty" beside a count.
    let place = match barangay.or(cart.barangay_id.map(BarangayId::from_db)) {
        Some(b) => crate::locations::place(ctx, b)?,
        None => None,
    };
    let Some(place) = place else {
        let n = db::carts::count_items(ctx.conn, cart.id)?;
        return Ok(Visitor {
            cart_count: u32::try_from(n).unwrap_or(0),
            cart: None,
            cart_revision: cart.revision,
        });
    };
    let fulfillment = fulfillment_of(ctx, &place, fulfillment)?;
    let pricing = Pricing::load(ctx)?;
    let a = answer(ctx, &pricing, Some(&cart), &place, fulfillment, None)?;
    Ok(Visitor {
        cart_count: a.item_count,
        cart_revision: cart.revision,
        cart: (a.item_count > 0).then_some(a),
    })
}

#[cfg(test)]
mod tests {
    use super::cart_label;

    /// The label is the UI's `cartLinkLabel`: both test suites read one fixture.
    #[test]
    fn the_cart_label_is_the_uis() {
        let cases: Vec<(u32, String)> =
            serde_json::from_str(include_str!("cart_label_cases.json")).unwrap();
        assert!(!cases.is_empty());
        for (items, label) in cases {
            assert_eq!(cart_label(items), label);
        }
    }
}
