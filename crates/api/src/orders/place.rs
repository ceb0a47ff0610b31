//! Submit Order: `POST /api/v1/orders`, placed once however often it is sent.

use super::*;
use db::places::Place;
use framework::limits::{MAILS_PER_ADDRESS, MAIL_WINDOW};

framework::register!(PlaceOrder);

/// [`OrderForm::notes`]: at most [`MAX_NOTES`] characters.
fn notes_rule() -> utoipa::openapi::schema::ObjectBuilder {
    framework::rules::up_to(MAX_NOTES)
}

/// The checkout form.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct OrderForm {
    #[serde(default)]
    #[schema(max_length = 100)]
    pub contact_name: String,
    #[serde(default)]
    #[schema(schema_with = framework::rules::mobile)]
    pub mobile: String,
    /// Guests: where the confirmation goes (members' goes to their account's address).
    #[serde(default)]
    #[schema(max_length = 254)]
    pub email: String,
    /// House or unit, building: with the barangay and street, where the rider goes (delivery).
    #[serde(default)]
    #[schema(max_length = 200)]
    pub address: String,
    #[schema(required = true, nullable = false)]
    pub barangay: Option<BarangayId>,
    #[serde(default)]
    pub street_id: Option<StreetId>,
    /// Delivery (1) or pickup (2).
    #[serde(default)]
    pub fulfillment: Option<FulfillmentId>,
    #[serde(default)]
    #[schema(schema_with = notes_rule)]
    pub notes: String,
    /// Cash (the default), or online when the store takes payments online: the order then
    /// awaits its payment, and the answer's `pay_url` is where it is paid.
    #[serde(default)]
    pub payment: PaymentChoice,
    /// The cart revision the checkout showed (the order's idempotency key).
    #[schema(required = true, nullable = false)]
    pub revision: Option<i64>,
    /// The total the checkout showed (centavos): when the cart now comes to another, nothing is
    /// placed and the answer says the new total. Required: an order is never placed at a price
    /// the shopper did not see.
    #[serde(default)]
    #[schema(required = true, nullable = false)]
    pub expected_total: Option<i64>,
    /// Dev and test only: pretend it is this Manila time (`YYYY-MM-DDTHH:MM`).
    #[serde(default)]
    pub testdate: Option<String>,
}

/// The checked form: contact, place and where the rider goes.
struct Checked {
    contact_name: String,
    mobile: String,
    email: String,
    address: String,
    notes: String,
}

fn check_form(
    f: &OrderForm,
    member: Option<&db::users::UserRow>,
    pickup: bool,
) -> Result<Checked, ApiError> {
    let mut c = domain::account::Checker::default();
    let contact_name = match domain::text::check(&f.contact_name, 2, 100, false) {
        Err(Problem::Characters) => {
            c.add("contact_name", CHARACTERS);
            None
        }
        Err(Problem::Length) => {
            c.add(
                "contact_name",
                "Enter the name of the person we contact (2 to 100 characters).",
            );
            None
        }
        Ok(name) => Some(name.to_string()),
    };
    let mobile = c.field("mobile", domain::account::validate_mobile(&f.mobile));
    let email = match member {
        Some(m) => Some(m.email.clone()),
        None => c.field(
            "email",
            domain::email::validate_email(&f.email).map_err(str::to_string),
        ),
    };
    let address = match domain::text::check(&f.address, 5, 200, false) {
        _ if pickup && f.address.trim().is_empty() => Some(String::new()),
        Err(Problem::Characters) => {
            c.add("address", CHARACTERS);
            None
        }
        Err(Problem::Length) => {
            c.add(
                "address",
                "Enter the house or unit number, building and street (5 to 200 characters).",
            );
            None
        }
        Ok(line) => Some(line.to_string()),
    };
    let notes = match domain::text::check(&f.notes, 0, MAX_NOTES, true) {
        Err(Problem::Characters) => {
            c.add("notes", CHARACTERS);
            None
        }
        Err(Problem::Length) => {
            c.add(
                "notes",
                format!("Notes can be up to {MAX_NOTES} characters."),
            );
            None
        }
        Ok(notes) => Some(notes),
    };
    let value = (|| {
        Some(Checked {
            contact_name: contact_name?,
            mobile: mobile?,
            email: email?,
            address: address?,
            notes: notes?.to_string(),
        })
    })();
    c.finish(value).map_err(ApiError::Fields)
}

