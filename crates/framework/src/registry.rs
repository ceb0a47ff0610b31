//! The one list of API calls. Each call registers itself in its own module with
//! [`register!`](crate::register), next to its `Endpoint`; its route, its in-process loader, its
//! OpenAPI operation and its entry in the UI's contract (`ui/src/api/contract.gen.ts`, rewritten
//! by `make contract`) all follow from that one line.

use std::borrow::Cow;
use std::marker::PhantomData;
use std::sync::OnceLock;

use actix_web::{guard, web};
use serde_json::Value;
use utoipa::openapi::{RefOr, Schema};

use crate::endpoint::*;
use crate::error::ApiError;
use crate::request::respond;

/// One registered call.
pub struct Entry(pub &'static dyn Registered);

inventory::collect!(Entry);

/// Registers `Endpoint` types in the registry: `register!(Products, WhatsNew);`.
#[macro_export]
macro_rules! register {
    ($($endpoint:ty),+ $(,)?) => {
        $(
            inventory::submit! {
                $crate::registry::Entry(&$crate::registry::Api::<$endpoint>::ENTRY)
            }
        )+
    };
}

/// Every registered call, by path and method (a fixed order for the generated files).
pub fn endpoints() -> &'static [&'static dyn Registered] {
    static ALL: OnceLock<Vec<&'static dyn Registered>> = OnceLock::new();
    ALL.get_or_init(|| {
        let mut all: Vec<&'static dyn Registered> =
            inventory::iter::<Entry>.into_iter().map(|e| e.0).collect();
        all.sort_by_key(|e| (e.path(), e.method().as_str()));
        all
    })
}

/// The call of that name.
pub fn by_name(name: &str) -> Option<&'static dyn Registered> {
    endpoints().iter().find(|e| e.name() == name).copied()
}

/// The registry's view of an endpoint, whatever its types.
pub trait Registered: Sync {
    fn name(&self) -> &'static str;
    fn method(&self) -> Method;
    fn path(&self) -> &'static str;
    fn access(&self) -> Access;
    /// The actix route: method guard (GET also answers HEAD) and handler.
    fn route(&self) -> actix_web::Route;
    /// Runs the call in process with already split path parameters and the raw query.
    fn load(
        &self,
        ctx: &mut Ctx,
        path: Vec<(String, String)>,
        query: &str,
    ) -> Result<Value, ApiError>;
    /// Runs the call in process for a page form: its path and body from the form's fields
    /// ([`Body::from_fields`]); the answer as JSON.
    /// `headers` stand for the request headers the call reads (a link's token from a field).
    fn run_form(
        &self,
        ctx: &mut Ctx,
        fields: &[(String, String)],
        headers: &[(String, String)],
    ) -> Result<Value, ApiError>;
    /// A page form's call whole: the guest's session started first when `starts` asks for one
    /// and there is none, [`Registered::run_form`] with one connection, then its
    /// [`Endpoint::THEN`] holding none. Answers the answer as JSON, with the session issued or
    /// ended and the cookies set.
    fn form<'a>(
        &'a self,
        state: &'a crate::ApiState,
        caller: Caller,
        fields: Vec<(String, String)>,
        headers: Vec<(String, String)>,
        starts: bool,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<FormDone, ApiError>> + 'a>>;
    /// The key template the UI fills: the path, then `?name={name}` for each query parameter.
    fn key_template(&self) -> String;
    /// Its OpenAPI operation; `links` are every call's ([`Endpoint::LINKS`]).
    fn operation(
        &self,
        components: &mut Vec<(String, RefOr<Schema>)>,
        links: &crate::operation::Links,
    ) -> utoipa::openapi::path::Operation;
    /// The TypeScript name of the answer, and the collection of the types it needs.
    fn answer_ts(&self, types: &mut crate::ts::TsTypes) -> String;
    /// The answers that lead to it ([`Endpoint::LINKS`]).
    fn links(&self) -> &'static [Link];
    /// Its body's schema name and what the whole body must hold ([`Endpoint::BODY_RULES`]).
    fn body_rules(&self) -> Option<(Cow<'static, str>, &'static str)>;
    /// The feature's own session cookie it reads ([`Endpoint::CREDENTIAL`]).
    fn credential(&self) -> Option<(&'static str, &'static str)>;
    /// The header that proves its sender instead of a session ([`Endpoint::SIGNATURE`]).
    fn signature(&self) -> Option<(&'static str, &'static str)>;
}

