//! The API called as JSON, the way the apps and the store's pages call it: who calls ([`Auth`]),
//! a request and its answer (from the API alone, [`send_api`], or from a store built by
//! `store!`, with `send!` and [`json_request`]), the same call sent many times at once, a visitor
//! with a mail outbox of their own ([`Visitor`]), and the first steps of many tests: a case in the
//! cart, the checkout form, a guest's browser with a cart.

use std::cell::Cell;
use std::path::{Path, PathBuf};

use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use diesel::prelude::*;
use serde_json::{json, Value};

use super::seed::{JUPITER_STREET, MAKATI, OPEN, OWN, PALE_PILSEN};
use super::{
    guest, read_outbox, send_api, send_api_configured, send_api_mailing, set_cookies, Res, TestDb,
};

/// Who sends a call, and how it says so.
#[derive(Clone, Debug, Default)]
pub enum Auth {
    /// No credentials.
    #[default]
    None,
    /// An app: `Authorization: Bearer <token>`.
    Bearer(String),
    /// A browser: its `Cookie` header (nothing when it is empty).
    Cookie(String),
    /// A browser on the store's own pages: its `Cookie` header and `Origin:` [`OWN`] (nothing
    /// when the cookies are empty).
    Page(String),
}

/// A session token as an app sends it: [`Auth::Bearer`], or [`Auth::None`] when it is empty.
impl From<&str> for Auth {
    fn from(token: &str) -> Self {
        if token.is_empty() {
            Auth::None
        } else {
            Auth::Bearer(token.to_string())
        }
    }
}

impl From<&String> for Auth {
    fn from(token: &String) -> Self {
        Auth::from(token.as_str())
    }
}

impl From<&Auth> for Auth {
    fn from(auth: &Auth) -> Self {
        auth.clone()
    }
}

impl Auth {
    /// `req` with these credentials.
    pub fn on(&self, req: TestRequest) -> TestRequest {
        match self {
            Auth::None => req,
            Auth::Bearer(token) => req.insert_header(("authorization", bearer(token))),
            Auth::Cookie(c) | Auth::Page(c) if c.is_empty() => req,
            Auth::Cookie(c) => req.insert_header(("cookie", c.clone())),
            Auth::Page(c) => req
                .insert_header(("cookie", c.clone()))
                .insert_header(("origin", OWN)),
        }
    }
}

/// `Authorization: Bearer <token>`'s value.
pub fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

/// A request `method uri` with `body` as its JSON when there is one, and `headers`.
pub fn request(
    method: &str,
    uri: &str,
    body: Option<Value>,
    headers: &[(&str, &str)],
) -> TestRequest {
    let mut req = TestRequest::default()
        .method(method.parse().unwrap())
        .uri(uri);
    if let Some(body) = body {
        req = req.set_json(body);
    }
    for (k, v) in headers {
        req = req.insert_header((k.to_string(), v.to_string()));
    }
    req
}

/// A JSON call `method uri` from `auth` (a session token, "" for none, or an [`Auth`]), with
/// `body` as its JSON unless it is null.
pub fn json_request(method: &str, uri: &str, auth: impl Into<Auth>, body: Value) -> TestRequest {
    let body = (!body.is_null()).then_some(body);
    auth.into().on(request(method, uri, body, &[]))
}

/// A JSON call (see [`json_request`]) to the API alone ([`send_api`]): the whole answer.
pub async fn send_json(
    db: &TestDb,
    method: &str,
    uri: &str,
    auth: impl Into<Auth>,
    body: Value,
) -> Res {
    send_api(&db.pool, json_request(method, uri, auth, body)).await
}

/// A JSON call to the API alone (see [`send_json`]): the answer's status and JSON (null when the
/// answer is not JSON).
pub async fn call_api(
    db: &TestDb,
    method: &str,
    uri: &str,
    auth: impl Into<Auth>,
    body: Value,
) -> (StatusCode, Value) {
    let r = send_json(db, method, uri, auth, body).await;
    (r.status, r.json_or_null())
}

