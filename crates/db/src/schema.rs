// Written by hand to match migrations/sqlite and migrations/postgres (the same tables in both).

diesel::table! {
    packagings (id) {
        id -> Integer,
        name -> Text,
        filter_type -> Text,
        image -> Text,
        custom_description -> Text,
        sort_order -> Integer,
    }
}

diesel::table! {
    product_types (id) {
        id -> Integer,
        name -> Text,
    }
}

diesel::table! {
    products (id) {
        id -> Integer,
        slug -> Text,
        product_name -> Text,
        sku -> Text,
        brand -> Text,
        size -> Text,
        price -> BigInt,
        price_per_case -> BigInt,
        unit_per_case -> Integer,
        product_type_id -> Integer,
        packaging_id -> Integer,
        product_image -> Nullable<Text>,
        description -> Text,
        custom_description -> Text,
        orderable -> Bool,
        sold_in_all_areas -> Bool,
        best_seller -> Bool,
        recommended -> Bool,
        sort_order -> Integer,
        created_on -> Text,
    }
}

diesel::table! {
    fulfillment_types (id) {
        id -> Integer,
        name -> Text,
    }
}

diesel::table! {
    provinces (id) {
        id -> Integer,
        psgc_code -> Text,
        province_name -> Text,
    }
}

diesel::table! {
    cities (id) {
        id -> BigInt,
        province_id -> Integer,
        city_name -> Text,
    }
}

diesel::table! {
    barangays (id) {
        id -> BigInt,
        city_id -> BigInt,
        barangay_name -> Text,
    }
}

diesel::table! {
    streets (id) {
        id -> Integer,
        barangay_id -> BigInt,
        street_name -> Text,
    }
}

diesel::table! {
    served_areas (city_id, fulfillment_type_id) {
        city_id -> BigInt,
        fulfillment_type_id -> Integer,
    }
}

diesel::table! {
    product_areas (product_id, city_id) {
        product_id -> Integer,
        city_id -> BigInt,
    }
}

diesel::table! {
    deposits (id) {
        id -> Integer,
        name -> Text,
        amount -> BigInt,
        product_id -> Nullable<Integer>,
        packaging_id -> Nullable<Integer>,
    }
}

diesel::table! {
    banners (id) {
        id -> Integer,
        title -> Text,
        desktop_image -> Text,
        mobile_image -> Text,
        sort_order -> Integer,
    }
}

diesel::joinable!(products -> packagings (packaging_id));
diesel::joinable!(products -> product_types (product_type_id));
diesel::joinable!(cities -> provinces (province_id));
diesel::joinable!(barangays -> cities (city_id));
diesel::joinable!(streets -> barangays (barangay_id));
diesel::joinable!(served_areas -> cities (city_id));
diesel::joinable!(served_areas -> fulfillment_types (fulfillment_type_id));
diesel::joinable!(product_areas -> products (product_id));
diesel::joinable!(product_areas -> cities (city_id));

diesel::table! {
    site_texts (key) {
        key -> Text,
        title -> Text,
        body -> Text,
    }
}

diesel::table! {
    holidays (id) {
        id -> Integer,
        name -> Text,
        starts_on -> Text,
        ends_on -> Text,
    }
}

diesel::table! {
    notices (id) {
        id -> Integer,
        title -> Text,
        body -> Text,
        starts_on -> Text,
        ends_on -> Text,
    }
}

diesel::table! {
    promos (id) {
        id -> Integer,
        product_id -> Integer,
        title -> Text,
        description -> Text,
        starts_on -> Text,
        ends_on -> Text,
    }
}

diesel::table! {
    newsletter_subscriptions (id) {
        id -> BigInt,
        email -> Text,
        created_at -> Text,
    }
}

diesel::table! {
    settings (key) {
        key -> Text,
        value -> Text,
    }
}

diesel::joinable!(promos -> products (product_id));

diesel::allow_tables_to_appear_in_same_query!(
    packagings,
    product_types,
    products,
    fulfillment_types,
    provinces,
    cities,
    barangays,
    streets,
    served_areas,
    product_areas,
    deposits,
    banners,
    site_texts,
    holidays,
    notices,
    promos,
    newsletter_subscriptions,
    settings,
);
