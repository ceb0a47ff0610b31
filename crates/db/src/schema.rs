// @generated automatically by Diesel CLI.

diesel::table! {
    addresses (id) {
        id -> Int8,
        user_id -> Int8,
        address -> Text,
        barangay_id -> Int8,
        street_id -> Nullable<Int4>,
        created_at -> Int8,
    }
}

diesel::table! {
    audit_log (id) {
        id -> Int8,
        at -> Int8,
        staff_id -> Nullable<Int8>,
        actor -> Text,
        action -> Text,
        subject -> Text,
        before_state -> Nullable<Text>,
        after_state -> Nullable<Text>,
    }
}

diesel::table! {
    banners (id) {
        id -> Int4,
        title -> Text,
        desktop_image -> Text,
        mobile_image -> Text,
        sort_order -> Int4,
        starts_on -> Nullable<Text>,
        ends_on -> Nullable<Text>,
        photo -> Nullable<Text>,
        photo_width -> Nullable<Int4>,
        photo_height -> Nullable<Int4>,
    }
}

diesel::table! {
    barangays (id) {
        id -> Int8,
        city_id -> Int8,
        barangay_name -> Text,
    }
}

diesel::table! {
    cart_empties (cart_id, deposit_id) {
        cart_id -> Int8,
        deposit_id -> Int4,
        cases -> Int4,
    }
}

diesel::table! {
    cart_items (cart_id, product_id) {
        cart_id -> Int8,
        product_id -> Int4,
        quantity -> Int4,
        added_at -> Int8,
    }
}

diesel::table! {
    cart_refills (cart_id, source, revision) {
        cart_id -> Int8,
        source -> Text,
        revision -> Int8,
        refilled_at -> Int8,
    }
}

diesel::table! {
    carts (id) {
        id -> Int8,
        user_id -> Nullable<Int8>,
        guest_key -> Nullable<Text>,
        barangay_id -> Nullable<Int8>,
        street_id -> Nullable<Int4>,
        revision -> Int8,
        updated_at -> Int8,
    }
}

diesel::table! {
    case_types (packaging_id) {
        packaging_id -> Int4,
        name -> Text,
        unit_noun -> Text,
        unit_per_case -> Int4,
        minimum_order_qty -> Int4,
    }
}

diesel::table! {
    catalog_drafts (id) {
        id -> Text,
        staff_id -> Int8,
        file_name -> Text,
        body -> Text,
        created_at -> Int8,
    }
}

diesel::table! {
    checkout_blackouts (id) {
        id -> Int4,
        starts_at -> Text,
        ends_at -> Text,
    }
}

diesel::table! {
    checkout_sessions (id) {
        id -> Text,
        order_id -> Int8,
        attempt -> Int4,
        url -> Text,
        created_at -> Int8,
        state -> Text,
    }
}

diesel::table! {
    cities (id) {
        id -> Int8,
        province_id -> Int4,
        city_name -> Text,
    }
}

diesel::table! {
    data_version (id) {
        id -> Int4,
        version -> Int8,
    }
}

diesel::table! {
    delivery_fees (city_id, fulfillment_type_id) {
        city_id -> Int8,
        fulfillment_type_id -> Int4,
        amount -> Int8,
    }
}

diesel::table! {
    deposits (id) {
        id -> Int4,
        name -> Text,
        amount -> Int8,
        product_id -> Nullable<Int4>,
        packaging_id -> Nullable<Int4>,
    }
}

diesel::table! {
    fulfillment_types (id) {
        id -> Int4,
        name -> Text,
    }
}

diesel::table! {
    goto_case_items (goto_case_id, product_id) {
        goto_case_id -> Int8,
        product_id -> Int4,
        quantity -> Int4,
        added_at -> Int8,
    }
}

diesel::table! {
    goto_cases (id) {
        id -> Int8,
        user_id -> Int8,
        name -> Text,
        name_key -> Text,
        packaging_id -> Int4,
        created_at -> Int8,
        updated_at -> Int8,
    }
}

diesel::table! {
    holidays (id) {
        id -> Int4,
        name -> Text,
        starts_on -> Text,
        ends_on -> Text,
    }
}

diesel::table! {
    housekeeping (id) {
        id -> Int4,
        lease_until -> Int8,
        last_run_at -> Int8,
    }
}