/// `n` copies of a JSON POST from the app of `token` sent at once to one API over the test
/// database (as concurrent clients of one server send them); each answer's status and JSON.
pub async fn at_once(
    db: &TestDb,
    uri: &str,
    token: &str,
    body: Value,
    n: usize,
) -> Vec<(StatusCode, Value)> {
    at_once_each(db, uri, token, vec![body; n]).await
}

/// [`at_once`] with a body of its own for each request.
pub async fn at_once_each(
    db: &TestDb,
    uri: &str,
    token: &str,
    bodies: Vec<Value>,
) -> Vec<(StatusCode, Value)> {
    let cfg = super::store_config(&db.url, false);
    let api = actix_web::web::Data::new(server::api_state(db.pool.clone(), &cfg).expect("api"));
    let app = actix_web::test::init_service(
        actix_web::App::new()
            .app_data(api.clone())
            .configure(framework::configure),
    )
    .await;
    let reqs = bodies
        .into_iter()
        .map(|body| json_request("POST", uri, token, body).to_request());
    let answers =
        futures_util::future::join_all(reqs.map(|r| actix_web::test::call_service(&app, r))).await;
    let mut out = Vec::new();
    for res in answers {
        let status = res.status();
        out.push((status, actix_web::test::read_body_json(res).await));
    }
    out
}

/// A visitor of the API alone with a mail outbox of their own: the calls they send and the mail
/// the store sends them.
pub struct Visitor<'a> {
    pub db: &'a TestDb,
    /// Another app's configuration (its settings, what it allows), or the tests' (see
    /// [`send_api_mailing`]).
    config: Option<framework::ApiConfig>,
    /// The folder the requests' mailer writes to. Requests only queue mail: it stays empty unless
    /// [`Visitor::mails`] delivers into it.
    outbox: tempfile::TempDir,
    /// Where [`Visitor::new_mails`] delivers, into a new folder each time.
    delivered: tempfile::TempDir,
    deliveries: Cell<u32>,
}

impl<'a> Visitor<'a> {
    pub fn new(db: &'a TestDb) -> Self {
        Self {
            db,
            config: None,
            outbox: tempfile::tempdir().unwrap(),
            delivered: tempfile::tempdir().unwrap(),
            deliveries: Cell::new(0),
        }
    }

    /// A visitor of the API configured by `config`.
    pub fn configured(db: &'a TestDb, config: framework::ApiConfig) -> Self {
        Self {
            config: Some(config),
            ..Self::new(db)
        }
    }

    /// The folder the requests' mailer writes to.
    pub fn outbox(&self) -> &Path {
        self.outbox.path()
    }

    pub async fn send(&self, req: TestRequest) -> Res {
        match &self.config {
            Some(config) => {
                send_api_configured(&self.db.pool, self.outbox(), config.clone(), req).await
            }
            None => send_api_mailing(&self.db.pool, self.outbox(), req).await,
        }
    }

    /// The answer's status, its JSON (`null` when it is not JSON) and the answer.
    pub async fn ask(&self, req: TestRequest) -> (StatusCode, Value, Res) {
        let r = self.send(req).await;
        (r.status, r.json_or_null(), r)
    }

    /// A JSON POST of `body` with `headers`: as [`Visitor::ask`].
    pub async fn post(
        &self,
        uri: &str,
        body: Value,
        headers: &[(&str, &str)],
    ) -> (StatusCode, Value, Res) {
        self.ask(request("POST", uri, Some(body), headers)).await
    }

    /// A guest's session token, made by the API's call for it.
    pub async fn guest(&self) -> String {
        let r = self
            .send(TestRequest::post().uri("/api/v1/guest-token"))
            .await;
        super::access_token(&r)
    }

    /// The queued mail delivered into the outbox: every mail delivered there so far.
    pub fn mails(&self) -> Vec<String> {
        read_outbox(&self.db.pool, self.outbox())
    }

    /// A folder that no delivery used yet.
    pub fn fresh_folder(&self) -> PathBuf {
        let n = self.deliveries.get();
        self.deliveries.set(n + 1);
        self.delivered.path().join(n.to_string())
    }

