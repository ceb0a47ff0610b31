//! Reading orders: one order (a member's, or a guest's by its link's key) and a member's list.

use super::*;

framework::register!(OrderGet, MyOrders);

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct OrderPath {
    #[serde(rename = "orderId")]
    #[param(rename = "orderId")]
    pub order_id: i64,
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OrderKey {
    /// A guest's key from the order's link.
    pub key: Option<String>,
}

framework::declare!(
    /// `GET /api/v1/orders/{orderId}`.
    pub struct OrderGet = Get "/api/v1/orders/{orderId}" as "order", Session, errors [404],
    (OrderPath, OrderKey, framework::endpoint::NoBody) -> OrderView,
    "One order: the member's own, or a guest's with the key of its link; any other is not found.");

impl Endpoint for OrderGet {
    const LINKS: &'static [framework::endpoint::Link] = &[
        framework::endpoint::Link {
            from: "placeOrder",
            name: "GetOrder",
            params: &[("orderId", "$response.body#/order/id")],
            body: None,
        },
        framework::endpoint::Link {
            from: "myOrders",
            name: "GetOrder",
            params: &[("orderId", "$response.body#/orders/0/id")],
            body: None,
        },
    ];

    fn call(ctx: &mut Ctx, (p, q, _, _): Args<Self>) -> Result<OrderView, ApiError> {
        visible(ctx, p.order_id, q.key.as_deref()).map(OrderView::from)
    }
}

/// An order the request may see: the member's own, or one whose link's key it gives; any other
/// is the 404 of an unknown order.
pub(crate) fn visible(ctx: &mut Ctx, id: i64, key: Option<&str>) -> Result<FullOrder, ApiError> {
    let missing = || ApiError::NotFound(format!("Order {id} not found."));
    let Some(full) = db::orders::full(ctx.conn, id)? else {
        return Err(missing());
    };
    // Only a guest's order has a link with a key; a member's opens with their session alone.
    let by_key = full.order.user_id.is_none()
        && key.is_some_and(|k| {
            k.len() == 40 && framework::session::hash(k) == full.order.access_hash
        });
    let mine = match full.order.user_id {
        Some(owner) => ctx.session_member()?.1.is_some_and(|m| m.id.get() == owner),
        None => false,
    };
    if by_key || mine {
        Ok(full)
    } else {
        Err(missing())
    }
}

/// The last page of My Orders asked for (the query states it too:
/// `tests::the_page_query_states_the_constant`).
pub const MAX_PAGE: i64 = 1_000_000;

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PageQuery {
    /// From 1 (a page past the last is empty).
    #[param(minimum = 1, maximum = 1_000_000)]
    pub page: Option<i64>,
}

framework::declare!(
    /// `GET /api/v1/user/orders`.
    pub struct MyOrders = Get "/api/v1/user/orders" as "myOrders", Session, errors [401],
    (NoParams, PageQuery, framework::endpoint::NoBody) -> OrderList,
    "The member's orders, newest first, ten a page.");

impl Endpoint for MyOrders {
    fn call(ctx: &mut Ctx, (_, q, _, _): Args<Self>) -> Result<OrderList, ApiError> {
        let member = ctx.member()?;
        let page = q.page.unwrap_or(1);
        if !(1..=MAX_PAGE).contains(&page) {
            return Err(ApiError::BadRequest(format!(
                "page must be a whole number from 1 to {MAX_PAGE}."
            )));
        }
        let (rows, total) =
            db::orders::of_member(ctx.conn, member.id, (page - 1) * PAGE_SIZE, PAGE_SIZE)?;
        let mut orders = Vec::new();
        for row in rows {
            if let Some(full) = db::orders::full(ctx.conn, row.id)? {
                orders.push(full.into());
            }
        }
        Ok(OrderList {
            orders,
            page,
            pages: (total + PAGE_SIZE - 1) / PAGE_SIZE,
            total,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The page's parameter states the limit the call checks (see
    /// `catalog::tests::the_lists_query_states_the_constants`).
    #[test]
    fn the_page_query_states_the_constant() {
        let params = <PageQuery as IntoParams>::into_params(|| None);
        let page = params.iter().find(|p| p.name == "page").unwrap();
        assert_eq!(
            serde_json::to_value(&page.schema).unwrap()["maximum"],
            MAX_PAGE
        );
    }
}
