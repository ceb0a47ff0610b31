//! When orders are taken and how an order moves, in business time (Asia/Manila): checkout is
//! open within the operating hours and outside every blackout window; an order's status moves
//! only forward, to its fulfillment's own steps, or to cancelled.
//!
//! Decided here, where "08:00-22:00" or "from ... to ..., inclusive" alone leaves it open:
//! operating hours include their opening minute and exclude their closing one (08:00-22:00 takes
//! 21:59, not 22:00); a blackout window is inclusive at both ends at minute precision (the seeded
//! window: 2025-05-10 20:00 to 2025-05-13 08:00, inclusive), so seconds never decide (08:00:59 on
//! the 13th is still in the window; 08:01 is not).

use time::{PrimitiveDateTime, Time};

/// A blackout window: no orders from `start` to `end`, both minutes included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Blackout {
    pub start: PrimitiveDateTime,
    pub end: PrimitiveDateTime,
}

/// Why checkout is closed now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Closed {
    /// Outside the operating hours (they open and close at these times).
    Hours { opens: Time, closes: Time },
    /// Within a blackout window (it ends at this minute, included).
    Blackout { until: PrimitiveDateTime },
}

impl Closed {
    /// The words the checkout shows.
    pub fn message(&self) -> String {
        let hm = time::macros::format_description!("[hour]:[minute]");
        let day = time::macros::format_description!("[month repr:long] [day padding:none], [year]");
        match self {
            Self::Hours { opens, closes } => format!(
                "We take orders from {} to {} (Manila time). Please come back then.",
                opens.format(&hm).unwrap_or_default(),
                closes.format(&hm).unwrap_or_default()
            ),
            Self::Blackout { until } => format!(
                "We are not taking orders until {} {} (Manila time).",
                until.date().format(&day).unwrap_or_default(),
                until.time().format(&hm).unwrap_or_default()
            ),
        }
    }
}

/// The minute `t` falls in (seconds and below dropped).
fn minute(t: PrimitiveDateTime) -> PrimitiveDateTime {
    t.replace_second(0)
        .and_then(|t| t.replace_nanosecond(0))
        .unwrap_or(t)
}

/// Whether checkout takes an order at `now` (Manila time): `None`, or why not. A blackout is
/// named before the hours (it says when orders come back).
pub fn closed(
    now: PrimitiveDateTime,
    opens: Time,
    closes: Time,
    blackouts: &[Blackout],
) -> Option<Closed> {
    let at = minute(now);
    if let Some(b) = blackouts
        .iter()
        .find(|b| minute(b.start) <= at && at <= minute(b.end))
    {
        return Some(Closed::Blackout { until: b.end });
    }
    let time = at.time();
    let open = if opens <= closes {
        opens <= time && time < closes
    } else {
        // Hours across midnight (22:00-02:00).
        time >= opens || time < closes
    };
    (!open).then_some(Closed::Hours { opens, closes })
}

/// How an order is fulfilled.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fulfillment {
    Delivery,
    Pickup,
}

/// An order's status; read and written as [`Status::as_str`] says (`out_for_delivery`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Deserialize)]
#[cfg_attr(feature = "contract", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Paid online, its payment not yet reported by the gateway: nobody prepares it until it is
    /// paid (it then becomes [`Status::Placed`]), and it is cancelled if it never is.
    AwaitingPayment,
    Placed,
    Confirmed,
    OutForDelivery,
    ReadyForPickup,
    Completed,
    Cancelled,
}

impl Status {
    pub const ALL: [Self; 7] = [
        Self::AwaitingPayment,
        Self::Placed,
        Self::Confirmed,
        Self::OutForDelivery,
        Self::ReadyForPickup,
        Self::Completed,
        Self::Cancelled,
    ];

