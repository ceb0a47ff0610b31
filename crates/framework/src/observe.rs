//! Which route answered a request, for the metrics and the access log, at no cost per request:
//! a resource wrapped in [`Mark`] notes its path template in a thread-local while actix routes
//! the request to it, and the request middleware (`server::observe`) takes the note in the same
//! poll. Routing runs synchronously inside the poll that carries the request (an actix worker
//! is one thread and polls one request's future at a time), so the note is that request's.
//! No allocation, no lock: one thread-local write and read.

use std::cell::Cell;
use std::collections::HashSet;
use std::future::{ready, Ready};
use std::sync::Mutex;

use actix_web::dev::{Service, ServiceRequest, ServiceResponse, Transform};

thread_local! {
    static ROUTE: Cell<Option<&'static str>> = const { Cell::new(None) };
}

/// Notes that the request being routed on this thread is answered by `template`.
pub fn mark(template: &'static str) {
    ROUTE.with(|r| r.set(Some(template)));
}

/// Takes the note ([`mark`]) left on this thread, if any.
pub fn take_mark() -> Option<&'static str> {
    ROUTE.with(Cell::take)
}

/// The one `'static` copy of a route template (templates are a small fixed set: each is kept
/// once for the life of the process, however many applications are built).
pub fn intern(template: &str) -> &'static str {
    static KEPT: Mutex<Option<HashSet<&'static str>>> = Mutex::new(None);
    let mut kept = KEPT.lock().unwrap_or_else(|e| e.into_inner());
    let set = kept.get_or_insert_with(HashSet::new);
    if let Some(t) = set.get(template) {
        return t;
    }
    let t: &'static str = Box::leak(template.to_owned().into_boxed_str());
    set.insert(t);
    t
}

/// Wraps a resource so that requests routed to it are counted under its path template.
#[derive(Clone, Copy)]
pub struct Mark(pub &'static str);

impl Mark {
    /// A mark for a template known only at run time (kept once, see [`intern`]).
    pub fn of(template: &str) -> Self {
        Self(intern(template))
    }
}

impl<S, B> Transform<S, ServiceRequest> for Mark
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error>,
{
    type Response = ServiceResponse<B>;
    type Error = actix_web::Error;
    type Transform = Marked<S>;
    type InitError = ();
    type Future = Ready<Result<Self::Transform, Self::InitError>>;

    fn new_transform(&self, service: S) -> Self::Future {
        ready(Ok(Marked {
            service,
            template: self.0,
        }))
    }
}

pub struct Marked<S> {
    service: S,
    template: &'static str,
}

impl<S, B> Service<ServiceRequest> for Marked<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error>,
{
    type Response = ServiceResponse<B>;
    type Error = actix_web::Error;
    type Future = S::Future;

    actix_web::dev::forward_ready!(service);

    fn call(&self, req: ServiceRequest) -> Self::Future {
        mark(self.template);
        self.service.call(req)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_are_kept_once() {
        let a = intern("/api/v1/things/{id}");
        let b = intern(&String::from("/api/v1/things/{id}"));
        assert!(std::ptr::eq(a, b));
    }

    #[test]
    fn a_mark_is_taken_once() {
        mark("/x");
        assert_eq!(take_mark(), Some("/x"));
        assert_eq!(take_mark(), None);
    }
}
