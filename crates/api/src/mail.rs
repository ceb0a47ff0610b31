//! Mail, through lettre: each message is written to an outbox folder (`MAIL_OUTBOX`, by default
//! `data/outbox`, one `.eml` file a message) or, when `SMTP_URL` is set, sent through that
//! server. Calls queue their messages on the `Ctx`; they are sent after the call's database work,
//! on a blocking thread, so a slow mail server never holds a connection.

use std::path::PathBuf;
use std::sync::LazyLock;

use lettre::message::{header::ContentType, Mailbox, MultiPart, SinglePart};
use lettre::{FileTransport, Message, SmtpTransport, Transport};
use serde::Serialize;

/// The mails' bodies, `templates/mail/<name>.txt` and `<name>.html`, built into the binary.
/// The `.html` bodies are escaped by Tera's autoescape, the `.txt` bodies not at all; links the
/// store builds (from `PUBLIC_URL` and a URL-safe token) go into `href` unescaped (`| safe`).
static TEMPLATES: LazyLock<tera::Tera> = LazyLock::new(|| {
    macro_rules! pair {
        ($($name:literal),* $(,)?) => {
            vec![$(
                (concat!($name, ".txt"), include_str!(concat!("../templates/mail/", $name, ".txt"))),
                (concat!($name, ".html"), include_str!(concat!("../templates/mail/", $name, ".html"))),
            )*]
        };
    }
    let mut tera = tera::Tera::default();
    tera.autoescape_on(vec![".html"]);
    tera.add_raw_templates(pair![
        "account_exists",
        "registration",
        "password_reset",
        "newsletter_confirm",
    ])
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
            .map_err(|e| format!("to {}: {e}", mail.to))?;
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
    fn names_are_escaped_in_html_and_kept_in_text() {
        let mail = Mail::render(
            "registration",
            "juan@example.com",
            "Finish creating your account",
            &serde_json::json!({
                "first_name": "<script>x</script>",
                "link": "http://localhost:8080/registration?token=abc",
                "hours": 24,
            }),
        )
        .unwrap();
        assert!(
            mail.text.starts_with("Hi <script>x</script>,\n"),
            "{}",
            mail.text
        );
        assert!(mail
            .text
            .contains("\nhttp://localhost:8080/registration?token=abc\n"));
        assert!(mail.text.contains("within 24 hours"));
        assert!(!mail.html.contains("<script>"), "{}", mail.html);
        assert!(
            mail.html
                .contains("Hi &lt;script&gt;x&lt;&#x2F;script&gt;,"),
            "{}",
            mail.html
        );
        assert!(mail
            .html
            .contains("<a href=\"http://localhost:8080/registration?token=abc\">"));
    }

    #[test]
    fn every_template_renders() {
        let values = serde_json::json!({
            "first_name": "Juan", "link": "L", "base": "B", "hours": 1, "minutes": 2, "days": 3,
        });
        for name in [
            "account_exists",
            "registration",
            "password_reset",
            "newsletter_confirm",
        ] {
            let mail = Mail::render(name, "a@b.c", "s", &values).unwrap();
            assert!(
                !mail.text.contains("{{") && !mail.html.contains("{{"),
                "{name}"
            );
        }
    }
}