/// What a page form's call did ([`Registered::form`]): its answer as JSON, the session it
/// issued or ended, the cookies it set.
pub struct FormDone {
    pub answer: Value,
    pub issued: Option<Issued>,
    pub ended: bool,
    pub cookies: Vec<actix_web::cookie::Cookie<'static>>,
}

/// Puts an [`Endpoint`] into the registry.
pub struct Api<E>(PhantomData<fn() -> E>);

impl<E> Api<E> {
    pub const ENTRY: Self = Self(PhantomData);
}

impl<E: Endpoint> Registered for Api<E> {
    fn name(&self) -> &'static str {
        E::NAME
    }

    fn method(&self) -> Method {
        E::METHOD
    }

    fn path(&self) -> &'static str {
        E::PATH
    }

    fn access(&self) -> Access {
        E::ACCESS
    }

    fn route(&self) -> actix_web::Route {
        let guard = match E::METHOD {
            Method::Get => guard::Any(guard::Get()).or(guard::Head()),
            Method::Post => guard::Any(guard::Post()),
            Method::Put => guard::Any(guard::Put()),
            Method::Delete => guard::Any(guard::Delete()),
        };
        web::route().guard(guard).to(respond::<E>)
    }

    fn load(
        &self,
        ctx: &mut Ctx,
        path: Vec<(String, String)>,
        query: &str,
    ) -> Result<Value, ApiError> {
        let p: E::Path = from_pairs(
            path.into_iter()
                .map(|(k, v)| (Cow::Owned(k), Cow::Owned(v))),
        )?;
        let q: E::Query = from_query(query)?;
        let body = E::Body::parse(b"")?;
        let headers: E::Headers = from_query("")?;
        let answer = run_call::<E>(ctx, (p, q, body, headers))?;
        serde_json::to_value(answer).map_err(|e| ApiError::Internal(e.to_string()))
    }

    fn run_form(
        &self,
        ctx: &mut Ctx,
        fields: &[(String, String)],
        headers: &[(String, String)],
    ) -> Result<Value, ApiError> {
        let answer = form_call::<E>(ctx, fields, headers)?;
        serde_json::to_value(answer).map_err(|e| ApiError::Internal(e.to_string()))
    }

    fn form<'a>(
        &'a self,
        state: &'a crate::ApiState,
        caller: Caller,
        fields: Vec<(String, String)>,
        headers: Vec<(String, String)>,
        starts: bool,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = Result<FormDone, ApiError>> + 'a>> {
        Box::pin(async move {
            let (answer, issued, ended, cookies) = state
                .run(caller.clone(), move |ctx| {
                    if starts && ctx.session()?.is_none() {
                        ctx.start_guest_if_allowed()?;
                    }
                    let answer = form_call::<E>(ctx, &fields, &headers)?;
                    Ok((answer, ctx.issued.take(), ctx.ended, ctx.take_cookies()))
                })
                .await?;
            let answer = match E::THEN {
                Some(then) => then(state, caller, answer).await?,
                None => answer,
            };
            let answer =
                serde_json::to_value(answer).map_err(|e| ApiError::Internal(e.to_string()))?;
            Ok(FormDone {
                answer,
                issued,
                ended,
                cookies,
            })
        })
    }

    fn key_template(&self) -> String {
        let names: Vec<String> = query_names::<E::Query>();
        if names.is_empty() {
            return E::PATH.to_string();
        }
        let pairs: Vec<String> = names.iter().map(|n| format!("{n}={{{n}}}")).collect();
        format!("{}?{}", E::PATH, pairs.join("&"))
    }

    fn operation(
        &self,
        components: &mut Vec<(String, RefOr<Schema>)>,
        links: &crate::operation::Links,
    ) -> utoipa::openapi::path::Operation {
        crate::operation::operation::<E>(components, links)
    }

    fn answer_ts(&self, types: &mut crate::ts::TsTypes) -> String {
        types.add::<E::Answer>()
    }

    fn links(&self) -> &'static [Link] {
        E::LINKS
    }

    fn body_rules(&self) -> Option<(Cow<'static, str>, &'static str)> {
        Some((<E::Body as Body>::name()?, E::BODY_RULES?))
    }

    fn credential(&self) -> Option<(&'static str, &'static str)> {
        E::CREDENTIAL
    }

    fn signature(&self) -> Option<(&'static str, &'static str)> {
        E::SIGNATURE
    }
}

