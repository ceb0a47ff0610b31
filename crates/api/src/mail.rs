//! Mail, through lettre: each message is written to an outbox folder (`MAIL_OUTBOX`, by default
//! `data/outbox`, one `.eml` file a message) or, when `SMTP_URL` is set, sent through that
//! server. Calls queue their messages on the `Ctx`; they are sent after the call's database work,
//! on a blocking thread, so a slow mail server never holds a connection.

use std::path::PathBuf;

use lettre::message::{header::ContentType, Mailbox, MultiPart, SinglePart};
use lettre::{FileTransport, Message, SmtpTransport, Transport};

/// One message: plain text and HTML bodies of the same words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mail {
    pub to: String,
    pub subject: String,
    pub text: String,
    pub html: String,
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

/// Escapes text for the HTML body.
pub fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
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
}
