//! The Checkout Session an order paid online asks PayMongo for (`POST /v2/checkout_sessions`): the
//! order's lines, deposits and delivery fee in centavos, adding up to its total exactly; its
//! number as the reference PayMongo's dashboard and the day report match on; the methods the
//! manager turned on; and the order's own page to come back to, paid or not. The store learns the
//! payment from the webhook alone, so both addresses lead to the same page, which says what is
//! known.

use serde_json::{json, Value};

use crate::orders::OrderView;

/// PayMongo's smallest payment: ₱20.00.
pub const MIN_AMOUNT: i64 = 2000;

/// Why an order cannot be paid online.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum NotPayable {
    #[error("an order under ₱20.00 cannot be paid online")]
    TooSmall,
}

/// One line PayMongo shows the shopper.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Line {
    name: String,
    /// Centavos for one.
    amount: i64,
    quantity: i64,
}

/// The order's lines as PayMongo takes them (each amount positive): a line a product (by the
/// case when its amount divides by its cases), a deposit, the delivery fee. An order with a credit
/// (empties returned) or lines that do not add up to its total is one line of its total: what
/// the shopper pays is always the order's total, to the centavo.
fn lines(order: &OrderView) -> Vec<Line> {
    let mut lines: Vec<Line> = order
        .items
        .iter()
        .map(|i| {
            let cases = i64::from(i.quantity);
            let by_case = cases > 0 && i.amount % cases == 0;
            Line {
                name: format!("{} ({})", i.product_name, i.case_name),
                amount: if by_case { i.amount / cases } else { i.amount },
                quantity: if by_case { cases } else { 1 },
            }
        })
        .collect();
    lines.extend(order.deposits.iter().map(|d| Line {
        name: d.name.clone(),
        amount: d.amount,
        quantity: 1,
    }));
    if order.delivery_fee > 0 {
        lines.push(Line {
            name: "Delivery fee".into(),
            amount: order.delivery_fee,
            quantity: 1,
        });
    }
    let sum: i64 = lines.iter().map(|l| l.amount * l.quantity).sum();
    if sum != order.total || lines.iter().any(|l| l.amount <= 0) {
        return vec![Line {
            name: format!("Tala Brewing Co. order {}", order.number),
            amount: order.total,
            quantity: 1,
        }];
    }
    lines
}

/// The request's body for `order`, whose page is `link` (with a guest's key) on the store at
/// `public_url`, payable by `methods`.
pub fn request(
    order: &OrderView,
    link: &str,
    public_url: &str,
    methods: &[&str],
) -> Result<Value, NotPayable> {
    if order.total < MIN_AMOUNT {
        return Err(NotPayable::TooSmall);
    }
    let page = format!("{public_url}{link}");
    let line_items: Vec<Value> = lines(order)
        .into_iter()
        .map(|l| {
            json!({
                "name": l.name,
                "amount": l.amount,
                "currency": "PHP",
                "quantity": l.quantity,
            })
        })
        .collect();
    Ok(json!({
        "data": {
            "attributes": {
                "line_items": line_items,
                "payment_method_types": methods,
                "reference_number": order.number,
                "description": format!("Tala Brewing Co. order {}", order.number),
                "success_url": page,
                "cancel_url": page,
                "billing": {
                    "name": order.contact_name,
                    "email": order.email,
                    "phone": order.mobile,
                },
                "send_email_receipt": false,
                "show_description": true,
                "show_line_items": true,
                "metadata": { "order_id": order.id.to_string() },
            }
        }
    }))
}

