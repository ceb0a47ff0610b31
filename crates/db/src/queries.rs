//! Queries shared by the API and the pages. Each takes a connection and returns plain models.

use diesel::prelude::*;

use crate::models::*;
use crate::schema::*;
use crate::AnyConnection;
use domain::{BarangayId, CityId, FulfillmentId, PackagingId, ProvinceId, StreetId};

pub fn packagings(conn: &mut AnyConnection) -> QueryResult<Vec<Packaging>> {
    packagings::table
        .order((packagings::sort_order, packagings::id))
        .select(Packaging::as_select())
        .load(conn)
}

pub fn packaging(conn: &mut AnyConnection, id: PackagingId) -> QueryResult<Option<Packaging>> {
    packagings::table
        .find(id.get())
        .select(Packaging::as_select())
        .first(conn)
        .optional()
}

pub fn packaging_by_filter_type(
    conn: &mut AnyConnection,
    filter_type: &str,
) -> QueryResult<Option<Packaging>> {
    packagings::table
        .filter(packagings::filter_type.eq(filter_type))
        .select(Packaging::as_select())
        .first(conn)
        .optional()
}

pub fn product_types(conn: &mut AnyConnection) -> QueryResult<Vec<ProductType>> {
    product_types::table
        .order(product_types::id)
        .select(ProductType::as_select())
        .load(conn)
}

pub fn barangay(conn: &mut AnyConnection, id: BarangayId) -> QueryResult<Option<Barangay>> {
    barangays::table
        .find(id.get())
        .select(Barangay::as_select())
        .first(conn)
        .optional()
}

/// A barangay with its city and whether the city is served: what a chosen location means.
#[derive(Debug, Clone, PartialEq)]
pub struct Place {
    pub barangay: Barangay,
    pub city: City,
    pub served: bool,
}

/// The place of a barangay, in one query.
pub fn place(conn: &mut AnyConnection, id: BarangayId) -> QueryResult<Option<Place>> {
    let served = diesel::dsl::exists(
        served_areas::table.filter(served_areas::city_id.eq(barangays::city_id)),
    );
    barangays::table
        .inner_join(cities::table)
        .filter(barangays::id.eq(id.get()))
        .select((Barangay::as_select(), City::as_select(), served))
        .first::<(Barangay, City, bool)>(conn)
        .optional()
        .map(|row| {
            row.map(|(barangay, city, served)| Place {
                barangay,
                city,
                served,
            })
        })
}

/// Where the products are looked for: everywhere (no location chosen yet) or in one served city.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Area {
    Anywhere,
    City(CityId),
}

/// The catalog in display order, narrowed to one packaging and to what is sold in an area.
pub fn products(
    conn: &mut AnyConnection,
    area: Area,
    packaging_id: Option<PackagingId>,
) -> QueryResult<Vec<Product>> {
    let mut query = products::table
        .select(Product::as_select())
        .order((products::sort_order, products::id))
        .into_boxed();
    if let Some(pid) = packaging_id {
        query = query.filter(products::packaging_id.eq(pid.get()));
    }
    if let Area::City(city_id) = area {
        let listed = product_areas::table
            .filter(product_areas::city_id.eq(city_id.get()))
            .select(product_areas::product_id);
        query = query.filter(
            products::sold_in_all_areas
                .eq(true)
                .or(products::id.eq_any(listed)),
        );
    }
    query.load(conn)
}

pub fn banners(conn: &mut AnyConnection) -> QueryResult<Vec<Banner>> {
    banners::table
        .order((banners::sort_order, banners::id))
        .select(Banner::as_select())
        .load(conn)
}

pub fn fulfillment_types(conn: &mut AnyConnection) -> QueryResult<Vec<FulfillmentType>> {
    fulfillment_types::table
        .order(fulfillment_types::id)
        .select(FulfillmentType::as_select())
        .load(conn)
}

pub fn fulfillment_type(
    conn: &mut AnyConnection,
    id: FulfillmentId,
) -> QueryResult<Option<FulfillmentType>> {
    fulfillment_types::table
        .find(id.get())
        .select(FulfillmentType::as_select())
        .first(conn)
        .optional()
}

