//! The account forms (issue 8): login, logout, registration, password reset and change,
//! profile, addresses, account deletion and the newsletter's confirmation. Each is one
//! declaration: the address it posts to, the API call its fields run, and where it goes on
//! success ([`crate::form`] does the rest, with and without JavaScript).

use api::accounts::{Login, Logout, PreRegister, Registration};
use api::addresses::{AddressView, CreateAddress, DeleteAddress, UpdateAddress};
use api::content::ConfirmSubscription;
use api::profile::{ChangePassword, DeleteUser, ResetLink, ResetPassword, UpdateUser};
use api::ApiError;

use crate::api_form;
use crate::fields::Fields;
use crate::form::Done;

/// SPEC 6: after login, to /checkout when login began there, else /buy-beer.
fn after_login<A>(f: &Fields, _: &A) -> Done {
    Done::to(if f.get("from") == Some("checkout") {
        "/checkout"
    } else {
        "/buy-beer"
    })
}
api_form!(Login, "/login", after_login);
api_form!(Logout, "/logout", |_, _| Done::to("/login?done=logout"));

/// SPEC 8's words for a registration that failed for another reason than its fields.
const REGISTRATION_FAILED: &str = "Something went wrong creating your account. Please try again.";

// The form mails a link; the link's page (with its `token`) creates the account.
api_form!(PreRegister, "/registration", |_, _| Done::to("/registration?done=sent"),
    fallback: REGISTRATION_FAILED);
api_form!(Registration, "/registration", |_, _| Done::to("/setup-address?done=welcome"),
    fallback: REGISTRATION_FAILED, link_token: "token");

// Without a link the page mails one; with its `suid` it sets the new password.
api_form!(ResetLink, "/reset-password", |_, _| Done::to(
    "/reset-password?done=sent"
));
api_form!(ResetPassword, "/reset-password", |_, _| Done::to(
    "/login?done=reset"
));
api_form!(ChangePassword, "/change-password", |_, _| Done::to(
    "/my-account?done=password"
));
api_form!(UpdateUser, "/my-account", |_, _| Done::to(
    "/my-account?done=profile"
));

api_form!(CreateAddress, "/my-account/addresses", |_, _| Done::to(
    "/my-account/addresses?done=added"
));
api_form!(UpdateAddress, "/my-account/addresses", |_, _| Done::to(
    "/my-account/addresses?done=saved"
));
api_form!(DeleteAddress, "/my-account/addresses", |_, _| Done::to(
    "/my-account/addresses?done=deleted"
));

/// The first address becomes the location the shop is shown for, as the client's USE THIS
/// ADDRESS does.
fn first_address(_: &Fields, a: &AddressView) -> Done {
    Done {
        to: "/buy-beer".into(),
        cookies: crate::gate::location_cookies(&crate::gate::Location {
            fulfillment: domain::DEFAULT_FULFILLMENT,
            city: a.city_id,
            city_name: &a.city_name,
            barangay: a.barangay_id,
            barangay_name: &a.barangay_name,
            street: a.street_id,
        })
        .into(),
    }
}
api_form!(CreateAddress, "/setup-address", first_address);

api_form!(ConfirmSubscription, "/newsletter/confirm", |_, _| Done::to(
    "/newsletter/confirm?done=confirmed"
));

/// SPEC 2: deleting the account takes a ticked confirmation box.
fn confirmed(f: &Fields) -> Result<(), ApiError> {
    match f.get("confirm") {
        Some(_) => Ok(()),
        None => Err(ApiError::Invalid {
            field: "confirm",
            message: "Tick the box to confirm that you want to delete your account.".into(),
        }),
    }
}
api_form!(DeleteUser, "/my-account/delete-account", |_, _| Done::to("/?accountSuccessDelete=yes"),
    check: confirmed);
