//! Dispatch: a run takes delivery orders out with a rider; each stop ends delivered or failed,
//! and the run is reconciled: the cash each delivered order should bring (its total: delivery
//! orders are paid in cash on delivery) against the cash the rider reported and handed in, and
//! the empty cases the shoppers said they return against those the rider took back.
//!
//! Decided here: a failed stop brings nothing (no cash, no empties expected) and its order goes
//! back to `confirmed`, to wait for another run or a cancellation ([`crate::ordering::Status`]
//! moves only forward otherwise: this is the one step back, taken only by a failed stop). A
//! stop's outcome, once given, is final; a mistake shows as a difference in the reconciliation,
//! where the dispatcher sees it and writes a note on the order.
//!
//! A run closes on the cash its rider hands in, counted by the dispatcher, measured against the
//! cash the run expects (its delivered orders' totals), not against what the rider reported: the
//! store is owed the orders' totals, and the rider's report is a count of the same kind as the one
//! it would check (a stop reported short is cash the store is short of all the same). When the two
//! differ, the run closes only with a note saying why ([`close_refusal`]).

/// How a stop ended (`pending` until the rider says).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "contract", derive(ts_rs::TS, utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Pending,
    Delivered,
    Failed,
}

impl Outcome {
    pub const ALL: [Self; 3] = [Self::Pending, Self::Delivered, Self::Failed];

    /// As stored and sent.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Delivered => "delivered",
            Self::Failed => "failed",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|o| o.as_str() == s)
    }
}

/// Why a delivery failed: the rider chooses one (and may add a note).
pub const FAILURE_REASONS: [&str; 6] = [
    "Nobody at the address",
    "Address not found",
    "Could not show proof of age (18 or older)",
    "Refused the order",
    "Could not pay",
    "Ran out of time",
];

/// The longest note a rider adds to a stop.
pub const MAX_STOP_NOTE: usize = 300;
/// The most empty cases one stop may report.
pub const MAX_EMPTIES: i32 = 999;
/// The most orders one run takes.
pub const MAX_STOPS: usize = 60;
/// The longest note a dispatcher gives when a run closes on cash that differs.
pub const MAX_CLOSE_NOTE: usize = 500;

/// A difference of cash told as the staff read it (`short by P20.00`, `over by P5.00`), or none.
pub fn short_or_over(difference: i64) -> Option<String> {
    let by = crate::money::format_php(difference.abs());
    match difference {
        0 => None,
        d if d < 0 => Some(format!("short by {by}")),
        _ => Some(format!("over by {by}")),
    }
}

/// Why a run may not close on `handed_in` (centavos) with `note`: the cash differs from what the
/// run `expects` and no note says why. None when it may.
pub fn close_refusal(handed_in: i64, expects: i64, note: &str) -> Option<String> {
    let off = short_or_over(handed_in - expects)?;
    note.trim().is_empty().then(|| {
        format!(
            "The cash is {off} of what the run expects ({}): say why in a note to close the run.",
            crate::money::format_php(expects)
        )
    })
}

/// One stop's figures, as the reconciliation reads them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StopFigures {
    pub outcome: Outcome,
    /// The cash to collect (centavos): the order's total, less what was paid online.
    pub total: i64,
    /// The empty cases its shopper said they return.
    pub empties_expected: i32,
    /// What the rider reported (a delivered stop).
    pub cash_received: Option<i64>,
    pub empties_returned: Option<i32>,
}

impl StopFigures {
    /// The cash this stop should bring: its total when delivered or still on the way, none
    /// when it failed.
    pub fn cash_expected(&self) -> i64 {
        match self.outcome {
            Outcome::Failed => 0,
            _ => self.total,
        }
    }

    /// The empty cases this stop should bring back.
    pub fn empties_due(&self) -> i32 {
        match self.outcome {
            Outcome::Failed => 0,
            _ => self.empties_expected,
        }
    }

    /// What is wrong with a delivered stop's report, as the dispatcher reads it: cash short or
    /// over, empties missing or more than expected. None for a pending or failed stop.
    pub fn differences(&self) -> Vec<String> {
        if self.outcome != Outcome::Delivered {
            return Vec::new();
        }
        let mut out = Vec::new();
        let cash = self.cash_received.unwrap_or(0) - self.total;
        if cash < 0 {
            out.push(format!("Cash short by {}", crate::money::format_php(-cash)));
        } else if cash > 0 {
            out.push(format!("Cash over by {}", crate::money::format_php(cash)));
        }
        let empties = self.empties_returned.unwrap_or(0) - self.empties_expected;
        if empties < 0 {
            out.push(format!("{} empty case(s) missing", -empties));
        } else if empties > 0 {
            out.push(format!("{empties} empty case(s) more than expected"));
        }
        out
    }
}

