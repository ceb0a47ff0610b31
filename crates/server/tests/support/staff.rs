//! Members of staff as the tests drive them ([`Staff`]): added as the command line adds them,
//! their password chosen by the mailed link, signed in with both factors, their calls sent with
//! the staff session's cookie from the store's own pages.

use actix_web::http::StatusCode;
use actix_web::test::TestRequest;
use serde_json::{json, Value};

use super::{read_outbox, send_api_mailing, set_cookie, Res, TestDb};

/// A member of staff as a test drives them: their email, their cookie once signed in.
pub struct Staff<'a> {
    pub db: &'a TestDb,
    /// Their id on the staff.
    pub id: i64,
    pub outbox: std::path::PathBuf,
    pub email: String,
    pub cookie: Option<String>,
    /// Recovery codes not used yet (each later sign-in takes one: an app's code is taken only
    /// of a step later than the last taken, and a test signs in faster than codes change).
    pub codes: Vec<String>,
}

impl<'a> Staff<'a> {
    /// Adds a member of staff as the command line does (the link mailed through the queue).
    pub fn added(db: &'a TestDb, email: &str, role: &str) -> Self {
        let outbox = tempfile::tempdir().unwrap().keep();
        let mut conn = db.pool.get().unwrap();
        let now = domain::calendar::unix_now();
        let name = email.split('@').next().unwrap();
        let id = db::team::add(&mut conn, email, name, role, now).unwrap();
        let member = db::team::by_id(&mut conn, id).unwrap().unwrap();
        api::staff::password::invite(&mut conn, "https://shop.example", &member).unwrap();
        Self {
            db,
            id,
            outbox,
            email: email.into(),
            cookie: None,
            codes: Vec::new(),
        }
    }

    /// Added (see [`Staff::added`]), their password chosen, signed in with both factors.
    pub async fn signed_in(db: &'a TestDb, email: &str, role: &str) -> Self {
        let mut s = Self::added(db, email, role);
        let r = s.choose_password("keg-run-at-dawn-42").await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text());
        s.sign_in_whole("keg-run-at-dawn-42").await;
        s
    }

    /// A call from the store's own pages with their cookie (none before they sign in).
    pub async fn send(&self, method: &str, uri: &str, body: Option<Value>) -> Res {
        let mut req = match method {
            "GET" => TestRequest::get(),
            _ => TestRequest::post(),
        }
        .uri(uri)
        .insert_header(("origin", "http://localhost:8080"));
        if let Some(c) = &self.cookie {
            req = req.insert_header(("cookie", format!("{}={c}", api::staff::COOKIE)));
        }
        if let Some(b) = body {
            req = req.set_json(b);
        }
        send_api_mailing(&self.db.pool, &self.outbox, req).await
    }

    /// The token of the newest link to choose a password mailed to them.
    pub fn link(&self) -> String {
        let to = format!("To: {}", self.email);
        let mail = read_outbox(&self.db.pool, &self.outbox)
            .into_iter()
            .rfind(|m| m.contains(&to) && m.contains("/staff/password?token="))
            .expect("a link mail");
        super::link_in(&mail, "/staff/password?token=")
    }

    pub async fn choose_password(&self, password: &str) -> Res {
        let token = self.link();
        self.send(
            "POST",
            "/api/v1/staff/password",
            Some(json!({"token": token, "password": password})),
        )
        .await
    }

    /// Signs in with the password; keeps the session's cookie.
    pub async fn sign_in(&mut self, password: &str) -> Res {
        let r = self
            .send(
                "POST",
                "/api/v1/staff/login",
                Some(json!({"email": self.email, "password": password})),
            )
            .await;
        if let Some(c) = set_cookie(&r, api::staff::COOKIE) {
            self.cookie = Some(c);
        }
        r
    }

    /// Gives a code of the second factor; keeps the new session's cookie it answers with.
    pub async fn code(&mut self, code: &str) -> Res {
        let r = self
            .send(
                "POST",
                "/api/v1/staff/second-factor",
                Some(json!({ "code": code })),
            )
            .await;
        if let Some(c) = set_cookie(&r, api::staff::COOKIE) {
            self.cookie = Some(c);
        }
        r
    }

    /// Signs in with both factors: at the first sign-in the second factor is set up with a
    /// code of the app, later a recovery code is given. Answers the secret.
    pub async fn sign_in_whole(&mut self, password: &str) -> String {
        let r = self.sign_in(password).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text());
        let e = self.send("GET", "/api/v1/staff/second-factor", None).await;
        assert_eq!(e.status, StatusCode::OK, "{}", e.text());
        let e = e.json()["enrollment"].clone();
        let mut secret = String::new();
        let code = if e.is_null() {
            self.codes.pop().expect("a recovery code left")
        } else {
            self.codes = e["recovery_codes"]
                .as_array()
                .unwrap()
                .iter()
                .map(|c| c.as_str().unwrap().to_string())
                .collect();
            secret = e["secret"].as_str().unwrap().replace(' ', "");
            domain::staff::code_at(&secret, domain::calendar::unix_now()).unwrap()
        };
        let r = self.code(&code).await;
        assert_eq!(r.status, StatusCode::OK, "{}", r.text());
        secret
    }
}
