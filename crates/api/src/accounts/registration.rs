//! Registration: the mailed link (`pre-register`), its check, and the account it creates (or a social provider's).

use super::*;

framework::register!(PreRegister, CheckRegistrationToken, Registration);

/// The registration form: a member's details but the password, which whoever holds the emailed
/// link chooses.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct RegistrationForm {
    #[serde(default)]
    #[schema(required = true, schema_with = framework::rules::name)]
    pub first_name: String,
    #[serde(default)]
    #[schema(required = true, schema_with = framework::rules::name)]
    pub last_name: String,
    #[serde(default)]
    #[schema(required = true, schema_with = framework::rules::email)]
    pub email: String,
    /// `09` followed by 9 digits.
    #[serde(default)]
    #[schema(required = true, schema_with = framework::rules::mobile)]
    pub mobile: String,
    /// `YYYY-MM-DD`; 18 or older today in Manila.
    #[serde(default)]
    #[schema(required = true, schema_with = framework::rules::birth_date)]
    pub birth_date: String,
    /// The terms and the privacy policy are accepted.
    #[serde(default)]
    #[schema(required = true, schema_with = accept_terms)]
    pub accept_terms: bool,
}

/// The terms and the privacy policy must be accepted.
fn accept_terms() -> utoipa::openapi::schema::ObjectBuilder {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::Boolean)
        .enum_values(Some([true]))
        .description(Some("The terms and the privacy policy are accepted."))
}

/// A checked form: the member's details, or every field's errors.
fn check_form(f: &RegistrationForm) -> Result<RegistrationRow, ApiError> {
    let mut c = account::Checker::default();
    let today = domain::calendar::manila_now().date();
    let fields = [&f.first_name, &f.last_name, &f.mobile, &f.birth_date].map(String::as_str);
    let details = account::Details::check(&mut c, fields, today);
    let email = c.field(
        "email",
        domain::email::validate_email(&f.email).map_err(str::to_string),
    );
    if !f.accept_terms {
        c.add(
            "accept_terms",
            "Please accept the terms and conditions and the privacy policy.",
        );
    }
    let checked = details.zip(email).map(|(d, email)| RegistrationRow {
        token_hash: String::new(),
        email,
        mobile: d.mobile,
        first_name: d.first_name,
        last_name: d.last_name,
        birth_date: d.birth_date,
        password_hash: String::new(),
        expires_at: 0,
        used_at: None,
    });
    c.finish(checked).map_err(ApiError::Fields)
}

framework::declare!(
    /// `POST /api/v1/pre-register`: checks the details and emails a link that finishes the
    /// account; whoever opens the link chooses the password. The answer, and the work behind it,
    /// are the same whether or not the address already has an account (its owner gets a mail that
    /// says so instead). A new pre-registration replaces the address's pending one; an address
    /// gets at most 3 mails an hour, and past that the answer says a link was already sent.
    pub struct PreRegister = Post "/api/v1/pre-register" as "preRegister", Write, errors [422, 429],
    (NoParams, NoParams, Json<RegistrationForm, true>) -> MessageAnswer, "Checks the registration form and emails the link that finishes it.");

impl Endpoint for PreRegister {
    fn call(ctx: &mut Ctx, (_, _, Json(form), _): Args<Self>) -> Result<MessageAnswer, ApiError> {
        ctx.limit_client(
            "pre-register",
            framework::limits::PRE_REGISTER,
            framework::limits::WINDOW,
        )?;
        let mut row = check_form(&form)?;
        ctx.limit_mails("pre-register address", &row.email)
            .map_err(|e| match e {
                ApiError::TooMany(wait) => ApiError::LinkSent(wait),
                other => other,
            })?;
        let answer = message(format!(
            "We sent a link to {}. Open it within {LINK_HOURS} hours to finish creating your account.",
            row.email
        ));
        let base = ctx.config.public_url.to_string();
        // Nobody has confirmed this address yet: the mail carries nothing a stranger typed.
        if db::users::email_taken(ctx.conn, &row.email)? {
            ctx.outgoing.push(Mail::render(
                "account_exists",
                &row.email,
                "You already have an account",
                &serde_json::json!({ "base": base }),
            )?);
            return Ok(answer);
        }
        let token = new_token();
        row.token_hash = token_hash(&token);
        row.expires_at = now() + LINK_HOURS * 3600;
        db::users::create_registration(ctx.conn, &row)?;
        let link = format!("{base}/registration?token={token}");
        ctx.outgoing.push(Mail::render(
            "registration",
            &row.email,
            "Finish creating your account",
            &serde_json::json!({ "link": link, "hours": LINK_HOURS }),
        )?);
        Ok(answer)
    }
}