diesel::table! {
    mail_outbox (id) {
        id -> Int8,
        recipient -> Text,
        subject -> Text,
        text_body -> Text,
        html_body -> Text,
        created_at -> Int8,
        attempts -> Int4,
        next_attempt_at -> Int8,
        claimed_until -> Nullable<Int8>,
        last_error -> Nullable<Text>,
    }
}

diesel::table! {
    newsletter_subscriptions (id) {
        id -> Int8,
        email -> Text,
        created_at -> Text,
        confirmed_at -> Nullable<Text>,
        token_hash -> Nullable<Text>,
        token_expires_at -> Nullable<Int8>,
    }
}

diesel::table! {
    notices (id) {
        id -> Int4,
        title -> Text,
        body -> Text,
        starts_on -> Text,
        ends_on -> Text,
    }
}

diesel::table! {
    order_charges (order_id, line) {
        order_id -> Int8,
        line -> Int4,
        name -> Text,
        amount -> Int8,
    }
}

diesel::table! {
    order_containers (order_id, name) {
        order_id -> Int8,
        name -> Text,
        cases_out -> Int4,
        cases_back -> Int4,
    }
}

diesel::table! {
    order_items (order_id, line) {
        order_id -> Int8,
        line -> Int4,
        product_id -> Int4,
        product_name -> Text,
        sku -> Text,
        case_name -> Text,
        unit_price -> Int8,
        price_per_case -> Int8,
        unit_per_case -> Int4,
        quantity -> Int4,
        amount -> Int8,
    }
}

diesel::table! {
    order_notes (id) {
        id -> Int8,
        order_id -> Int8,
        staff_id -> Int8,
        at -> Int8,
        body -> Text,
    }
}

diesel::table! {
    order_status_history (order_id, seq) {
        order_id -> Int8,
        seq -> Int4,
        status -> Text,
        at -> Int8,
        note -> Text,
    }
}

diesel::table! {
    orders (id) {
        id -> Int8,
        user_id -> Nullable<Int8>,
        access_hash -> Text,
        idempotency_key -> Text,
        status -> Text,
        fulfillment_type_id -> Int4,
        fulfillment_name -> Text,
        payment -> Text,
        contact_name -> Text,
        mobile -> Text,
        email -> Text,
        address -> Text,
        barangay_id -> Int8,
        street_id -> Nullable<Int4>,
        place -> Text,
        notes -> Text,
        items_total -> Int8,
        deposits_total -> Int8,
        delivery_fee -> Int8,
        total -> Int8,
        placed_at -> Int8,
        confirmation_mailed -> Bool,
    }
}

diesel::table! {
    packagings (id) {
        id -> Int4,
        name -> Text,
        filter_type -> Text,
        image -> Text,
        custom_description -> Text,
        sort_order -> Int4,
    }
}

diesel::table! {
    password_resets (token_hash) {
        token_hash -> Text,
        user_id -> Int8,
        expires_at -> Int8,
        used_at -> Nullable<Int8>,
    }
}

diesel::table! {
    payment_events (id) {
        id -> Text,
        kind -> Text,
        received_at -> Int8,
    }
}

diesel::table! {
    payments (id) {
        id -> Text,
        order_id -> Int8,
        checkout_session_id -> Text,
        amount -> Int8,
        currency -> Text,
        method -> Text,
        paid_at -> Int8,
        received_at -> Int8,
        problem -> Text,
    }
}

diesel::table! {
    product_areas (product_id, city_id) {
        product_id -> Int4,
        city_id -> Int8,
    }
}

diesel::table! {
    product_types (id) {
        id -> Int4,
        name -> Text,
    }
}

diesel::table! {
    products (id) {
        id -> Int4,
        slug -> Text,
        product_name -> Text,
        sku -> Text,
        brand -> Text,
        size -> Text,
        price -> Int8,
        price_per_case -> Int8,
        unit_per_case -> Int4,
        product_type_id -> Int4,
        packaging_id -> Int4,
        product_image -> Nullable<Text>,
        description -> Text,
        custom_description -> Text,
        orderable -> Bool,
        sold_in_all_areas -> Bool,
        best_seller -> Bool,
        recommended -> Bool,
        sort_order -> Int4,
        created_on -> Text,
        photo -> Nullable<Text>,
        photo_width -> Nullable<Int4>,
        photo_height -> Nullable<Int4>,
        style -> Text,
    }
}

