// The gate state (the gate cookies), read by the gates, the header and the shop's pages.
import { createContext, useCallback, useContext, useMemo, useState, type ReactNode } from 'react';
import { calls, DEFAULT_FULFILLMENT, type AddressView, type PackagingView } from '../../api/contract.gen';
import { send } from '../../api/send';
import { usePage } from '../../page';
import { clearCookie, COOKIE, CONSENT_MAX_AGE, GATE_MAX_AGE, LOCATION_COOKIES, setCookie } from './cookies';
import type { Gate, GateStep } from '../../lib/render-input';

export interface LocationChoice {
  fulfillmentId: number;
  cityId: number;
  cityName: string;
  barangayId: number;
  barangayName: string;
  streetId: number | null;
}

/** A member's saved address as the location gate's choice (delivery there). */
export function choiceOf(a: AddressView): LocationChoice {
  return {
    fulfillmentId: DEFAULT_FULFILLMENT,
    cityId: a.city_id,
    cityName: a.city_name,
    barangayId: a.barangay_id,
    barangayName: a.barangay_name,
    streetId: a.street_id,
  };
}

/** The category before a change, and the one a cart's reset question reverts to. */
export const CATEGORY_MEMORY = {
  previousId: 'previousCategoryId',
  previousName: 'previousCategoryName',
  originalId: 'originalCategoryID',
  originalName: 'originalCategoryName',
} as const;

interface GateApi {
  gate: Gate;
  open: (step: GateStep | null) => void;
  agree: () => void;
  chooseCategory: (packaging: PackagingView) => void;
  chooseLocation: (choice: LocationChoice) => void;
  /** Before asking to reset the cart, remember the category the cart was made for. */
  rememberCategory: () => void;
  /** The reset question's "no": the original category stays and the gate closes (when a location is chosen). */
  keepCategory: () => void;
}

const GateContext = createContext<GateApi | null>(null);

/** The gate state: starts from what the server read, then follows the shopper's choices. */
export function GateProvider({ initial, children }: { initial: Gate; children: ReactNode }) {
  const { member } = usePage();
  const [gate, setGate] = useState(initial);
  const open = useCallback((step: GateStep | null) => setGate((g) => ({ ...g, open: step })), []);
  const agree = useCallback(() => {
    setCookie(COOKIE.accepted, '1', CONSENT_MAX_AGE);
    setCookie(COOKIE.privacy, '1', CONSENT_MAX_AGE);
    setCookie(COOKIE.age, '1', CONSENT_MAX_AGE);
    setGate((g) => ({ ...g, consent: true, open: 'category' }));
    // A member's acceptance is kept on the server, for every device.
    if (member) void send(calls.websitePolicy, { body: { policy_agreement_accepted: true } });
  }, [member]);
  const chooseCategory = useCallback(({ id, name, filter_type }: PackagingView) => {
    setCookie(COOKIE.category, String(id), GATE_MAX_AGE);
    setCookie(COOKIE.categoryName, name, GATE_MAX_AGE);
    for (const c of LOCATION_COOKIES) clearCookie(c);
    setGate((g) => ({
      ...g,
      packagingId: id,
      packagingName: name,
      family: filter_type,
      fulfillmentId: null,
      cityId: null,
      barangayId: null,
      streetId: null,
      cityName: null,
      barangayName: null,
      open: 'location',
    }));
  }, []);
  const chooseLocation = useCallback((c: LocationChoice) => {
    setCookie(COOKIE.fulfillment, String(c.fulfillmentId), GATE_MAX_AGE);
    setCookie(COOKIE.city, String(c.cityId), GATE_MAX_AGE);
    setCookie(COOKIE.barangay, String(c.barangayId), GATE_MAX_AGE);
    if (c.streetId) setCookie(COOKIE.street, String(c.streetId), GATE_MAX_AGE);
    else clearCookie(COOKIE.street);
    setCookie(COOKIE.cityName, c.cityName, GATE_MAX_AGE);
    setCookie(COOKIE.barangayName, c.barangayName, GATE_MAX_AGE);
    setGate((g) => ({ ...g, open: null }));
    // The product list depends on the location: load it fresh from the server.
    window.location.assign('/buy-beer');
  }, []);
  const rememberCategory = useCallback(() => {
    if (gate.packagingId === null) return;
    const id = String(gate.packagingId);
    const name = gate.packagingName ?? '';
    setCookie(CATEGORY_MEMORY.previousId, id, GATE_MAX_AGE);
    setCookie(CATEGORY_MEMORY.previousName, name, GATE_MAX_AGE);
    setCookie(CATEGORY_MEMORY.originalId, id, GATE_MAX_AGE);
    setCookie(CATEGORY_MEMORY.originalName, name, GATE_MAX_AGE);
  }, [gate.packagingId, gate.packagingName]);
  const keepCategory = useCallback(() => {
    if (gate.packagingId !== null) {
      setCookie(COOKIE.category, String(gate.packagingId), GATE_MAX_AGE);
      setCookie(COOKIE.categoryName, gate.packagingName ?? '', GATE_MAX_AGE);
    }
    setGate((g) => ({ ...g, open: g.packagingId !== null && g.barangayId !== null ? null : g.open }));
  }, [gate.packagingId, gate.packagingName]);
  const api = useMemo(() => ({ gate, open, agree, chooseCategory, chooseLocation, rememberCategory, keepCategory }), [
    gate,
    open,
    agree,
    chooseCategory,
    chooseLocation,
    rememberCategory,
    keepCategory,
  ]);
  return <GateContext.Provider value={api}>{children}</GateContext.Provider>;
}

export function useGate(): GateApi {
  const g = useContext(GateContext);
  if (!g) throw new Error('useGate outside GateProvider');
  return g;
}
