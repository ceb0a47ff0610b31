// Generated from the Rust API by `make contract` (crates/framework/src/contract.rs): do not edit.
// The answer types of every call, and the calls of the registry with their key templates.

/** What Add to Cart says when the units went in. */
export const ADDED_TO_CART = "You successfully added this product to the cart.";

/** How long consent lasts, in seconds (a year). */
export const CONSENT_MAX_AGE = 31536000;

/** The location gate's first fulfillment type (delivery). */
export const DEFAULT_FULFILLMENT = 1;

/** The default province (Metro Manila): where the location gate starts. */
export const DEFAULT_PROVINCE = 51;

/** The fulfillment id of delivery. */
export const DELIVERY = 1;

/** The empty cart's words. */
export const EMPTY_CART = "There are no items in your cart.";

/** The gate cookies' names, by the names the UI gives them. */
export const GATE_COOKIES = {"accepted":"cookieAccepted","age":"ageVerification","barangay":"locationGateBarangayId","barangayName":"gateBrgyName","category":"categoryGateId","categoryName":"categoryName","city":"locationGateCityId","cityName":"gateCityName","fulfillment":"locationGateFulfillmentId","locationNotice":"locationNotice","privacy":"privacyVerification","street":"locationGateStreetId"};

/** How long the gate's choices last, in seconds (a month). */
export const GATE_MAX_AGE = 2629746;

/** What a member who keeps the most Go-to Cases is told. */
export const GOTO_CASES_FULL = "You have 50 Go-to Cases, the most you can keep: add to one of them, or delete one first.";

/** What an add to a Go-to Case that passed the most of a product says after its success. */
export const GOTO_CASE_CLIPPED = "A Go-to Case holds at most 999 of a product: the rest was left out.";

/** The longest name of a Go-to Case, in characters. */
export const GOTO_CASE_MAX_NAME = 60;

/** The message for cases not yet filled. */
export const INCOMPLETE = "For you to proceed to checkout, you need to complete filling up your cases.";

/** The families that are kegs: kegs and bottles/cans go in separate orders. */
export const KEG_FAMILIES = ["keg"];

/** The highest price a list's range reads, in whole pesos. */
export const LIST_MAX_PESOS = 10000000;

/** How many products a list page shows. */
export const LIST_PER_PAGE = 24;

/** The list pages' sort menu: each sort's value in the address and its label, the default first. */
export const LIST_SORTS = [{"label":"Best sellers","value":"best"},{"label":"Price: low to high","value":"price"},{"label":"Price: high to low","value":"price-desc"},{"label":"Newest","value":"newest"},{"label":"Name: A to Z","value":"name"}];

/** How long the location notice stays put away, in seconds. */
export const LOCATION_NOTICE_MAX_AGE = 2629746;

/** The most products a cart (or a Go-to Case) holds. */
export const MAX_PRODUCTS = 50;

/** The most of one product a cart (or a Go-to Case) holds. */
export const MAX_QUANTITY = 999;

/** The longest note PayMongo keeps with a refund. */
export const MAX_REFUND_NOTES = 255;

/** The most stops a run takes. */
export const MAX_STOPS = 60;

/** The longest notes an order takes, in characters. */
export const ORDER_MAX_NOTES = 500;

/** The headers a shop page filled for a shopper names their session by, and says when a member's ends (seconds from the answer). */
export const PAGE_SESSION_HEADERS = {"endsIn":"x-session-ends-in","session":"x-session"};

/** The password rule the server checks, as the forms state it. */
export const PASSWORD_RULE = "At least 10 characters, and not a common password or one that is easy to guess.";

/** How an order is paid, by its fulfillment id. */
export const PAYMENT_BY_FULFILLMENT = {"1":"Cash on delivery","2":"Pay at pickup"};

/** What the order's page says when the payment service could not be reached (its address carries `notice=pay-unreachable`: a form without JavaScript lands there). */
export const PAY_UNREACHABLE = "We could not reach the payment service just now. Your order is kept: pay from its page in a moment, or pay in cash instead.";

/** The fulfillment id of pickup. */
export const PICKUP = 2;

/** PayMongo's reasons for a refund (the refund form's `reason`), each as the back office says it. */
export const REFUND_REASONS = [{"label":"Paid twice","value":"duplicate"},{"label":"Fraudulent","value":"fraudulent"},{"label":"The shopper asked","value":"requested_by_customer"},{"label":"Another reason","value":"others"}];

/** By the family a shopper chooses, the families a cart may not hold then: a cart holding one of them is emptied first, after the reset question (the rule of `resets`). */
export const RESET_FAMILIES = {"bottle":["keg"],"can":["keg"],"keg":["bottle","can"]};

/** What choosing a category of the other family than the cart holds asks first. */
export const RESET_QUESTION = "Your current cart will be reset. Orders for Bottles/ Cans and Draft Beer should be in a separate transaction. Continue to reset your cart?";

/** The longest query the search reads, in characters (longer is refused). */
export const SEARCH_MAX_QUERY = 100;

/** How many products of each list a page of search results shows. */
export const SEARCH_PER_PAGE = 24;

/**
 * Add the cities, or take them away.
 */
export type AddOrRemove = "add" | "remove";

/**
 * A member's saved address.
 */
export type AddressId = number;

/**
 * A saved address, with what the location gate needs to use it.
 */
export type AddressView = { id: AddressId, 
/**
 * House or unit, building, street: the line a rider reads.
 */
address: string, barangay_id: BarangayId, barangay_name: string, street_id: StreetId | null, street_name: string | null, city_id: CityId, city_name: string, province_id: ProvinceId, province_name: string, };

export type Area = { province_name: string, cities: Array<AreaCity>, };

export type AreaCity = { city_name: string, fulfillments: Array<string>, };

/**
 * A run arranged: the run, or none when its last stop went and it was deleted.
 */
export type Arranged = { run: RunView | null, 
/**
 * Where the page goes: the run's page, or the runs of its day.
 */
link: string, message: string, };

/**
 * One staff write.
 */
export type AuditEntry = { id: number, 
/**
 * Unix seconds.
 */
at: number, 
/**
 * Manila time, `YYYY-MM-DD HH:MM`.
 */
at_manila: string, 
/**
 * The member of staff, none when it came from the command line.
 */
staff_id: number | null, 
/**
 * Who, as shown: a name and email, or `command line`.
 */
actor: string, action: string, 
/**
 * Their name now, when they are a member of staff.
 */
actor_name: string | null, 
/**
 * Their page (the staff's), when they are a member of staff.
 */
actor_href: string | null, 
/**
 * What was written to, as recorded (`staff 4`, `order 1042`, `run 3, order 1042`).
 */
subject: string, 
/**
 * The subject as the staff say it: `Order TB-001042`, a member's name, `Run 3`.
 */
subject_label: string, 
/**
 * The subject's parts, each with its page when it has one (`subject_label` is their labels).
 */
subjects: Array<AuditSubject>, 
/**
 * The subject before and after, as JSON text.
 */
before: string | null, after: string | null, };

export type AuditPage = { entries: Array<AuditEntry>, 
/**
 * The kinds of write the log holds, in order (what `action` may be).
 */
actions: Array<string>, 
/**
 * Where the next (older) page starts, when there is one.
 */
next_before: number | null, };

/**
 * One thing an entry's subject names.
 */
export type AuditSubject = { 
/**
 * As the staff say it: `Order TB-001042`, `Run 3`, a member's name.
 */
label: string, 
/**
 * Its page in the back office (`/staff/orders/1042`, `/staff/runs/3`, `/staff/team`).
 */
href: string | null, };

/**
 * A banner as its form shows it.
 */
export type BannerEdit = { id: number, title: string, desktop_image: string, mobile_image: string, 
/**
 * Its place in the carousel (lower first).
 */
sort_order: number, 
/**
 * Its first day (`YYYY-MM-DD`; none: already shown).
 */
starts_on: string | null, 
/**
 * Its last day (none: shown for good).
 */
ends_on: string | null, 
/**
 * Whether the home page shows it today (Manila).
 */
shown_today: boolean, 
/**
 * The version of its fields, which the form sends back (see `BannerForm::version`).
 */
version: string, 
/**
 * Its photo, shown in place of both images; none: the images.
 */
photo: PhotoView | null, 
/**
 * The id of its section on the page, which its photo form's answer comes back to.
 */
anchor: string, };

/**
 * What a save answers: every banner as it is now, and what changed.
 */
export type BannerSaved = { banners: Array<BannerEdit>, changes: Array<CatalogChange>, };

export type BannerView = { id: number, title: string, desktop_image: string, mobile_image: string, 
/**
 * Its photo, shown on every screen in place of both drawings.
 */
photo: PhotoView | null, };

/**
 * A barangay: its PSGC code as a number (Bacoor's Bayanan is `402103004`).
 */
export type BarangayId = number;

/**
 * A barangay as the location calls give it.
 */
export type BarangayView = { id: BarangayId, barangay_name: string, };

/**
 * An order as a line of the board.
 */
