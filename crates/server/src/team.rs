//! `store staff ...`: the staff's accounts from the command line. Adding a member of staff mails
//! them a link to choose a password (through the store's mail queue); every change is written
//! to the audit log as the command line's.

use clap::Subcommand;
use domain::staff::Role;

use crate::staff::{open, table_lines};
use crate::Config;

/// `store staff ...`
#[derive(Subcommand)]
pub enum StaffCommand {
    /// Add a member of staff and mail them a link to choose a password (72 hours, once).
    #[command(
        after_help = "Examples:\n  store staff add ana@tala.ph --role dispatcher --name \"Ana Cruz\"\n  \
        store staff add ben@tala.ph --role rider\n\n\
        Roles: manager (everything, staff and settings), dispatcher (orders, runs, \
        reconciliation), rider (only the runs given to them). At the first sign-in, at \
        /staff/login, they set up a second factor with an authenticator app."
    )]
    Add {
        /// Their email address (they sign in with it)
        email: String,
        /// manager, dispatcher or rider
        #[arg(long)]
        role: String,
        /// Their name as the staff pages and the audit log show it (else the email's name)
        #[arg(long)]
        name: Option<String>,
    },
    /// List the staff: email, name, role, password chosen, second factor, standing.
    List,
    /// Give a member of staff another role (their sessions end).
    SetRole {
        email: String,
        /// manager, dispatcher or rider
        role: String,
    },
    /// Disable a member of staff: they cannot sign in, their sessions end.
    Disable { email: String },
    /// Enable a disabled member of staff again.
    Enable { email: String },
    /// Mail a member of staff a new link to choose a password (earlier links stop working).
    Invite { email: String },
}

/// Runs a `store staff` command.
pub fn staff(config: &Config, command: StaffCommand) -> Result<(), String> {
    let (_pool, mut conn) = open(config)?;
    let conn = &mut *conn;
    match command {
        StaffCommand::Add { email, role, name } => add(config, conn, &email, &role, name),
        StaffCommand::List => list(conn),
        StaffCommand::SetRole { email, role } => {
            let role = parse_role(&role)?;
            change(conn, &email, "staff.role", |conn, m, now| {
                db::team::set_role(conn, m.id, role.as_str(), now)?;
                Ok((
                    serde_json::json!({"role": m.role}),
                    serde_json::json!({"role": role.as_str()}),
                ))
            })
        }
        StaffCommand::Disable { email } => change(conn, &email, "staff.disable", |conn, m, now| {
            db::team::set_disabled(conn, m.id, Some(now), now)?;
            Ok(standing(m, true))
        }),
        StaffCommand::Enable { email } => change(conn, &email, "staff.enable", |conn, m, now| {
            db::team::set_disabled(conn, m.id, None, now)?;
            Ok(standing(m, false))
        }),
        StaffCommand::Invite { email } => {
            let member = find(conn, &email)?;
            invite(config, conn, &member, "staff.invite")
        }
    }
}

fn parse_role(role: &str) -> Result<Role, String> {
    Role::parse(role)
        .ok_or_else(|| format!("{role:?}: the roles are manager, dispatcher and rider"))
}

fn find(conn: &mut db::AnyConnection, email: &str) -> Result<db::team::StaffRow, String> {
    let email = email.trim().to_ascii_lowercase();
    db::team::by_email(conn, &email)
        .map_err(|e| e.to_string())?
        .ok_or_else(|| format!("no member of staff has the email {email}"))
}

fn standing(m: &db::team::StaffRow, disabled: bool) -> (serde_json::Value, serde_json::Value) {
    (
        serde_json::json!({"disabled": m.disabled_at.is_some()}),
        serde_json::json!({"disabled": disabled}),
    )
}

fn add(
    config: &Config,
    conn: &mut db::AnyConnection,
    email: &str,
    role: &str,
    name: Option<String>,
) -> Result<(), String> {
    let role = parse_role(role)?;
    let email = domain::email::validate_email(email).map_err(|m| format!("{email:?}: {m}"))?;
    let name = name
        .map(|n| n.trim().to_string())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| email.split('@').next().unwrap_or_default().to_string());
    if db::team::by_email(conn, &email)
        .map_err(|e| e.to_string())?
        .is_some()
    {
        return Err(format!(
            "{email} is already on the staff (`store staff invite {email}` mails a new link)"
        ));
    }
    let now = domain::calendar::unix_now();
    let id = db::team::add(conn, &email, &name, role.as_str(), now).map_err(|e| e.to_string())?;
    let member = db::team::by_id(conn, id)
        .map_err(|e| e.to_string())?
        .ok_or("the new member of staff vanished")?;
    invite(config, conn, &member, "staff.add")
}

/// Mails a link to choose a password and records it, in one transaction.
fn invite(
    config: &Config,
    conn: &mut db::AnyConnection,
    member: &db::team::StaffRow,
    action: &str,
) -> Result<(), String> {
    let subject = format!("staff {}", member.id);
    let after =
        serde_json::json!({"email": member.email, "name": member.name, "role": member.role});
    db::transaction(conn, |conn| {
        api::staff::password::invite(conn, &config.public_url, member)?;
        api::staff::record(conn, None, action, &subject, None, Some(after))
    })
    .map_err(|e: framework::ApiError| e.to_string())?;
    println!(
        "{} ({}, {}): a link to choose a password is queued for {} (the store's mail sender delivers it; it works for 72 hours, once)",
        member.name, member.email, member.role, member.email
    );
    Ok(())
}

/// Changes a member of staff and records the change, in one transaction.
fn change(
    conn: &mut db::AnyConnection,
    email: &str,
    action: &str,
    write: impl FnOnce(
        &mut db::AnyConnection,
        &db::team::StaffRow,
        i64,
    ) -> Result<(serde_json::Value, serde_json::Value), framework::ApiError>,
) -> Result<(), String> {
    let member = find(conn, email)?;
    let now = domain::calendar::unix_now();
    db::transaction(conn, |conn| {
        let (before, after) = write(conn, &member, now)?;
        api::staff::record(
            conn,
            None,
            action,
            &format!("staff {}", member.id),
            Some(before),
            Some(after),
        )
    })
    .map_err(|e: framework::ApiError| e.to_string())?;
    println!("{}: done; their sessions have ended", member.email);
    Ok(())
}

const HEADER: [&str; 6] = [
    "email",
    "name",
    "role",
    "password",
    "second factor",
    "standing",
];

fn list(conn: &mut db::AnyConnection) -> Result<(), String> {
    let all = db::team::list(conn).map_err(|e| e.to_string())?;
    if all.is_empty() {
        println!("no staff yet: `store staff add EMAIL --role manager` adds the first");
        return Ok(());
    }
    let yes_no = |b: bool, yes: &str, no: &str| if b { yes } else { no }.to_string();
    let table: Vec<[String; 6]> = all
        .iter()
        .map(|m| {
            [
                m.email.clone(),
                m.name.clone(),
                m.role.clone(),
                yes_no(m.password_hash.is_some(), "chosen", "link sent"),
                yes_no(m.totp_secret.is_some(), "set up", "not yet"),
                yes_no(m.disabled_at.is_some(), "disabled", "active"),
            ]
        })
        .collect();
    for line in table_lines(HEADER, &table) {
        println!("{line}");
    }
    Ok(())
}