/// The registration link's token, sent as a request header.
#[derive(Debug, Default, Deserialize, IntoParams)]
pub struct LinkHeaders {
    /// The `token` of the emailed `/registration?token=...` link.
    #[serde(rename = "registration-token")]
    #[param(rename = "registration-token", value_type = String, required = false)]
    pub registration_token: Option<String>,
}

/// What `POST /registration` reads of its headers: a link's token, or a social provider's
/// (verified before the call; the call gets the provider's identity in [`Ctx::prepared`]).
#[derive(Debug, Default, Deserialize, IntoParams)]
pub struct RegistrationHeaders {
    /// The `token` of the emailed `/registration?token=...` link.
    #[serde(rename = "registration-token")]
    #[param(rename = "registration-token", value_type = String, required = false)]
    pub registration_token: Option<String>,
    /// A Facebook user access token (social registration).
    #[serde(rename = "fb-token")]
    #[param(rename = "fb-token", value_type = String, required = false)]
    pub fb_token: Option<String>,
    /// A Google ID token (social registration).
    #[serde(rename = "google-token")]
    #[param(rename = "google-token", value_type = String, required = false)]
    pub google_token: Option<String>,
}

/// The registration a link belongs to.
fn open_registration(
    conn: &mut AnyConnection,
    link: Option<&str>,
) -> Result<RegistrationRow, ApiError> {
    let gone = || ApiError::NotFound("This link is invalid or has expired.".into());
    let token = link.ok_or_else(gone)?;
    let hash = token_hash(token.trim());
    match db::users::open_registration(conn, &hash, now())? {
        Some(r) => Ok(r),
        // A second click (or a form sent twice without JavaScript): the account is there.
        None if db::users::registration_used(conn, &hash)? => {
            Err(ApiError::NotFound(LINK_USED.into()))
        }
        None => Err(gone()),
    }
}

/// The details a registration link finishes the account with, shown to the link's holder before
/// choosing the password (whoever asked for the link typed them: the holder sees them first).
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct PendingRegistration {
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    pub mobile: String,
    pub birth_date: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct PendingAnswer {
    pub data: PendingRegistration,
}

/// The registration link's token as a query parameter (what the link's page loads with).
#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct LinkQuery {
    /// The `token` of the emailed `/registration?token=...` link (or the `registration-token`
    /// header).
    pub token: Option<String>,
}

framework::declare!(
    /// `GET /api/v1/check-registration-token` (header `registration-token`, or query `token`): the
    /// details a link finishes the account with. Never kept by a cache (not a shared answer).
    pub struct CheckRegistrationToken = Get "/api/v1/check-registration-token" as "checkRegistrationToken", Session, errors [404],
    (NoParams, LinkQuery, NoBody) -> PendingAnswer, "Whose registration a link (header registration-token or query token) finishes.",
    headers LinkHeaders);

impl Endpoint for CheckRegistrationToken {
    fn call(ctx: &mut Ctx, (_, q, _, h): Args<Self>) -> Result<PendingAnswer, ApiError> {
        let token = h.registration_token.or(q.token);
        let r = open_registration(ctx.conn, token.as_deref())?;
        Ok(PendingAnswer {
            data: PendingRegistration {
                email: r.email,
                first_name: r.first_name,
                last_name: r.last_name,
                mobile: r.mobile,
                birth_date: r.birth_date,
            },
        })
    }
}

/// What `POST /registration` takes: for a link's registration, the password its holder chooses;
/// for a social registration (`socialSource` and `userAccessToken`), the details a
/// provider does not vouch for.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct SocialForm {
    /// A link's registration: the new account's password (see the password rule).
    #[serde(default)]
    #[schema(schema_with = social_password)]
    pub password: String,
    /// `facebook` or `google`.
    #[serde(default, rename = "socialSource")]
    pub social_source: String,
    /// The provider's token; the same as the `fb-token` / `google-token` header.
    #[serde(default, rename = "userAccessToken")]
    pub user_access_token: String,
    /// `09` followed by 9 digits.
    #[serde(default)]
    #[schema(schema_with = framework::rules::mobile)]
    pub mobile: String,
    /// `YYYY-MM-DD`; 18 or older today in Manila.
    #[serde(default)]
    #[schema(schema_with = framework::rules::birth_date)]
    pub birth_date: String,
    #[serde(default)]
    pub accept_terms: bool,
}

/// A link's registration: the new account's password.
fn social_password() -> utoipa::openapi::schema::ObjectBuilder {
    framework::rules::new_password().description(Some(
        "A link's registration: the new account's password (see the password rule).",
    ))
}