/// A run's (or a day's) figures summed over its stops.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    pub stops: usize,
    pub delivered: usize,
    pub failed: usize,
    pub pending: usize,
    pub cash_expected: i64,
    pub cash_reported: i64,
    pub empties_expected: i64,
    pub empties_returned: i64,
}

/// The figures of `stops`, summed.
pub fn totals(stops: &[StopFigures]) -> Totals {
    let mut t = Totals {
        stops: stops.len(),
        ..Totals::default()
    };
    for s in stops {
        match s.outcome {
            Outcome::Pending => t.pending += 1,
            Outcome::Delivered => t.delivered += 1,
            Outcome::Failed => t.failed += 1,
        }
        t.cash_expected += s.cash_expected();
        t.cash_reported += s.cash_received.unwrap_or(0);
        t.empties_expected += i64::from(s.empties_due());
        t.empties_returned += i64::from(s.empties_returned.unwrap_or(0));
    }
    t
}

/// The order of a run's stops by default: grouped by barangay (its name and city, in the order
/// of their names, never an address's street), oldest order first within one. Answers the indexes
/// of `stops` (barangay, order id) in that order.
pub fn by_barangay(stops: &[(&str, i64)]) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..stops.len()).collect();
    idx.sort_by(|a, b| {
        let (pa, ia) = stops[*a];
        let (pb, ib) = stops[*b];
        pa.to_lowercase().cmp(&pb.to_lowercase()).then(ia.cmp(&ib))
    });
    idx
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stop(
        outcome: Outcome,
        total: i64,
        expected: i32,
        cash: Option<i64>,
        back: Option<i32>,
    ) -> StopFigures {
        StopFigures {
            outcome,
            total,
            empties_expected: expected,
            cash_received: cash,
            empties_returned: back,
        }
    }

    #[test]
    fn a_delivered_stop_names_each_difference() {
        let right = stop(Outcome::Delivered, 125_000, 2, Some(125_000), Some(2));
        assert!(right.differences().is_empty());
        let short = stop(Outcome::Delivered, 125_000, 2, Some(120_000), Some(1));
        assert_eq!(
            short.differences(),
            ["Cash short by P50.00", "1 empty case(s) missing"]
        );
        let over = stop(Outcome::Delivered, 125_000, 0, Some(130_000), Some(3));
        assert_eq!(
            over.differences(),
            ["Cash over by P50.00", "3 empty case(s) more than expected"]
        );
        // A failed or pending stop has nothing to reconcile.
        assert!(stop(Outcome::Failed, 125_000, 2, None, None)
            .differences()
            .is_empty());
        assert!(stop(Outcome::Pending, 125_000, 2, None, None)
            .differences()
            .is_empty());
    }

    #[test]
    fn a_run_closes_on_cash_that_differs_only_with_a_note() {
        assert_eq!(close_refusal(150_000, 150_000, ""), None);
        assert_eq!(
            close_refusal(148_000, 150_000, " "),
            Some(
                "The cash is short by P20.00 of what the run expects (P1,500.00): say why in a \
                 note to close the run."
                    .into()
            )
        );
        assert_eq!(
            close_refusal(150_500, 150_000, "").as_deref(),
            Some("The cash is over by P5.00 of what the run expects (P1,500.00): say why in a note to close the run.")
        );
        assert_eq!(close_refusal(148_000, 150_000, "Counted twice"), None);
        assert_eq!(short_or_over(0), None);
        assert_eq!(short_or_over(-2_000).as_deref(), Some("short by P20.00"));
    }

    #[test]
    fn a_failed_stop_brings_nothing_and_a_pending_one_is_still_due() {
        let t = totals(&[
            stop(Outcome::Delivered, 100_000, 1, Some(100_000), Some(1)),
            stop(Outcome::Failed, 50_000, 2, None, None),
            stop(Outcome::Pending, 30_000, 1, None, None),
        ]);
        assert_eq!(
            t,
            Totals {
                stops: 3,
                delivered: 1,
                failed: 1,
                pending: 1,
                cash_expected: 130_000,
                cash_reported: 100_000,
                empties_expected: 2,
                empties_returned: 1,
            }
        );
    }

    #[test]
    fn stops_group_by_barangay_then_age() {
        let stops = [
            ("San Lorenzo, Makati", 9),
            ("Bel-Air, Makati", 12),
            ("bel-air, Makati", 3),
            ("Poblacion, Makati", 1),
        ];
        assert_eq!(by_barangay(&stops), [2, 1, 3, 0]);
    }

    #[test]
    fn an_outcome_reads_as_it_is_written() {
        for o in Outcome::ALL {
            assert_eq!(Outcome::parse(o.as_str()), Some(o));
            let read: Outcome = serde_json::from_value(serde_json::json!(o.as_str())).unwrap();
            assert_eq!(read, o);
        }
    }
}