/// Orders placed by this process since it started (the metrics' `store_orders_placed_total`);
/// a submit answered with an order placed before does not count.
pub static PLACED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

framework::declare!(
    /// `POST /api/v1/orders`.
    pub struct PlaceOrder = Post "/api/v1/orders" as "placeOrder", Write, errors [401, 404, 409, 422],
    (NoParams, NoParams, Json<OrderForm, true>) -> PlacedOrder,
    "Places the session's cart as an order, once per cart revision; answers the order (201, or 200 when an earlier submit of the same cart placed it).",
    status 201, also [200]);

impl Endpoint for PlaceOrder {
    const THEN: Option<framework::endpoint::Then<Self>> = Some(|state, caller, placed| {
        Box::pin(crate::payments::online::pay_url(state, caller, placed))
    });

    fn status(answer: &PlacedOrder) -> u16 {
        if answer.placed {
            201
        } else {
            200
        }
    }

    fn call(ctx: &mut Ctx, (_, _, Json(f), _): Args<Self>) -> Result<PlacedOrder, ApiError> {
        let owner = crate::cart::owner(ctx, false)?.ok_or(ApiError::Unauthenticated)?;
        let (_, member) = ctx.session_member()?;
        let submit = Submit::of(ctx, &f, member.as_ref(), &owner)?;
        // A submit of a revision already placed answers that order when it carries what the
        // placing submit did (a retry, a double click, two tabs); a request that only holds the
        // browser's cart cookie goes on and is told its revision is past, as for any other.
        if let Some(done) = db::orders::by_idempotency_key(ctx.conn, &submit.key)? {
            if same_submit(&f, &done, member.as_ref()) {
                end_browser_cart(ctx, &owner);
                return answer_placed(ctx, done.id, Some(&submit.access), false);
            }
        }
        let order = NewOrder::prepare(ctx, &submit)?;
        let config = ctx.config;
        let placed = db::write_transaction(ctx.conn, |conn| order.write(conn, config))?;
        match placed {
            Ok(id) => {
                PLACED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                ctx.mailed = true;
                if let Some(cart) = db::carts::find(ctx.conn, owner.as_owner())? {
                    crate::cart::changed(ctx, cart.revision);
                }
                end_browser_cart(ctx, &owner);
                answer_placed(ctx, id, Some(&submit.access), true)
            }
            Err(id) => {
                end_browser_cart(ctx, &owner);
                answer_placed(ctx, id, Some(&submit.access), false)
            }
        }
    }
}

/// A submit of the checkout form: who sends it, the cart and revision it places, the total it
/// showed, and the keys of the order it makes.
struct Submit<'a> {
    form: &'a OrderForm,
    member: Option<&'a db::users::UserRow>,
    owner: &'a crate::cart::CartOwner,
    cart_id: i64,
    revision: i64,
    barangay: BarangayId,
    expected_total: i64,
    /// The order's idempotency key: the cart and its revision.
    key: String,
    /// What the order's link carries for a guest.
    access: String,
}

impl<'a> Submit<'a> {
    /// The submit's revision, barangay and total (each required, in that order) and the cart it
    /// places, which must exist.
    fn of(
        ctx: &mut Ctx,
        form: &'a OrderForm,
        member: Option<&'a db::users::UserRow>,
        owner: &'a crate::cart::CartOwner,
    ) -> Result<Self, ApiError> {
        let revision = form.revision.ok_or_else(|| ApiError::Invalid {
            field: "revision",
            message: "Open the checkout page again and submit from there.".into(),
        })?;
        let barangay = form.barangay.ok_or_else(|| ApiError::Invalid {
            field: "barangay",
            message: "Choose your delivery location first.".into(),
        })?;
        let expected_total = form.expected_total.ok_or_else(|| ApiError::Invalid {
            field: "expected_total",
            message: "Open the checkout page again and submit from there.".into(),
        })?;
        let cart = db::carts::find(ctx.conn, owner.as_owner())?
            .ok_or_else(|| ApiError::refused(422, "cart", crate::cart::pricing::EMPTY))?;
        let key = format!("cart {} revision {revision}", cart.id);
        let secret = owner_secret(ctx);
        let access = access_key(&secret, &key);
        Ok(Self {
            form,
            member,
            owner,
            cart_id: cart.id,
            revision,
            barangay,
            expected_total,
            key,
            access,
        })
    }