export type BoardOrder = { id: number, number: string, 
/**
 * Manila time, `YYYY-MM-DD HH:MM`.
 */
placed_at: string, status: StatusChoice, fulfillment: string, 
/**
 * How it is paid: `Cash on delivery`, `Pay at pickup`, `Pay online` (awaiting its payment),
 * `Paid online (GCash)`.
 */
payment: string, contact_name: string, mobile: string, 
/**
 * Where: the street (when one is named), barangay, city and province, as the order keeps it.
 */
place: string, 
/**
 * Centavos.
 */
total: number, };

export type BoardPage = { 
/**
 * Every status with its number of orders (the whole store, whatever the filters).
 */
counts: Array<StatusCount>, orders: Array<BoardOrder>, 
/**
 * Where the next (older) page starts, when there is one.
 */
next_before: number | null, 
/**
 * The served cities, by name: the city filter's choices.
 */
cities: Array<PlaceChoice>, 
/**
 * The barangays of the city filtered by, by name (none without a city).
 */
barangays: Array<PlaceChoice>, };

/**
 * Every holiday and notice, by first day.
 */
export type Calendar = { holidays: Array<HolidayEdit>, notices: Array<NoticeEdit>, 
/**
 * Today in Manila, `YYYY-MM-DD`.
 */
today: string, };

/**
 * What a change answers: every holiday and notice as they are now.
 */
export type CalendarSaved = { calendar: Calendar, 
/**
 * The holiday or notice added or changed (none: removed).
 */
id: number | null, };

/**
 * The cart answer.
 */
export type CartAnswer = { shopping_cart: Array<CartCase>, cart_order_summary: OrderSummary, 
/**
 * Members only; guests get none.
 */
recommended_products: Array<ProductView>, delivery_fee: number, 
/**
 * How many items (different products) the cart holds: the header's count.
 */
item_count: number, 
/**
 * Items that cannot be bought in this barangay now, by name and reason.
 */
unavailable: Array<DisabledProduct>, empties: Array<EmptiesLine>, checkout: CheckoutState, 
/**
 * The barangay and fulfillment priced for.
 */
barangay_id: BarangayId, fulfillment_id: FulfillmentId, 
/**
 * Counts the cart's changes; checkout submits the revision it showed.
 */
revision: number, 
/**
 * A message for the shopper about what the call did (added, changed), or empty.
 */
message: string, 
/**
 * A member who logged in with a guest cart of the other family: both carts are kept until
 * they choose (`POST /api/v1/cart/keep`).
 */
conflict: CartConflict | null, 
/**
 * What a refill (a Go-to Case, Order Again) could not add, by name and why: the cart page
 * names it after the refill (`GET /api/v1/cart/{barangayId}?left=1,5`).
 */
left_out: Array<DisabledProduct>, };

/**
 * A case of the cart: the items of one case type (a case panel of the cart page).
 */
export type CartCase = { 
/**
 * The case type's name: Bottles, Cans, Keg.
 */
name: string, packaging_id: PackagingId, 
/**
 * The family (keg, bottle, can).
 */
family: FilterType, 
/**
 * What one unit is called: bottle, can, keg.
 */
unit_noun: string, unit_per_case: number, minimum_order_qty: number, 
/**
 * How many cases the units fill (the last possibly partly).
 */
cases: number, 
/**
 * Units of available items.
 */
units: number, 
/**
 * `cases x unit_per_case`.
 */
capacity: number, 
/**
 * Units still needed ("Need N More"); 0 when complete.
 */
missing: number, 
/**
 * What the available items cost.
 */
total: number, 
/**
 * The summary line: each item's name and units.
 */
summary: string, items: Array<CartItem>, };

/**
 * The guest cart a member brought to login that could not join their cart (the other family:
 * kegs and bottles/cans are never in one cart).
 */
export type CartConflict = { 
/**
 * What the guest cart holds: "Tala Pale Pilsen Keg 30 L x 1", ...
 */
guest_items: Array<string>, message: string, };

/**
 * One item of a case (a cart item). Money is integer centavos.
 */
export type CartItem = { 
/**
 * The product's id (what PUT and DELETE name).
 */
id: ProductId, slug: string, product_name: string, product_image: string | null, photo: PhotoView | null, 
/**
 * The unit price.
 */
price: number, price_per_case: number, 
/**
 * Units (bottles, cans, kegs).
 */
quantity: number, 
/**
 * Units in one case of this product.
 */
quantity_per_pack: number, 
/**
 * What the units cost: whole cases at the case price, the rest at the unit price.
 */
total_price: number, packaging: string, 
/**
 * Whether it can be bought in the barangay priced for; when not, `unavailable_reason` says
 * why and it counts in no total.
 */
available: boolean, unavailable_reason: string | null, };

/**
 * One record that changes: its section (`products`, `deposits`, `delivery_fees`, `banners`,
 * `promos`), its key (a product's slug; an id; a fee's city and fulfillment), what happens, and
 * the fields that change.
 */
export type CatalogChange = { section: string, key: string, kind: ChangeKind, fields: Array<FieldChange>, };

/**
 * A product as the catalog page lists it for managers.
 */
export type CatalogProduct = { id: ProductId, sku: string, slug: string, product_name: string, size: string, 
/**
 * Whether it can be ordered (false: Out Of Stock).
 */
orderable: boolean, 
/**
 * Its drawing, shown while it has no photo.
 */
product_image: string | null, photo: PhotoView | null, 
/**
 * The id of its row on the catalog page (where its photo form's answer comes back to).
 */
anchor: string, };

/**
 * What happens to a record of the catalog.
 */
export type ChangeKind = "new" | "changed" | "removed" | "left_out";

/**
 * Every deposit, and every served city's fees.
 */
export type Charges = { deposits: Array<DepositEdit>, fees: Array<FeeEdit>, };

/**
 * What a save answers: the charges as they are now, and what changed.
 */
export type ChargesSaved = { charges: Charges, changes: Array<CatalogChange>, };

/**
 * Whether the cart can go to checkout now, and if not, why.
 */
export type CheckoutState = { ready: boolean, reason: string | null, };

/**
 * What a change of cities does (or did, when `applied`).
 */
export type CitiesPlan = { products: Array<NamedProduct>, cities: Array<CityChoice>, how: AddOrRemove, changes: Array<CatalogChange>, applied: boolean, 
/**
 * Where the form goes next: the page listing the changes, or the catalog once saved.
 */
link: string, };

/**
 * A served city a product may be sold in.
 */
export type CityChoice = { 
/**
 * Its PSGC code.
 */
id: CityId, name: string, province: string, };

/**
 * A city or municipality: its PSGC code as a number.
 */
export type CityId = number;

/**
 * A city as the location calls give it.
 */
export type CityView = { city_id: CityId, city_province: ProvinceId, city_name: string, province_name: string, };

/**
 * Cases of a kind of container.
 */
export type ContainerCount = { name: string, cases: number, };

export type Dashboard = { today: DayFigures, 
/**
 * The orders at each status that is not final.
 */
waiting: Array<StatusCount>, 
/**
 * The last 30 days, oldest first.
 */
days: Array<DayFigures>, 
/**
 * The products that sold most in those days, by revenue.
 */
top_products: Array<ProductFigures>, 
/**
 * The runs out now (sent, not closed), whatever their day, with their stops counted.
 */
runs_out: Array<RunLine>, };

/**
 * One day of the chart.
 */
export type DayFigures = { 
/**
 * `YYYY-MM-DD`, Manila.
 */
day: string, orders: number, 
/**
 * Centavos.
 */
revenue: number, };

/**
 * A note of the day that explains a difference: a run's close note, or a delivered stop's note
 * when its cash or empties differ.
 */
export type DayNote = { run_id: number, 
/**
 * The back office's page of what the note is about: the stop's order (`/staff/orders/42`),
 * or the run (`/staff/runs/7`). An address, not an id that may be null: a client follows it
 * as it is.
 */
href: string, 
/**
 * `Run 12` or the order's number.
 */
about: string, note: string, };

/**
 * The day's report (centavos, cases).
 */
export type DayReport = { 
/**
 * `YYYY-MM-DD`, Manila.
 */
day: string, 
/**
 * Orders placed that day, and what those not cancelled come to.
 */
orders: number, revenue: number, runs: Array<DayRun>, 
/**
 * The day's runs by rider, by name: cash and empties, and the notes on what differs.
 */
riders: Array<RiderDay>, 
/**
 * Over the day's runs.
 */
totals: RunTotals, 
/**
 * The cash handed in on the day's closed runs.
 */
cash_handed_in: number, 
/**
 * The containers the day's delivered stops took out, by kind.
 */
containers_out: Array<ContainerCount>, 
/**
 * Orders placed that day and cancelled, with why.
 */
cancelled: Array<ReasonLine>, 
/**
 * The day's failed stops, with why.
 */
failed: Array<ReasonLine>, 
/**
 * The day's delivered stops whose cash or empties differ from what was expected.
 */
flagged: Array<ReasonLine>, 
/**
 * The payments received online that day and taken as their orders', by method.
 */
online: Array<MethodTotal>, 
/**
 * Their sum (centavos).
 */
online_received: number, 
/**
 * Payments received online, any day, still to refund: never taken as their orders'
 * (another amount, an order cancelled or paid in cash by then), or whose orders were
 * cancelled since; with why, and how their refund stands when one was asked.
 */
to_refund: Array<ReasonLine>, 
/**
 * The refunds managers first asked for that day: each payment, its amount, how the refund
 * stands, why and who asked.
 */
refunds: Array<ReasonLine>, 
/**
 * What those refunds made or pending return of payments taken as their orders' (centavos):
 * what leaves `online_received`'s kind of money.
 */
refunded: number, };

