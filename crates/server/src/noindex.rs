//! The back office's answers (its pages, calls and files, redirects too) are never indexed:
//! `X-Robots-Tag: noindex` on each, beside the pages' own `<meta name="robots">`. A middleware of
//! its own that calls the service within its own `call`, as actix routes the request there: the
//! request's route is then known to [`crate::observe`] even when the client goes away before the
//! answer (a middleware that routes only when first polled would leave such a request unmatched).

use std::future::{ready, Future, Ready};
use std::pin::Pin;

use actix_web::dev::{Service, ServiceRequest, ServiceResponse, Transform};
use actix_web::http::header::{HeaderName, HeaderValue};

/// Whether `path` is the back office's: its pages and its calls.
pub fn back_office(path: &str) -> bool {
    path == "/staff"
        || api::staff::OPEN_UNDER_MAINTENANCE
            .iter()
            .any(|prefix| path.starts_with(prefix))
}

/// The middleware (see the module's documentation).
#[derive(Clone, Copy, Default)]
pub struct BackOffice;

impl<S, B> Transform<S, ServiceRequest> for BackOffice
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error>,
    S::Future: 'static,
{
    type Response = ServiceResponse<B>;
    type Error = actix_web::Error;
    type Transform = BackOfficeService<S>;
    type InitError = ();
    type Future = Ready<Result<Self::Transform, Self::InitError>>;

    fn new_transform(&self, service: S) -> Self::Future {
        ready(Ok(BackOfficeService { service }))
    }
}

pub struct BackOfficeService<S> {
    service: S,
}

type Answer<B> = Pin<Box<dyn Future<Output = Result<ServiceResponse<B>, actix_web::Error>>>>;

impl<S, B> Service<ServiceRequest> for BackOfficeService<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error>,
    S::Future: 'static,
{
    type Response = ServiceResponse<B>;
    type Error = actix_web::Error;
    type Future = Answer<B>;

    actix_web::dev::forward_ready!(service);

    fn call(&self, req: ServiceRequest) -> Self::Future {
        let staff = back_office(req.path());
        let answer = self.service.call(req);
        Box::pin(async move {
            let mut res = answer.await?;
            if staff {
                res.headers_mut().insert(
                    HeaderName::from_static("x-robots-tag"),
                    HeaderValue::from_static("noindex"),
                );
            }
            Ok(res)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::back_office;

    #[test]
    fn the_back_office_is_its_pages_and_calls() {
        for staff in ["/staff", "/staff/", "/staff/orders/1", "/api/v1/staff/me"] {
            assert!(back_office(staff), "{staff}");
        }
        for shop in [
            "/",
            "/staffing",
            "/buy-beer",
            "/api/v1/products",
            "/api/v1/staffx",
        ] {
            assert!(!back_office(shop), "{shop}");
        }
    }
}
