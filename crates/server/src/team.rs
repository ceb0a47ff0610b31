//! `store staff ...`: the staff's accounts from the command line. Adding a member of staff mails
//! them a link to choose a password (through the store's mail queue); every change is written
//! to the audit log as the command line's.

use clap::Subcommand;
use domain::staff::Role;

use api::staff::team::{add_member, change_member, Change, NewMember};

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
    /// Erase a guest's personal data on their request: the guest orders of an email address or
    /// mobile number keep no name, email, mobile, address or note (the orders stay for the
    /// books), and their newsletter signup goes; recorded in the audit log.
    #[command(
        after_help = "Examples:\n  store staff erase-guest --email juan@example.com --dry-run\n  \
        store staff erase-guest --mobile 09171234567\n\n\
        Only guests' orders are touched: a member erases their data by deleting their account. \
        --dry-run lists what would go and changes nothing."
    )]
    EraseGuest(EraseGuestArgs),
}

/// `store staff erase-guest`: whom, and whether only to look.
#[derive(clap::Args)]
pub struct EraseGuestArgs {
    /// The email address the guest ordered with
    #[arg(long, conflicts_with = "mobile", required_unless_present = "mobile")]
    email: Option<String>,
    /// The mobile number the guest ordered with (09 followed by 9 digits)
    #[arg(long)]
    mobile: Option<String>,
    /// List what would be erased; change nothing
    #[arg(long)]
    dry_run: bool,
}

/// Runs a `store staff` command.
pub fn run_staff_command(config: &Config, command: StaffCommand) -> Result<(), String> {
    let (_pool, mut conn) = open(config)?;
    let conn = &mut *conn;
    let base = config.public_url.as_str();
    let change = |conn: &mut db::AnyConnection, email: &str, change: Change| {
        let member = find(conn, email)?;
        let after = db::transaction(conn, |conn| {
            change_member(conn, None, base, member.id, change)
        })
        .map_err(|e: framework::ApiError| e.to_string())?;
        Ok::<_, String>(after)
    };
    let disable = matches!(command, StaffCommand::Disable { .. });
    match command {
        StaffCommand::EraseGuest(a) => erase_guest(conn, &a),
        StaffCommand::Add { email, role, name } => {
            let role = parse_role(&role)?;
            let name = name.unwrap_or_default();
            let added = db::transaction(conn, |conn| {
                let new = NewMember {
                    email: &email,
                    name: &name,
                    role,
                };
                add_member(conn, None, base, new)
            })
            .map_err(|e: framework::ApiError| e.to_string())?;
            invited(&added);
            Ok(())
        }
        StaffCommand::List => list(conn),
        StaffCommand::SetRole { email, role } => {
            let role = Some(parse_role(&role)?);
            ended(&change(
                conn,
                &email,
                Change {
                    role,
                    ..Change::default()
                },
            )?)
        }
        StaffCommand::Disable { email } | StaffCommand::Enable { email } => {
            let disabled = Some(disable);
            ended(&change(
                conn,
                &email,
                Change {
                    disabled,
                    ..Change::default()
                },
            )?)
        }
        StaffCommand::Invite { email } => {
            let m = change(
                conn,
                &email,
                Change {
                    invite: true,
                    ..Change::default()
                },
            )?;
            invited(&m);
            Ok(())
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

fn invited(member: &db::team::StaffRow) {
    println!(
        "{} ({}, {}): a link to choose a password is queued for {} (the store's mail sender delivers it; it works for 72 hours, once)",
        member.name, member.email, member.role, member.email
    );
}

fn ended(member: &db::team::StaffRow) -> Result<(), String> {
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

/// `store staff erase-guest`: what was (or with `--dry-run`, would be) erased, order by order.
fn erase_guest(conn: &mut db::AnyConnection, a: &EraseGuestArgs) -> Result<(), String> {
    use api::staff::erase_guest::{erase, found_view, guest_of};
    let (flag, contact) = match (&a.email, &a.mobile) {
        (Some(e), _) => ("--email", e.as_str()),
        (None, Some(m)) => ("--mobile", m.as_str()),
        (None, None) => return Err("give --email or --mobile".into()),
    };
    let guest = guest_of(contact).map_err(|e| format!("{flag} {contact:?}: {e}"))?;
    // An email given to --mobile (or the other way round) is refused, not searched as the other.
    if (flag == "--email") != guest.email.is_some() {
        return Err(format!(
            "{flag} {contact:?}: this is not {}",
            if flag == "--email" {
                "an email address"
            } else {
                "a mobile number"
            }
        ));
    }
    let found = if a.dry_run {
        db::erasure::find_guest(conn, &guest).map_err(|e| e.to_string())?
    } else {
        erase(conn, None, &guest).map_err(|e| e.to_string())?
    };
    let (orders, newsletter) = found_view(&found);
    let table: Vec<[String; 6]> = orders
        .iter()
        .map(|o| {
            [
                o.number.clone(),
                o.placed_at.clone(),
                o.status.clone(),
                domain::money::format_php(o.total),
                String::new(),
                String::new(),
            ]
        })
        .collect();
    if !table.is_empty() {
        for line in table_lines(["order", "placed", "status", "total", "", ""], &table) {
            println!("{line}");
        }
    }
    let verb = if a.dry_run { "would be" } else { "were" };
    println!(
        "{} guest order(s) {verb} erased (their name, email, mobile, address and note blanked; the orders stay), {newsletter} newsletter signup(s) {verb} removed{}",
        orders.len(),
        if a.dry_run {
            "; nothing was changed (--dry-run)"
        } else {
            "; recorded in the audit log"
        }
    );
    Ok(())
}
