//! `POST /newsletter`: the footer's signup form without JavaScript, a real `<form method=post>`
//! answered with `303 See Other` back to its page, the message in the query (with JavaScript the
//! client calls `subscribe` itself). Declared with [`framework::custom_form!`].

use actix_web::HttpRequest;
use framework::form::{return_path, Answer, Done, Fields};
use framework::{ApiError, ApiState};

framework::custom_form!("/newsletter", newsletter);

async fn newsletter(req: &HttpRequest, fields: Fields, state: &ApiState) -> Answer {
    let back = return_path(&fields);
    let email = fields.get("email").unwrap_or("").to_string();
    let now = domain::calendar::manila_now();
    let code = match state
        .run(framework::Caller::of_page(req), move |ctx| {
            super::subscribe(ctx, &email, now)
        })
        .await
    {
        // The same answer for a new and a known address (double opt-in).
        Ok(_) => "sent",
        Err(ApiError::Invalid { message, .. }) if message == domain::email::REQUIRED => "required",
        Err(ApiError::Invalid { .. }) => "invalid",
        Err(ApiError::TooMany(_)) => "limited",
        Err(e) => {
            log::error!("newsletter: {e}");
            "failed"
        }
    };
    Answer::SeeOther(Done::to(format!("{back}?newsletter={code}#newsletter")))
}