/// Provinces, the default (Metro Manila, id 51) first.
pub fn provinces(conn: &mut AnyConnection) -> QueryResult<Vec<Province>> {
    provinces::table
        .order(provinces::id)
        .select(Province::as_select())
        .load(conn)
}

pub fn province(conn: &mut AnyConnection, id: ProvinceId) -> QueryResult<Option<Province>> {
    provinces::table
        .find(id.get())
        .select(Province::as_select())
        .first(conn)
        .optional()
}

pub fn city(conn: &mut AnyConnection, id: CityId) -> QueryResult<Option<City>> {
    cities::table
        .find(id.get())
        .select(City::as_select())
        .first(conn)
        .optional()
}

/// Cities of a province served with a fulfillment type (any type when `None`), by name.
pub fn served_cities(
    conn: &mut AnyConnection,
    province_id: Option<ProvinceId>,
    fulfillment_type_id: Option<FulfillmentId>,
) -> QueryResult<Vec<City>> {
    let served: Vec<i64> = match fulfillment_type_id {
        Some(f) => served_areas::table
            .filter(served_areas::fulfillment_type_id.eq(f.get()))
            .select(served_areas::city_id)
            .load(conn)?,
        None => served_areas::table
            .select(served_areas::city_id)
            .distinct()
            .load(conn)?,
    };
    let mut query = cities::table
        .filter(cities::id.eq_any(served))
        .order((cities::city_name, cities::id))
        .select(City::as_select())
        .into_boxed();
    if let Some(p) = province_id {
        query = query.filter(cities::province_id.eq(p.get()));
    }
    query.load(conn)
}

/// Every (city, fulfillment type) pair that is served.
pub fn served_pairs(conn: &mut AnyConnection) -> QueryResult<Vec<(CityId, FulfillmentId)>> {
    let rows: Vec<(i64, i32)> = served_areas::table
        .select((served_areas::city_id, served_areas::fulfillment_type_id))
        .load(conn)?;
    Ok(rows
        .into_iter()
        .map(|(c, f)| (CityId::from_db(c), FulfillmentId::from_db(f)))
        .collect())
}

/// Served cities where at least one product of a packaging is sold.
pub fn cities_selling_packaging(
    conn: &mut AnyConnection,
    packaging_id: PackagingId,
    province_id: Option<ProvinceId>,
) -> QueryResult<Vec<City>> {
    let everywhere: bool = diesel::select(diesel::dsl::exists(
        products::table
            .filter(products::packaging_id.eq(packaging_id.get()))
            .filter(products::sold_in_all_areas.eq(true)),
    ))
    .get_result(conn)?;
    let served = served_cities(conn, province_id, None)?;
    if everywhere {
        return Ok(served);
    }
    let listed: Vec<i64> = product_areas::table
        .inner_join(products::table)
        .filter(products::packaging_id.eq(packaging_id.get()))
        .select(product_areas::city_id)
        .distinct()
        .load(conn)?;
    Ok(served
        .into_iter()
        .filter(|c| listed.contains(&c.id.get()))
        .collect())
}

pub fn barangays_of_city(conn: &mut AnyConnection, city_id: CityId) -> QueryResult<Vec<Barangay>> {
    barangays::table
        .filter(barangays::city_id.eq(city_id.get()))
        .order((barangays::barangay_name, barangays::id))
        .select(Barangay::as_select())
        .load(conn)
}

pub fn streets_of_barangay(
    conn: &mut AnyConnection,
    barangay_id: BarangayId,
) -> QueryResult<Vec<Street>> {
    streets::table
        .filter(streets::barangay_id.eq(barangay_id.get()))
        .order((streets::street_name, streets::id))
        .select(Street::as_select())
        .load(conn)
}

pub fn street(conn: &mut AnyConnection, id: StreetId) -> QueryResult<Option<Street>> {
    streets::table
        .find(id.get())
        .select(Street::as_select())
        .first(conn)
        .optional()
}

pub fn product_by_slug(conn: &mut AnyConnection, slug: &str) -> QueryResult<Option<Product>> {
    products::table
        .filter(products::slug.eq(slug))
        .select(Product::as_select())
        .first(conn)
        .optional()
}

