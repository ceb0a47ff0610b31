//! The gate cookies of SPEC 3 (the contract between server and client), read leniently: a
//! missing, malformed or unknown value counts as unset and never breaks a page.

use actix_web::HttpRequest;

pub const CATEGORY: &str = "categoryGateId";
pub const BARANGAY: &str = "locationGateBarangayId";

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct GateCookies {
    pub category_id: Option<i64>,
    pub barangay_id: Option<i64>,
}

impl GateCookies {
    pub fn from_request(req: &HttpRequest) -> Self {
        let id = |name: &str| req.cookie(name).and_then(|c| domain::parse_id(c.value()));
        Self {
            category_id: id(CATEGORY),
            barangay_id: id(BARANGAY),
        }
    }
}