/**
 * A run of the day with its figures.
 */
export type DayRun = { run: RunLine, totals: RunTotals, cash_handed_in: number | null, 
/**
 * Handed in less reported (negative: short), once closed.
 */
cash_difference: number | null, 
/**
 * Handed in less expected (negative: short), once closed: what the close note explains.
 */
expected_difference: number | null, 
/**
 * Why the cash handed in differs from what the run expects (empty: it does not).
 */
close_note: string, };

/**
 * A deposit as its form shows it.
 */
export type DepositEdit = { id: number, name: string, 
/**
 * Centavos a case.
 */
amount: number, 
/**
 * What it is charged on, in words (a product's name, or `Every bottle product`).
 */
charged_on: string, 
/**
 * The version of its name and amount, which the form sends back.
 */
version: string, };

/**
 * A product a cart call names in a refusal.
 */
export type DisabledProduct = { id: ProductId, product_name: string, 
/**
 * Why: not sold in this barangay, out of stock.
 */
reason: string, };

/**
 * An uploaded file as its page shows it: what it would change now, or why it no longer can.
 */
export type DraftView = { id: string, file_name: string, 
/**
 * When it was uploaded, Manila time (`YYYY-MM-DD HH:MM`).
 */
uploaded_at: string, 
/**
 * Each kind of record: how many are new, changed, unchanged and removed.
 */
summary: Array<string>, changes: Array<CatalogChange>, 
/**
 * The file's problems, when the store changed since it was uploaded and it no longer holds
 * (nothing can be applied then).
 */
problems: Array<string>, };

/**
 * Empties the shopper may return: one line a deposit row the cart is charged.
 */
export type EmptiesLine = { deposit_id: number, name: string, 
/**
 * The deposit of one case.
 */
per_case: number, 
/**
 * Empty cases the shopper says they return.
 */
returned: number, 
/**
 * At most as many as the cart's cases of this row.
 */
max_cases: number, 
/**
 * The credit (at most what the row charges).
 */
credit: number, };

/**
 * What an authenticator app needs, shown once at the first sign-in.
 */
export type Enrollment = { 
/**
 * The secret in groups of four, for typing into an app that cannot scan.
 */
secret: string, 
/**
 * The `otpauth://` address the QR code holds.
 */
otpauth: string, qr: QrCode, 
/**
 * One-time codes for when the phone is lost: each works once instead of a code.
 */
recovery_codes: Array<string>, };

/**
 * `{"error": "..."}`.
 */
export type ErrorBody = { error: string, 
/**
 * Cart and checkout refusals: the error again and the products concerned.
 */
data?: RefusalData, };

/**
 * What the store answers: whether this delivery changed anything (false for an event taken
 * before, or one the store does not act on).
 */
export type EventTaken = { taken: boolean, };

/**
 * One value of a filter and how many products of the list (before the other filters) have it.
 */
export type Facet = { value: string, count: number, };

/**
 * What a list can be narrowed by, counted among the products sold at the place (of the
 * packaging asked for); the lowest and highest price in centavos (0 when there are none).
 */
export type Facets = { styles: Array<Facet>, sizes: Array<Facet>, brands: Array<Facet>, min_price: number, max_price: number, };

/**
 * A served city's fee for one fulfillment, as its form shows it.
 */
export type FeeEdit = { city_id: CityId, city_name: string, province: string, fulfillment_id: FulfillmentId, 
/**
 * The fulfillment's name (`Delivery`, `Pickup`).
 */
fulfillment: string, 
/**
 * Centavos; none: the city has no fee for it yet.
 */
amount: number | null, 
/**
 * The version of its amount, which the form sends back.
 */
version: string, };

/**
 * One field that changes, before and after, as a person reads them (money in pesos).
 */
export type FieldChange = { field: string, before: string, after: string, };

/**
 * The `filterByType` values of /buy-beer: which packaging family to list.
 */
export type FilterType = "keg" | "bottle" | "can";

/**
 * A packaging family as the /buy-beer filter links show it.
 */
export type FilterTypeView = { id: PackagingId, name: string, 
/**
 * The `filterByType` value of /buy-beer: keg, bottle or can.
 */
value: FilterType, };

/**
 * A fulfillment type: delivery or pickup.
 */
export type FulfillmentId = number;

export type FulfillmentView = { id: FulfillmentId, name: string, };

/**
 * The gate as the page sees it: choices checked, names filled in.
 */
export type Gate = { open: Step | null, consent: boolean, packagingId: PackagingId | null, packagingName: string | null, 
/**
 * The packaging's family (keg, bottle or can): kegs are offered in fewer cities.
 */
family: FilterType | null, fulfillmentId: FulfillmentId | null, cityId: CityId | null, barangayId: BarangayId | null, streetId: StreetId | null, cityName: string | null, barangayName: string | null, };

/**
 * What the Go-to Case form offers: the member's cases and the limits.
 */
export type GotoCaseChoices = { cases: Array<GotoCaseOption>, max_cases: number, max_items: number, 
/**
 * Whether the member may create another (fewer than `max_cases`).
 */
can_create: boolean, };

/**
 * The deleted case's name, and what the page says.
 */
export type GotoCaseDeleted = { message: string, case_name: string, };

/**
 * One of the member's Go-to Cases, for the Go-to Case form's choice.
 */
export type GotoCaseOption = { id: number, case_name: string, case_type: string, packaging_id: PackagingId, item_count: number, };

/**
 * A Go-to Case after a change, with what the change did.
 */
export type GotoCaseSaved = { message: string, goto_case: GotoCaseView, 
/**
 * Whether the call made a new Go-to Case.
 */
created: boolean, 
/**
 * The Go-to Cases page, at this case, saying what happened (where a form without JavaScript
 * goes).
 */
link: string, };

/**
 * A Go-to Case as the member sees it, priced for a barangay when one is given.
 */
export type GotoCaseView = { id: number, 
/**
 * The member's name for it.
 */
case_name: string, 
/**
 * Its case type: Bottles, Cans, Keg.
 */
case_type: string, packaging_id: PackagingId, family: FilterType, 
/**
 * What one unit is called: bottle, can, keg.
 */
unit_noun: string, unit_per_case: number, 
/**
 * Its items at today's prices; `available` says whether each can be bought in the barangay
 * priced for (without one: whether it is in stock).
 */
items: Array<CartItem>, 
/**
 * Units of the items that can be bought.
 */
units: number, 
/**
 * What those items cost now (centavos).
 */
total: number, 
/**
 * The barangay priced for, if any.
 */
barangay_id: BarangayId | null, };

/**
 * The compatible-case lookup: the answer's data is a list of cases.
 */
export type GotoCases = { data: Array<GotoCaseView>, };

/**
 * What erasing a guest would take.
 */
export type GuestData = { 
/**
 * The contact searched, as the store keeps it (none: nothing searched yet, or a problem).
 */
contact: string | null, 
/**
 * What is wrong with the contact typed, when it names neither an email nor a mobile number.
 */
problem: string | null, 
/**
 * The guest orders whose contact has it, oldest first (members' orders are never listed:
 * a member erases their data by deleting their account).
 */
orders: Array<GuestOrderFound>, 
/**
 * How many.
 */
count: number, 
/**
 * Newsletter signups that would be removed: the address searched or an address of these
 * orders.
 */
newsletter: number, };

/**
 * What an erasure did.
 */
export type GuestErased = { 
/**
 * Guest orders whose personal fields were blanked.
 */
orders: number, 
/**
 * Newsletter signups removed.
 */
newsletter: number, message: string, };

/**
 * A guest order found, as the confirmation lists it (nothing personal).
 */
export type GuestOrderFound = { id: number, 
/**
 * `TB-000123`.
 */
number: string, status: string, status_label: string, 
/**
 * Manila time, `YYYY-MM-DD HH:MM`.
 */
placed_at: string, 
/**
 * Centavos.
 */
total: number, };

/**
 * The policy texts that `GET /api/v1/user` carries, also for guests.
 */
export type GuestUser = { policy_agreement_accepted: boolean, policy_agreement_text: string, term_and_condition_text: string, about_us_text: string, };

export type Holiday = { holiday: boolean, date: string, };

/**
 * A holiday as its form shows it.
 */
