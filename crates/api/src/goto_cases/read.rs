//! Reading Go-to Cases: the member's list, one case, and the cases a cart could be saved as.

use super::*;

framework::register!(GotoCaseList, GotoCaseGet, GotoCaseOptions);

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Price the cases for this barangay (the location gate's): each item says whether it can be
    /// bought there.
    pub barangay: Option<BarangayId>,
    /// Product ids of a cart case (`1,5,12`): only the Go-to Cases of that case type, the ones
    /// that case can be added to.
    #[param(pattern = r"^ *[1-9][0-9]{0,8} *(, *[1-9][0-9]{0,8} *){0,49}$")]
    pub cart_items: Option<String>,
}

/// Product ids as a list's text (`1,5,12`), 1 to 50 of them.
fn id_list(text: &str, field: &'static str) -> Result<Vec<ProductId>, ApiError> {
    let ids: Option<Vec<ProductId>> = text
        .split(',')
        .map(|id| ProductId::parse(id.trim()))
        .collect();
    match ids {
        Some(ids) if !ids.is_empty() && ids.len() <= MAX_ITEMS => Ok(ids),
        _ => Err(ApiError::Invalid {
            field,
            message: format!("Name 1 to {MAX_ITEMS} products by their ids: 1,5,12."),
        }),
    }
}

framework::declare!(
    /// `GET /api/v1/user/goto-case`.
    pub struct GotoCaseList = Get "/api/v1/user/goto-case" as "gotoCases", Session, errors [401, 404, 422],
    (NoParams, ListQuery, NoBody) -> GotoCases,
    "The member's Go-to Cases, priced for a barangay; with cart_items, those of that cart case's type.");

impl Endpoint for GotoCaseList {
    fn call(ctx: &mut Ctx, (_, q, _, _): Args<Self>) -> Result<GotoCases, ApiError> {
        let member = ctx.member()?;
        let place = place_for(ctx, q.barangay)?;
        let pricing = Pricing::load(ctx)?;
        let mut rows = db::goto_cases::list(ctx.conn, member.id)?;
        if let Some(text) = q.cart_items.as_deref() {
            let ids = id_list(text, "cart_items")?;
            let mut packagings = Vec::new();
            for id in ids {
                if let Some(p) = db::carts::product(ctx.conn, id)? {
                    packagings.push(p.packaging_id.get());
                }
            }
            packagings.sort_unstable();
            packagings.dedup();
            if packagings.len() > 1 {
                return Err(ApiError::Invalid {
                    field: "cart_items",
                    message: "Name the items of one case of your cart (one case type).".into(),
                });
            }
            rows.retain(|r| packagings.contains(&r.packaging_id));
        }
        Ok(GotoCases {
            data: views(ctx, &pricing, &rows, place.as_ref())?,
        })
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Path)]
pub struct CasePath {
    /// The Go-to Case's id.
    pub id: i64,
}

#[derive(Debug, Default, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PlaceQuery {
    /// Price the case for this barangay.
    pub barangay: Option<BarangayId>,
}

framework::declare!(
    /// `GET /api/v1/user/goto-case/{id}`.
    pub struct GotoCaseGet = Get "/api/v1/user/goto-case/{id}" as "gotoCase", Session, errors [401, 404],
    (CasePath, PlaceQuery, NoBody) -> GotoCaseView,
    "One of the member's Go-to Cases, priced for a barangay when one is given.");

impl Endpoint for GotoCaseGet {
    const LINKS: &'static [framework::endpoint::Link] = &[
        framework::endpoint::Link {
            from: "createGotoCase",
            name: "GetGotoCase",
            params: &[("id", "$response.body#/goto_case/id")],
            body: None,
        },
        framework::endpoint::Link {
            from: "gotoCases",
            name: "GetGotoCase",
            params: &[("id", "$response.body#/data/0/id")],
            body: None,
        },
    ];

    fn call(ctx: &mut Ctx, (p, q, _, _): Args<Self>) -> Result<GotoCaseView, ApiError> {
        let member = ctx.member()?;
        let place = place_for(ctx, q.barangay)?;
        let pricing = Pricing::load(ctx)?;
        view_one(ctx, &pricing, member.id, p.id, place.as_ref())
    }
}

framework::declare!(
    /// `GET /api/v1/user/goto-case/options`.
    pub struct GotoCaseOptions = Get "/api/v1/user/goto-case/options" as "gotoCaseOptions", Session, errors [401],
    (NoParams, NoParams, NoBody) -> GotoCaseChoices,
    "What the Go-to Case form offers: the member's cases by name and type, and the limits.");

impl Endpoint for GotoCaseOptions {
    fn call(ctx: &mut Ctx, _: Args<Self>) -> Result<GotoCaseChoices, ApiError> {
        let member = ctx.member()?;
        let pricing = Pricing::load(ctx)?;
        let rows = db::goto_cases::list(ctx.conn, member.id)?;
        let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
        let items = db::goto_cases::items(ctx.conn, &ids)?;
        let cases: Vec<GotoCaseOption> = rows
            .iter()
            .map(|r| GotoCaseOption {
                id: r.id,
                case_name: r.name.clone(),
                case_type: case_type(&pricing, r.packaging_id).0,
                packaging_id: domain::PackagingId::from_db(r.packaging_id),
                item_count: items.iter().filter(|(c, _)| *c == r.id).count() as u32,
            })
            .collect();
        Ok(GotoCaseChoices {
            can_create: (cases.len() as i64) < MAX_CASES,
            cases,
            max_cases: MAX_CASES,
            max_items: MAX_ITEMS as u32,
        })
    }
}
