use std::collections::BTreeMap;

use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;

/// Every API failure answers in the store's own words with a status that says whose fault it is:
/// `{"error": "..."}`, or for a form that needs correcting `{"message", "errors": {field: [..]}}`.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    NotFound(String),
    /// The request is well formed but where the thing it names stands forbids it now (a run
    /// already out, a stop already ended otherwise, an order not yet confirmed): 409, the
    /// message says what stands in the way.
    #[error("{0}")]
    Conflict(String),
    /// An unsafe request sent with the store's cookie from another site's page.
    #[error("This request must come from the store's own pages.")]
    CrossSite,
    /// The call needs a logged-in member.
    #[error("Unauthenticated.")]
    Unauthenticated,
    /// A field needs correcting (422): the message, and the field it belongs to.
    #[error("{message}")]
    Invalid {
        field: &'static str,
        message: String,
    },
    /// Several fields need correcting (422): each field's messages.
    #[error("{}", first_message(.0))]
    Fields(domain::account::FieldErrors),
    #[error("{0}")]
    MethodNotAllowed(String),
    #[error("The request took too long to arrive.")]
    Timeout,
    #[error("The request body is too large (at most {0} bytes).")]
    TooLarge(usize),
    /// A rate limit: try again after this many seconds.
    #[error("Too many attempts. Please try again in {} minute(s).", (.0 + 59) / 60)]
    TooMany(i64),
    /// A link was mailed to this address lately and the address may get no more for a while
    /// (try again after this many seconds).
    #[error("We already sent a link to this address. Open the newest one, or ask for another in {} minute(s).", (.0 + 59) / 60)]
    LinkSent(i64),
    /// A body of another type than the call takes (JSON calls take `application/json` only).
    #[error("Send the body as application/json.")]
    UnsupportedMediaType,
    #[error("The address is too long.")]
    UriTooLong,
    /// A body the call read but does not take, with the status that says why (a file call's
    /// file of a type it does not take, 415; larger than it takes, 413), in the call's words.
    #[error("{message}")]
    Unacceptable { status: u16, message: String },
    #[error("The store is busy, please try again in a moment.")]
    Unavailable,
    /// The database failed the call (out of reach, the connection lost, the disk full, not
    /// writable, locked): a 503 with Retry-After in the store's words.
    #[error("The store can't take changes right now. Please try again in a minute.")]
    DatabaseDown(db::Outage),
    /// A service the call needs (a social provider) did not answer.
    #[error("{0}")]
    Upstream(String),
    #[error("Something went wrong on our side. Please try again.")]
    Internal(String),
    /// The cart or checkout refuses: the server's title, the field it concerns, and the
    /// products it names (not sold in the barangay, not orderable); `status` is 404, 409, 410 or
    /// 422. The body carries the title as `error`, `message` and `data.error`, and the products in
    /// `data.products`.
    #[error("{message}")]
    Refused {
        status: u16,
        field: &'static str,
        message: String,
        products: Vec<DisabledProduct>,
    },
}

/// A product a cart call names in a refusal.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema, ts_rs::TS)]
pub struct DisabledProduct {
    pub id: domain::ProductId,
    pub product_name: String,
    /// Why: not sold in this barangay, out of stock.
    pub reason: String,
}

/// What a refusal of the cart or checkout carries (`data.error`, `data.products`).
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema, ts_rs::TS)]
pub struct RefusalData {
    pub error: String,
    pub products: Vec<DisabledProduct>,
}

impl ApiError {
    /// A refusal of the cart or checkout ([`ApiError::Refused`]) naming no product.
    pub fn refused(status: u16, field: &'static str, message: impl Into<String>) -> Self {
        Self::Refused {
            status,
            field,
            message: message.into(),
            products: Vec::new(),
        }
    }
}

fn first_message(errors: &domain::account::FieldErrors) -> String {
    errors
        .values()
        .flatten()
        .next()
        .cloned()
        .unwrap_or_else(|| "The given data was invalid.".into())
}

/// `{"error": "..."}`.
#[derive(Debug, Serialize, utoipa::ToSchema, ts_rs::TS)]
pub struct ErrorBody {
    pub error: String,
    /// Cart and checkout refusals: the error again and the products concerned.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    #[ts(optional)]
    pub data: Option<RefusalData>,
}

