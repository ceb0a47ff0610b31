//! How a refund of an online payment is named and where it stands, as the refund call, an
//! order's page and the day report say it: PayMongo's reasons ([`RefundReason`]) and the refund's
//! states (`asking`, `pending`, `succeeded`, `failed`).

use serde::Serialize;

/// PayMongo's reasons for a refund, as its refund call takes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RefundReason {
    /// The shopper paid twice.
    Duplicate,
    Fraudulent,
    /// The shopper asked for it (or the order was cancelled).
    RequestedByCustomer,
    Others,
}

impl RefundReason {
    pub const ALL: [RefundReason; 4] = [
        Self::Duplicate,
        Self::Fraudulent,
        Self::RequestedByCustomer,
        Self::Others,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Duplicate => "duplicate",
            Self::Fraudulent => "fraudulent",
            Self::RequestedByCustomer => "requested_by_customer",
            Self::Others => "others",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|r| r.as_str() == s)
    }

    /// As the back office says it.
    pub fn label(self) -> &'static str {
        match self {
            Self::Duplicate => "Paid twice",
            Self::Fraudulent => "Fraudulent",
            Self::RequestedByCustomer => "The shopper asked",
            Self::Others => "Another reason",
        }
    }
}

framework::export_const!(
    /// PayMongo's reasons for a refund (the refund form's `reason`), each as the back office
    /// says it.
    REFUND_REASONS = RefundReason::ALL.map(|r| serde_json::json!({"value": r.as_str(), "label": r.label()}))
);

/// Who asked for a refund, when their member of staff is gone.
pub const FORMER_STAFF: &str = "a former member of staff";

/// A kept reason (PayMongo's spelling) as the back office says it; one it does not know as kept.
pub fn reason_label(code: &str) -> String {
    RefundReason::parse(code).map_or_else(|| code.to_string(), |r| r.label().into())
}

/// The longest note PayMongo keeps with a refund.
pub const MAX_REFUND_NOTES: usize = 255;

framework::export_const!(
    /// The longest note PayMongo keeps with a refund.
    MAX_REFUND_NOTES = MAX_REFUND_NOTES
);

/// The refund states the back office names.
pub fn state_label(state: &str, detail: &str) -> String {
    match state {
        "asking" => "Asked for; PayMongo's answer is not known yet: ask again".into(),
        "pending" => "Refund pending at PayMongo".into(),
        "succeeded" => "Refunded".into(),
        _ if detail.is_empty() => "Refund failed".into(),
        _ => format!("Refund failed: {detail}"),
    }
}

/// Whether a refund in `state` stands (made, or being made): not asked again.
pub fn stands(state: &str) -> bool {
    matches!(state, "pending" | "succeeded")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reasons_are_paymongos() {
        for r in RefundReason::ALL {
            assert_eq!(RefundReason::parse(r.as_str()), Some(r));
            let json = serde_json::to_value(r).unwrap();
            assert_eq!(json, r.as_str(), "as the contract spells it");
        }
        assert_eq!(RefundReason::parse("requested_by_customer "), None);
        assert_eq!(RefundReason::parse(""), None);
    }

    #[test]
    fn a_refund_stands_once_made_or_pending() {
        assert!(stands("pending") && stands("succeeded"));
        assert!(!stands("asking") && !stands("failed"));
        assert_eq!(
            state_label("failed", "no balance"),
            "Refund failed: no balance"
        );
    }
}
