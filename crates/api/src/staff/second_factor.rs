//! The second factor: set up at the first sign-in (a QR code the server draws, the secret as
//! text for an app that cannot scan, and one-time recovery codes), then a code at every sign-in.
//! The audit log records the enrolment, each whole sign-in and how, a recovery code used up, a
//! wrong code and the lockout after five (`audit::sign_in`).

use rand::{Rng, RngCore};
use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use super::audit::{sign_in, sign_in_event};
use super::*;
use framework::endpoint::{Args, Endpoint, Json, NoBody, NoParams};

framework::register!(StaffEnrollment, StaffSecondFactor, StaffMe);

/// Said of an app's code of a step no later than the last taken: the right code, given again (a
/// second device, a sign-in again within its 30 seconds, a phone's clock ahead); the next code opens.
pub const CODE_USED: &str = "That code was used already. Wait for the next code your app shows.";

/// What a wrong code says.
pub const WRONG_CODE: &str =
    "That code is not right. Enter the 6-digit code your app shows now, or a recovery code.";

/// A second factor shown and not yet confirmed, as the staff row keeps it.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Pending {
    secret: String,
    codes: Vec<String>,
}

/// A QR code as a grid of dark squares: an SVG path in a `size` × `size` box (the page adds the
/// quiet zone around it).
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct QrCode {
    pub size: u32,
    pub path: String,
}

/// What an authenticator app needs, shown once at the first sign-in.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct Enrollment {
    /// The secret in groups of four, for typing into an app that cannot scan.
    pub secret: String,
    /// The `otpauth://` address the QR code holds.
    pub otpauth: String,
    pub qr: QrCode,
    /// One-time codes for when the phone is lost: each works once instead of a code.
    pub recovery_codes: Vec<String>,
}

#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct SecondFactorState {
    /// The member's second factor is set up (a code is asked); else `enrollment` shows how.
    pub enrolled: bool,
    pub enrollment: Option<Enrollment>,
}

/// Draws `text` as a QR code (error correction M, what phones read well from a screen).
fn qr(text: &str) -> Result<QrCode, ApiError> {
    let code = qrcode::QrCode::with_error_correction_level(text, qrcode::EcLevel::M)
        .map_err(|e| ApiError::Internal(format!("QR code: {e}")))?;
    let width = code.width();
    let mut path = String::new();
    for (i, color) in code.to_colors().iter().enumerate() {
        if *color == qrcode::Color::Dark {
            path.push_str(&format!("M{} {}h1v1h-1z", i % width, i / width));
        }
    }
    Ok(QrCode {
        size: u32::try_from(width).unwrap_or(0),
        path,
    })
}

/// Ten recovery codes of eight letters and digits (`abcd-2345`; no 0, 1, l or o to misread).
fn new_codes() -> Vec<String> {
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyz23456789";
    let mut rng = rand::rng();
    (0..domain::staff::RECOVERY_CODES)
        .map(|_| {
            let c: String = (0..8)
                .map(|_| char::from(ALPHABET[rng.random_range(0..ALPHABET.len())]))
                .collect();
            format!("{}-{}", &c[..4], &c[4..])
        })
        .collect()
}

/// The member's pending second factor, made now if there is none.
fn pending(ctx: &mut Ctx, member: &db::team::StaffRow) -> Result<Pending, ApiError> {
    if let Some(p) = member
        .totp_pending
        .as_deref()
        .and_then(|p| serde_json::from_str::<Pending>(p).ok())
    {
        return Ok(p);
    }
    let mut random = [0u8; 20];
    rand::rng().fill_bytes(&mut random);
    let p = Pending {
        secret: domain::staff::new_secret(random),
        codes: new_codes(),
    };
    let text = serde_json::to_string(&p).map_err(|e| ApiError::Internal(e.to_string()))?;
    db::team::set_pending(ctx.conn, member.id, &text)?;
    Ok(p)
}

framework::declare!(
    /// `GET /api/v1/staff/second-factor`: for a session begun with the password, whether a code
    /// is asked or the second factor is to be set up, and then how (the same secret and codes
    /// until a code confirms them).
    pub struct StaffEnrollment = Get "/api/v1/staff/second-factor" as "staffEnrollment", Session, errors [401],
    (NoParams, NoParams, NoBody) -> SecondFactorState,
    "The second factor the signed-in member of staff gives, or sets up.");

