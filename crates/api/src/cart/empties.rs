//! Returned empties: `POST /api/v3/return-empty`.

use super::*;

framework::register!(ReturnEmpty);

/// [`ReturnEmptyBody::cases`]: 0 to the most a cart holds of a product.
fn cases_returned() -> utoipa::openapi::schema::ObjectBuilder {
    framework::rules::int64(0, cases::MAX_QUANTITY.into()).description(Some(
        "Empty cases returned (0 returns none; at most the cart's cases of that deposit).",
    ))
}

/// Empty cases the shopper returns against one deposit row.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct ReturnEmptyBody {
    #[schema(required = true, nullable = false)]
    pub deposit_id: Option<i32>,
    /// Empty cases returned ([`cases_returned`]).
    #[schema(required = true, schema_with = cases_returned)]
    pub cases: Option<i64>,
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
    /// `POST /api/v3/return-empty`.
    pub struct ReturnEmpty = Post "/api/v3/return-empty" as "returnEmpty", Write, errors [401, 404, 422],
    (NoParams, NoParams, Json<ReturnEmptyBody, true>) -> CartAnswer,
    "Says how many empty cases of a deposit the shopper returns; answers the cart with the credit.");

impl Endpoint for ReturnEmpty {
    const LINKS: &'static [framework::endpoint::Link] = &[framework::endpoint::Link {
        from: "addToCart",
        name: "ReturnEmpty",
        params: &[],
        body: Some(r#"{"deposit_id": "$response.body#/empties/0/deposit_id", "cases": 1}"#),
    }];

    fn call(ctx: &mut Ctx, (_, _, Json(b), _): Args<Self>) -> Result<CartAnswer, ApiError> {
        let deposit = required(b.deposit_id, "deposit_id", "Choose the empties you return.")?;
        let cases_back = required(b.cases, "cases", "Enter how many empty cases you return.")?;
        let key = framework::rules::checked_request_key(b.request_key.as_deref())?;
        if !(0..=i64::from(cases::MAX_QUANTITY)).contains(&cases_back) {
            return Err(ApiError::refused(
                422,
                "cases",
                format!("Return from 0 to {} empty cases.", cases::MAX_QUANTITY),
            ));
        }
        let cart = existing_cart(ctx)?;
        let place = answer_place(ctx, &cart, b.barangay)?;
        let fulfillment = fulfillment_of(ctx, &place, b.fulfillment)?;
        let pricing = Pricing::load(ctx)?;
        let before = answer(ctx, &pricing, Some(&cart), &place, fulfillment, None)?;
        let Some(line) = before.empties.iter().find(|e| e.deposit_id == deposit) else {
            return Err(ApiError::refused(
                422,
                "deposit_id",
                "Your cart has no deposit of this kind to return empties against.",
            ));
        };
        if cases_back > i64::from(line.max_cases) {
            return Err(ApiError::refused(
                422,
                "cases",
                format!(
                    "Your cart has {} case(s) of {}: return at most that many.",
                    line.max_cases, line.name
                ),
            ));
        }
        let now = domain::calendar::unix_now();
        db::write_transaction(ctx.conn, |conn| {
            let change = format!("{deposit} {cases_back}");
            if !first_time(
                conn,
                cart.id,
                KeyedChange {
                    what: "empties",
                    change: &change,
                    key,
                },
                now,
            )? {
                return Ok(());
            }
            db::carts::lock(conn, cart.id, now)?;
            Ok::<_, ApiError>(db::carts::set_empties(
                conn,
                cart.id,
                deposit,
                cases_back as i32,
            )?)
        })?;
        let cart = find(ctx)?;
        let mut a = answer(ctx, &pricing, cart.as_ref(), &place, fulfillment, None)?;
        a.message = if cases_back == 0 {
            "You return no empties.".into()
        } else {
            format!("You return {cases_back} empty case(s): the deposit is credited.")
        };
        changed(ctx, a.revision);
        Ok(a)
    }
}
