//! The staff as a manager sees them.

use super::*;
use framework::endpoint::{Args, Endpoint, NoBody, NoParams, Results};

framework::register!(StaffTeam);

framework::declare!(
    /// `GET /api/v1/staff/team`: every member of staff, by email (managers).
    pub struct StaffTeam = Get "/api/v1/staff/team" as "staffTeam", Session, errors [401, 404],
    (NoParams, NoParams, NoBody) -> Results<StaffMember>,
    "The store's staff (managers only).");

impl Endpoint for StaffTeam {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, _: Args<Self>) -> Result<Results<StaffMember>, ApiError> {
        staff(ctx, &[Role::Manager])?;
        let all = db::team::list(ctx.conn)?;
        Ok(all.iter().map(StaffMember::from).collect::<Vec<_>>().into())
    }
}