export type HolidayEdit = { id: number, name: string, starts_on: string, ends_on: string, 
/**
 * Over (its last day is before today, Manila).
 */
past: boolean, version: string, };

/**
 * What an import did.
 */
export type ImportDone = { changes: Array<CatalogChange>, 
/**
 * The data version after it: every app server shows it within a second.
 */
data_version: number, };

export type Locations = { locations: Array<CityView>, };

export type LocationsAnswer = { results: Locations, };

/**
 * Where the switch stands.
 */
export type MaintenanceState = { 
/**
 * The store is closed for maintenance.
 */
on: boolean, };

/**
 * A member as `GET /api/v1/user` gives it, with the policy texts.
 */
export type Member = { id: UserId, firstname: string, lastname: string, email: string, mobile: string, birth_date: string, policy_agreement_accepted: boolean, policy_agreement_text: string, term_and_condition_text: string, about_us_text: string, };

export type Message = { success: string, };

export type MessageAnswer = { data: Message, };

/**
 * The online payments of a day by one method.
 */
export type MethodTotal = { 
/**
 * As the checkout names it (`GCash`).
 */
method: string, payments: number, 
/**
 * Centavos.
 */
amount: number, };

/**
 * A method shoppers may pay with online.
 */
export type MethodView = { 
/**
 * PayMongo's name (`gcash`).
 */
id: string, 
/**
 * As the checkout says it (`GCash`).
 */
label: string, };

/**
 * Everything the store holds about the member.
 */
export type MyData = { 
/**
 * When this copy was made, Manila time (`YYYY-MM-DD HH:MM`).
 */
made_at: string, profile: MyProfile, 
/**
 * Saved addresses, newest first.
 */
addresses: Array<AddressView>, 
/**
 * Every order, newest first, with its items, totals, status history, contact and address.
 */
orders: Array<OrderView>, 
/**
 * Go-to Cases at today's prices.
 */
goto_cases: Array<GotoCaseView>, newsletter: MyNewsletter, 
/**
 * The sessions that have not ended, oldest first.
 */
sessions: Array<MySession>, };

/**
 * The newsletter's state for the member's email address.
 */
export type MyNewsletter = { 
/**
 * `subscribed`, `waiting` (its confirmation link not yet followed) or `not subscribed`.
 */
status: string, 
/**
 * When the address signed up, as stored; none when it did not.
 */
signed_up_at: string | null, 
/**
 * When the signup was confirmed, as stored.
 */
confirmed_at: string | null, };

/**
 * The member's profile as stored (the password only as whether one was chosen).
 */
export type MyProfile = { first_name: string, last_name: string, email: string, mobile: string, 
/**
 * `YYYY-MM-DD`.
 */
birth_date: string, 
/**
 * Whether they accepted the website policy.
 */
policy_agreement_accepted: boolean, 
/**
 * Whether they chose a password (an account a social provider made has none of its own).
 */
password_set: boolean, 
/**
 * When the account was made, Manila time (`YYYY-MM-DD HH:MM`).
 */
created_at: string, };

/**
 * A live session of the member (a device or browser logged in): its times, never its token.
 */
export type MySession = { 
/**
 * When it began (the login), Manila time (`YYYY-MM-DD HH:MM`).
 */
began_at: string, 
/**
 * When it was last used, to the half hour: a session is renewed when used with less than
 * half its hour left, and this is its last renewal. Manila time.
 */
last_used_at: string, 
/**
 * When it ends unless used again, Manila time.
 */
expires_at: string, 
/**
 * It is the session that asked for this copy.
 */
this_session: boolean, };

/**
 * A line of the order summary.
 */
export type NameAmount = { name: string, 
/**
 * Centavos (a returned-empties credit is negative).
 */
amount: number, };

/**
 * A product a change names.
 */
export type NamedProduct = { id: ProductId, sku: string, product_name: string, };

/**
 * What comes after the password.
 */
export type NextStep = "enroll" | "code";

/**
 * A staff note on an order.
 */
export type NoteView = { 
/**
 * Manila time, `YYYY-MM-DD HH:MM`.
 */
at: string, 
/**
 * Who wrote it.
 */
by: string, body: string, };

export type NoticeAnswer = { notice: NoticeView | null, holiday: boolean, };

/**
 * A notice as its form shows it.
 */
export type NoticeEdit = { id: number, title: string, body: string, starts_on: string, ends_on: string, past: boolean, version: string, };

export type NoticeView = { id: number, title: string, body: string, starts_on: string, ends_on: string, };

/**
 * A line of an order.
 */
export type OrderItemView = { product_id: number, product_name: string, sku: string, case_name: string, unit_price: number, price_per_case: number, quantity: number, amount: number, };

/**
 * A page of a member's orders.
 */
export type OrderList = { orders: Array<OrderView>, page: number, pages: number, total: number, };

/**
 * The cart's `cart_order_summary`: items in cart (one line a case), deposits (one line a deposit
 * row charged, and a negative line a row whose empties are returned), delivery fee, subtotal.
 */
export type OrderSummary = { items_in_cart: Array<NameAmount>, items_total: number, deposits: Array<NameAmount>, deposits_total: number, delivery_fee: number, 
/**
 * Everything: items, deposits less returned empties, delivery fee.
 */
subtotal: number, };

/**
 * An order as the active order page shows it. Money is integer centavos.
 */
export type OrderView = { id: number, 
/**
 * What the shopper quotes: `TB-000123`.
 */
number: string, status: string, status_label: string, placed_at: string, fulfillment_id: number, fulfillment: string, payment: string, contact_name: string, mobile: string, email: string, address: string, place: string, notes: string, items: Array<OrderItemView>, items_total: number, deposits: Array<NameAmount>, deposits_total: number, delivery_fee: number, total: number, history: Array<StatusStep>, 
/**
 * Whether the confirmation was mailed to `email` (a guest's is held once the address has
 * had 3 in an hour: the order's link is then the only way back to it).
 */
confirmation_mailed: boolean, };

/**
 * How a stop ended (`pending` until the rider says).
 */
export type Outcome = "pending" | "delivered" | "failed";

/**
 * An owner's photo after a photo call, as the catalog's answers show it: none, its drawing
 * shows.
 */
export type OwnerPhoto = { photo: PhotoView | null, };

/**
 * What one option buys: a single unit or a case (box) of `unit_per_case`.
 */
export type Pack = "unit" | "case";

/**
 * One choice of the type selector, the initial one first.
 */
export type PackOption = { pack: Pack, label: string, 
/**
 * Centavos.
 */
price: number, };

/**
 * A packaging: bottles, cans or draft beer in kegs. The category gate's category.
 */
export type PackagingId = number;

/**
 * A product's packaging, by id and name.
 */
export type PackagingRef = { id: PackagingId, name: string, };

/**
 * A packaging as the category gate offers it.
 */
export type PackagingView = { id: PackagingId, name: string, 
/**
 * The packaging's family: keg, bottle or can.
 */
filter_type: FilterType, image: string, custom_description: string, };

export type PasswordChosen = { message: string, };

/**
 * How the store takes payments online.
 */
export type PaymentOptions = { 
/**
 * Whether the checkout offers paying online (the store has a PayMongo account).
 */
online: boolean, 
/**
 * The methods, in the manager's order; empty when `online` is false.
 */
methods: Array<MethodView>, 
/**
 * The smallest order total paid online, in centavos (PayMongo's smallest payment).
 */
min_total: number, 
/**
 * Minutes an order awaits its payment online before it is cancelled.
 */
pay_within_minutes: number, };

/**
 * An online payment of an order, as the staff see it.
 */
export type PaymentView = { 
/**
 * PayMongo's `pay_` id.
 */
id: string, 
/**
 * As the checkout names it (`GCash`).
 */
method: string, 
/**
 * Centavos.
 */
amount: number, 
/**
 * When the store learnt of it, Manila time (`YYYY-MM-DD HH:MM`).
 */
received_at: string, 
/**
 * Empty when it was taken as the order's payment; else why not (to refund).
 */
problem: string, 
/**
 * Whether a manager may refund it now: not the order's payment (or the order is cancelled),
 * not refunded already, and the store has its PayMongo keys.
 */
refundable: boolean, 
/**
 * Its refund, once one was asked for.
 */
refund: RefundView | null, };

export type PendingAnswer = { data: PendingRegistration, };

/**
 * The details a registration link finishes the account with, shown to the link's holder before
 * choosing the password (whoever asked for the link typed them: the holder sees them first).
 */
export type PendingRegistration = { email: string, first_name: string, last_name: string, mobile: string, birth_date: string, };

/**
 * A product's or a banner's photo as the pages show it (uploaded by a manager; none: the
 * drawing, `product_image` or the banner's images).
 */
export type PhotoView = { 
/**
 * The photo's size upright, in pixels: the `img`'s width and height (its aspect ratio).
 */
width: number, height: number, 
/**
 * The JPEG a browser that reads no `srcset` shows (at most 480 px wide).
 */
src: string, 
/**
 * The widest JPEG made (at most 1,280 px): the Open Graph image and the structured data's.
 */
large: string, 
/**
 * Every width made, as a `srcset`: WebP, and JPEG for browsers without WebP.
 */
webp: string, jpeg: string, };