diesel::table! {
    promos (id) {
        id -> Int4,
        product_id -> Int4,
        title -> Text,
        description -> Text,
        starts_on -> Text,
        ends_on -> Text,
    }
}

diesel::table! {
    provinces (id) {
        id -> Int4,
        psgc_code -> Text,
        province_name -> Text,
    }
}

diesel::table! {
    rate_limits (key) {
        key -> Text,
        window_start -> Int8,
        hits -> Int4,
    }
}

diesel::table! {
    refunds (payment_id) {
        payment_id -> Text,
        order_id -> Int8,
        amount -> Int8,
        reason -> Text,
        notes -> Text,
        staff_id -> Nullable<Int8>,
        attempt -> Int4,
        gateway_id -> Text,
        state -> Text,
        detail -> Text,
        asked_at -> Int8,
        updated_at -> Int8,
    }
}

diesel::table! {
    registrations (token_hash) {
        token_hash -> Text,
        email -> Text,
        mobile -> Text,
        first_name -> Text,
        last_name -> Text,
        birth_date -> Text,
        password_hash -> Text,
        expires_at -> Int8,
        used_at -> Nullable<Int8>,
    }
}

diesel::table! {
    run_stops (run_id, order_id) {
        run_id -> Int8,
        order_id -> Int8,
        seq -> Int4,
        outcome -> Text,
        cash_received -> Nullable<Int8>,
        empties_returned -> Nullable<Int4>,
        reason -> Text,
        note -> Text,
        done_at -> Nullable<Int8>,
    }
}

diesel::table! {
    runs (id) {
        id -> Int8,
        day -> Text,
        rider_id -> Int8,
        created_at -> Int8,
        sent_at -> Nullable<Int8>,
        closed_at -> Nullable<Int8>,
        cash_handed_in -> Nullable<Int8>,
        close_note -> Text,
    }
}

diesel::table! {
    search_words (word) {
        word -> Text,
        means -> Text,
    }
}

diesel::table! {
    served_areas (city_id, fulfillment_type_id) {
        city_id -> Int8,
        fulfillment_type_id -> Int4,
    }
}

diesel::table! {
    sessions (id) {
        id -> Int8,
        token_hash -> Text,
        user_id -> Nullable<Int8>,
        created_at -> Int8,
        expires_at -> Int8,
    }
}

diesel::table! {
    settings (key) {
        key -> Text,
        value -> Text,
    }
}

diesel::table! {
    site_texts (key) {
        key -> Text,
        title -> Text,
        body -> Text,
    }
}

diesel::table! {
    staff (id) {
        id -> Int8,
        email -> Text,
        name -> Text,
        role -> Text,
        password_hash -> Nullable<Text>,
        totp_secret -> Nullable<Text>,
        totp_pending -> Nullable<Text>,
        disabled_at -> Nullable<Int8>,
        created_at -> Int8,
        changed_at -> Int8,
        totp_last_step -> Nullable<Int8>,
    }
}

diesel::table! {
    staff_links (token_hash) {
        token_hash -> Text,
        staff_id -> Int8,
        expires_at -> Int8,
        used_at -> Nullable<Int8>,
    }
}

diesel::table! {
    staff_recovery_codes (staff_id, code_hash) {
        staff_id -> Int8,
        code_hash -> Text,
        used_at -> Nullable<Int8>,
    }
}

diesel::table! {
    staff_sessions (token_hash) {
        token_hash -> Text,
        staff_id -> Int8,
        second_factor -> Bool,
        created_at -> Int8,
        last_seen_at -> Int8,
    }
}

diesel::table! {
    status_counts (status) {
        status -> Text,
        total -> Int8,
    }
}

diesel::table! {
    streets (id) {
        id -> Int4,
        barangay_id -> Int8,
        street_name -> Text,
    }
}

diesel::table! {
    users (id) {
        id -> Int8,
        email -> Text,
        mobile -> Text,
        first_name -> Text,
        last_name -> Text,
        birth_date -> Text,
        password_hash -> Text,
        policy_agreement_accepted -> Bool,
        created_at -> Int8,
        password_set -> Bool,
    }
}

diesel::table! {
    work_version (id) {
        id -> Int4,
        version -> Int8,
    }
}

