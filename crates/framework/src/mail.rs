//! Mail, through lettre: each message is written to an outbox folder (`MAIL_OUTBOX`, by default
//! `data/outbox`, one `.eml` file a message) or, when `SMTP_URL` is set, sent through that
//! server. Calls put their messages on the `Ctx`; with the call's database work they go into the
//! database's mail queue ([`db::outbox`]), and a [`Sender`] thread delivers them off the request
//! path: a request takes as long whether or not it mails (nothing tells an attacker whether an
//! address has an account), a slow or failing mail server holds no request, and a message is
//! retried until it leaves, across restarts.

use std::path::PathBuf;
use std::sync::{Arc, Condvar, LazyLock, Mutex};
use std::time::Duration;

use lettre::message::{header::ContentType, Mailbox, MultiPart, SinglePart};
use lettre::{FileTransport, Message, SmtpTransport, Transport};
use serde::Serialize;

/// A mail a feature sends: its bodies `templates/mail/<name>.txt` and `<name>.html` of the
/// feature's crate, built into the binary ([`mail_templates!`](crate::mail_templates)).
pub struct Template {
    pub name: &'static str,
    pub text: &'static str,
    pub html: &'static str,
}

inventory::collect!(Template);

/// Registers mail templates of the calling crate: `mail_templates!("order_placed");`.
#[macro_export]
macro_rules! mail_templates {
    ($($name:literal),* $(,)?) => {
        $(
            inventory::submit! {
                $crate::mail::Template {
                    name: $name,
                    text: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/templates/mail/", $name, ".txt")),
                    html: include_str!(concat!(env!("CARGO_MANIFEST_DIR"), "/templates/mail/", $name, ".html")),
                }
            }
        )*
    };
}

/// Every registered template, parsed once. The `.html` bodies are escaped by Tera's autoescape,
/// the `.txt` bodies not at all; links the store builds (from `PUBLIC_URL` and a URL-safe token)
/// go into `href` unescaped (`| safe`).
static TEMPLATES: LazyLock<tera::Tera> = LazyLock::new(|| {
    let mut tera = tera::Tera::default();
    tera.autoescape_on(vec![".html"]);
    let bodies: Vec<(String, &str)> = inventory::iter::<Template>
        .into_iter()
        .flat_map(|t| {
            [
                (format!("{}.txt", t.name), t.text),
                (format!("{}.html", t.name), t.html),
            ]
        })
        .collect();
    tera.add_raw_templates(bodies)
        .expect("the mail templates parse");
    tera
});

/// One message: plain text and HTML bodies of the same words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: String,
}

impl Mail {
    /// A message whose bodies are the templates `mail/<template>.txt` and `.html` filled with
    /// `values` (a struct or map of the names the templates use).
    pub fn render(
        template: &str,
        to: impl Into<String>,
        subject: impl Into<String>,
        values: &impl Serialize,
    ) -> Result<Self, crate::ApiError> {
        let context = tera::Context::from_serialize(values)
            .map_err(|e| crate::ApiError::Internal(format!("mail {template}: {e}")))?;
        let body = |ext: &str| {
            TEMPLATES
                .render(&format!("{template}.{ext}"), &context)
                .map_err(|e| crate::ApiError::Internal(format!("mail {template}.{ext}: {e:?}")))
        };
        Ok(Self {
            to: to.into(),
            subject: subject.into(),
            text: body("txt")?,
            html: body("html")?,
        })
    }
}

pub enum Mailer {
    Outbox(PathBuf),
    Smtp(Box<SmtpTransport>),
}

/// Where mail goes and who it is from.
pub struct Post {
    mailer: Mailer,
    from: Mailbox,
}

impl Post {
    /// The outbox folder, or SMTP when `smtp_url` is given (`smtps://user:pass@host:465`,
    /// `smtp://host:587?tls=required`).
    pub fn new(outbox: PathBuf, smtp_url: Option<&str>, from: &str) -> Result<Self, String> {
        let from: Mailbox = from
            .parse()
            .map_err(|e| format!("MAIL_FROM {from:?}: {e}"))?;
        let mailer = match smtp_url {
            Some(url) => Mailer::Smtp(Box::new(
                SmtpTransport::from_url(url)
                    .map_err(|e| format!("SMTP_URL: {e}"))?
                    .build(),
            )),
            None => Mailer::Outbox(outbox),
        };
        Ok(Self { mailer, from })
    }