    /// The queued mail delivered into a new folder: those mails only.
    pub fn new_mails(&self) -> Vec<String> {
        read_outbox(&self.db.pool, &self.fresh_folder())
    }
}

/// `quantity` of `product` into the cart of `auth` for `barangay`, as an app adds it: the answer's
/// status and JSON.
pub async fn add_to_cart(
    db: &TestDb,
    auth: impl Into<Auth>,
    product: i64,
    quantity: i64,
    barangay: i64,
) -> (StatusCode, Value) {
    let body = json!({"product_id": product, "quantity": quantity, "barangay": barangay});
    call_api(db, "POST", "/api/v1/cart", auth, body).await
}

/// The cart of `auth` priced for `barangay`, `query` added to the address ("" or
/// `?fulfillment=2`, say): the answer's status and JSON.
pub async fn view_cart(
    db: &TestDb,
    auth: impl Into<Auth>,
    barangay: i64,
    query: &str,
) -> (StatusCode, Value) {
    let uri = format!("/api/v1/cart/{barangay}{query}");
    call_api(db, "GET", &uri, auth, Value::Null).await
}

/// A case of Tala Pale Pilsen bottles for Bel-Air, Makati, on Jupiter Street: the body of
/// `POST /api/v1/cart`.
pub fn a_case() -> Value {
    json!({"product_id": PALE_PILSEN, "quantity": 24, "barangay": MAKATI, "street_id": JUPITER_STREET})
}

/// A guest (a session made in the database) with [`a_case`] in the cart, added as an app adds
/// it: the session token and the cart as answered.
pub async fn guest_with_a_case(db: &TestDb) -> (String, Value) {
    let token = guest(db).await;
    let (s, cart) = call_api(db, "POST", "/api/v1/cart", &token, a_case()).await;
    assert_eq!(s, StatusCode::OK, "{cart}");
    (token, cart)
}

/// The checkout form of Ana Santos for `cart` (its revision and total, as the cart's answer says
/// them): delivery (fulfillment 1) to Unit 5B, 12 Jupiter St., Bel-Air, Makati, at [`OPEN`].
pub fn checkout(cart: &Value) -> Value {
    json!({
        "contact_name": "Ana Santos",
        "mobile": "09171234567",
        "email": "ana@example.com",
        "address": "Unit 5B, 12 Jupiter St.",
        "barangay": MAKATI,
        "street_id": JUPITER_STREET,
        "fulfillment": 1,
        "revision": cart["revision"],
        "expected_total": cart["cart_order_summary"]["subtotal"],
        "testdate": OPEN,
    })
}

/// Juan Dela Cruz's registration form (born 1990-05-12, the terms accepted) with `email`,
/// `mobile` and `password` (which `register` takes out and uses behind the link).
pub fn registration_form(email: &str, mobile: &str, password: &str) -> Value {
    json!({
        "first_name": "Juan", "last_name": "Dela Cruz", "email": email, "mobile": mobile,
        "birth_date": "1990-05-12", "password": password, "accept_terms": true
    })
}

/// A member's address on Jupiter Street, Bel-Air, Makati: the body of
/// `POST /api/v1/user/addresses`.
pub fn an_address() -> Value {
    json!({"address": "Unit 5B, 12 Jupiter St.", "barangay_id": MAKATI, "street_id": JUPITER_STREET})
}

/// The value of the cookie `name` an answer sets.
pub fn set_cookie(r: &Res, name: &str) -> Option<String> {
    set_cookies(r)
        .into_iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v)
}

/// A guest's browser that added to its cart for Bel-Air, Makati (see [`guest_browser`]).
pub struct Browser {
    /// The guest's session token, made in the database.
    pub session: String,
    /// The answer to the add, with the cookies it set.
    pub added: Res,
}

impl Browser {
    /// The cart cookie the add set.
    pub fn cart(&self) -> String {
        set_cookie(&self.added, "cart").expect("a cart cookie")
    }