    /// With the cart held: the order this submit placed already, if it did; refused when the
    /// cart changed since checkout showed it, or another submit placed its revision.
    fn recheck(&self, conn: &mut db::AnyConnection) -> Result<Option<i64>, ApiError> {
        let repeated = db::orders::by_idempotency_key(conn, &self.key)?;
        if let Some(done) = &repeated {
            if same_submit(self.form, done, self.member) {
                return Ok(Some(done.id));
            }
        }
        let current: CartRow = db::carts::find(conn, self.owner.as_owner())?
            .ok_or_else(|| ApiError::refused(422, "cart", crate::cart::pricing::EMPTY))?;
        if current.revision != self.revision || repeated.is_some() {
            return Err(ApiError::refused(
                409,
                "revision",
                "Your cart changed since you opened checkout. Check your order and submit again.",
            ));
        }
        Ok(None)
    }
}

/// An order ready to write: the submit checked, and all it needs read, before its transaction.
struct NewOrder<'a> {
    submit: &'a Submit<'a>,
    place: Place,
    fulfillment: FulfillmentId,
    fulfillment_name: String,
    street: Option<db::models::Street>,
    checked: Checked,
    pricing: crate::cart::pricing::Pricing,
    /// The catalog's data version `pricing` was read at (before the write turn).
    pricing_version: i64,
    now: time::PrimitiveDateTime,
    unix: i64,
    /// The street, barangay, city and province, as the order keeps them.
    place_text: String,
    /// The store's public address, for the link in the mail.
    base: std::sync::Arc<str>,
}

impl<'a> NewOrder<'a> {
    /// Checks the place, the fulfillment, the street and the form (in that order) and reads
    /// what the order is priced and written with.
    fn prepare(ctx: &mut Ctx, submit: &'a Submit<'a>) -> Result<Self, ApiError> {
        let f = submit.form;
        let (place, fulfillment, fulfillment_name) =
            place_and_fulfillment(ctx, f, submit.barangay)?;
        let pickup = fulfillment != domain::DEFAULT_FULFILLMENT;
        let street = crate::cart::street_named(ctx, &place, f.street_id)?;
        let checked = check_form(f, submit.member, pickup)?;
        if f.payment == PaymentChoice::Online
            && ctx
                .config
                .settings
                .get::<crate::payments::PayMongo>()
                .is_none()
        {
            return Err(ApiError::Invalid {
                field: "payment",
                message: crate::payments::NOT_OFFERED.into(),
            });
        }
        let pricing_version = crate::catalog::data_version(ctx)?;
        let pricing = crate::cart::pricing::Pricing::at(ctx, pricing_version)?;
        let now = ctx.config.now(framework::testdate(f.testdate.as_deref())?);
        let unix = domain::calendar::unix_now();
        let place_text = place_text(ctx, &place, street.as_ref())?;
        Ok(Self {
            submit,
            place,
            fulfillment,
            fulfillment_name,
            street,
            checked,
            pricing,
            pricing_version,
            now,
            unix,
            place_text,
            base: ctx.config.public_url.clone(),
        })
    }