    /// Sends one message (blocking: call it off the async workers).
    pub fn send(&self, mail: &Mail) -> Result<(), String> {
        let to: Mailbox = mail
            .to
            .parse()
            .map_err(|e| format!("the recipient's address: {e}"))?;
        let message = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(&mail.subject)
            .multipart(
                MultiPart::alternative()
                    .singlepart(
                        SinglePart::builder()
                            .header(ContentType::TEXT_PLAIN)
                            .body(mail.text.clone()),
                    )
                    .singlepart(
                        SinglePart::builder()
                            .header(ContentType::TEXT_HTML)
                            .body(mail.html.clone()),
                    ),
            )
            .map_err(|e| e.to_string())?;
        match &self.mailer {
            Mailer::Outbox(dir) => std::fs::create_dir_all(dir)
                .map_err(|e| format!("MAIL_OUTBOX {}: {e}", dir.display()))
                .and_then(|()| {
                    FileTransport::new(dir)
                        .send(&message)
                        .map_err(|e| e.to_string())
                })
                .map(|_| ()),
            Mailer::Smtp(smtp) => smtp.send(&message).map(|_| ()).map_err(|e| e.to_string()),
        }
    }
}

/// How long a sender holds the messages it claimed before another may take them.
const LEASE_SECS: i64 = 600;
/// How often a sender looks at the queue when nobody wakes it (other app servers' messages,
/// retries).
const POLL: Duration = Duration::from_secs(5);

/// When a message that failed `attempts` times is tried again: after 30 s, doubling up to an hour.
pub fn retry_delay(attempts: i32) -> i64 {
    (30i64 << attempts.clamp(0, 7)).min(3600)
}

/// Queues the messages of a call on its connection (with the call's other work).
pub fn enqueue(conn: &mut db::AnyConnection, mails: &[Mail]) -> Result<(), crate::ApiError> {
    let rows: Vec<db::outbox::NewMail> = mails
        .iter()
        .map(|m| db::outbox::NewMail {
            recipient: &m.to,
            subject: &m.subject,
            text_body: &m.text,
            html_body: &m.html,
        })
        .collect();
    Ok(db::outbox::enqueue(
        conn,
        &rows,
        domain::calendar::unix_now(),
    )?)
}

/// After this many failed attempts a message is parked (kept, no longer tried; an address the
/// mail server refuses for good would otherwise be tried every hour forever).
pub const MAX_ATTEMPTS: i32 = 20;
/// The next attempt of a parked message: never.
const PARKED: i64 = i64::MAX / 4;

/// Delivers the messages due (blocking), a few at a time, each batch claimed at `clock()`'s time:
/// each sent one leaves the queue, each failed one waits for its next attempt. No connection is
/// held while a message is being sent (a slow mail server holds none of the requests' ones).
/// Answers how many were sent.
pub fn deliver_due(
    pool: &db::DbPool,
    post: &Post,
    clock: &dyn Fn() -> i64,
) -> Result<usize, crate::ApiError> {
    deliver(pool, post, clock, &|| false)
}

/// As [`deliver_due`], until `stopping()` says so: the message being sent is finished and
/// recorded, the rest of the batch is released for the next claim (here or on another app
/// server), at once rather than when the claim runs out.
fn deliver(
    pool: &db::DbPool,
    post: &Post,
    clock: &dyn Fn() -> i64,
    stopping: &dyn Fn() -> bool,
) -> Result<usize, crate::ApiError> {
    let conn = || {
        pool.get_timeout(Duration::from_secs(5))
            .map_err(|e| crate::ApiError::Internal(format!("mail queue: {e}")))
    };
    let mut sent = 0;
    loop {
        if stopping() {
            return Ok(sent);
        }
        let batch = db::outbox::claim(&mut *conn()?, clock(), LEASE_SECS, 5)?;
        if batch.is_empty() {
            return Ok(sent);
        }
        let mut batch = batch.into_iter();
        while let Some(m) = batch.next() {
            if stopping() {
                let mut c = conn()?;
                for left in std::iter::once(m).chain(batch) {
                    db::outbox::release(&mut c, &left)?;
                }
                return Ok(sent);
            }
            let mail = Mail {
                to: m.recipient.clone(),
                subject: m.subject.clone(),
                text: m.text_body.clone(),
                html: m.html_body.clone(),
            };
            let result = post.send(&mail);
            let mut c = conn()?;
            match result {
                Ok(()) => {
                    if !db::outbox::delivered(&mut c, &m)? {
                        log::warn!("mail {}: sent after its claim ran out", m.id);
                    }
                    sent += 1;
                }
                Err(e) => {
                    // The address stays out of the log; the queue keeps the error.
                    let tries = m.attempts + 1;
                    let retry = if tries >= MAX_ATTEMPTS {
                        log::error!("mail {}: parked after {tries} attempts: {e}", m.id);
                        PARKED
                    } else {
                        log::warn!("mail {} (attempt {tries}): {e}", m.id);
                        clock() + retry_delay(m.attempts)
                    };
                    db::outbox::failed(&mut c, &m, retry, &e)?;
                }
            }
        }
    }
}