    /// As stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::AwaitingPayment => "awaiting_payment",
            Self::Placed => "placed",
            Self::Confirmed => "confirmed",
            Self::OutForDelivery => "out_for_delivery",
            Self::ReadyForPickup => "ready_for_pickup",
            Self::Completed => "completed",
            Self::Cancelled => "cancelled",
        }
    }

    /// The status an order in this one takes when its online payment is reported: placed, from
    /// awaiting payment alone (a payment for an order already placed, cancelled or further on
    /// is not its payment: staff refund it).
    pub fn paid(self) -> Option<Self> {
        (self == Self::AwaitingPayment).then_some(Self::Placed)
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|st| st.as_str() == s)
    }

    /// Whether staff may move an order of `fulfillment` from this status to `next`: forward one
    /// step (delivery goes out for delivery, pickup gets ready for pickup), or cancelled before it
    /// is completed; completed and cancelled are final. An order awaiting payment becomes placed
    /// only by its payment ([`Status::paid`]), never by hand.
    pub fn can_become(self, next: Self, fulfillment: Fulfillment) -> bool {
        use Status::*;
        let on_the_way = match fulfillment {
            Fulfillment::Delivery => OutForDelivery,
            Fulfillment::Pickup => ReadyForPickup,
        };
        match (self, next) {
            (Completed | Cancelled, _) => false,
            (_, Cancelled) => true,
            (AwaitingPayment, _) => false,
            (Placed, Confirmed) => true,
            (Confirmed, n) => n == on_the_way,
            (s, Completed) => s == on_the_way,
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_status_reads_as_it_is_written() {
        for s in Status::ALL {
            let read: Status = serde_json::from_value(serde_json::json!(s.as_str())).unwrap();
            assert_eq!(read, s);
        }
    }
    use proptest::prelude::*;
    use time::macros::{datetime, time};

    const OPENS: Time = time!(08:00);
    const CLOSES: Time = time!(22:00);

    fn may_2025() -> Blackout {
        Blackout {
            start: datetime!(2025-05-10 20:00),
            end: datetime!(2025-05-13 08:00),
        }
    }

    #[test]
    fn the_blackout_is_inclusive_to_the_minute() {
        let b = [may_2025()];
        let at = |t| closed(t, OPENS, CLOSES, &b);
        assert_eq!(at(datetime!(2025-05-10 19:59:59)), None);
        assert!(matches!(
            at(datetime!(2025-05-10 20:00)),
            Some(Closed::Blackout { .. })
        ));
        assert!(matches!(
            at(datetime!(2025-05-12 12:00)),
            Some(Closed::Blackout { .. })
        ));
        // 08:00 on the 13th is in the window, whatever its seconds; 08:01 is open.
        assert!(matches!(
            at(datetime!(2025-05-13 08:00:59)),
            Some(Closed::Blackout { .. })
        ));
        assert_eq!(at(datetime!(2025-05-13 08:01)), None);
        assert_eq!(
            at(datetime!(2025-05-11 03:00)).unwrap().message(),
            "We are not taking orders until May 13, 2025 08:00 (Manila time)."
        );
    }

    #[test]
    fn hours_take_the_opening_minute_not_the_closing_one() {
        let at = |t| closed(t, OPENS, CLOSES, &[]);
        assert!(at(datetime!(2026-11-23 07:59:59)).is_some());
        assert_eq!(at(datetime!(2026-11-23 08:00)), None);
        assert_eq!(at(datetime!(2026-11-23 21:59:59)), None);
        let shut = at(datetime!(2026-11-23 22:00)).unwrap();
        assert_eq!(
            shut.message(),
            "We take orders from 08:00 to 22:00 (Manila time). Please come back then."
        );
        // Hours across midnight.
        let late = |t| closed(t, time!(22:00), time!(02:00), &[]);
        assert_eq!(late(datetime!(2026-11-23 23:30)), None);
        assert_eq!(late(datetime!(2026-11-24 01:59)), None);
        assert!(late(datetime!(2026-11-24 02:00)).is_some());
    }

    #[test]
    fn orders_move_forward_along_their_fulfillment() {
        use Fulfillment::*;
        use Status::*;
        assert!(Placed.can_become(Confirmed, Delivery));
        assert!(Confirmed.can_become(OutForDelivery, Delivery));
        assert!(!Confirmed.can_become(ReadyForPickup, Delivery));
        assert!(Confirmed.can_become(ReadyForPickup, Pickup));
        assert!(OutForDelivery.can_become(Completed, Delivery));
        assert!(!Placed.can_become(Completed, Delivery), "no skipping");
        assert!(!Confirmed.can_become(Placed, Pickup), "no going back");
        assert!(Placed.can_become(Cancelled, Pickup));
        assert!(!Completed.can_become(Cancelled, Pickup));
        assert!(!Cancelled.can_become(Confirmed, Pickup));
        assert!(
            !AwaitingPayment.can_become(Placed, Delivery),
            "paid only by its payment"
        );
        assert!(!AwaitingPayment.can_become(Confirmed, Delivery));
        assert!(AwaitingPayment.can_become(Cancelled, Delivery));
        assert_eq!(AwaitingPayment.paid(), Some(Placed));
        for s in Status::ALL.into_iter().filter(|s| *s != AwaitingPayment) {
            assert_eq!(s.paid(), None, "{s:?}");
        }
        for s in Status::ALL {
            assert_eq!(Status::parse(s.as_str()), Some(s));
        }
        assert_eq!(Status::parse("shipped"), None);
    }

    fn status() -> impl Strategy<Value = Status> {
        prop::sample::select(Status::ALL.to_vec())
    }

    fn fulfillment() -> impl Strategy<Value = Fulfillment> {
        prop::sample::select(vec![Fulfillment::Delivery, Fulfillment::Pickup])
    }

    proptest! {
        #[test]
        fn no_status_returns_to_itself_or_leaves_an_end(a in status(), b in status(), f in fulfillment()) {
            prop_assert!(!a.can_become(a, f));
            if matches!(a, Status::Completed | Status::Cancelled) {
                prop_assert!(!a.can_become(b, f));
            }
            // Every move goes forward in the order of the steps (never back to an earlier one).
            if a.can_become(b, f) {
                prop_assert!(b > a);
            }
        }

        #[test]
        fn seconds_never_decide(day in 0i64..400, minute_of_day in 0i64..1440, second in 0u8..60) {
            let base = datetime!(2025-01-01 00:00) + time::Duration::days(day) + time::Duration::minutes(minute_of_day);
            let with_seconds = base.replace_second(second).unwrap();
            let b = [may_2025()];
            prop_assert_eq!(closed(base, OPENS, CLOSES, &b), closed(with_seconds, OPENS, CLOSES, &b));
        }
    }
}