    /// Writes the order, in the caller's transaction: `Err` with the order this submit placed
    /// before, or `Ok` with the one placed now (the cart priced again, emptied and locked, the
    /// mail queued).
    fn write(
        &self,
        conn: &mut db::AnyConnection,
        config: &framework::ApiConfig,
    ) -> Result<Result<i64, i64>, ApiError> {
        let cart_id = self.submit.cart_id;
        // Holding the cart makes concurrent submits of it wait here, one after the other.
        db::carts::hold(conn, cart_id)?;
        if let Some(done) = self.submit.recheck(conn)? {
            return Ok(Err(done));
        }
        let items = db::carts::items(conn, cart_id)?;
        let empties = db::carts::empties(conn, cart_id)?;
        let mut inner = Ctx::new(conn, config, framework::Caller::default());
        // The prices and fees were read before the write turn: a catalog change committed since
        // (a delivery fee, a deposit) is priced here, so that the check below refuses an order
        // whose amounts moved (409) rather than placing it at the old ones.
        let version = crate::catalog::data_version(&mut inner)?;
        let moved;
        let pricing = if version == self.pricing_version {
            &self.pricing
        } else {
            moved = crate::cart::pricing::Pricing::at(&mut inner, version)?;
            &moved
        };
        let input = crate::cart::pricing::PriceInput {
            items,
            empties: &empties,
            place: &self.place,
            fulfillment: self.fulfillment,
            now: self.now,
            revision: self.submit.revision,
        };
        let priced = crate::cart::pricing::price(&mut inner, pricing, input)?;
        let summary = self.check_priced(&priced.answer)?;
        let online = self.submit.form.payment == PaymentChoice::Online;
        if online && summary.subtotal < crate::payments::checkout_session::MIN_AMOUNT {
            return Err(ApiError::Invalid {
                field: "payment",
                message: crate::payments::TOO_SMALL.into(),
            });
        }
        let mailed = self.may_mail(inner.conn)?;
        let order = self.row(summary, mailed);
        let items = item_rows(&priced.lines);
        let charges = charge_rows(&summary.deposits);
        let id = db::orders::insert(inner.conn, &order, &items, &charges)?;
        db::runs::add_containers(inner.conn, id, &container_rows(&priced.answer.empties))?;
        db::carts::clear(inner.conn, cart_id)?;
        db::carts::lock(inner.conn, cart_id, self.unix)?;
        // The mail goes with the order: both or neither.
        self.enqueue_mails(inner.conn, config, &order, id)?;
        Ok(Ok(id))
    }

    /// The cart as priced now, refused when checkout cannot take it or it comes to another
    /// total than the one the shopper saw.
    fn check_priced<'p>(
        &self,
        a: &'p crate::cart::pricing::CartAnswer,
    ) -> Result<&'p crate::cart::pricing::OrderSummary, ApiError> {
        if let Some(reason) = &a.checkout.reason {
            return Err(ApiError::Refused {
                status: 422,
                field: "cart",
                message: reason.clone(),
                products: a.unavailable.clone(),
            });
        }
        let total = a.cart_order_summary.subtotal;
        if self.submit.expected_total != total {
            return Err(ApiError::refused(
                409,
                "expected_total",
                format!(
                    "Your order now comes to {}: prices or fees changed. Check the order summary and submit again.",
                    domain::money::format_php(total)
                ),
            ));
        }
        Ok(&a.cart_order_summary)
    }

    /// Whether the order's confirmation is mailed now.
    ///
    /// The store mails whoever a guest names: at most 3 confirmations an address an hour,
    /// counted only for orders placed, so it is no way to mail strangers (docs/security.md:
    /// rate limits). Past that the order is still placed and its confirmation held: refusing the
    /// order would let anyone lock an address out of guest checkout.
    fn may_mail(&self, conn: &mut db::AnyConnection) -> Result<bool, ApiError> {
        if self.submit.member.is_some() {
            return Ok(true);
        }
        let key = format!("order mail:{}", self.checked.email.to_lowercase());
        let (sent, _) = db::limits::rate_count(conn, &key, self.unix, MAIL_WINDOW)?;
        Ok(sent <= MAILS_PER_ADDRESS)
    }

    /// The order's row, for the cart priced to `summary`.
    fn row(&self, summary: &crate::cart::pricing::OrderSummary, mailed: bool) -> OrderRow {
        let online = self.submit.form.payment == PaymentChoice::Online;
        let payment = if online {
            PAY_ONLINE
        } else {
            super::payment_of(self.fulfillment != domain::DEFAULT_FULFILLMENT)
        };
        let status = if online {
            Status::AwaitingPayment
        } else {
            Status::Placed
        };
        OrderRow {
            id: 0,
            user_id: self.submit.member.map(|m| m.id.get()),
            access_hash: framework::session::hash(&self.submit.access),
            idempotency_key: self.submit.key.clone(),
            status: status.as_str().into(),
            fulfillment_type_id: self.fulfillment.get(),
            fulfillment_name: self.fulfillment_name.clone(),
            payment: payment.into(),
            contact_name: self.checked.contact_name.clone(),
            mobile: self.checked.mobile.clone(),
            email: self.checked.email.clone(),
            address: self.checked.address.clone(),
            barangay_id: self.place.barangay.id.get(),
            street_id: self.street.as_ref().map(|s| s.id.get()),
            place: self.place_text.clone(),
            notes: self.checked.notes.clone(),
            items_total: summary.items_total,
            deposits_total: summary.deposits_total,
            delivery_fee: summary.delivery_fee,
            total: summary.subtotal,
            placed_at: self.unix,
            confirmation_mailed: mailed,
        }
    }

    /// Queues the shopper's confirmation (unless held) and the store's notice (when `ORDERS_TO`
    /// is set) of order `id`, as written.
    fn enqueue_mails(
        &self,
        conn: &mut db::AnyConnection,
        config: &framework::ApiConfig,
        order: &OrderRow,
        id: i64,
    ) -> Result<(), ApiError> {
        let full = db::orders::full(conn, id)?
            .ok_or_else(|| ApiError::Internal("order vanished".into()))?;
        let view = OrderView::from(full);
        let page = format!(
            "{}{}",
            self.base,
            link(&order_with_id(order, id), Some(&self.submit.access))
        );
        let mut mails = Vec::new();
        if order.confirmation_mailed {
            mails.push(Mail::render(
                "order_placed",
                &view.email,
                if order.payment == PAY_ONLINE {
                    format!("Your order {} waits for your payment", view.number)
                } else {
                    format!("Your order {} is placed", view.number)
                },
                &serde_json::json!({
                    "order": &view,
                    "link": page,
                    "money": money(&view),
                    "pay_within": config
                        .settings
                        .get::<crate::payments::PayMongo>()
                        .map(crate::payments::PayMongo::pay_within_minutes),
                }),
            )?);
        }
        framework::mail::enqueue(conn, &mails)?;
        // The store hears of an order paid online once it is paid (payments::online).
        if order.payment != PAY_ONLINE {
            notify_store(conn, config, &view)?;
        }
        Ok(())
    }
}