/**
 * A line of the pick list: a product's cases and loose units over the run.
 */
export type PickLine = { product_name: string, case_name: string, unit_per_case: number, cases: number, 
/**
 * Units besides the whole cases.
 */
units: number, };

/**
 * A city or barangay the board filters by.
 */
export type PlaceChoice = { id: number, name: string, };

/**
 * What Submit Order answers: the order and the address of its page (with a guest's key).
 */
export type PlacedOrder = { order: OrderView, 
/**
 * `/active-order/{id}`, with `?key=` for a guest.
 */
link: string, 
/**
 * Whether this call placed it (false: it had been placed by an earlier submit of the same cart).
 */
placed: boolean, message: string, 
/**
 * An order paid online that awaits its payment: the gateway's page where it is paid (null
 * when the gateway could not be reached: the order's page offers to try again).
 */
pay_url: string | null, };

/**
 * A product as its form shows it.
 */
export type ProductEdit = { id: ProductId, sku: string, slug: string, product_name: string, description: string, 
/**
 * Centavos a unit.
 */
price: number, 
/**
 * Centavos a whole case.
 */
price_per_case: number, unit_per_case: number, 
/**
 * In stock (false: the shop shows Out Of Stock).
 */
orderable: boolean, 
/**
 * Sold in every served city (else only in `cities`).
 */
every_city: boolean, 
/**
 * The cities it is sold in, when not in every one (PSGC codes).
 */
cities: Array<number>, 
/**
 * The served cities it may be sold in.
 */
choices: Array<CityChoice>, 
/**
 * Its row on the catalog page.
 */
anchor: string, 
/**
 * The version of the fields above, which the form sends back (see `ProductForm::version`).
 */
version: string, };

/**
 * A product that sold.
 */
export type ProductFigures = { product_name: string, units: number, 
/**
 * Centavos.
 */
revenue: number, };

/**
 * A product of the catalog.
 */
export type ProductId = number;

/**
 * The product list response.
 */
export type ProductList = { products: Array<ProductView>, 
/**
 * Meant for members and not filled yet; guests get none.
 */
recommended_products: Array<ProductView>, 
/**
 * The place's best sellers (of the packaging; at most 24), with the list's first page when
 * it is neither filtered nor sorted (the home page's strip); empty with any other page.
 */
best_sellers: Array<ProductView>, filter_types: Array<FilterTypeView>, 
/**
 * The breweries of the list (before its filters), A to Z.
 */
brands: Array<string>, 
/**
 * How many products match (every page).
 */
total: number, 
/**
 * This page, from 1, and how many there are (0 when nothing matches).
 */
page: number, pages: number, per_page: number, 
/**
 * What the list can be narrowed by, among the products of the place and packaging.
 */
facets: Facets, };

/**
 * What a save answers: the product as it is now, and what changed.
 */
export type ProductSaved = { product: ProductEdit, changes: Array<CatalogChange>, };

/**
 * A product as the catalog calls give it. Money fields are integer centavos.
 */
export type ProductView = { id: ProductId, slug: string, product_name: string, sku: string, brand: string, size: string, 
/**
 * The beer's style (`Pale Pilsen`, `IPA`); empty when none is given.
 */
style: string, price: number, price_per_case: number, unit_per_case: number, types: TypeRef, packaging: PackagingRef, product_image: string | null, photo: PhotoView | null, description: string, custom_description: string, orderable: boolean, 
/**
 * When the product joined the catalog (`YYYY-MM-DD`): what's new.
 */
created_on: string, 
/**
 * How it is sold: by the box, by the case or bottle, or by the keg.
 */
sold_as: SoldAs, 
/**
 * The type selector's options, the initial one first; its price is the listed price.
 */
pack_options: Array<PackOption>, 
/**
 * The units a recommended card's Add to Cart puts in (a box of cans, else one).
 */
card_quantity: number, };

/**
 * A promo as its form shows it.
 */
export type PromoEdit = { id: number, 
/**
 * Its product's name, and slug (its page in the shop).
 */
product_name: string, product_slug: string, title: string, description: string, 
/**
 * Its first day (`YYYY-MM-DD`).
 */
starts_on: string, 
/**
 * Its last day.
 */
ends_on: string, 
/**
 * Whether its product's page shows it today (Manila).
 */
shown_today: boolean, 
/**
 * The version of its fields, which the form sends back.
 */
version: string, };

/**
 * What a save answers: every promo as it is now, and what changed.
 */
export type PromoSaved = { promos: Array<PromoEdit>, changes: Array<CatalogChange>, };

/**
 * A promotion with its product.
 */
export type PromoView = { id: number, title: string, description: string, starts_on: string, ends_on: string, product: ProductView, };

/**
 * A province: the store's own number (Metro Manila is 51).
 */
export type ProvinceId = number;

export type ProvinceView = { id: ProvinceId, province_name: string, };

/**
 * A QR code as a grid of dark squares: an SVG path in a `size` × `size` box (the page adds the
 * quiet zone around it).
 */
export type QrCode = { size: number, path: string, };

/**
 * An order or a stop named with why (a cancellation's reason, a failed stop's, a difference).
 */
export type ReasonLine = { order_id: number, number: string, reason: string, };

/**
 * The place a refill filled the cart for.
 */
export type RefillPlace = { city_id: CityId, city_name: string, barangay_id: BarangayId, barangay_name: string, street_id: StreetId | null, };

/**
 * The cart after a refill, and what could not be added.
 */
export type Refilled = { message: string, 
/**
 * What was not added (or not all of it), by name and why.
 */
left_out: Array<DisabledProduct>, 
/**
 * The cart page, naming what was left out and why (`/cart?done=refilled&left=1:area,5:max`).
 */
link: string, 
/**
 * Where the cart is now for, when the refill chose it (Order Again without a `barangay`:
 * the order's): a page without a location chosen takes it as the shop's.
 */
place: RefillPlace | null, 
/**
 * True when this refill had been made before against the same cart revision (a double
 * click, a retry, a second tab): nothing was added again.
 */
already: boolean, cart: CartAnswer, };

/**
 * A refund asked for.
 */
export type RefundView = { 
/**
 * `asking`, `pending`, `succeeded` or `failed`.
 */
state: string, 
/**
 * The state as the back office says it.
 */
label: string, 
/**
 * Centavos.
 */
amount: number, 
/**
 * Why, as the back office says it.
 */
reason: string, 
/**
 * Why, as PayMongo's reason (`requested_by_customer`): what asking again sends.
 */
reason_code: string, notes: string, 
/**
 * Who asked for it.
 */
by: string, 
/**
 * When, Manila time.
 */
at: string, };

/**
 * What a refusal of the cart or checkout carries (`data.error`, `data.products`).
 */
export type RefusalData = { error: string, products: Array<DisabledProduct>, };

/**
 * `{"results": [...]}`, the shape of the API's list answers.
 */
export type Results<T> = { results: Array<T>, };

/**
 * A rider a run may go to.
 */
export type RiderChoice = { id: number, name: string, };

/**
 * A rider's day: their runs' cash and empties added up, and the notes on what differs.
 */
export type RiderDay = { rider_id: number, rider: string, runs: number, 
/**
 * How many of them are closed (the cash handed in is theirs).
 */
closed: number, 
/**
 * Over every run of theirs that day (centavos).
 */
cash_expected: number, cash_reported: number, 
/**
 * Over their closed runs: what those runs expected, and what was handed in on them.
 */
cash_expected_closed: number, cash_handed_in: number, 
/**
 * Handed in less expected over their closed runs (negative: short); none until one closes.
 */
cash_difference: number | null, 
/**
 * Of their closed runs, those whose cash handed in differs from what the run expects
 * (differences of two runs can even out in `cash_difference`; this says they were there).
 */
closed_off: number, empties_expected: number, empties_returned: number, notes: Array<DayNote>, };

/**
 * What a member of staff may do.
 */
export type Role = "manager" | "dispatcher" | "rider";

/**
 * A run made or changed.
 */
export type RunChanged = { run_id: number, 
/**
 * The run's page.
 */
link: string, message: string, };

/**
 * A run as a line of a list.
 */
export type RunLine = { id: number, 
/**
 * `YYYY-MM-DD`, Manila.
 */
day: string, rider_id: number, rider: string, state: RunState, state_label: string, stops: number, delivered: number, failed: number, };

/**
 * Where a run is: planned (stops may change), out (the rider has it), closed (reconciled).
 */
export type RunState = "planned" | "out" | "closed";

/**
 * A run's figures (centavos, cases).
 */
export type RunTotals = { stops: number, delivered: number, failed: number, pending: number, 
/**
 * What the stops delivered or still out should bring.
 */
cash_expected: number, 
/**
 * What the rider reported receiving.
 */
cash_reported: number, empties_expected: number, empties_returned: number, };

/**
 * One run as the staff work it.
 */
