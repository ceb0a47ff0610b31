// The back office's pages (/staff): the staff's sign-in with its second factor, the link to
// choose a password, and a signed-in member's pages. Never in the sitemap or a search index,
// never kept by a cache; a visitor without a staff session is sent to sign in (`signIn`), and
// nothing of a page's data reaches them.
import { calls, type StaffMember } from '../../api/contract.gen';
import { action, route, type FeaturePage } from '../../lib/route';
import { auditQuery, bannersEditQuery, boardQuery, calendarQuery, catalogQuery, chargesQuery, citiesPlanQuery, dashboardQuery, dayQuery, draftQuery, enrollmentQuery, guestDataQuery, maintenanceQuery, productQuery, promosEditQuery, runQuery, runsQuery, servedCitiesQuery, staffMeQuery, staffOrderQuery, teamQuery } from './queries';

const STAFF = { forms: true, sitemap: false, policy: false, shell: 'own' } as const;
const SIGNED_IN = { ...STAFF, signIn: '/staff/login', actions: [action(calls.staffLogout, '/staff/login?done=signed-out')] };
/** Pages of some roles: every other role is sent to the back office's home, alike on each (the server reads the member's role first). */
const only = (...values: StaffMember['role'][]) => ({ only: { data: staffMeQuery.template, field: '/member/role', values, to: '/staff' } });
const MANAGERS = { ...SIGNED_IN, ...only('manager') };
const DISPATCHERS = { ...SIGNED_IN, ...only('manager', 'dispatcher') };