/// The place of `barangay`, which the store must serve, and the fulfillment the form asks for
/// (delivery when it names none), which the place's city must offer, with its name.
fn place_and_fulfillment(
    ctx: &mut Ctx,
    f: &OrderForm,
    barangay: BarangayId,
) -> Result<(Place, FulfillmentId, String), ApiError> {
    let place = crate::cart::place_of(ctx, barangay)?;
    if !place.served {
        return Err(ApiError::Invalid {
            field: "barangay",
            message: format!("We do not deliver to {} yet.", place.barangay.barangay_name),
        });
    }
    let fulfillment = f.fulfillment.unwrap_or(domain::DEFAULT_FULFILLMENT);
    let offered = crate::cart::offers(ctx, &place, fulfillment)?;
    let fulfillment_row = db::places::fulfillment_type(ctx.conn, fulfillment)?;
    let Some(fulfillment_row) = fulfillment_row.filter(|_| offered) else {
        return Err(ApiError::Invalid {
            field: "fulfillment",
            message: format!(
                "This choice of delivery or pickup is not offered in {}.",
                place.city.city_name
            ),
        });
    };
    Ok((place, fulfillment, fulfillment_row.name))
}

/// Where the order goes, as it keeps it: "street, barangay, city, province".
fn place_text(
    ctx: &mut Ctx,
    place: &Place,
    street: Option<&db::models::Street>,
) -> Result<String, ApiError> {
    let province = db::places::province(ctx.conn, place.city.province_id)?
        .map(|p| p.province_name)
        .unwrap_or_default();
    Ok(format!(
        "{}{}, {}, {province}",
        street
            .map(|s| format!("{}, ", s.street_name))
            .unwrap_or_default(),
        place.barangay.barangay_name,
        place.city.city_name,
    ))
}

/// The order's lines: each available item of the cart with its case type's name and amount.
fn item_rows(lines: &[(db::carts::Item, String, i64)]) -> Vec<OrderItemRow> {
    lines
        .iter()
        .enumerate()
        .map(|(n, (item, case_name, amount))| OrderItemRow {
            order_id: 0,
            line: n as i32 + 1,
            product_id: item.product.id.get(),
            product_name: item.product.product_name.clone(),
            sku: item.product.sku.clone(),
            case_name: case_name.clone(),
            unit_price: item.product.price,
            price_per_case: item.product.price_per_case,
            unit_per_case: item.product.unit_per_case,
            quantity: item.quantity,
            amount: *amount,
        })
        .collect()
}