/// The idempotency key of the `attempt`th session made for `order`: a creation sent again (its
/// answer lost) makes one session, and paying again after one expired makes a new one. The minute
/// the order was placed is part of it: PayMongo keeps keys for a day across the account, and a
/// store whose database was restored, or a second store on the same account, gives the same ids
/// to other orders.
pub fn idempotency_key(order: &OrderView, attempt: u32) -> String {
    let placed: String = order
        .placed_at
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    format!("tala-order-{}-{placed}-session-{attempt}", order.id)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::pricing::NameAmount;
    use crate::orders::OrderItemView;

    fn item(name: &str, cases: i32, amount: i64) -> OrderItemView {
        OrderItemView {
            product_id: 1,
            product_name: name.into(),
            sku: "SKU".into(),
            case_name: "case of 24".into(),
            unit_price: 0,
            price_per_case: amount / i64::from(cases.max(1)),
            quantity: cases,
            amount,
        }
    }

    fn order(items: Vec<OrderItemView>, deposits: Vec<(&str, i64)>, fee: i64) -> OrderView {
        let deposits: Vec<NameAmount> = deposits
            .into_iter()
            .map(|(name, amount)| NameAmount {
                name: name.into(),
                amount,
            })
            .collect();
        let items_total = items.iter().map(|i| i.amount).sum::<i64>();
        let deposits_total = deposits.iter().map(|d| d.amount).sum::<i64>();
        OrderView {
            id: 123,
            number: "TB-000123".into(),
            status: "placed".into(),
            status_label: "Placed".into(),
            placed_at: "2026-11-24 14:00".into(),
            fulfillment_id: 1,
            fulfillment: "Delivery".into(),
            payment: "Cash on delivery".into(),
            contact_name: "Ana Santos".into(),
            mobile: "09171234567".into(),
            email: "ana@example.ph".into(),
            address: "Unit 5B".into(),
            place: "Bel-Air, Makati City".into(),
            notes: String::new(),
            items,
            items_total,
            deposits,
            deposits_total,
            delivery_fee: fee,
            total: items_total + deposits_total + fee,
            history: vec![],
            confirmation_mailed: true,
        }
    }

    fn total_of(body: &Value) -> i64 {
        body["data"]["attributes"]["line_items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|l| l["amount"].as_i64().unwrap() * l["quantity"].as_i64().unwrap())
            .sum()
    }

    #[test]
    fn an_order_is_asked_for_line_by_line_to_the_centavo() {
        let o = order(
            vec![
                item("Tala Pale Pilsen 320 ml", 2, 237_600),
                item("Bangkal IPA", 1, 140_000),
            ],
            vec![("Bottle deposit", 28_800)],
            15_000,
        );
        let body = request(
            &o,
            "/active-order/123?key=k",
            "https://tala.example",
            &["gcash", "qrph"],
        )
        .unwrap();
        let a = &body["data"]["attributes"];
        assert_eq!(total_of(&body), o.total);
        assert_eq!(
            a["line_items"][0]["name"],
            "Tala Pale Pilsen 320 ml (case of 24)"
        );
        assert_eq!(
            (
                a["line_items"][0]["amount"].as_i64(),
                a["line_items"][0]["quantity"].as_i64()
            ),
            (Some(118_800), Some(2))
        );
        assert_eq!(a["line_items"][3]["name"], "Delivery fee");
        assert!(a["line_items"]
            .as_array()
            .unwrap()
            .iter()
            .all(|l| l["currency"] == "PHP"));
        assert_eq!(a["reference_number"], "TB-000123");
        assert_eq!(a["payment_method_types"], json!(["gcash", "qrph"]));
        assert_eq!(
            a["success_url"],
            "https://tala.example/active-order/123?key=k"
        );
        assert_eq!(a["cancel_url"], a["success_url"]);
        assert_eq!(a["metadata"]["order_id"], "123");
        assert_eq!(a["billing"]["phone"], "09171234567");
    }

    #[test]
    fn a_credit_or_an_odd_amount_is_one_line_of_the_total() {
        // Empties returned: a negative line PayMongo would refuse.
        let o = order(
            vec![item("Tala Light", 1, 120_000)],
            vec![("Empties returned", -9_600)],
            0,
        );
        let body = request(&o, "/active-order/123", "https://tala.example", &["card"]).unwrap();
        let items = body["data"]["attributes"]["line_items"].as_array().unwrap();
        assert_eq!(items.len(), 1);
        assert_eq!(items[0]["name"], "Tala Brewing Co. order TB-000123");
        assert_eq!(total_of(&body), 110_400);
        // A product's amount that does not divide by its cases is one line of it.
        let o = order(vec![item("Keg", 3, 100_001)], vec![], 0);
        let body = request(&o, "/active-order/123", "https://tala.example", &["card"]).unwrap();
        assert_eq!(body["data"]["attributes"]["line_items"][0]["quantity"], 1);
        assert_eq!(total_of(&body), 100_001);
    }

    #[test]
    fn an_order_under_twenty_pesos_is_not_payable_online() {
        let o = order(vec![item("Sample", 1, 1_999)], vec![], 0);
        assert_eq!(
            request(&o, "/x", "https://t", &["gcash"]),
            Err(NotPayable::TooSmall)
        );
    }

    #[test]
    fn each_attempt_has_its_own_key_and_a_repeat_the_same() {
        let o = order(vec![item("Keg", 1, 500_000)], vec![], 0);
        assert_eq!(idempotency_key(&o, 1), idempotency_key(&o, 1));
        assert_eq!(
            idempotency_key(&o, 1),
            "tala-order-123-202611241400-session-1"
        );
        assert_ne!(idempotency_key(&o, 1), idempotency_key(&o, 2));
        let other = OrderView {
            id: 124,
            ..o.clone()
        };
        assert_ne!(idempotency_key(&o, 1), idempotency_key(&other, 1));
        // The same id given again to another order (a database restored): another key.
        let again = OrderView {
            placed_at: "2026-12-01 09:30".into(),
            ..o.clone()
        };
        assert_ne!(idempotency_key(&o, 1), idempotency_key(&again, 1));
    }
}
