import { defineQuery } from '../../api/query';
import { calls, DEFAULT_PROVINCE } from '../../api/contract.gen';

export const bannersQuery = defineQuery(calls.banners);
export const noticeQuery = defineQuery(calls.notice);
/** The notice's city picker lists the default province's served cities. */
export const noticeCitiesQuery = defineQuery(calls.legacyCities, { filterByProvince: String(DEFAULT_PROVINCE) });
export const deliveryAreasQuery = defineQuery(calls.deliveryAreas);
export const policyTextQuery = defineQuery(calls.siteText, { key: 'policy_agreement' });
/** The privacy page's periods (the store's retention settings filled in by the call). */
export const retentionTextQuery = defineQuery(calls.siteText, { key: 'data_retention' });
export const termsTextQuery = defineQuery(calls.siteText, { key: 'terms_and_conditions' });
export const aboutTextQuery = defineQuery(calls.siteText, { key: 'about_us' });