/// Whether a product is sold in a served city.
pub fn product_sold_in_city(
    conn: &mut AnyConnection,
    product: &Product,
    city_id: CityId,
) -> QueryResult<bool> {
    if product.sold_in_all_areas {
        return Ok(true);
    }
    diesel::select(diesel::dsl::exists(
        product_areas::table
            .filter(product_areas::product_id.eq(product.id.get()))
            .filter(product_areas::city_id.eq(city_id.get())),
    ))
    .get_result(conn)
}

pub fn is_holiday(conn: &mut AnyConnection, date: &str) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        holidays::table
            .filter(holidays::starts_on.le(date))
            .filter(holidays::ends_on.ge(date)),
    ))
    .get_result(conn)
}

/// The notice whose window holds the date, if any (the latest starting one).
pub fn notice_on(conn: &mut AnyConnection, date: &str) -> QueryResult<Option<Notice>> {
    notices::table
        .filter(notices::starts_on.le(date))
        .filter(notices::ends_on.ge(date))
        .order(notices::starts_on.desc())
        .select(Notice::as_select())
        .first(conn)
        .optional()
}

pub fn promos_on(conn: &mut AnyConnection, date: &str) -> QueryResult<Vec<Promo>> {
    promos::table
        .filter(promos::starts_on.le(date))
        .filter(promos::ends_on.ge(date))
        .order((promos::ends_on, promos::id))
        .select(Promo::as_select())
        .load(conn)
}

pub fn site_text(conn: &mut AnyConnection, key: &str) -> QueryResult<Option<SiteText>> {
    site_texts::table
        .find(key)
        .select(SiteText::as_select())
        .first(conn)
        .optional()
}

/// Every product's slug, in catalog order (the sitemap).
pub fn product_slugs(conn: &mut AnyConnection) -> QueryResult<Vec<String>> {
    products::table
        .order((products::sort_order, products::id))
        .select(products::slug)
        .load(conn)
}

pub fn setting(conn: &mut AnyConnection, key: &str) -> QueryResult<Option<String>> {
    settings::table
        .find(key)
        .select(settings::value)
        .first(conn)
        .optional()
}

/// Where a newsletter signup stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signup {
    /// New, or still unconfirmed: the link's token was (re)placed and is to be mailed.
    Pending,
    /// The address already counts.
    Confirmed,
}

/// Records a signup awaiting confirmation with the hash of its link's token; an address that
/// already counts is left as it is.
pub fn subscribe(
    conn: &mut AnyConnection,
    email: &str,
    now: &str,
    token_hash: &str,
    expires_at: i64,
) -> QueryResult<Signup> {
    use newsletter_subscriptions::dsl as n;
    let signup = conn.transaction(|conn| {
        let confirmed: Option<Option<String>> = n::newsletter_subscriptions
            .filter(n::email.eq(email))
            .select(n::confirmed_at)
            .first(conn)
            .optional()?;
        match confirmed {
            Some(Some(_)) => Ok(Signup::Confirmed),
            Some(None) => {
                diesel::update(n::newsletter_subscriptions.filter(n::email.eq(email)))
                    .set((
                        n::token_hash.eq(token_hash),
                        n::token_expires_at.eq(expires_at),
                    ))
                    .execute(conn)?;
                Ok(Signup::Pending)
            }
            None => {
                diesel::insert_into(n::newsletter_subscriptions)
                    .values((
                        n::email.eq(email),
                        n::created_at.eq(now),
                        n::token_hash.eq(token_hash),
                        n::token_expires_at.eq(expires_at),
                    ))
                    .execute(conn)?;
                Ok(Signup::Pending)
            }
        }
    });
    match signup {
        // Two signups of one new address at once: the unique index keeps one, which mails.
        Err(diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::UniqueViolation,
            _,
        )) => Ok(Signup::Confirmed),
        other => other,
    }
}

/// Confirms the signup of a link (unexpired); `false` for an unknown, used or expired link.
pub fn confirm_subscription(
    conn: &mut AnyConnection,
    token_hash: &str,
    now_unix: i64,
    now: &str,
) -> QueryResult<bool> {
    use newsletter_subscriptions::dsl as n;
    let changed = diesel::update(
        n::newsletter_subscriptions
            .filter(n::token_hash.eq(token_hash))
            .filter(n::token_expires_at.ge(now_unix))
            .filter(n::confirmed_at.is_null()),
    )
    .set((
        n::confirmed_at.eq(now),
        n::token_hash.eq(None::<String>),
        n::token_expires_at.eq(None::<i64>),
    ))
    .execute(conn)?;
    Ok(changed == 1)
}