export const pages: FeaturePage[] = [
  {
    order: 310,
    route: route('staff-login', '/staff/login', () => import('./Login').then((m) => m.Login), 'Staff Sign In', 'Sign in to the back office.', [], {
      ...STAFF,
      actions: [action(calls.staffLogin, '/staff/second-factor')],
    }),
  },
  {
    order: 320,
    route: route('staff-password', '/staff/password', () => import('./Login').then((m) => m.ChoosePassword), 'Choose Your Password', 'Choose the password of your staff account.', [], {
      ...STAFF,
      params: ['token'],
      actions: [action(calls.staffPassword, '/staff/login?done=password')],
    }),
  },
  {
    order: 330,
    route: route('staff-second-factor', '/staff/second-factor', () => import('./SecondFactor').then((m) => m.SecondFactor), 'Second Factor', 'The second factor of your staff sign-in.', [enrollmentQuery.template], {
      ...STAFF,
      signIn: '/staff/login',
      actions: [action(calls.staffSecondFactor, '/staff?done=signed-in')],
    }),
  },
  {
    order: 340,
    route: route('staff-home', '/staff', () => import('./StaffHome').then((m) => m.StaffHome), 'Back Office', 'The back office of the store.', [staffMeQuery.template, dashboardQuery.template], SIGNED_IN),
  },
  {
    order: 343,
    route: route('staff-orders', '/staff/orders', () => import('./orders/Board').then((m) => m.Board), 'Orders', 'The orders board.', [staffMeQuery.template, boardQuery.template], {
      ...DISPATCHERS,
      // city and barangay are every page's (the location gate's steps): the board reads them too.
      params: ['status', 'from', 'to', 'how', 'paid', 'q', 'before'],
      missing: '/staff',
      actions: [...SIGNED_IN.actions, action(calls.staffOrderStatus, '/staff/orders?done=moved', { lists: ['order_ids'] })],
    }),
  },
  {
    order: 346,
    route: route('staff-order', '/staff/orders/{orderId}', () => import('./orders/Order').then((m) => m.Order), 'Order', 'One order.', [staffMeQuery.template, staffOrderQuery.template], {
      ...DISPATCHERS,
      actions: [...SIGNED_IN.actions, action(calls.staffOrderStatus, '/staff/orders/{orderId}?done=moved'), action(calls.staffOrderNote, '/staff/orders/{orderId}?done=noted'), action(calls.staffRefundPayment, '/staff/orders/{orderId}?done=refunded')],
    }),
  },
  {
    order: 347,
    route: route('staff-runs', '/staff/runs', () => import('./runs/Runs').then((m) => m.Runs), 'Runs', 'The day’s delivery runs.', [staffMeQuery.template, runsQuery.template], {
      ...SIGNED_IN,
      params: ['day'],
      missing: '/staff',
      actions: [...SIGNED_IN.actions, action(calls.staffRunCreate, '/staff/runs', { answerLink: 'link', lists: ['order_ids'] })],
    }),
  },
  {
    order: 348,
    route: route('staff-run', '/staff/runs/{runId}', () => import('./runs/Run').then((m) => m.Run), 'Run', 'One delivery run.', [staffMeQuery.template, runQuery.template], {
      ...SIGNED_IN,
      // A stop just ended (its order id), named by the message the page lands with.
      params: ['stop'],
      actions: [
        ...SIGNED_IN.actions,
        action(calls.staffRunStops, '/staff/runs/{runId}?done=added', { lists: ['order_ids'] }),
        action(calls.staffRunArrange, '/staff/runs/{runId}?done=arranged', { answerLink: 'link' }),
        action(calls.staffRunSend, '/staff/runs/{runId}?done=sent'),
        action(calls.staffRunStop, '/staff/runs/{runId}?done=ended&stop={orderId}#current-stop'),
        action(calls.staffRunClose, '/staff/runs/{runId}?done=closed'),
      ],
    }),
  },
  {
    order: 349,
    route: route('staff-pick-list', '/staff/runs/{runId}/pick-list', () => import('./runs/Print').then((m) => m.PickList), 'Pick List', 'What to load for a run.', [staffMeQuery.template, runQuery.template], {
      ...SIGNED_IN,
      params: ['paper'],
    }),
  },
  {
    order: 349.5,
    route: route('staff-run-sheet', '/staff/runs/{runId}/sheet', () => import('./runs/Print').then((m) => m.RunSheet), 'Run Sheet', 'A run’s stops, to print.', [staffMeQuery.template, runQuery.template], {
      ...SIGNED_IN,
      params: ['paper'],
    }),
  },
  {
    order: 350,
    route: route('staff-team', '/staff/team', () => import('./Team').then((m) => m.Team), 'Staff', 'The store’s staff.', [staffMeQuery.template, teamQuery.template], {
      ...MANAGERS,
      missing: '/staff',
      actions: [...SIGNED_IN.actions, action(calls.staffAdd, '/staff/team?done=added'), action(calls.staffChange, '/staff/team?done=changed')],
    }),
  },
  {
    order: 352,
    // The photo form posts files to this address (api::staff::catalog::photo_form); Sign Out posts here too.
    route: route('staff-catalog', '/staff/catalog', () => import('./catalog/Catalog').then((m) => m.Catalog), 'Catalog', 'The products and their photos.', [staffMeQuery.template, catalogQuery.template, servedCitiesQuery.template], {
      ...MANAGERS,
      missing: '/staff',
      actions: [...SIGNED_IN.actions, action(calls.staffCitiesSave, '/staff/catalog', { answerLink: 'link', lists: ['products', 'cities'] })],
    }),
  },
  {
    order: 353,
    route: route('staff-product', '/staff/catalog/products/{productId}', () => import('./catalog/Product').then((m) => m.ProductEdit), 'Product', 'One product of the catalog.', [staffMeQuery.template, productQuery.template], {
      ...MANAGERS,
      actions: [...SIGNED_IN.actions, action(calls.staffProductSave, '/staff/catalog/products/{productId}?done=saved', { lists: ['cities'] })],
    }),
  },
  {
    order: 354,
    route: route('staff-cities', '/staff/catalog/cities', () => import('./catalog/Cities').then((m) => m.Cities), 'Cities of Products', 'What a change of cities does, before it is saved.', [staffMeQuery.template, citiesPlanQuery.template], {
      ...MANAGERS,
      params: ['products', 'cities', 'how'],
      missing: '/staff/catalog',
      actions: [...SIGNED_IN.actions, action(calls.staffCitiesSave, '/staff/catalog?done=cities', { answerLink: 'link' })],
    }),
  },
  {
    order: 354.2,
    route: route('staff-banners', '/staff/catalog/banners', () => import('./catalog/Banners').then((m) => m.Banners), 'Banners', 'The home page’s banners and their days.', [staffMeQuery.template, bannersEditQuery.template], {
      ...MANAGERS,
      missing: '/staff',
      actions: [...SIGNED_IN.actions, action(calls.staffBannerSave, '/staff/catalog/banners?done=saved#banner-{bannerId}')],
    }),
  },
  {
    order: 354.25,
    route: route('staff-promos', '/staff/catalog/promos', () => import('./catalog/Promos').then((m) => m.Promos), 'Promos', 'The promos and their days.', [staffMeQuery.template, promosEditQuery.template], {
      ...MANAGERS,
      missing: '/staff',
      actions: [...SIGNED_IN.actions, action(calls.staffPromoSave, '/staff/catalog/promos?done=saved#promo-{promoId}')],
    }),
  },
  {
    order: 354.28,
    route: route('staff-calendar', '/staff/catalog/calendar', () => import('./catalog/Calendar').then((m) => m.Calendar), 'Holidays and Notices', 'The holidays and the shop’s notices.', [staffMeQuery.template, calendarQuery.template], {
      ...MANAGERS,
      missing: '/staff',
      actions: [
        ...SIGNED_IN.actions,
        action(calls.staffHolidaySave, '/staff/catalog/calendar?done=holiday#holidays'),
        action(calls.staffHolidayRemove, '/staff/catalog/calendar?done=holiday-removed#holidays'),
        action(calls.staffNoticeSave, '/staff/catalog/calendar?done=notice#notices'),
        action(calls.staffNoticeRemove, '/staff/catalog/calendar?done=notice-removed#notices'),
      ],
    }),
  },
  {
    order: 354.3,
    route: route('staff-charges', '/staff/catalog/charges', () => import('./catalog/Charges').then((m) => m.Charges), 'Deposits and Delivery Fees', 'The deposits and each city’s delivery fees.', [staffMeQuery.template, chargesQuery.template], {
      ...MANAGERS,
      missing: '/staff',
      actions: [
        ...SIGNED_IN.actions,
        action(calls.staffDepositSave, '/staff/catalog/charges?done=saved#deposit-{depositId}'),
        action(calls.staffFeeSave, '/staff/catalog/charges?done=saved#fees-{cityId}'),
      ],
    }),
  },
  {
    order: 354.8,
    route: route('staff-maintenance', '/staff/maintenance', () => import('./Maintenance').then((m) => m.Maintenance), 'Maintenance', 'Close the store for maintenance, or open it again.', [staffMeQuery.template, maintenanceQuery.template], {
      ...MANAGERS,
      missing: '/staff',
      actions: [...SIGNED_IN.actions, action(calls.staffMaintenanceSet, '/staff/maintenance', { doneBy: { field: 'on', to: { true: '/staff/maintenance?done=true', false: '/staff/maintenance?done=false' } } })],
    }),
  },
  {
    order: 354.9,
    route: route('staff-guest-data', '/staff/guest-data', () => import('./EraseGuest').then((m) => m.EraseGuest), "Erase a Guest's Data", "Find a guest's orders by email or mobile and erase their personal data.", [staffMeQuery.template, guestDataQuery.template], {
      ...MANAGERS,
      params: ['contact'],
      missing: '/staff',
      actions: [...SIGNED_IN.actions, action(calls.staffEraseGuest, '/staff/guest-data?done=erased')],
    }),
  },
  {
    order: 354.5,
    // The upload form posts the file to this address (api::staff::catalog::import_form).
    route: route('staff-catalog-file', '/staff/catalog/import', () => import('./catalog/Import').then((m) => m.Import), 'Catalog File', 'Export and import the catalog file.', [staffMeQuery.template], {
      ...MANAGERS,
      missing: '/staff',
    }),
  },
  {
    order: 354.6,
    route: route('staff-catalog-draft', '/staff/catalog/import/{draftId}', () => import('./catalog/Import').then((m) => m.CatalogDraft), 'Check the Catalog File', 'Every change an uploaded catalog file makes.', [staffMeQuery.template, draftQuery.template], {
      ...MANAGERS,
      missing: '/staff/catalog/import',
      actions: [...SIGNED_IN.actions, action(calls.staffDraftApply, '/staff/catalog?done=imported')],
    }),
  },
  {
    order: 355,
    route: route('staff-day', '/staff/day', () => import('./runs/DayReport').then((m) => m.DayReport), 'Day Report', 'A day of the depot.', [staffMeQuery.template, dayQuery.template], {
      ...DISPATCHERS,
      params: ['day'],
      missing: '/staff',
    }),
  },
  {
    order: 360,
    route: route('staff-audit', '/staff/audit', () => import('./StaffHome').then((m) => m.AuditLog), 'Audit Log', 'Every staff write.', [staffMeQuery.template, auditQuery.template], {
      ...MANAGERS,
      params: ['before', 'staff', 'who', 'action'],
      missing: '/staff',
    }),
  },
];
