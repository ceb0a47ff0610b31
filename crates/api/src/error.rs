use actix_web::http::StatusCode;
use actix_web::{HttpResponse, ResponseError};

/// Every API failure answers `{"error": "..."}` with a status that says whose fault it is.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("{0}")]
    BadRequest(String),
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    Unprocessable(String),
    #[error("{0}")]
    MethodNotAllowed(String),
    #[error("The store is busy, please try again in a moment.")]
    Unavailable,
    #[error("Something went wrong on our side. Please try again.")]
    Internal(String),
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            Self::BadRequest(_) => StatusCode::BAD_REQUEST,
            Self::NotFound(_) => StatusCode::NOT_FOUND,
            Self::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Self::MethodNotAllowed(_) => StatusCode::METHOD_NOT_ALLOWED,
            Self::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            Self::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    pub fn body(&self) -> serde_json::Value {
        serde_json::json!({ "error": self.to_string() })
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
        HttpResponse::build(self.status()).json(self.body())
    }
}

impl From<db::diesel::result::Error> for ApiError {
    fn from(e: db::diesel::result::Error) -> Self {
        Self::Internal(e.to_string())
    }
}

impl From<db::DbError> for ApiError {
    fn from(e: db::DbError) -> Self {
        match e {
            db::DbError::Pool(_) => Self::Unavailable,
            other => Self::Internal(other.to_string()),
        }
    }
}