/// Counts one use of `key` in a window of `window` seconds starting at its first use; answers
/// `None` when the use is allowed (at most `limit` in a window), else the seconds until the
/// window ends. One statement, so app servers sharing the database count together.
pub fn rate_hit(
    conn: &mut AnyConnection,
    key: &str,
    now: i64,
    window: i64,
    limit: i32,
) -> QueryResult<Option<i64>> {
    use diesel::sql_types::{BigInt, Integer, Text};

    #[derive(QueryableByName)]
    struct Row {
        #[diesel(sql_type = BigInt)]
        window_start: i64,
        #[diesel(sql_type = Integer)]
        hits: i32,
    }
    const UPSERT: &str = "INSERT INTO rate_limits (key, window_start, hits) VALUES ($1, $2, 1) \
        ON CONFLICT (key) DO UPDATE SET \
        hits = CASE WHEN rate_limits.window_start + $3 <= $2 THEN 1 ELSE rate_limits.hits + 1 END, \
        window_start = CASE WHEN rate_limits.window_start + $3 <= $2 THEN $2 ELSE rate_limits.window_start END \
        RETURNING window_start, hits";
    let row: Row = match conn {
        AnyConnection::Postgresql(c) => diesel::sql_query(UPSERT)
            .bind::<Text, _>(key)
            .bind::<BigInt, _>(now)
            .bind::<BigInt, _>(window)
            .get_result(c)?,
        AnyConnection::Sqlite(c) => diesel::sql_query(UPSERT.replace('$', "?"))
            .bind::<Text, _>(key)
            .bind::<BigInt, _>(now)
            .bind::<BigInt, _>(window)
            .get_result(c)?,
    };
    Ok((row.hits > limit).then(|| (row.window_start + window - now).max(1)))
}

/// A session as stored.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = sessions)]
pub struct SessionRow {
    pub token_hash: String,
    pub user_id: Option<i64>,
    pub created_at: i64,
    pub expires_at: i64,
}

/// Stores a new session.
pub fn create_session(
    conn: &mut AnyConnection,
    token_hash: &str,
    user_id: Option<i64>,
    now: i64,
    expires_at: i64,
) -> QueryResult<()> {
    diesel::insert_into(sessions::table)
        .values((
            sessions::token_hash.eq(token_hash),
            sessions::user_id.eq(user_id),
            sessions::created_at.eq(now),
            sessions::expires_at.eq(expires_at),
        ))
        .execute(conn)
        .map(|_| ())
}

/// The session of a token hash, if it has not expired.
pub fn live_session(
    conn: &mut AnyConnection,
    token_hash: &str,
    now: i64,
) -> QueryResult<Option<SessionRow>> {
    sessions::table
        .find(token_hash)
        .filter(sessions::expires_at.gt(now))
        .select(SessionRow::as_select())
        .first(conn)
        .optional()
}

/// Moves a session's expiry.
pub fn extend_session(
    conn: &mut AnyConnection,
    token_hash: &str,
    expires_at: i64,
) -> QueryResult<()> {
    diesel::update(sessions::table.find(token_hash))
        .set(sessions::expires_at.eq(expires_at))
        .execute(conn)
        .map(|_| ())
}

/// Forgets sessions that expired before `now`; answers how many.
pub fn purge_sessions(conn: &mut AnyConnection, now: i64) -> QueryResult<usize> {
    diesel::delete(sessions::table.filter(sessions::expires_at.le(now))).execute(conn)
}

/// Forgets a rate-limit counter (a login that succeeded).
pub fn rate_reset(conn: &mut AnyConnection, key: &str) -> QueryResult<()> {
    diesel::delete(rate_limits::table.find(key))
        .execute(conn)
        .map(|_| ())
}

/// A member as stored.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = users)]
pub struct UserRow {
    #[diesel(deserialize_as = i64)]
    pub id: domain::UserId,
    pub email: String,
    pub mobile: String,
    pub first_name: String,
    pub last_name: String,
    pub birth_date: String,
    pub password_hash: String,
    pub policy_agreement_accepted: bool,
    pub created_at: i64,
}