/// What the sender thread and its owners share.
#[derive(Default)]
struct Shared {
    state: Mutex<State>,
    changed: Condvar,
}

#[derive(Default)]
struct State {
    woken: bool,
    stopping: bool,
    stopped: bool,
}

/// The thread that empties the mail queue: woken when a call queued mail, and every few
/// seconds besides; stopped with the server ([`Sender::stop`]).
#[derive(Clone)]
pub struct Sender {
    shared: Arc<Shared>,
}

impl Sender {
    /// Starts the sender thread over `pool`, delivering through `post`.
    pub fn start(pool: db::DbPool, post: Arc<Post>) -> Result<Self, String> {
        let shared = Arc::new(Shared::default());
        let theirs = shared.clone();
        std::thread::Builder::new()
            .name("mail-sender".into())
            .spawn(move || {
                let lock = || theirs.state.lock().unwrap_or_else(|e| e.into_inner());
                loop {
                    {
                        let mut state = lock();
                        if !state.woken && !state.stopping {
                            state = theirs
                                .changed
                                .wait_timeout(state, POLL)
                                .unwrap_or_else(|e| e.into_inner())
                                .0;
                        }
                        if state.stopping {
                            break;
                        }
                        state.woken = false;
                    }
                    let stopping = || lock().stopping;
                    if let Err(e) = deliver(&pool, &post, &domain::calendar::unix_now, &stopping) {
                        log::error!("mail queue: {e:?}");
                    }
                }
                lock().stopped = true;
                theirs.changed.notify_all();
            })
            .map_err(|e| format!("mail sender: {e}"))?;
        Ok(Self { shared })
    }

    /// Wakes the thread (a call queued mail).
    pub fn wake(&self) {
        self.shared
            .state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .woken = true;
        self.shared.changed.notify_all();
    }

    /// Stops the thread once the message it is sending (if any) is sent and recorded, waiting
    /// at most `wait`; answers whether it stopped. What is still queued stays in the database for
    /// the next start (or another app server).
    pub fn stop(&self, wait: Duration) -> bool {
        let mut state = self.shared.state.lock().unwrap_or_else(|e| e.into_inner());
        state.stopping = true;
        self.shared.changed.notify_all();
        let deadline = std::time::Instant::now() + wait;
        while !state.stopped {
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            if left.is_zero() {
                return false;
            }
            state = self
                .shared
                .changed
                .wait_timeout(state, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_land_in_the_outbox_with_both_bodies() {
        let dir = tempfile::tempdir().unwrap();
        let post = Post::new(
            dir.path().join("out"),
            None,
            "Tala Brewing Co. <hello@tala.example>",
        )
        .unwrap();
        post.send(&Mail {
            to: "juan@example.com".into(),
            subject: "Welcome".into(),
            text: "Hello Juan".into(),
            html: "<p>Hello Juan</p>".into(),
        })
        .unwrap();
        let files: Vec<_> = std::fs::read_dir(dir.path().join("out")).unwrap().collect();
        assert_eq!(files.len(), 1);
        let eml = std::fs::read_to_string(files[0].as_ref().unwrap().path()).unwrap();
        assert!(eml.contains("To: juan@example.com"));
        assert!(eml.contains("Subject: Welcome"));
        assert!(eml.contains("text/plain") && eml.contains("text/html"));
        assert!(eml.contains("Hello Juan"));
        assert!(Post::new(dir.path().join("x"), None, "not an address").is_err());
    }

    #[test]
    fn retries_back_off_to_an_hour() {
        assert_eq!(
            (0..10).map(retry_delay).collect::<Vec<_>>(),
            [30, 60, 120, 240, 480, 960, 1920, 3600, 3600, 3600]
        );
        assert_eq!(retry_delay(-1), 30);
        assert_eq!(retry_delay(i32::MAX), 3600);
    }
}