/// The order's charges: the summary's deposit lines (returned empties negative).
fn charge_rows(deposits: &[NameAmount]) -> Vec<OrderChargeRow> {
    deposits
        .iter()
        .enumerate()
        .map(|(n, d)| OrderChargeRow {
            order_id: 0,
            line: n as i32 + 1,
            name: d.name.clone(),
            amount: d.amount,
        })
        .collect()
}

/// The containers the order lends, by kind, and the empties the shopper said they return: what
/// a delivery run loads and collects. Deposit rows of one kind (the Grande bottles of two
/// products, the 20 L kegs of three) count together, as the run loads them.
fn container_rows(empties: &[crate::cart::pricing::EmptiesLine]) -> Vec<db::runs::ContainerRow> {
    let mut rows: Vec<db::runs::ContainerRow> = Vec::new();
    for e in empties.iter().filter(|e| e.max_cases > 0) {
        match rows.iter_mut().find(|r| r.name == e.name) {
            Some(r) => {
                r.cases_out += e.max_cases;
                r.cases_back += e.returned;
            }
            None => rows.push(db::runs::ContainerRow {
                order_id: 0,
                name: e.name.clone(),
                cases_out: e.max_cases,
                cases_back: e.returned,
            }),
        }
    }
    rows
}

/// Whether a submit of a revision already placed is the placing one again (a retry, a double
/// click, two tabs): the member who placed it, or, for a guest's order, the same form and total.
/// Anything less (the browser's cart cookie and a revision counted through) learns nothing.
fn same_submit(f: &OrderForm, order: &OrderRow, member: Option<&db::users::UserRow>) -> bool {
    if let Some(owner) = order.user_id {
        return member.is_some_and(|m| m.id.get() == owner);
    }
    member.is_none()
        && f.expected_total == Some(order.total)
        && f.barangay.map(|b| b.get()) == Some(order.barangay_id)
        && f.street_id.map(|s| s.get()) == order.street_id
        && f.fulfillment.unwrap_or(domain::DEFAULT_FULFILLMENT).get() == order.fulfillment_type_id
        && f.contact_name.trim() == order.contact_name
        && domain::account::validate_mobile(&f.mobile).ok().as_deref() == Some(&*order.mobile)
        && domain::email::validate_email(&f.email).ok().as_deref() == Some(&*order.email)
        && f.address.trim() == order.address
        && f.notes.trim() == order.notes
        && (f.payment == PaymentChoice::Online) == (order.payment == PAY_ONLINE)
}

/// The order ends a browser's cart: the answer gives the browser a new cart token (its answers
/// to a retry too, whose first answer was lost), so the next person on a shared phone holds
/// nothing that reaches this order. The old cart stays, empty, so a retry that still sends the
/// old token is answered with its order. A cookie-less client's cart is its session's.
fn end_browser_cart(ctx: &mut Ctx, owner: &crate::cart::CartOwner) {
    if matches!(owner, crate::cart::CartOwner::Guest(_))
        && crate::cart::browser_cookie(ctx).0.is_some()
    {
        crate::cart::issue(ctx, framework::session::new_keyed_token());
    }
}

fn order_with_id(order: &OrderRow, id: i64) -> OrderRow {
    OrderRow {
        id,
        ..order.clone()
    }
}

fn answer_placed(
    ctx: &mut Ctx,
    id: i64,
    key: Option<&str>,
    placed: bool,
) -> Result<PlacedOrder, ApiError> {
    let full = db::orders::full(ctx.conn, id)?
        .ok_or_else(|| ApiError::Internal("order vanished".into()))?;
    let link = link(&full.order, key);
    let order = OrderView::from(full);
    let mut message = if order.status == Status::AwaitingPayment.as_str() {
        format!("Your order {} waits for your payment online.", order.number)
    } else {
        format!("Thank you! Your order {} is placed.", order.number)
    };
    if !order.confirmation_mailed {
        message.push_str(&format!(
            " We did not mail its confirmation: {} has had {MAILS_PER_ADDRESS} order confirmations from us in the last hour. Keep this order's link: it is how you come back to it.",
            order.email
        ));
    }
    Ok(PlacedOrder {
        message,
        order,
        link,
        placed,
        pay_url: None,
    })
}