/// A registration waiting for its link, or a member's details to store.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = registrations)]
pub struct RegistrationRow {
    pub token_hash: String,
    pub email: String,
    pub mobile: String,
    pub first_name: String,
    pub last_name: String,
    pub birth_date: String,
    pub password_hash: String,
    pub expires_at: i64,
    pub used_at: Option<i64>,
}

pub fn user(conn: &mut AnyConnection, id: domain::UserId) -> QueryResult<Option<UserRow>> {
    users::table
        .find(id.get())
        .select(UserRow::as_select())
        .first(conn)
        .optional()
}

/// The member with this email address (lower-cased) or mobile number.
pub fn user_by_login(conn: &mut AnyConnection, login: &str) -> QueryResult<Option<UserRow>> {
    users::table
        .filter(users::email.eq(login).or(users::mobile.eq(login)))
        .select(UserRow::as_select())
        .first(conn)
        .optional()
}

pub fn email_taken(conn: &mut AnyConnection, email: &str) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        users::table.filter(users::email.eq(email)),
    ))
    .get_result(conn)
}

pub fn mobile_taken(conn: &mut AnyConnection, mobile: &str) -> QueryResult<bool> {
    diesel::select(diesel::dsl::exists(
        users::table.filter(users::mobile.eq(mobile)),
    ))
    .get_result(conn)
}

pub fn create_registration(conn: &mut AnyConnection, r: &RegistrationRow) -> QueryResult<()> {
    diesel::insert_into(registrations::table)
        .values((
            registrations::token_hash.eq(&r.token_hash),
            registrations::email.eq(&r.email),
            registrations::mobile.eq(&r.mobile),
            registrations::first_name.eq(&r.first_name),
            registrations::last_name.eq(&r.last_name),
            registrations::birth_date.eq(&r.birth_date),
            registrations::password_hash.eq(&r.password_hash),
            registrations::expires_at.eq(r.expires_at),
        ))
        .execute(conn)
        .map(|_| ())
}

/// A registration whose link is unused and unexpired.
pub fn open_registration(
    conn: &mut AnyConnection,
    token_hash: &str,
    now: i64,
) -> QueryResult<Option<RegistrationRow>> {
    registrations::table
        .find(token_hash)
        .filter(registrations::expires_at.gt(now))
        .filter(registrations::used_at.is_null())
        .select(RegistrationRow::as_select())
        .first(conn)
        .optional()
}

/// Creates the member of a registration and marks its link used, in one transaction; answers
/// the member's id, or `None` when the link was used meanwhile (a double click).
pub fn complete_registration(
    conn: &mut AnyConnection,
    r: &RegistrationRow,
    now: i64,
) -> QueryResult<Option<domain::UserId>> {
    conn.transaction(|conn| {
        let used = diesel::update(
            registrations::table
                .find(&r.token_hash)
                .filter(registrations::used_at.is_null()),
        )
        .set(registrations::used_at.eq(now))
        .execute(conn)?;
        if used == 0 {
            return Ok(None);
        }
        insert_user(conn, r, now).map(Some)
    })
}

/// Creates an account from checked details (a social registration: no link to mark used).
pub fn create_user(
    conn: &mut AnyConnection,
    r: &RegistrationRow,
    now: i64,
) -> QueryResult<domain::UserId> {
    conn.transaction(|conn| insert_user(conn, r, now))
}

fn insert_user(
    conn: &mut AnyConnection,
    r: &RegistrationRow,
    now: i64,
) -> QueryResult<domain::UserId> {
    diesel::insert_into(users::table)
        .values((
            users::email.eq(&r.email),
            users::mobile.eq(&r.mobile),
            users::first_name.eq(&r.first_name),
            users::last_name.eq(&r.last_name),
            users::birth_date.eq(&r.birth_date),
            users::password_hash.eq(&r.password_hash),
            users::created_at.eq(now),
        ))
        .execute(conn)?;
    let id: i64 = users::table
        .filter(users::email.eq(&r.email))
        .select(users::id)
        .first(conn)?;
    Ok(domain::UserId::from_db(id))
}