/// Runs a call for a page form: its path and body from the form's fields
/// ([`Body::from_fields`]), `headers` standing for the request headers it reads.
fn form_call<E: Endpoint>(
    ctx: &mut Ctx,
    fields: &[(String, String)],
    headers: &[(String, String)],
) -> Result<E::Answer, ApiError> {
    let path: E::Path = from_pairs(borrowed(fields))?;
    let query: E::Query = from_query("")?;
    let body = E::Body::from_fields(borrowed(fields))?;
    let headers: E::Headers = from_pairs(borrowed(headers))?;
    run_call::<E>(ctx, (path, query, body, headers))
}

/// The names of a query type's parameters, in declaration order.
pub fn query_names<Q: utoipa::IntoParams>() -> Vec<String> {
    Q::into_params(|| Some(utoipa::openapi::path::ParameterIn::Query))
        .into_iter()
        .map(|p| p.name)
        .collect()
}

/// Splits a path against a template: the `{name}` segments' values (percent-decoded), or `None`
/// when the path is not of the template. Empty segments do not count (`//a//b/` is `/a/b`). The
/// one path matcher of the store: API keys in process and the pages' routes.
pub fn match_path(template: &str, path: &str) -> Option<Vec<(String, String)>> {
    let pattern = template.split('/').filter(|s| !s.is_empty());
    let parts = path.split('/').filter(|s| !s.is_empty());
    if pattern.clone().count() != parts.clone().count() {
        return None;
    }
    let mut params = Vec::new();
    for (seg, part) in pattern.zip(parts) {
        match seg.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
            Some(name) => params.push((
                name.to_string(),
                percent_encoding::percent_decode_str(part)
                    .decode_utf8_lossy()
                    .into_owned(),
            )),
            None if seg == part => {}
            None => return None,
        }
    }
    Some(params)
}

/// Data a page loaded in process.
pub struct Fetched {
    pub data: Value,
    /// The data is the session's own ([`Access::Session`]): a page holding it is never kept in
    /// the shared cache.
    pub private: bool,
}

/// Answers the read named by a query key (an API path with its query string) in process, as
/// JSON: the data a page needs under the same key the client's react-query uses for it.
pub fn fetch(ctx: &mut Ctx, key: &str) -> Result<Fetched, ApiError> {
    let (path, query) = key.split_once('?').unwrap_or((key, ""));
    let (e, params) = crate::registry::endpoints()
        .iter()
        .filter(|e| e.access() != Access::Write)
        .find_map(|e| match_path(e.path(), path).map(|params| (e, params)))
        .ok_or_else(|| ApiError::NotFound(format!("No data at {path}")))?;
    Ok(Fetched {
        data: e.load(ctx, params, query)?,
        private: e.access() == Access::Session,
    })
}