export type RunView = { run: RunLine, stops: Array<StopView>, pick_list: Array<PickLine>, 
/**
 * The containers the run's orders go in, by kind.
 */
containers_out: Array<ContainerCount>, totals: RunTotals, 
/**
 * The cash the rider handed in (centavos; once closed), and its difference from what they
 * reported (negative: short).
 */
cash_handed_in: number | null, cash_difference: number | null, 
/**
 * The cash handed in less what the run expects (negative: short; once closed): what a close
 * note explains, as a run closes on cash that differs only with one.
 */
expected_difference: number | null, 
/**
 * Why the cash handed in differs from what the run expects (empty: it does not).
 */
close_note: string, 
/**
 * What the signed-in member may do now: order, add and take off stops (a planned run,
 * dispatchers and managers), send it out, end its stops, close it.
 */
can_arrange: boolean, can_send: boolean, can_end_stops: boolean, can_close: boolean, 
/**
 * Why a delivery may fail (the rider chooses one).
 */
failure_reasons: Array<string>, 
/**
 * Orders that may be added (a planned run, dispatchers and managers): as many as the run
 * has room for, the oldest nearest its stops first (in its stops' barangays, then in their
 * cities, then anywhere).
 */
waiting: Array<WaitingOrder>, };

export type RunsPage = { 
/**
 * The first day shown (`YYYY-MM-DD`) and today (Manila).
 */
day: string, today: string, 
/**
 * The last day shown: `day` itself unless more days are shown (a rider's page shows the
 * next 7 too).
 */
until: string, 
/**
 * The runs of the days shown, by day, oldest first in one; for a rider, their own (and any
 * of theirs still open from an earlier day, first).
 */
runs: Array<RunLine>, 
/**
 * Confirmed delivery orders on no run (dispatchers and managers; a rider gets none).
 */
waiting: Array<WaitingOrder>, 
/**
 * The riders a run may go to (dispatchers and managers; a rider gets none).
 */
riders: Array<RiderChoice>, };

/**
 * What a search found.
 */
export type SearchAnswer = { 
/**
 * The query as the store read it (trimmed).
 */
q: string, 
/**
 * Found and orderable at the shopper's place (anywhere without one), best match first.
 */
products: Array<ProductView>, 
/**
 * Found, but not orderable at the shopper's place (not sold there, or not now).
 */
elsewhere: Array<ProductView>, };

export type SecondFactorState = { 
/**
 * The member's second factor is set up (a code is asked); else `enrollment` shows how.
 */
enrolled: boolean, enrollment: Enrollment | null, };

export type SignedOut = { message: string, };

/**
 * The single product response.
 */
export type SingleProduct = { product_single: ProductView, 
/**
 * Whether the product is sold at the barangay asked for; `null` when none was given.
 */
available_in_area: boolean | null, you_might_also_like: Array<ProductView>, };

/**
 * An editorial page's title and body.
 */
export type SiteTextView = { key: string, title: string, body: string, };

export type SoldAs = "box" | "case_or_bottle" | "keg";

/**
 * A member of staff as the staff pages show them.
 */
export type StaffMember = { id: number, email: string, name: string, role: Role, 
/**
 * They chose a password (their link was used).
 */
password_set: boolean, 
/**
 * Their second factor is enrolled.
 */
second_factor: boolean, disabled: boolean, };

export type StaffOrderView = { order: OrderView, 
/**
 * The statuses it may go to now (none once completed or cancelled).
 */
next: Array<StatusChoice>, notes: Array<NoteView>, 
/**
 * The payments PayMongo reported for it, oldest first.
 */
payments: Array<PaymentView>, };

/**
 * The signed-in member of staff, as their pages show them.
 */
export type StaffSelf = { member: StaffMember, 
/**
 * Recovery codes not used yet.
 */
recovery_codes_left: number, };

export type StaffStep = { next: NextStep, };

/**
 * A status with the name the pages give it.
 */
export type StatusChoice = { status: string, label: string, };

/**
 * How many orders have a status.
 */
export type StatusCount = { status: StatusChoice, count: number, };

/**
 * What a move did.
 */
export type StatusMoved = { 
/**
 * The orders moved, by number.
 */
moved: Array<string>, 
/**
 * The orders that already had the status (left as they were).
 */
already: Array<string>, status: StatusChoice, message: string, };

/**
 * A step of an order's status.
 */
export type StatusStep = { status: string, label: string, 
/**
 * Manila time, `YYYY-MM-DD HH:MM`.
 */
at: string, 
/**
 * Why, when the step was given a reason (a cancellation's); else empty.
 */
note: string, };

/**
 * Which gate overlays the page.
 */
export type Step = "policy" | "category" | "location";

/**
 * What a stop delivers: a line of its order.
 */
export type StopItem = { product_name: string, case_name: string, quantity: number, };

/**
 * A stop of a run: the run sheet's line, and how it ended.
 */
export type StopView = { seq: number, order_id: number, number: string, contact_name: string, mobile: string, 
/**
 * The street address.
 */
address: string, 
/**
 * Where: the street (when one is named), barangay, city and province, as the order keeps it.
 */
place: string, 
/**
 * The shopper's note.
 */
notes: string, items: Array<StopItem>, 
/**
 * The cash to collect (centavos): the order's total, less what was paid online.
 */
total: number, 
/**
 * What was paid online (centavos; 0 for an order paid in cash).
 */
paid_online: number, 
/**
 * The empty cases to collect, by kind.
 */
empties: Array<ContainerCount>, empties_expected: number, outcome: Outcome, 
/**
 * Centavos, as the rider reported.
 */
cash_received: number | null, empties_returned: number | null, 
/**
 * Why a failed stop failed, and the rider's note.
 */
reason: string, note: string, 
/**
 * What the reconciliation found wrong (cash short or over, empties missing).
 */
differences: Array<string>, };

/**
 * A street of a barangay that needs one.
 */
export type StreetId = number;

export type StreetView = { id: StreetId, street_name: string, };

export type SubscribeAnswer = { data: Success, };

export type Success = { success: string, };

/**
 * `POST /api/v1/guest-token`: a guest session; the token is in the `access-token` header (and the
 * HttpOnly cookie for browsers).
 */
export type TokenAnswer = { 
/**
 * Always "Bearer".
 */
token_type: string, 
/**
 * Seconds the token lives without use.
 */
expires_in: number, };

/**
 * A product type (Cans, Full Goods, Keg).
 */
export type TypeRef = { id: number, name: string, };

/**
 * `GET /api/v1/user`: the member (200), or for guests a 401 with the policy texts.
 */
export type UserAnswer = { data: Member, } | { error: string, data: GuestUser, };

/**
 * A member.
 */
export type UserId = number;

/**
 * A form's errors: the first message, and each field's messages.
 */
export type ValidationErrorBody = { message: string, errors: { [key in string]: Array<string> }, 
/**
 * Cart and checkout refusals: the message as `error`, as the cart's callers read it.
 */
error?: string, 
/**
 * Cart and checkout refusals: the error again and the products concerned.
 */
data?: RefusalData, };

/**
 * An order waiting for a run.
 */
export type WaitingOrder = { id: number, number: string, contact_name: string, 
/**
 * Where: the street (when one is named), barangay, city and province, as the order keeps it.
 */
place: string, 
/**
 * Centavos.
 */
total: number, };

export type Welcome = { first_name: string, 
/**
 * Whether the guest cart and the member's cart hold packaging families that cannot be
 * mixed: both are kept until the member chooses (`POST /api/v1/cart/keep`).
 */
cart_conflict: boolean, 
/**
 * What of the guest cart did not fit the member's when they joined (a cart's limits: 999
 * of a product, 50 products), or empty.
 */
cart_message: string, };

export type WelcomeAnswer = { data: Welcome, };

/** A call of the API: its method, its key template (path, then each query parameter) and
 * whether it only reads. `A` is the answer's type. */
export interface Call<A> {
  /** The call's name: what a page form names in its `_call` field. */
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  key: string;
  read: boolean;
  /** Never set: carries the answer type. */
  answer?: A;
}

