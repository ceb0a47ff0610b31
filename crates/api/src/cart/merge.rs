//! The carts at login: merged, or both kept until the member chooses (`POST /api/v1/cart/keep`).

use super::*;

framework::register!(KeepCart);

/// The guest cart this browser still holds beside a member's cart: left by a login whose two
/// carts held different families.
fn guest_cart_of_browser(ctx: &mut Ctx) -> Result<Option<CartRow>, ApiError> {
    let (cookie, _) = browser_cookie(ctx);
    let Some(key) = cookie.map(guest_key) else {
        return Ok(None);
    };
    Ok(db::carts::find(ctx.conn, Owner::Guest(&key))?)
}

pub(crate) fn conflict(ctx: &mut Ctx) -> Result<Option<CartConflict>, ApiError> {
    let Some(guest) = guest_cart_of_browser(ctx)? else {
        return Ok(None);
    };
    let items = db::carts::items(ctx.conn, guest.id)?;
    if items.is_empty() {
        return Ok(None);
    }
    Ok(Some(CartConflict {
        guest_items: items
            .iter()
            .map(|i| format!("{} x {}", i.product.product_name, i.quantity))
            .collect(),
        message: "Before you logged in you had a cart with the other kind of beer. Orders for Bottles/ Cans and Draft Beer should be in a separate transaction: choose which cart to keep.".into(),
    }))
}

/// What a login did with the guest's cart.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Merged {
    /// The two carts hold different families: nothing moved.
    pub conflict: bool,
    /// What did not fit, or empty.
    pub message: String,
}

/// At login: the guest's cart joins the member's, quantities adding per product within the
/// limits, and the guest's is deleted; when the two hold different families nothing moves and
/// the answer is `true` (the member chooses later). For a client without cookies the guest's cart
/// was its old session's: it goes with that session.
pub fn merge_at_login(
    ctx: &mut Ctx,
    guest: Option<CartOwner>,
    user: domain::UserId,
) -> Result<Merged, ApiError> {
    let Some(CartOwner::Guest(key)) = guest else {
        return Ok(Merged::default());
    };
    let Some(from) = db::carts::find(ctx.conn, Owner::Guest(&key))? else {
        return Ok(Merged::default());
    };
    let pricing = Pricing::load(ctx)?;
    let now = domain::calendar::unix_now();
    let member = Owner::Member(user);
    enum Outcome {
        Nothing,
        Conflict,
        Merged(i64, Vec<String>),
    }
    let into = db::carts::find_or_create(ctx.conn, member, now)?;
    let outcome = db::write_transaction(ctx.conn, |conn| {
        // A write first (see `add`).
        db::carts::lock(conn, from.id, now)?;
        let theirs = db::carts::items(conn, from.id)?;
        if theirs.is_empty() {
            db::carts::retire(conn, from.id, into.id)?;
            return Ok::<_, ApiError>(Outcome::Nothing);
        }
        let mine = db::carts::items(conn, into.id)?;
        let keg = |items: &[db::carts::Item]| {
            items
                .first()
                .map(|i| is_keg(pricing.family(i.product.packaging_id)))
        };
        if let (Some(a), Some(b)) = (keg(&theirs), keg(&mine)) {
            if a != b {
                return Ok(Outcome::Conflict);
            }
        }
        let left_out = db::carts::merge(
            conn,
            from.id,
            into.id,
            cases::MAX_QUANTITY as i32,
            cases::MAX_PRODUCTS as i64,
            now,
        )?;
        let revision = db::carts::lock(conn, into.id, now)?;
        Ok(Outcome::Merged(revision, left_out))
    })?;
    match outcome {
        Outcome::Conflict => Ok(Merged {
            conflict: true,
            message: String::new(),
        }),
        Outcome::Merged(revision, left_out) => {
            changed(ctx, revision);
            Ok(Merged {
                conflict: false,
                message: if left_out.is_empty() {
                    String::new()
                } else {
                    format!(
                        "Your cart from before you logged in joined your account's cart, but not all of it fitted: {}.",
                        left_out.join("; ")
                    )
                },
            })
        }
        Outcome::Nothing => Ok(Merged::default()),
    }
}

/// Which cart a member keeps after a login with two carts of different families.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct KeepBody {
    /// `guest`: the cart from before logging in replaces the member's; `member`: the member's
    /// stays and the other is dropped.
    #[serde(default)]
    #[schema(required = true, schema_with = keep)]
    pub keep: String,
    #[serde(default)]
    pub barangay: Option<BarangayId>,
    #[serde(default)]
    pub fulfillment: Option<FulfillmentId>,
}

/// Whose cart stays.
fn keep() -> utoipa::openapi::schema::ObjectBuilder {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .enum_values(Some(["guest", "member"]))
        .description(Some(
            "`guest`: the cart from before logging in replaces the member's; `member`: the member's\nstays and the other is dropped.",
        ))
}

framework::declare!(
    /// `POST /api/v1/cart/keep`.
    pub struct KeepCart = Post "/api/v1/cart/keep" as "keepCart", Write, errors [401, 404, 409, 422],
    (NoParams, NoParams, Json<KeepBody, true>) -> CartAnswer,
    "After a login with two carts of different families: keeps the one the member chooses; answers the cart.");

impl Endpoint for KeepCart {
    fn call(ctx: &mut Ctx, (_, _, Json(b), _): Args<Self>) -> Result<CartAnswer, ApiError> {
        let member = ctx.member()?;
        let keep_guest = match b.keep.as_str() {
            "guest" => true,
            "member" => false,
            _ => {
                return Err(ApiError::Invalid {
                    field: "keep",
                    message: "Choose which cart to keep.".into(),
                })
            }
        };
        // No second cart (never one, or chosen already in another window): the choice conflicts
        // with how things are, a 409, not an unknown thing.
        let guest = guest_cart_of_browser(ctx)?
            .ok_or_else(|| ApiError::refused(409, "keep", "There is no other cart to choose."))?;
        // The place and fulfillment asked for are checked before anything changes: an unknown
        // barangay is a 404 with both carts still there to choose from.
        let asked = match b.barangay {
            Some(id) => {
                let place = place_of(ctx, id)?;
                fulfillment_of(ctx, &place, b.fulfillment)?;
                Some(place)
            }
            None => None,
        };
        let now = domain::calendar::unix_now();
        let owner = Owner::Member(member.id);
        let into = db::carts::find_or_create(ctx.conn, owner, now)?;
        db::write_transaction(ctx.conn, |conn| {
            // A write first (see `add`).
            db::carts::lock(conn, into.id, now)?;
            if keep_guest {
                db::carts::clear(conn, into.id)?;
                db::carts::merge(
                    conn,
                    guest.id,
                    into.id,
                    cases::MAX_QUANTITY as i32,
                    cases::MAX_PRODUCTS as i64,
                    now,
                )?;
            } else {
                db::carts::retire(conn, guest.id, into.id)?;
            }
            Ok::<_, ApiError>(())
        })?;
        let cart = db::carts::find_or_create(ctx.conn, owner, now)?;
        let place = match asked {
            Some(place) => place,
            None => answer_place(ctx, &cart, None)?,
        };
        let fulfillment = fulfillment_of(ctx, &place, b.fulfillment)?;
        let pricing = Pricing::load(ctx)?;
        let mut a = answer(ctx, &pricing, Some(&cart), &place, fulfillment, None)?;
        a.message = "Your cart is ready.".into();
        changed(ctx, a.revision);
        Ok(a)
    }
}
