//! Reading the cart: `GET /api/v1/cart/{barangay}` and what it leaves out.

use super::*;

framework::register!(CartGet);

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct CartPath {
    /// The barangay to price the cart for (the location gate's).
    #[serde(rename = "barangayId")]
    #[param(rename = "barangayId")]
    pub barangay_id: BarangayId,
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CartQuery {
    /// Delivery (1, the default) or pickup (2): the delivery fee depends on it.
    pub fulfillment: Option<FulfillmentId>,
    /// Dev and test only: pretend it is this Manila time (`YYYY-MM-DDTHH:MM`) for checkout's
    /// hours and blackouts.
    pub testdate: Option<String>,
    /// After a refill: the products it could not add and why (`17:area,1:max`; codes `area`,
    /// `stock`, `max`, `full`), named in the answer's `left_out`.
    #[param(
        pattern = r"^[1-9][0-9]{0,8}:(area|stock|max|full)(,[1-9][0-9]{0,8}:(area|stock|max|full)){0,49}$"
    )]
    pub left: Option<String>,
}

framework::declare!(
    /// `GET /api/v1/cart/{barangayId}`.
    pub struct CartGet = Get "/api/v1/cart/{barangayId}" as "cart", Session, errors [404],
    (CartPath, CartQuery, framework::endpoint::NoBody) -> CartAnswer,
    "The session's cart priced for a barangay (an empty cart without a session).");

impl Endpoint for CartGet {
    const LINKS: &'static [framework::endpoint::Link] = &[framework::endpoint::Link {
        from: "addToCart",
        name: "GetCart",
        params: &[("barangayId", "$response.body#/barangay_id")],
        body: None,
    }];

    fn call(ctx: &mut Ctx, (p, q, _, _): Args<Self>) -> Result<CartAnswer, ApiError> {
        let place = place_of(ctx, p.barangay_id)?;
        let fulfillment = fulfillment_of(ctx, &place, q.fulfillment)?;
        let cart = find(ctx)?;
        let pricing = Pricing::load(ctx)?;
        let mut a = answer(
            ctx,
            &pricing,
            cart.as_ref(),
            &place,
            fulfillment,
            framework::testdate(q.testdate.as_deref())?,
        )?;
        if let Some(left) = q.left.as_deref() {
            a.left_out = left_out(ctx, left, &place)?;
        }
        Ok(a)
    }
}

/// The products a refill could not add (`17:area,1:max`, as its link names them), each with why:
/// what the refill found (a code of [`crate::goto_cases::refill::Left`]), said of the place.
fn left_out(ctx: &mut Ctx, text: &str, place: &Place) -> Result<Vec<DisabledProduct>, ApiError> {
    let bad = || {
        ApiError::BadRequest(
            "left is not valid: name up to 50 products with why, 17:area,1:max.".into(),
        )
    };
    let mut named_ids = Vec::new();
    for part in text.split(',') {
        let (id, code) = part.split_once(':').unwrap_or((part, ""));
        // As the document's pattern on `left` says: 1-9 digits, no leading zero.
        if id.is_empty()
            || id.len() > 9
            || id.starts_with('0')
            || !id.bytes().all(|b| b.is_ascii_digit())
        {
            return Err(bad());
        }
        let id = ProductId::parse(id).ok_or_else(bad)?;
        let why = crate::goto_cases::refill::Left::parse(code).ok_or_else(bad)?;
        named_ids.push((id, why));
    }
    if named_ids.len() > cases::MAX_PRODUCTS {
        return Err(bad());
    }
    let ids: Vec<ProductId> = named_ids.iter().map(|(id, _)| *id).collect();
    let listed = if place.served {
        db::carts::listed_in_city(ctx.conn, place.city.id, &ids)?
    } else {
        Vec::new()
    };
    let mut out: Vec<DisabledProduct> = Vec::new();
    for (id, why) in named_ids {
        let Some(p) = db::carts::product(ctx.conn, id)? else {
            continue;
        };
        let reason = match why {
            crate::goto_cases::refill::Left::Area | crate::goto_cases::refill::Left::Stock => {
                unavailable_reason(&p, place, &listed).unwrap_or_else(|| why.reason())
            }
            other => other.reason(),
        };
        if !out.iter().any(|d| d.id == id) {
            out.push(named(&p, &reason));
        }
    }
    Ok(out)
}
