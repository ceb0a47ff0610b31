//! Changing the cart: a quantity (`PUT /api/v1/cart`) and removals (`DELETE /api/v1/cart`).

use super::*;

framework::register!(UpdateCart, RemoveFromCart);

/// [`UpdateCartBody::quantity`]: 1 to the most a cart holds of a product.
fn new_units() -> utoipa::openapi::schema::ObjectBuilder {
    framework::rules::int64(1, cases::MAX_QUANTITY.into()).description(Some(format!(
        "The item's new units (1-{}).",
        cases::MAX_QUANTITY
    )))
}

/// A change of one item's units.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct UpdateCartBody {
    #[schema(required = true, nullable = false)]
    pub product_id: Option<ProductId>,
    /// The item's new units ([`new_units`]).
    #[schema(required = true, schema_with = new_units)]
    pub quantity: Option<i64>,
    /// The barangay to price the answer for (else the one the cart was last added for).
    #[serde(default)]
    pub barangay: Option<BarangayId>,
    #[serde(default)]
    pub fulfillment: Option<FulfillmentId>,
    /// The client's key for this change: sent again (a retry after a lost or late answer), it
    /// changes nothing and the answer is the cart as it is.
    #[serde(default)]
    #[schema(schema_with = framework::rules::request_key)]
    pub request_key: Option<String>,
}

framework::declare!(
    /// `PUT /api/v1/cart`.
    pub struct UpdateCart = Put "/api/v1/cart" as "updateCart", Write, errors [401, 404, 422],
    (NoParams, NoParams, Json<UpdateCartBody, true>) -> CartAnswer,
    "Sets the units of an item of the session's cart; answers the cart.");

impl Endpoint for UpdateCart {
    const LINKS: &'static [framework::endpoint::Link] = &[framework::endpoint::Link {
        from: "addToCart",
        name: "UpdateCart",
        params: &[],
        body: Some(r#"{"product_id": "$request.body#/product_id", "quantity": 24}"#),
    }];

    fn call(ctx: &mut Ctx, (_, _, Json(b), _): Args<Self>) -> Result<CartAnswer, ApiError> {
        let quantity = check_quantity(b.quantity)?;
        let product = required(b.product_id, "product_id", "Choose a product.")?;
        let key = framework::rules::checked_request_key(b.request_key.as_deref())?;
        let cart = existing_cart(ctx)?;
        let place = answer_place(ctx, &cart, b.barangay)?;
        let now = domain::calendar::unix_now();
        db::write_transaction(ctx.conn, |conn| {
            let change = format!("{product} {quantity}");
            if !first_time(
                conn,
                cart.id,
                KeyedChange {
                    what: "set",
                    change: &change,
                    key,
                },
                now,
            )? {
                return Ok(());
            }
            db::carts::lock(conn, cart.id, now)?;
            if db::carts::quantity_of(conn, cart.id, product)? == 0 {
                return Err(ApiError::refused(
                    404,
                    "product_id",
                    format!("Product {product} is not in your cart."),
                ));
            }
            db::carts::set_quantity(conn, cart.id, product, quantity, now)?;
            Ok::<_, ApiError>(())
        })?;
        let cart = find(ctx)?;
        let fulfillment = fulfillment_of(ctx, &place, b.fulfillment)?;
        let pricing = Pricing::load(ctx)?;
        let mut a = answer(ctx, &pricing, cart.as_ref(), &place, fulfillment, None)?;
        a.message = "Your cart has been updated.".into();
        changed(ctx, a.revision);
        Ok(a)
    }
}

/// Items to remove (`product_id` as a list).
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct RemoveFromCartBody {
    #[serde(default, deserialize_with = "one_or_many")]
    #[schema(required = true, schema_with = product_ids)]
    pub product_id: Vec<ProductId>,
    #[serde(default)]
    pub barangay: Option<BarangayId>,
    #[serde(default)]
    pub fulfillment: Option<FulfillmentId>,
    /// The client's key for this change: sent again (a retry after a lost or late answer), it
    /// changes nothing and the answer is the cart as it is.
    #[serde(default)]
    #[schema(schema_with = framework::rules::request_key)]
    pub request_key: Option<String>,
}

/// 1 to [`cases::MAX_PRODUCTS`] product ids: a list, one id, or a form's `1,5,12`.
fn product_ids() -> utoipa::openapi::Schema {
    use utoipa::openapi::schema::{AnyOfBuilder, ArrayBuilder, ObjectBuilder, Type};
    use utoipa::openapi::Ref;
    let id = || Ref::from_schema_name("ProductId");
    let more = cases::MAX_PRODUCTS - 1;
    AnyOfBuilder::new()
        .item(
            ArrayBuilder::new()
                .items(id())
                .min_items(Some(1))
                .max_items(Some(cases::MAX_PRODUCTS)),
        )
        .item(id())
        .item(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .pattern(Some(format!(
                    "^[1-9][0-9]{{0,8}}(,[1-9][0-9]{{0,8}}){{0,{more}}}$"
                ))),
        )
        .description(Some(format!(
            "1 to {} product ids (a form without JavaScript sends one).",
            cases::MAX_PRODUCTS
        )))
        .build()
        .into()
}