/// A member's details from what the provider vouched for and the form's own fields, checked as
/// the registration form is. The account gets a random password (the member can set one through
/// the reset link); the provider verified the email, so no link is mailed.
fn social_registration(
    identity: crate::accounts::social::Identity,
    f: SocialForm,
) -> Result<RegistrationRow, ApiError> {
    let source = f.social_source.trim().to_ascii_lowercase();
    if !source.is_empty() && source != identity.provider.name().to_ascii_lowercase() {
        return Err(ApiError::Invalid {
            field: "socialSource",
            message: format!(
                "socialSource must be {}.",
                identity.provider.name().to_ascii_lowercase()
            ),
        });
    }
    let clean = |s: &str| {
        s.chars()
            .filter(|c| !domain::text::refused(*c))
            .take(60)
            .collect::<String>()
    };
    let form = RegistrationForm {
        first_name: clean(&identity.first_name),
        last_name: clean(&identity.last_name),
        email: identity.email,
        mobile: f.mobile,
        birth_date: f.birth_date,
        accept_terms: f.accept_terms,
    };
    let mut row = check_form(&form)?;
    row.password_hash = hash_password(&framework::session::new_token())?;
    Ok(row)
}

framework::declare!(
    /// `POST /api/v1/registration` (header `registration-token`, body `password`): creates the
    /// account the link was sent for, with the password its holder chose, and logs it in; the
    /// token comes in the `access-token` header. With an `fb-token` or
    /// `google-token` header instead, the provider's verified identity and the body's details make
    /// the account.
    pub struct Registration = Post "/api/v1/registration" as "registration", Write, errors [404, 422, 429, 502],
    (NoParams, NoParams, Json<SocialForm, false>) -> WelcomeAnswer, "Creates the account of a registration link and logs it in.",
    headers RegistrationHeaders);

impl Endpoint for Registration {
    /// A provider's token is verified before the call, off the database.
    fn prepare(
        req: &actix_web::HttpRequest,
        config: &framework::ApiConfig,
    ) -> Option<framework::endpoint::Prepare> {
        crate::accounts::social::prepare(req, config)
    }

    fn call(ctx: &mut Ctx, (_, _, Json(social), h): Args<Self>) -> Result<WelcomeAnswer, ApiError> {
        ctx.limit_client(
            "registration",
            framework::limits::REGISTRATION,
            framework::limits::WINDOW,
        )?;
        let r = match ctx.prepared::<crate::accounts::social::Identity>().cloned() {
            Some(identity) => social_registration(identity, social)?,
            None => {
                // A link's registration takes the details given at pre-registration; the ones a
                // provider would not vouch for are not used, but given, they must be what the
                // document says they are (a wrong mobile is never silently dropped).
                if !social.mobile.is_empty() {
                    domain::account::validate_mobile(&social.mobile).map_err(|message| {
                        ApiError::Invalid {
                            field: "mobile",
                            message,
                        }
                    })?;
                }
                if !social.birth_date.is_empty() {
                    domain::account::validate_birth_date(&social.birth_date, time::Date::MAX)
                        .map_err(|message| ApiError::Invalid {
                            field: "birth_date",
                            message,
                        })?;
                }
                let mut r = open_registration(ctx.conn, h.registration_token.as_deref())?;
                let inputs = [&r.first_name, &r.last_name, &r.email, &r.mobile].map(String::as_str);
                crate::accounts::new_password(&social.password, &inputs)?;
                r.password_hash = hash_password(&social.password)?;
                r
            }
        };
        let mut c = account::Checker::default();
        if db::users::email_taken(ctx.conn, &r.email)? {
            c.add(
                "email",
                "This email address already has an account. Log in instead.",
            );
        }
        if db::users::mobile_taken(ctx.conn, &r.mobile)? {
            c.add(
                "mobile",
                "This mobile number is already used by an account.",
            );
        }
        c.finish(Some(())).map_err(ApiError::Fields)?;
        let created = if r.token_hash.is_empty() {
            db::users::create_user(ctx.conn, &r, now()).map(Some)
        } else {
            db::users::complete_registration(ctx.conn, &r, now())
        };
        let user = match created {
            Ok(Some(user)) => user,
            Ok(None) => return Err(ApiError::NotFound(LINK_USED.into())),
            // The same details sent twice at once: one account, the other told so.
            Err(db::diesel::result::Error::DatabaseError(
                db::diesel::result::DatabaseErrorKind::UniqueViolation,
                _,
            )) => {
                return Err(ApiError::Invalid {
                    field: "email",
                    message: "This email address already has an account. Log in instead.".into(),
                })
            }
            Err(e) => return Err(e.into()),
        };
        let merged = log_in(ctx, user)?;
        Ok(WelcomeAnswer {
            data: Welcome {
                first_name: r.first_name,
                cart_conflict: merged.conflict,
                cart_message: merged.message,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bad_field_is_named() {
        let err = check_form(&RegistrationForm::default()).unwrap_err();
        let ApiError::Fields(errors) = err else {
            panic!("{err:?}")
        };
        let names: Vec<&str> = errors.keys().copied().collect();
        assert_eq!(
            names,
            [
                "accept_terms",
                "birth_date",
                "email",
                "first_name",
                "last_name",
                "mobile",
            ]
        );
    }
}
