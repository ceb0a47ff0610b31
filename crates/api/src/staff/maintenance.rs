//! The maintenance switch in a manager's hands, as `store maintenance on|off` sets it: the
//! `settings.maintenance` row, which every app server follows within a second (shop pages answer
//! the maintenance page, shop calls 503). The back office stays open while the switch is on
//! (`framework::ApiState::closed_for`), so the manager who closed the store can open it again; a
//! server started with `MAINTENANCE=on` closes it too.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::staff::{entry, signed_in_as};
use domain::staff::Role;
use framework::endpoint::{Args, Ctx, Endpoint, Json, NoBody, NoParams};
use framework::error::ApiError;

framework::register!(StaffMaintenance, StaffMaintenanceSet);

/// Where the switch stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema, TS)]
pub struct MaintenanceState {
    /// The store is closed for maintenance.
    pub on: bool,
}

fn state(ctx: &mut Ctx) -> Result<MaintenanceState, ApiError> {
    Ok(MaintenanceState {
        on: db::staff::maintenance(ctx.conn)?,
    })
}

framework::declare!(
    /// `GET /api/v1/staff/maintenance`: whether the store is closed for maintenance (managers).
    pub struct StaffMaintenance = Get "/api/v1/staff/maintenance" as "staffMaintenance", Session, errors [401, 404],
    (NoParams, NoParams, NoBody) -> MaintenanceState,
    "Whether the store is closed for maintenance (managers only).");

impl Endpoint for StaffMaintenance {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, _: Args<Self>) -> Result<MaintenanceState, ApiError> {
        signed_in_as(ctx, &[Role::Manager])?;
        state(ctx)
    }
}

/// The switch, on or off.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct MaintenanceForm {
    /// On: every app server shows shoppers the maintenance page within a second; off: the store
    /// again. Required: left out, it is refused on its field (after the session is checked).
    #[serde(default, deserialize_with = "framework::endpoint::not_null")]
    #[schema(required = true, nullable = false)]
    pub on: Option<bool>,
}

framework::declare!(
    /// `POST /api/v1/staff/maintenance`: switches maintenance on or off for every app server
    /// (managers); recorded in the audit log.
    pub struct StaffMaintenanceSet = Post "/api/v1/staff/maintenance" as "staffMaintenanceSet", Write, errors [401, 404, 422],
    (NoParams, NoParams, Json<MaintenanceForm, true>) -> MaintenanceState,
    "Switches maintenance on or off for every app server within a second (managers only); recorded in the audit log.");

impl Endpoint for StaffMaintenanceSet {
    const CREDENTIAL: Option<(&'static str, &'static str)> = crate::staff::CREDENTIAL;

    fn call(ctx: &mut Ctx, (_, _, Json(f), _): Args<Self>) -> Result<MaintenanceState, ApiError> {
        let by = signed_in_as(ctx, &[Role::Manager])?.member;
        let on = f.on.ok_or_else(|| ApiError::Invalid {
            field: "on",
            message: "Say whether the store closes for maintenance (true) or opens (false).".into(),
        })?;
        db::write_transaction(ctx.conn, |conn| -> Result<(), ApiError> {
            // Only the switch that changed the row is recorded (two managers at once: one).
            if db::staff::switch_maintenance(conn, on)? {
                let action = if on {
                    "maintenance.on"
                } else {
                    "maintenance.off"
                };
                let (before, after) = (
                    serde_json::json!({ "maintenance": !on }),
                    serde_json::json!({ "maintenance": on }),
                );
                entry(
                    conn,
                    Some(&by),
                    action,
                    "the store",
                    Some(before),
                    Some(after),
                )?;
            }
            Ok(())
        })?;
        state(ctx)
    }
}