    /// The `Cookie` header the browser then sends: its session, its cart and the cart's version.
    pub fn cookie(&self) -> String {
        let version = set_cookie(&self.added, "cart_v").expect("a cart_v cookie");
        format!(
            "session={}; cart={}; cart_v={version}",
            self.session,
            self.cart()
        )
    }
}

/// A guest's browser (a session made in the database, its cookie sent) that put `quantity` of
/// `product` in its cart for Bel-Air, Makati, through the API.
pub async fn guest_browser(db: &TestDb, product: i64, quantity: i64) -> Browser {
    let session = guest(db).await;
    let added = send_json(
        db,
        "POST",
        "/api/v1/cart",
        Auth::Cookie(format!("session={session}")),
        json!({"product_id": product, "quantity": quantity, "barangay": MAKATI}),
    )
    .await;
    assert_eq!(added.status, StatusCode::OK, "{}", added.text());
    Browser { session, added }
}

/// How many orders the database holds.
pub fn orders_placed(db: &TestDb) -> i64 {
    use db::schema::orders;
    let mut conn = db.pool.get().unwrap();
    orders::table.count().get_result(&mut *conn).unwrap()
}

/// How many mails to `recipient` the database's queue holds (sent or not).
pub fn mails_queued_to(db: &TestDb, recipient: &str) -> i64 {
    use db::schema::mail_outbox;
    let mut conn = db.pool.get().unwrap();
    mail_outbox::table
        .filter(mail_outbox::recipient.eq(recipient))
        .count()
        .get_result(&mut *conn)
        .unwrap()
}

/// A guest's order of a case of bottles in Makati, for delivery (fulfillment 1) or pickup (2),
/// placed through the API: its id and the link of its page (with the guest's key).
pub async fn guest_order(db: &TestDb, fulfillment: i32, email: &str) -> (i64, String) {
    let (token, _) = guest_with_a_case(db).await;
    let query = format!("?fulfillment={fulfillment}&testdate={OPEN}");
    let (_, cart) = view_cart(db, &token, MAKATI, &query).await;
    let mut form = checkout(&cart);
    form["email"] = json!(email);
    form["fulfillment"] = json!(fulfillment);
    let (s, placed) = call_api(db, "POST", "/api/v1/orders", &token, form).await;
    assert_eq!(s, StatusCode::CREATED, "{placed}");
    (
        placed["order"]["id"].as_i64().unwrap(),
        placed["link"].as_str().unwrap().to_string(),
    )
}

/// A GET of `uri` to the API alone from `auth` (see [`call_api`]): the answer's status and JSON.
pub async fn call_get(db: &TestDb, uri: &str, auth: impl Into<Auth>) -> (StatusCode, Value) {
    call_api(db, "GET", uri, auth, Value::Null).await
}

/// The quantity of `product` in the cart of `auth` changed to `quantity`, as an app changes it
/// (`PUT /api/v1/cart`): the answer's status and JSON.
pub async fn change_cart(
    db: &TestDb,
    auth: impl Into<Auth>,
    product: i64,
    quantity: i64,
) -> (StatusCode, Value) {
    let body = json!({"product_id": product, "quantity": quantity});
    call_api(db, "PUT", "/api/v1/cart", auth, body).await
}

/// Member number 1 as [`super::member_who_logs_in`] makes them, logged in from a browser of their
/// own (no cookies), and `quantity` of `product` added for Bel-Air, Makati, to the cart of that
/// session (sent as its cookie): the add's status and JSON.
pub async fn member_with_a_cart(db: &TestDb, product: i64, quantity: i64) -> (StatusCode, Value) {
    super::member_who_logs_in(db, 1).await;
    let (_, session) = super::log_in_member(db, 1, "").await;
    let auth = Auth::Cookie(format!("session={session}"));
    add_to_cart(db, auth, product, quantity, MAKATI).await
}

/// Each item of a case (a cart's or a Go-to Case's `items`): its product and quantity, in order.
pub fn quantities(case: &Value) -> Vec<(i64, i64)> {
    case["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| (i["id"].as_i64().unwrap(), i["quantity"].as_i64().unwrap()))
        .collect()
}