impl Endpoint for StaffEnrollment {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, _: Args<Self>) -> Result<SecondFactorState, ApiError> {
        let signed = session(ctx)?.ok_or(ApiError::Unauthenticated)?;
        if signed.member.totp_secret.is_some() {
            return Ok(SecondFactorState {
                enrolled: true,
                enrollment: None,
            });
        }
        let p = pending(ctx, &signed.member)?;
        let otpauth = domain::staff::otpauth_url(&p.secret, &signed.member.email)
            .ok_or_else(|| ApiError::Internal("a secret that makes no TOTP".into()))?;
        let grouped: Vec<String> = p
            .secret
            .as_bytes()
            .chunks(4)
            .map(|c| String::from_utf8_lossy(c).into_owned())
            .collect();
        Ok(SecondFactorState {
            enrolled: false,
            enrollment: Some(Enrollment {
                secret: grouped.join(" "),
                qr: qr(&otpauth)?,
                otpauth,
                recovery_codes: p.codes,
            }),
        })
    }
}

#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct CodeForm {
    /// The 6-digit code the app shows, or a recovery code.
    #[serde(default)]
    #[schema(required = true, min_length = 1, max_length = 20)]
    pub code: String,
}

/// The signed-in member of staff, as their pages show them.
#[derive(Debug, Clone, Serialize, PartialEq, ToSchema, TS)]
pub struct StaffSelf {
    pub member: StaffMember,
    /// Recovery codes not used yet.
    pub recovery_codes_left: i64,
}

fn self_answer(ctx: &mut Ctx, member: &db::team::StaffRow) -> Result<StaffSelf, ApiError> {
    Ok(StaffSelf {
        member: member.into(),
        recovery_codes_left: db::team::recovery_codes_left(ctx.conn, member.id)?,
    })
}

framework::declare!(
    /// `POST /api/v1/staff/second-factor`: a code of the app (or a recovery code, once) makes the
    /// session whole; at the first sign-in the code confirms the second factor just set up.
    pub struct StaffSecondFactor = Post "/api/v1/staff/second-factor" as "staffSecondFactor", Write, errors [401, 422, 429],
    (NoParams, NoParams, Json<CodeForm, true>) -> StaffSelf,
    "Gives the second factor; the staff session is then whole.");

impl Endpoint for StaffSecondFactor {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (_, _, Json(f), _): Args<Self>) -> Result<StaffSelf, ApiError> {
        let signed = session(ctx)?.ok_or(ApiError::Unauthenticated)?;
        let member = signed.member;
        // Five tries in ten minutes per member, whatever the client: six digits are guessed
        // in a million tries, not in five.
        let key = format!("staff code tries:{}", member.id);
        let (tries, wait) = ctx.count_try(&key, 600)?;
        if tries > 5 {
            // Recorded at the first refused try only: the tries go on counting, the log does not.
            if tries == 6 {
                let after = serde_json::json!({"why": "too many codes", "retry_after": wait});
                sign_in_event(ctx, Some(&member), "", sign_in::LOCKED, after)?;
            }
            return Err(ApiError::TooMany(wait));
        }
        let at = now();
        let how = match given(ctx, &member, &f.code, at) {
            Ok(how) => how,
            Err(e) => {
                // A wrong code or one given again, recorded within the five tries; written at
                // once, so it stays although the call fails.
                if let ApiError::Invalid { message, .. } = &e {
                    let why = if message == CODE_USED {
                        "code used already"
                    } else {
                        "wrong code"
                    };
                    let after = serde_json::json!({"why": why});
                    sign_in_event(ctx, Some(&member), "", sign_in::WRONG_CODE, after)?;
                }
                return Err(e);
            }
        };
        if how == Given::Recovery {
            let left = db::team::recovery_codes_left(ctx.conn, member.id)?;
            entry(
                ctx.conn,
                Some(&member),
                sign_in::RECOVERY_CODE,
                &format!("staff {}", member.id),
                Some(serde_json::json!({"recovery_codes_left": left + 1})),
                Some(serde_json::json!({"recovery_codes_left": left})),
            )?;
        }
        db::limits::rate_reset(ctx.conn, &key)?;
        // A session of both factors is a new one: the token that the password alone opened (which
        // another may have learnt or planted) ends here, and the browser gets a new one.
        db::team::end_session(ctx.conn, &signed.token_hash)?;
        let token = framework::session::new_token();
        let hash = token_hash(&token);
        db::team::start_session(ctx.conn, &hash, member.id, at)?;
        db::team::second_factor_given(ctx.conn, &hash, at)?;
        let cookie = super::session_cookie(ctx, Some(token));
        ctx.send_cookie(cookie);
        let member = db::team::by_id(ctx.conn, member.id)?.ok_or(ApiError::Unauthenticated)?;
        let after = serde_json::json!({"with": how.as_str()});
        sign_in_event(ctx, Some(&member), "", sign_in::WHOLE, after)?;
        self_answer(ctx, &member)
    }
}