diesel::joinable!(addresses -> barangays (barangay_id));
diesel::joinable!(addresses -> streets (street_id));
diesel::joinable!(addresses -> users (user_id));
diesel::joinable!(audit_log -> staff (staff_id));
diesel::joinable!(barangays -> cities (city_id));
diesel::joinable!(cart_empties -> carts (cart_id));
diesel::joinable!(cart_empties -> deposits (deposit_id));
diesel::joinable!(cart_items -> carts (cart_id));
diesel::joinable!(cart_items -> products (product_id));
diesel::joinable!(cart_refills -> carts (cart_id));
diesel::joinable!(carts -> barangays (barangay_id));
diesel::joinable!(carts -> streets (street_id));
diesel::joinable!(carts -> users (user_id));
diesel::joinable!(case_types -> packagings (packaging_id));
diesel::joinable!(catalog_drafts -> staff (staff_id));
diesel::joinable!(checkout_sessions -> orders (order_id));
diesel::joinable!(cities -> provinces (province_id));
diesel::joinable!(delivery_fees -> cities (city_id));
diesel::joinable!(delivery_fees -> fulfillment_types (fulfillment_type_id));
diesel::joinable!(deposits -> packagings (packaging_id));
diesel::joinable!(deposits -> products (product_id));
diesel::joinable!(goto_case_items -> goto_cases (goto_case_id));
diesel::joinable!(goto_case_items -> products (product_id));
diesel::joinable!(goto_cases -> packagings (packaging_id));
diesel::joinable!(goto_cases -> users (user_id));
diesel::joinable!(order_charges -> orders (order_id));
diesel::joinable!(order_containers -> orders (order_id));
diesel::joinable!(order_items -> orders (order_id));
diesel::joinable!(order_notes -> orders (order_id));
diesel::joinable!(order_notes -> staff (staff_id));
diesel::joinable!(order_status_history -> orders (order_id));
diesel::joinable!(orders -> barangays (barangay_id));
diesel::joinable!(orders -> fulfillment_types (fulfillment_type_id));
diesel::joinable!(orders -> streets (street_id));
diesel::joinable!(orders -> users (user_id));
diesel::joinable!(password_resets -> users (user_id));
diesel::joinable!(payments -> orders (order_id));
diesel::joinable!(product_areas -> cities (city_id));
diesel::joinable!(product_areas -> products (product_id));
diesel::joinable!(products -> packagings (packaging_id));
diesel::joinable!(products -> product_types (product_type_id));
diesel::joinable!(promos -> products (product_id));
diesel::joinable!(refunds -> orders (order_id));
diesel::joinable!(refunds -> payments (payment_id));
diesel::joinable!(refunds -> staff (staff_id));
diesel::joinable!(run_stops -> orders (order_id));
diesel::joinable!(run_stops -> runs (run_id));
diesel::joinable!(runs -> staff (rider_id));
diesel::joinable!(served_areas -> cities (city_id));
diesel::joinable!(served_areas -> fulfillment_types (fulfillment_type_id));
diesel::joinable!(staff_links -> staff (staff_id));
diesel::joinable!(staff_recovery_codes -> staff (staff_id));
diesel::joinable!(staff_sessions -> staff (staff_id));
diesel::joinable!(streets -> barangays (barangay_id));

diesel::allow_tables_to_appear_in_same_query!(
    addresses,
    audit_log,
    banners,
    barangays,
    cart_empties,
    cart_items,
    cart_refills,
    carts,
    case_types,
    catalog_drafts,
    checkout_blackouts,
    checkout_sessions,
    cities,
    data_version,
    delivery_fees,
    deposits,
    fulfillment_types,
    goto_case_items,
    goto_cases,
    holidays,
    housekeeping,
    mail_outbox,
    newsletter_subscriptions,
    notices,
    order_charges,
    order_containers,
    order_items,
    order_notes,
    order_status_history,
    orders,
    packagings,
    password_resets,
    payment_events,
    payments,
    product_areas,
    product_types,
    products,
    promos,
    provinces,
    rate_limits,
    refunds,
    registrations,
    run_stops,
    runs,
    search_words,
    served_areas,
    sessions,
    settings,
    site_texts,
    staff,
    staff_links,
    staff_recovery_codes,
    staff_sessions,
    status_counts,
    streets,
    users,
    work_version,
);
