//! A catalog file's home page banners.

use std::collections::HashMap;

use db::catalog_io::BannerRecord;

use super::format::BANNER_FIELDS;

use super::checks::{Check, SORT_ORDER};
use super::file::RawBanner;

pub(super) fn read_banners(
    records: Vec<(usize, RawBanner)>,
    errors: &mut Vec<String>,
) -> Vec<BannerRecord> {
    let mut ids = HashMap::new();
    let mut banners = Vec::new();
    for (i, raw) in records {
        let (mut r, id) = Check::by_id("banners", i, raw.id, &mut ids, errors);
        let title = r.name("title", raw.title, 200);
        let desktop_image = r.image("desktop_image", raw.desktop_image, true);
        let mobile_image = r.image("mobile_image", raw.mobile_image, true);
        let sort_order = r.int("sort_order", raw.sort_order, SORT_ORDER, Some(0));
        let starts_on = r.open_date("starts_on", raw.starts_on);
        let ends_on = r.open_date("ends_on", raw.ends_on);
        r.in_order(starts_on.as_deref(), ends_on.as_deref());
        r.unknown(&raw.unknown, BANNER_FIELDS);
        banners.push(BannerRecord {
            id,
            title,
            desktop_image: desktop_image.unwrap_or_default(),
            mobile_image: mobile_image.unwrap_or_default(),
            sort_order: i32::try_from(sort_order).unwrap_or(0),
            starts_on,
            ends_on,
        });
    }
    banners
}