/// How the second factor was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Given {
    /// An app's code.
    App,
    /// A recovery code, now used up.
    Recovery,
    /// The first code of a second factor just set up (which it confirms).
    Enrolled,
}

impl Given {
    fn as_str(self) -> &'static str {
        match self {
            Self::App => "app code",
            Self::Recovery => "recovery code",
            Self::Enrolled => "new second factor",
        }
    }
}

/// Checks `code` for `member`: an app's code or a recovery code of a second factor set up, or the
/// first code of one being set up (then confirmed, and in the audit log). A code refused is an
/// [`ApiError::Invalid`] of the field `code` ([`WRONG_CODE`], [`CODE_USED`]).
fn given(
    ctx: &mut Ctx,
    member: &db::team::StaffRow,
    code: &str,
    at: i64,
) -> Result<Given, ApiError> {
    let wrong = || ApiError::Invalid {
        field: "code",
        message: WRONG_CODE.into(),
    };
    if let Some(secret) = member.totp_secret.as_deref() {
        return code_accepted(ctx, member.id, secret, code, at)?.ok_or_else(wrong);
    }
    let p = pending(ctx, member)?;
    match domain::staff::code_step(&p.secret, code, at) {
        Some(step) if step_taken(ctx, member.id, step)? => {}
        Some(_) => return Err(used()),
        None => return Err(wrong()),
    }
    let hashes: Vec<String> = p.codes.iter().map(|c| code_hash(c)).collect();
    db::team::confirm_second_factor(ctx.conn, member.id, &p.secret, &hashes)?;
    entry(
        ctx.conn,
        Some(member),
        "staff.second_factor",
        &format!("staff {}", member.id),
        Some(serde_json::json!({"second_factor": false})),
        Some(serde_json::json!({"second_factor": true})),
    )?;
    Ok(Given::Enrolled)
}

/// Takes step `step` of the member's app codes: true when it is later than the last one taken
/// (`db::team::take_code_step`): a code seen over a shoulder or in a log, or one of a step before
/// it, is never taken again.
fn step_taken(ctx: &mut Ctx, id: i64, step: i64) -> Result<bool, ApiError> {
    Ok(db::team::take_code_step(ctx.conn, id, step)?)
}

/// The answer to an app's code given again ([`CODE_USED`]).
fn used() -> ApiError {
    ApiError::Invalid {
        field: "code",
        message: CODE_USED.into(),
    }
}

/// What is stored of a recovery code.
fn code_hash(code: &str) -> String {
    token_hash(&domain::staff::normalize_recovery_code(code))
}

/// Whether `code` is the app's code now, of a step later than the last taken ([`step_taken`];
/// one given again is refused as used, [`CODE_USED`]), or an unused recovery code (then used up):
/// which, or `None`.
fn code_accepted(
    ctx: &mut Ctx,
    id: i64,
    secret: &str,
    code: &str,
    at: i64,
) -> Result<Option<Given>, ApiError> {
    if let Some(step) = domain::staff::code_step(secret, code, at) {
        return if step_taken(ctx, id, step)? {
            Ok(Some(Given::App))
        } else {
            Err(used())
        };
    }
    let normalized = domain::staff::normalize_recovery_code(code);
    if normalized.len() != 8 {
        return Ok(None);
    }
    let used_up = db::team::use_recovery_code(ctx.conn, id, &code_hash(&normalized), at)?;
    Ok(used_up.then_some(Given::Recovery))
}

framework::declare!(
    /// `GET /api/v1/staff/me`: the signed-in member of staff (both factors given).
    pub struct StaffMe = Get "/api/v1/staff/me" as "staffMe", Session, errors [401],
    (NoParams, NoParams, NoBody) -> StaffSelf,
    "The signed-in member of staff.");

impl Endpoint for StaffMe {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, _: Args<Self>) -> Result<StaffSelf, ApiError> {
        let signed = signed_in_as(ctx, &domain::staff::Role::ALL)?;
        self_answer(ctx, &signed.member)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovery_codes_are_ten_and_unlike() {
        let codes = new_codes();
        assert_eq!(codes.len(), domain::staff::RECOVERY_CODES);
        assert!(codes
            .iter()
            .all(|c| c.len() == 9 && c.as_bytes()[4] == b'-'));
        let mut unique = codes.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), codes.len());
    }

    #[test]
    fn a_qr_code_is_a_square_of_dark_modules() {
        let q = qr("otpauth://totp/x?secret=ABCDEFGH").unwrap();
        assert!(q.size >= 21, "{}", q.size);
        assert!(
            q.path.starts_with("M0 0h1v1h-1z"),
            "a finder pattern's corner"
        );
    }
}