/// `product_id` as JSON's list or one id, or as a page form's field (`1,5,12`: a form sends no
/// lists).
pub(crate) fn one_or_many<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<Vec<ProductId>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Ids {
        List(Vec<ProductId>),
        One(ProductId),
        Text(String),
    }
    match Ids::deserialize(d)? {
        Ids::List(ids) => Ok(ids),
        Ids::One(id) => Ok(vec![id]),
        Ids::Text(text) => text
            .split(',')
            .map(|id| {
                ProductId::parse(id.trim())
                    .ok_or_else(|| serde::de::Error::custom(domain::ids::NOT_AN_ID))
            })
            .collect(),
    }
}

framework::declare!(
    /// `DELETE /api/v1/cart`.
    pub struct RemoveFromCart = Delete "/api/v1/cart" as "removeFromCart", Write, errors [401, 404, 422],
    (NoParams, NoParams, Json<RemoveFromCartBody, true>) -> CartAnswer,
    "Removes items from the session's cart; answers the cart.");

impl Endpoint for RemoveFromCart {
    const LINKS: &'static [framework::endpoint::Link] = &[framework::endpoint::Link {
        from: "addToCart",
        name: "RemoveFromCart",
        params: &[],
        body: Some(r#"{"product_id": "$request.body#/product_id"}"#),
    }];

    fn call(ctx: &mut Ctx, (_, _, Json(b), _): Args<Self>) -> Result<CartAnswer, ApiError> {
        if b.product_id.is_empty() || b.product_id.len() > cases::MAX_PRODUCTS {
            return Err(ApiError::Invalid {
                field: "product_id",
                message: format!("Name 1 to {} products to remove.", cases::MAX_PRODUCTS),
            });
        }
        let key = framework::rules::checked_request_key(b.request_key.as_deref())?;
        let cart = existing_cart(ctx)?;
        let place = answer_place(ctx, &cart, b.barangay)?;
        let now = domain::calendar::unix_now();
        // A repeat (None) removed what it named the first time.
        let removed = db::write_transaction(ctx.conn, |conn| {
            let change = named_once(&b.product_id);
            if !first_time(
                conn,
                cart.id,
                KeyedChange {
                    what: "remove",
                    change: &change,
                    key,
                },
                now,
            )? {
                return Ok(None);
            }
            db::carts::lock(conn, cart.id, now)?;
            let removed = db::carts::remove(conn, cart.id, &b.product_id)?;
            if db::carts::count_items(conn, cart.id)? == 0 {
                db::carts::clear(conn, cart.id)?;
            }
            Ok::<_, ApiError>(Some(removed))
        })?;
        let cart = find(ctx)?;
        let fulfillment = fulfillment_of(ctx, &place, b.fulfillment)?;
        let pricing = Pricing::load(ctx)?;
        let mut a = answer(ctx, &pricing, cart.as_ref(), &place, fulfillment, None)?;
        a.message = if removed == Some(0) {
            "Those items were not in your cart.".into()
        } else {
            "Removed from your cart.".into()
        };
        changed(ctx, a.revision);
        Ok(a)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use framework::endpoint::Body;

    #[test]
    fn removal_takes_a_list_or_one_id_from_a_form() {
        let Json(b) = Json::<RemoveFromCartBody, true>::parse(br#"{"product_id":[1,2]}"#).unwrap();
        assert_eq!(b.product_id.len(), 2);
        let Json(b) = Json::<RemoveFromCartBody, true>::parse(br#"{"product_id":3}"#).unwrap();
        assert_eq!(b.product_id, vec![ProductId::from_db(3)]);
        let pairs = [("product_id".into(), "4".into())];
        let Json(b) = Json::<RemoveFromCartBody, true>::from_fields(pairs.into_iter()).unwrap();
        assert_eq!(b.product_id, vec![ProductId::from_db(4)]);
        assert!(Json::<RemoveFromCartBody, true>::parse(br#"{"product_id":"x"}"#).is_err());
        let form = |v: &'static str| {
            framework::endpoint::from_pairs::<RemoveFromCartBody>(
                [(
                    std::borrow::Cow::Borrowed("product_id"),
                    std::borrow::Cow::Borrowed(v),
                )]
                .into_iter(),
            )
        };
        assert_eq!(
            form("1,12, 21").unwrap().product_id,
            [1, 12, 21].map(ProductId::from_db)
        );
        assert!(form("1,x").is_err());
        assert!(form("-1").is_err());
        assert!(Json::<RemoveFromCartBody, true>::parse(br#"{"product_id":[true]}"#).is_err());
    }
}