export const calls = {
  banners: { name: 'banners', method: 'GET', key: '/api/v1/banners?testdate={testdate}', read: true } as Call<Results<BannerView>>,
  legacyBarangays: { name: 'legacyBarangays', method: 'GET', key: '/api/v1/barangay?filterByCity={filterByCity}', read: true } as Call<Results<BarangayView>>,
  removeFromCart: { name: 'removeFromCart', method: 'DELETE', key: '/api/v1/cart', read: false } as Call<CartAnswer>,
  addToCart: { name: 'addToCart', method: 'POST', key: '/api/v1/cart', read: false } as Call<CartAnswer>,
  updateCart: { name: 'updateCart', method: 'PUT', key: '/api/v1/cart', read: false } as Call<CartAnswer>,
  keepCart: { name: 'keepCart', method: 'POST', key: '/api/v1/cart/keep', read: false } as Call<CartAnswer>,
  cart: { name: 'cart', method: 'GET', key: '/api/v1/cart/{barangayId}?fulfillment={fulfillment}&testdate={testdate}&left={left}', read: true } as Call<CartAnswer>,
  checkRegistrationToken: { name: 'checkRegistrationToken', method: 'GET', key: '/api/v1/check-registration-token?token={token}', read: true } as Call<PendingAnswer>,
  legacyCities: { name: 'legacyCities', method: 'GET', key: '/api/v1/cities?filterByProvince={filterByProvince}', read: true } as Call<Results<CityView>>,
  deliveryAreas: { name: 'deliveryAreas', method: 'GET', key: '/api/v1/delivery-areas', read: true } as Call<Results<Area>>,
  guestToken: { name: 'guestToken', method: 'POST', key: '/api/v1/guest-token', read: false } as Call<TokenAnswer>,
  login: { name: 'login', method: 'POST', key: '/api/v1/login', read: false } as Call<WelcomeAnswer>,
  logout: { name: 'logout', method: 'POST', key: '/api/v1/logout', read: false } as Call<MessageAnswer>,
  confirmSubscription: { name: 'confirmSubscription', method: 'POST', key: '/api/v1/mail/confirm', read: false } as Call<SubscribeAnswer>,
  subscribe: { name: 'subscribe', method: 'POST', key: '/api/v1/mail/subscribe', read: false } as Call<SubscribeAnswer>,
  notice: { name: 'notice', method: 'GET', key: '/api/v1/notice?testdate={testdate}', read: true } as Call<NoticeAnswer>,
  placeOrder: { name: 'placeOrder', method: 'POST', key: '/api/v1/orders', read: false } as Call<PlacedOrder>,
  order: { name: 'order', method: 'GET', key: '/api/v1/orders/{orderId}?key={key}', read: true } as Call<OrderView>,
  orderAgain: { name: 'orderAgain', method: 'POST', key: '/api/v1/orders/{orderId}/again', read: false } as Call<Refilled>,
  payInCash: { name: 'payInCash', method: 'POST', key: '/api/v1/orders/{orderId}/cash', read: false } as Call<PlacedOrder>,
  payOrder: { name: 'payOrder', method: 'POST', key: '/api/v1/orders/{orderId}/pay', read: false } as Call<PlacedOrder>,
  paymentMethods: { name: 'paymentMethods', method: 'GET', key: '/api/v1/payments/methods', read: true } as Call<PaymentOptions>,
  payMongoEvents: { name: 'payMongoEvents', method: 'POST', key: '/api/v1/payments/paymongo/events', read: false } as Call<EventTaken>,
  holiday: { name: 'holiday', method: 'GET', key: '/api/v1/philippine-holiday?testdate={testdate}', read: true } as Call<Holiday>,
  preRegister: { name: 'preRegister', method: 'POST', key: '/api/v1/pre-register', read: false } as Call<MessageAnswer>,
  products: { name: 'products', method: 'GET', key: '/api/v1/products?barangay={barangay}&packaging={packaging}&style={style}&brand={brand}&size={size}&min_pesos={min_pesos}&max_pesos={max_pesos}&sort={sort}&page={page}&per_page={per_page}', read: true } as Call<ProductList>,
  promos: { name: 'promos', method: 'GET', key: '/api/v1/products/promos?barangay={barangay}&testdate={testdate}', read: true } as Call<Results<PromoView>>,
  whatsNew: { name: 'whatsNew', method: 'GET', key: '/api/v1/products/whats-new?barangay={barangay}&packaging={packaging}&style={style}&brand={brand}&size={size}&min_pesos={min_pesos}&max_pesos={max_pesos}&sort={sort}&page={page}&per_page={per_page}', read: true } as Call<ProductList>,
  provinces: { name: 'provinces', method: 'GET', key: '/api/v1/provinces', read: true } as Call<Results<ProvinceView>>,
  registration: { name: 'registration', method: 'POST', key: '/api/v1/registration', read: false } as Call<WelcomeAnswer>,
  resetPassword: { name: 'resetPassword', method: 'POST', key: '/api/v1/reset/password', read: false } as Call<MessageAnswer>,
  resetLink: { name: 'resetLink', method: 'POST', key: '/api/v1/reset/password/get-link', read: false } as Call<MessageAnswer>,
  verifyResetLink: { name: 'verifyResetLink', method: 'POST', key: '/api/v1/reset/password/verify-link', read: false } as Call<MessageAnswer>,
  search: { name: 'search', method: 'GET', key: '/api/v1/search?q={q}&barangay={barangay}&limit={limit}', read: true } as Call<SearchAnswer>,
  siteText: { name: 'siteText', method: 'GET', key: '/api/v1/site-texts/{key}', read: true } as Call<SiteTextView>,
  staffAudit: { name: 'staffAudit', method: 'GET', key: '/api/v1/staff/audit?before={before}&staff={staff}&who={who}&action={action}', read: true } as Call<AuditPage>,
  staffCatalog: { name: 'staffCatalog', method: 'GET', key: '/api/v1/staff/catalog', read: true } as Call<Results<CatalogProduct>>,
  staffServedCities: { name: 'staffServedCities', method: 'GET', key: '/api/v1/staff/catalog/areas', read: true } as Call<Results<CityChoice>>,
  staffBanners: { name: 'staffBanners', method: 'GET', key: '/api/v1/staff/catalog/banners', read: true } as Call<Results<BannerEdit>>,
  staffBannerSave: { name: 'staffBannerSave', method: 'POST', key: '/api/v1/staff/catalog/banners/{bannerId}', read: false } as Call<BannerSaved>,
  staffBannerPhotoRemove: { name: 'staffBannerPhotoRemove', method: 'DELETE', key: '/api/v1/staff/catalog/banners/{bannerId}/photo', read: false } as Call<OwnerPhoto>,
  staffBannerPhoto: { name: 'staffBannerPhoto', method: 'PUT', key: '/api/v1/staff/catalog/banners/{bannerId}/photo', read: false } as Call<OwnerPhoto>,
  staffCalendar: { name: 'staffCalendar', method: 'GET', key: '/api/v1/staff/catalog/calendar', read: true } as Call<Calendar>,
  staffCharges: { name: 'staffCharges', method: 'GET', key: '/api/v1/staff/catalog/charges', read: true } as Call<Charges>,
  staffCitiesPlan: { name: 'staffCitiesPlan', method: 'GET', key: '/api/v1/staff/catalog/cities?products={products}&cities={cities}&how={how}', read: true } as Call<CitiesPlan>,
  staffCitiesSave: { name: 'staffCitiesSave', method: 'POST', key: '/api/v1/staff/catalog/cities', read: false } as Call<CitiesPlan>,
  staffDepositSave: { name: 'staffDepositSave', method: 'POST', key: '/api/v1/staff/catalog/deposits/{depositId}', read: false } as Call<ChargesSaved>,
  staffDraft: { name: 'staffDraft', method: 'GET', key: '/api/v1/staff/catalog/drafts/{draftId}', read: true } as Call<DraftView>,
  staffDraftApply: { name: 'staffDraftApply', method: 'POST', key: '/api/v1/staff/catalog/drafts/{draftId}/apply', read: false } as Call<ImportDone>,
  staffFeeSave: { name: 'staffFeeSave', method: 'POST', key: '/api/v1/staff/catalog/fees/{cityId}/{fulfillmentId}', read: false } as Call<ChargesSaved>,
  staffHolidaySave: { name: 'staffHolidaySave', method: 'POST', key: '/api/v1/staff/catalog/holidays', read: false } as Call<CalendarSaved>,
  staffHolidayRemove: { name: 'staffHolidayRemove', method: 'POST', key: '/api/v1/staff/catalog/holidays/remove', read: false } as Call<CalendarSaved>,
  staffNoticeSave: { name: 'staffNoticeSave', method: 'POST', key: '/api/v1/staff/catalog/notices', read: false } as Call<CalendarSaved>,
  staffNoticeRemove: { name: 'staffNoticeRemove', method: 'POST', key: '/api/v1/staff/catalog/notices/remove', read: false } as Call<CalendarSaved>,
  staffProduct: { name: 'staffProduct', method: 'GET', key: '/api/v1/staff/catalog/products/{productId}', read: true } as Call<ProductEdit>,
  staffProductSave: { name: 'staffProductSave', method: 'POST', key: '/api/v1/staff/catalog/products/{productId}', read: false } as Call<ProductSaved>,
  staffProductPhotoRemove: { name: 'staffProductPhotoRemove', method: 'DELETE', key: '/api/v1/staff/catalog/products/{sku}/photo', read: false } as Call<OwnerPhoto>,
  staffProductPhoto: { name: 'staffProductPhoto', method: 'PUT', key: '/api/v1/staff/catalog/products/{sku}/photo', read: false } as Call<OwnerPhoto>,
  staffPromos: { name: 'staffPromos', method: 'GET', key: '/api/v1/staff/catalog/promos', read: true } as Call<Results<PromoEdit>>,
  staffPromoSave: { name: 'staffPromoSave', method: 'POST', key: '/api/v1/staff/catalog/promos/{promoId}', read: false } as Call<PromoSaved>,
  staffDashboard: { name: 'staffDashboard', method: 'GET', key: '/api/v1/staff/dashboard', read: true } as Call<Dashboard>,
  staffDay: { name: 'staffDay', method: 'GET', key: '/api/v1/staff/day?day={day}', read: true } as Call<DayReport>,
  staffGuestData: { name: 'staffGuestData', method: 'GET', key: '/api/v1/staff/guest-data?contact={contact}', read: true } as Call<GuestData>,
  staffEraseGuest: { name: 'staffEraseGuest', method: 'POST', key: '/api/v1/staff/guest-data/erase', read: false } as Call<GuestErased>,
  staffLogin: { name: 'staffLogin', method: 'POST', key: '/api/v1/staff/login', read: false } as Call<StaffStep>,
  staffLogout: { name: 'staffLogout', method: 'POST', key: '/api/v1/staff/logout', read: false } as Call<SignedOut>,
  staffMaintenance: { name: 'staffMaintenance', method: 'GET', key: '/api/v1/staff/maintenance', read: true } as Call<MaintenanceState>,
  staffMaintenanceSet: { name: 'staffMaintenanceSet', method: 'POST', key: '/api/v1/staff/maintenance', read: false } as Call<MaintenanceState>,
  staffMe: { name: 'staffMe', method: 'GET', key: '/api/v1/staff/me', read: true } as Call<StaffSelf>,
  staffOrders: { name: 'staffOrders', method: 'GET', key: '/api/v1/staff/orders?status={status}&from={from}&to={to}&fulfillment={fulfillment}&paid={paid}&city={city}&barangay={barangay}&q={q}&before={before}', read: true } as Call<BoardPage>,
  staffOrderStatus: { name: 'staffOrderStatus', method: 'POST', key: '/api/v1/staff/orders/status', read: false } as Call<StatusMoved>,
  staffOrder: { name: 'staffOrder', method: 'GET', key: '/api/v1/staff/orders/{orderId}', read: true } as Call<StaffOrderView>,
  staffOrderNote: { name: 'staffOrderNote', method: 'POST', key: '/api/v1/staff/orders/{orderId}/notes', read: false } as Call<StaffOrderView>,
  staffPassword: { name: 'staffPassword', method: 'POST', key: '/api/v1/staff/password', read: false } as Call<PasswordChosen>,
  staffRefundPayment: { name: 'staffRefundPayment', method: 'POST', key: '/api/v1/staff/payments/{paymentId}/refund', read: false } as Call<StaffOrderView>,
  staffRuns: { name: 'staffRuns', method: 'GET', key: '/api/v1/staff/runs?day={day}', read: true } as Call<RunsPage>,
  staffRunCreate: { name: 'staffRunCreate', method: 'POST', key: '/api/v1/staff/runs', read: false } as Call<RunChanged>,
  staffRun: { name: 'staffRun', method: 'GET', key: '/api/v1/staff/runs/{runId}', read: true } as Call<RunView>,
  staffRunArrange: { name: 'staffRunArrange', method: 'POST', key: '/api/v1/staff/runs/{runId}/arrange', read: false } as Call<Arranged>,
  staffRunClose: { name: 'staffRunClose', method: 'POST', key: '/api/v1/staff/runs/{runId}/close', read: false } as Call<RunView>,
  staffRunSend: { name: 'staffRunSend', method: 'POST', key: '/api/v1/staff/runs/{runId}/send', read: false } as Call<RunChanged>,
  staffRunStops: { name: 'staffRunStops', method: 'POST', key: '/api/v1/staff/runs/{runId}/stops', read: false } as Call<RunView>,
  staffRunStop: { name: 'staffRunStop', method: 'POST', key: '/api/v1/staff/runs/{runId}/stops/{orderId}', read: false } as Call<RunView>,
  staffEnrollment: { name: 'staffEnrollment', method: 'GET', key: '/api/v1/staff/second-factor', read: true } as Call<SecondFactorState>,
  staffSecondFactor: { name: 'staffSecondFactor', method: 'POST', key: '/api/v1/staff/second-factor', read: false } as Call<StaffSelf>,
  staffTeam: { name: 'staffTeam', method: 'GET', key: '/api/v1/staff/team', read: true } as Call<Results<StaffMember>>,
  staffAdd: { name: 'staffAdd', method: 'POST', key: '/api/v1/staff/team', read: false } as Call<StaffMember>,
  staffChange: { name: 'staffChange', method: 'POST', key: '/api/v1/staff/team/{staffId}', read: false } as Call<StaffMember>,
  deleteUser: { name: 'deleteUser', method: 'DELETE', key: '/api/v1/user', read: false } as Call<MessageAnswer>,
  user: { name: 'user', method: 'GET', key: '/api/v1/user', read: true } as Call<UserAnswer>,
  updateUser: { name: 'updateUser', method: 'PUT', key: '/api/v1/user', read: false } as Call<UserAnswer>,
  createAddress: { name: 'createAddress', method: 'POST', key: '/api/v1/user/addresses', read: false } as Call<AddressView>,
  addresses: { name: 'addresses', method: 'GET', key: '/api/v1/user/addresses/list', read: true } as Call<Results<AddressView>>,
  deleteAddress: { name: 'deleteAddress', method: 'DELETE', key: '/api/v1/user/addresses/{addressId}', read: false } as Call<MessageAnswer>,
  updateAddress: { name: 'updateAddress', method: 'PUT', key: '/api/v1/user/addresses/{addressId}', read: false } as Call<AddressView>,
  changePassword: { name: 'changePassword', method: 'POST', key: '/api/v1/user/change-password', read: false } as Call<MessageAnswer>,
  checkoutVerify: { name: 'checkoutVerify', method: 'POST', key: '/api/v1/user/checkout/verify', read: false } as Call<CartAnswer>,
  gotoCases: { name: 'gotoCases', method: 'GET', key: '/api/v1/user/goto-case?barangay={barangay}&cart_items={cart_items}', read: true } as Call<GotoCases>,
  createGotoCase: { name: 'createGotoCase', method: 'POST', key: '/api/v1/user/goto-case', read: false } as Call<GotoCaseSaved>,
  updateGotoCase: { name: 'updateGotoCase', method: 'PUT', key: '/api/v1/user/goto-case', read: false } as Call<GotoCaseSaved>,
  gotoCaseToCart: { name: 'gotoCaseToCart', method: 'POST', key: '/api/v1/user/goto-case/cart/{caseId}/barangay/{barangayId}', read: false } as Call<Refilled>,
  removeGotoCaseItems: { name: 'removeGotoCaseItems', method: 'DELETE', key: '/api/v1/user/goto-case/items', read: false } as Call<GotoCaseSaved>,
  gotoCaseOptions: { name: 'gotoCaseOptions', method: 'GET', key: '/api/v1/user/goto-case/options', read: true } as Call<GotoCaseChoices>,
  deleteGotoCase: { name: 'deleteGotoCase', method: 'DELETE', key: '/api/v1/user/goto-case/{id}', read: false } as Call<GotoCaseDeleted>,
  gotoCase: { name: 'gotoCase', method: 'GET', key: '/api/v1/user/goto-case/{id}?barangay={barangay}', read: true } as Call<GotoCaseView>,
  myData: { name: 'myData', method: 'POST', key: '/api/v1/user/my-data', read: false } as Call<MyData>,
  myOrders: { name: 'myOrders', method: 'GET', key: '/api/v1/user/orders?page={page}', read: true } as Call<OrderList>,
  websitePolicy: { name: 'websitePolicy', method: 'PUT', key: '/api/v1/user/website-policy', read: false } as Call<UserAnswer>,
  product: { name: 'product', method: 'GET', key: '/api/v2/products/{slug}/barangay/{barangayId}', read: true } as Call<SingleProduct>,
  fulfillments: { name: 'fulfillments', method: 'GET', key: '/api/v3/fulfillment-types', read: true } as Call<Results<FulfillmentView>>,
  streets: { name: 'streets', method: 'GET', key: '/api/v3/locations/barangay/{barangayId}/streets', read: true } as Call<Results<StreetView>>,
  kegCities: { name: 'kegCities', method: 'POST', key: '/api/v3/locations/cities', read: true } as Call<Results<CityView>>,
  barangays: { name: 'barangays', method: 'GET', key: '/api/v3/locations/city/{cityId}/barangays', read: true } as Call<Results<BarangayView>>,
  cities: { name: 'cities', method: 'GET', key: '/api/v3/locations/provinces/{provinceId}/fulfillments/{fulfillmentId}/cities', read: true } as Call<LocationsAnswer>,
  packagings: { name: 'packagings', method: 'POST', key: '/api/v3/packagings', read: true } as Call<Results<PackagingView>>,
  returnEmpty: { name: 'returnEmpty', method: 'POST', key: '/api/v3/return-empty', read: false } as Call<CartAnswer>,
} as const;