/// A form's errors: the first message, and each field's messages.
#[derive(Debug, Serialize, utoipa::ToSchema, ts_rs::TS)]
pub struct ValidationErrorBody {
    pub message: String,
    pub errors: BTreeMap<String, Vec<String>>,
    /// Cart and checkout refusals: the message as `error`, as the cart's callers read it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    #[ts(optional)]
    pub error: Option<String>,
    /// Cart and checkout refusals: the error again and the products concerned.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    #[ts(optional)]
    pub data: Option<RefusalData>,
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::Conflict(_) => StatusCode::CONFLICT,
            Self::Unauthenticated => StatusCode::UNAUTHORIZED,
            Self::CrossSite => StatusCode::FORBIDDEN,
            Self::Invalid { .. } | Self::Fields(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Self::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            Self::Timeout => StatusCode::REQUEST_TIMEOUT,
            Self::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            Self::TooMany(_) | Self::LinkSent(_) => StatusCode::TOO_MANY_REQUESTS,
            Self::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::UriTooLong => StatusCode::URI_TOO_LONG,
            Self::Unavailable | Self::DatabaseDown(_) => StatusCode::SERVICE_UNAVAILABLE,
            Self::Upstream(_) => StatusCode::BAD_GATEWAY,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
            Self::Refused { status, .. } | Self::Unacceptable { status, .. } => {
                StatusCode::from_u16(*status).unwrap_or(StatusCode::UNPROCESSABLE_ENTITY)
            }
        }
    }

    pub fn body(&self) -> serde_json::Value {
        let value = match self {
            Self::Invalid { field, message } => serde_json::to_value(ValidationErrorBody {
                message: message.clone(),
                errors: BTreeMap::from([(field.to_string(), vec![message.clone()])]),
                error: None,
                data: None,
            }),
            Self::Refused {
                status,
                field,
                message,
                products,
            } => {
                let data = Some(RefusalData {
                    error: message.clone(),
                    products: products.clone(),
                });
                if *status == 422 {
                    serde_json::to_value(ValidationErrorBody {
                        message: message.clone(),
                        errors: BTreeMap::from([(field.to_string(), vec![message.clone()])]),
                        error: Some(message.clone()),
                        data,
                    })
                } else {
                    serde_json::to_value(ErrorBody {
                        error: message.clone(),
                        data,
                    })
                }
            }
            Self::Fields(errors) => serde_json::to_value(ValidationErrorBody {
                message: first_message(errors),
                errors: errors
                    .iter()
                    .map(|(k, v)| (k.to_string(), v.clone()))
                    .collect(),
                error: None,
                data: None,
            }),
            other => serde_json::to_value(ErrorBody {
                error: other.to_string(),
                data: None,
            }),
        };
        value.unwrap_or_default()
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        self.status()
    }

    fn error_response(&self) -> HttpResponse {
        if let Self::Internal(detail) = self {
            log::error!("internal error: {detail}");
        }
        let mut res = HttpResponse::build(self.status());
        match self {
            Self::Unavailable => {
                res.insert_header((actix_web::http::header::RETRY_AFTER, "1"));
            }
            Self::DatabaseDown(_) => {
                res.insert_header((actix_web::http::header::RETRY_AFTER, DATABASE_RETRY_AFTER));
            }
            Self::TooMany(secs) | Self::LinkSent(secs) => {
                res.insert_header((actix_web::http::header::RETRY_AFTER, secs.to_string()));
            }
            _ => {}
        }
        res.json(self.body())
    }
}

/// The seconds a 503 for a failed database asks a client to wait.
pub const DATABASE_RETRY_AFTER: &str = "30";

impl From<db::diesel::result::Error> for ApiError {
    fn from(e: db::diesel::result::Error) -> Self {
        match db::Outage::of(&e) {
            Some(outage) => Self::database_down(outage, &e),
            None => Self::Internal(e.to_string()),
        }
    }
}

impl From<db::DbError> for ApiError {
    fn from(e: db::DbError) -> Self {
        match (&e, e.outage()) {
            (db::DbError::Busy, _) => Self::Unavailable,
            (_, Some(outage)) => Self::database_down(outage, &e),
            _ => Self::Internal(e.to_string()),
        }
    }
}

impl ApiError {
    /// A call the database failed: counted by kind (the metrics), and the reason logged once a
    /// second at most, not once a request.
    fn database_down(outage: db::Outage, e: &dyn std::fmt::Display) -> Self {
        db::outages::note(outage, e);
        Self::DatabaseDown(outage)
    }
}
