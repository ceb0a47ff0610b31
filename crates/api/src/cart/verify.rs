//! The members' checkout verification: `POST /api/v1/checkout/verify`.

use super::*;

framework::register!(CheckoutVerify);

/// Where checkout will deliver (a barangay, and optionally a street).
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct VerifyBody {
    #[schema(required = true, nullable = false)]
    pub barangay: Option<BarangayId>,
    #[serde(default)]
    pub street_id: Option<StreetId>,
    #[serde(default)]
    pub fulfillment: Option<FulfillmentId>,
    /// The cart revision the shopper sees; when the cart changed since (another window), the
    /// answer is 410 and the checkout page is loaded afresh.
    #[serde(default)]
    pub revision: Option<i64>,
    /// Dev and test only, as the cart's.
    #[serde(default)]
    pub testdate: Option<String>,
}

framework::declare!(
    /// `POST /api/v1/user/checkout/verify`.
    pub struct CheckoutVerify = Post "/api/v1/user/checkout/verify" as "checkoutVerify", Write, errors [401, 404, 410, 422],
    (NoParams, NoParams, Json<VerifyBody, true>) -> CartAnswer,
    "Checks that the member's cart can go to checkout for a place: 422 naming what stops it, 410 when the cart changed in another window.");

impl Endpoint for CheckoutVerify {
    const LINKS: &'static [framework::endpoint::Link] = &[framework::endpoint::Link {
        from: "addToCart",
        name: "CheckoutVerify",
        params: &[],
        body: Some(
            r#"{"barangay": "$response.body#/barangay_id", "revision": "$response.body#/revision"}"#,
        ),
    }];

    fn call(ctx: &mut Ctx, (_, _, Json(b), _): Args<Self>) -> Result<CartAnswer, ApiError> {
        ctx.member()?;
        let barangay = required(
            b.barangay,
            "barangay",
            "Choose your delivery location first.",
        )?;
        let cart = find(ctx)?;
        let place = place_of(ctx, barangay)?;
        street_of(ctx, &place, b.street_id)?;
        let fulfillment = fulfillment_of(ctx, &place, b.fulfillment)?;
        let pricing = Pricing::load(ctx)?;
        let a = answer(
            ctx,
            &pricing,
            cart.as_ref(),
            &place,
            fulfillment,
            framework::testdate(b.testdate.as_deref())?,
        )?;
        if let (Some(seen), Some(cart)) = (b.revision, cart.as_ref()) {
            if seen != cart.revision {
                return Err(ApiError::refused(
                    410,
                    "revision",
                    "Your cart changed in another window. Check it again before checkout.",
                ));
            }
        }
        if let Some(reason) = &a.checkout.reason {
            return Err(ApiError::Refused {
                status: 422,
                field: "cart",
                message: reason.clone(),
                products: a.unavailable.clone(),
            });
        }
        Ok(a)
    }
}