/// Ends one session.
pub fn end_session(conn: &mut AnyConnection, token_hash: &str) -> QueryResult<()> {
    diesel::delete(sessions::table.find(token_hash))
        .execute(conn)
        .map(|_| ())
}

/// Ends every session of a member (password change, account deletion).
pub fn end_sessions_of(conn: &mut AnyConnection, user: domain::UserId) -> QueryResult<usize> {
    diesel::delete(sessions::table.filter(sessions::user_id.eq(user.get()))).execute(conn)
}

/// A member's editable details.
pub struct Profile<'a> {
    pub first_name: &'a str,
    pub last_name: &'a str,
    pub mobile: &'a str,
    pub birth_date: &'a str,
}

/// Updates a member's details; `false` when the mobile number belongs to another member.
pub fn update_profile(
    conn: &mut AnyConnection,
    user: domain::UserId,
    p: &Profile,
) -> QueryResult<bool> {
    let taken: bool = diesel::select(diesel::dsl::exists(
        users::table
            .filter(users::mobile.eq(p.mobile))
            .filter(users::id.ne(user.get())),
    ))
    .get_result(conn)?;
    if taken {
        return Ok(false);
    }
    diesel::update(users::table.find(user.get()))
        .set((
            users::first_name.eq(p.first_name),
            users::last_name.eq(p.last_name),
            users::mobile.eq(p.mobile),
            users::birth_date.eq(p.birth_date),
        ))
        .execute(conn)?;
    Ok(true)
}

pub fn set_policy_accepted(
    conn: &mut AnyConnection,
    user: domain::UserId,
    accepted: bool,
) -> QueryResult<()> {
    diesel::update(users::table.find(user.get()))
        .set(users::policy_agreement_accepted.eq(accepted))
        .execute(conn)
        .map(|_| ())
}

pub fn set_password(
    conn: &mut AnyConnection,
    user: domain::UserId,
    password_hash: &str,
) -> QueryResult<()> {
    diesel::update(users::table.find(user.get()))
        .set(users::password_hash.eq(password_hash))
        .execute(conn)
        .map(|_| ())
}

/// Deletes a member and everything personal: sessions, reset links, pending registrations of
/// the address, rate-limit counters named by it.
pub fn delete_user(conn: &mut AnyConnection, user: &UserRow) -> QueryResult<()> {
    conn.transaction(|conn| {
        diesel::delete(sessions::table.filter(sessions::user_id.eq(user.id.get())))
            .execute(conn)?;
        diesel::delete(password_resets::table.filter(password_resets::user_id.eq(user.id.get())))
            .execute(conn)?;
        diesel::delete(registrations::table.filter(registrations::email.eq(&user.email)))
            .execute(conn)?;
        diesel::delete(
            rate_limits::table.filter(
                rate_limits::key
                    .like(format!("%:{}", user.email))
                    .or(rate_limits::key.like(format!("%:{}", user.mobile))),
            ),
        )
        .execute(conn)?;
        diesel::delete(users::table.find(user.id.get())).execute(conn)?;
        Ok(())
    })
}

pub fn create_password_reset(
    conn: &mut AnyConnection,
    token_hash: &str,
    user: domain::UserId,
    expires_at: i64,
) -> QueryResult<()> {
    diesel::insert_into(password_resets::table)
        .values((
            password_resets::token_hash.eq(token_hash),
            password_resets::user_id.eq(user.get()),
            password_resets::expires_at.eq(expires_at),
        ))
        .execute(conn)
        .map(|_| ())
}

/// The member of an unused, unexpired reset link.
pub fn open_password_reset(
    conn: &mut AnyConnection,
    token_hash: &str,
    now: i64,
) -> QueryResult<Option<domain::UserId>> {
    password_resets::table
        .find(token_hash)
        .filter(password_resets::expires_at.gt(now))
        .filter(password_resets::used_at.is_null())
        .select(password_resets::user_id)
        .first::<i64>(conn)
        .optional()
        .map(|id| id.map(domain::UserId::from_db))
}

