// The staff's own data: only the staff pages (signed in, on the server) load these.
import { defineQuery } from '../../api/query';
import { calls } from '../../api/contract.gen';

export const staffMeQuery = defineQuery(calls.staffMe);
export const enrollmentQuery = defineQuery(calls.staffEnrollment);
export const teamQuery = defineQuery(calls.staffTeam);
/** Every product with its photo (managers). */
export const catalogQuery = defineQuery(calls.staffCatalog);
/** The served cities products may be sold in (managers). */
export const servedCitiesQuery = defineQuery(calls.staffServedCities);
/** One product as its form shows it (managers). */
export const productQuery = defineQuery(calls.staffProduct);
/** What the page's change of cities would do (managers). */
export const citiesPlanQuery = defineQuery(calls.staffCitiesPlan);
/** Every banner with its days (managers). */
export const bannersEditQuery = defineQuery(calls.staffBanners);
/** Every holiday and notice (managers). */
export const calendarQuery = defineQuery(calls.staffCalendar);
/** Where the maintenance switch stands (managers). */
export const maintenanceQuery = defineQuery(calls.staffMaintenance);
/** The guest orders and newsletter signup of the page's `contact` (managers). */
export const guestDataQuery = defineQuery(calls.staffGuestData);
/** Every promo with its days (managers). */
export const promosEditQuery = defineQuery(calls.staffPromos);
/** Every deposit and every served city's delivery fees (managers). */
export const chargesQuery = defineQuery(calls.staffCharges);
/** An uploaded catalog file's dry run (its uploader). */
export const draftQuery = defineQuery(calls.staffDraft);
/** The audit log, filtered by the page's `before`, `staff` and `action` (each left out when unset). */
export const auditQuery = defineQuery(calls.staffAudit);
/**
 * The orders board, filtered by the page's parameters (each left out when unset); delivery or
 * pickup is the page's `how` (its `fulfillment` is the location gate's step on every page).
 */
export const boardQuery = defineQuery(calls.staffOrders, { fulfillment: '{how}' });
/** One order as the staff work it (the page's `{orderId}`). */
export const staffOrderQuery = defineQuery(calls.staffOrder);
/** Today's figures, the orders waiting, the last 30 days. */
export const dashboardQuery = defineQuery(calls.staffDashboard);
/** The runs of the page's `day` (today when unset), the orders waiting and the riders. */
export const runsQuery = defineQuery(calls.staffRuns);
/** One run (the page's `{runId}`): its stops, pick list and reconciliation. */
export const runQuery = defineQuery(calls.staffRun);
/** The report of the page's `day` (today when unset). */
export const dayQuery = defineQuery(calls.staffDay);
