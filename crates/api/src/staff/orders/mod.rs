//! The orders as the staff work them: the board (`board`), one order with its next steps and the
//! staff's notes and payments (`order`), a manager's refund of an online payment (`refund`), and moving orders along their steps, one or many at once (`status`),
//! which the command line's `store orders set-status` shares.

pub mod board;
pub mod order;
pub mod refund;
pub mod refund_state;
pub mod status;

use domain::ordering::Status;
use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

/// Who works the orders: dispatchers and managers.
pub const WORKERS: [domain::staff::Role; 2] = [
    domain::staff::Role::Dispatcher,
    domain::staff::Role::Manager,
];

/// A status with the name the pages give it.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct StatusChoice {
    pub status: String,
    pub label: String,
}

impl From<Status> for StatusChoice {
    fn from(s: Status) -> Self {
        Self {
            status: s.as_str().into(),
            label: crate::orders::label(s.as_str()),
        }
    }
}