/// Uses a reset link: sets the password, ends every session of the member, in one transaction;
/// `false` when the link was used meanwhile.
pub fn use_password_reset(
    conn: &mut AnyConnection,
    token_hash: &str,
    user: domain::UserId,
    password_hash: &str,
    now: i64,
) -> QueryResult<bool> {
    conn.transaction(|conn| {
        let used = diesel::update(
            password_resets::table
                .find(token_hash)
                .filter(password_resets::used_at.is_null()),
        )
        .set(password_resets::used_at.eq(now))
        .execute(conn)?;
        if used == 0 {
            return Ok(false);
        }
        set_password(conn, user, password_hash)?;
        end_sessions_of(conn, user)?;
        Ok(true)
    })
}

/// A saved address with its place's names.
#[derive(Debug, Clone, PartialEq)]
pub struct AddressRow {
    pub id: domain::AddressId,
    pub address: String,
    pub barangay: Barangay,
    pub city: City,
    pub province_name: String,
    pub street: Option<Street>,
}

/// A member's addresses, newest first; `only` narrows to one (owned) address.
pub fn addresses_of(
    conn: &mut AnyConnection,
    user: domain::UserId,
    only: Option<domain::AddressId>,
) -> QueryResult<Vec<AddressRow>> {
    let mut q = addresses::table
        .inner_join(barangays::table.inner_join(cities::table.inner_join(provinces::table)))
        .left_join(streets::table)
        .filter(addresses::user_id.eq(user.get()))
        .order(addresses::id.desc())
        .select((
            addresses::id,
            addresses::address,
            Barangay::as_select(),
            City::as_select(),
            provinces::province_name,
            Option::<Street>::as_select(),
        ))
        .into_boxed();
    if let Some(id) = only {
        q = q.filter(addresses::id.eq(id.get()));
    }
    let rows: Vec<(i64, String, Barangay, City, String, Option<Street>)> = q.load(conn)?;
    Ok(rows
        .into_iter()
        .map(
            |(id, address, barangay, city, province_name, street)| AddressRow {
                id: domain::AddressId::from_db(id),
                address,
                barangay,
                city,
                province_name,
                street,
            },
        )
        .collect())
}

pub fn count_addresses(conn: &mut AnyConnection, user: domain::UserId) -> QueryResult<i64> {
    addresses::table
        .filter(addresses::user_id.eq(user.get()))
        .count()
        .get_result(conn)
}

/// Saves a new address; answers its id.
pub fn create_address(
    conn: &mut AnyConnection,
    user: domain::UserId,
    address: &str,
    barangay: BarangayId,
    street: Option<StreetId>,
    now: i64,
) -> QueryResult<domain::AddressId> {
    conn.transaction(|conn| {
        diesel::insert_into(addresses::table)
            .values((
                addresses::user_id.eq(user.get()),
                addresses::address.eq(address),
                addresses::barangay_id.eq(barangay.get()),
                addresses::street_id.eq(street.map(StreetId::get)),
                addresses::created_at.eq(now),
            ))
            .execute(conn)?;
        addresses::table
            .filter(addresses::user_id.eq(user.get()))
            .select(diesel::dsl::max(addresses::id))
            .first::<Option<i64>>(conn)
            .map(|id| domain::AddressId::from_db(id.unwrap_or_default()))
    })
}

/// Changes an owned address; `false` when the member has no such address.
pub fn update_address(
    conn: &mut AnyConnection,
    user: domain::UserId,
    id: domain::AddressId,
    address: &str,
    barangay: BarangayId,
    street: Option<StreetId>,
) -> QueryResult<bool> {
    diesel::update(
        addresses::table
            .filter(addresses::id.eq(id.get()))
            .filter(addresses::user_id.eq(user.get())),
    )
    .set((
        addresses::address.eq(address),
        addresses::barangay_id.eq(barangay.get()),
        addresses::street_id.eq(street.map(StreetId::get)),
    ))
    .execute(conn)
    .map(|n| n == 1)
}

/// Deletes an owned address; `false` when the member has no such address.
pub fn delete_address(
    conn: &mut AnyConnection,
    user: domain::UserId,
    id: domain::AddressId,
) -> QueryResult<bool> {
    diesel::delete(
        addresses::table
            .filter(addresses::id.eq(id.get()))
            .filter(addresses::user_id.eq(user.get())),
    )
    .execute(conn)
    .map(|n| n == 1)
}
