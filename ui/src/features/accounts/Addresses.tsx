import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { calls, DEFAULT_FULFILLMENT, DEFAULT_PROVINCE, type AddressView } from '../../api/contract.gen';
import { send } from '../../api/send';
import { QueryState } from '../../components/QueryState';
import { num, Select } from '../../components/Select';
import type { Vars } from '../../lib/keys';
import { useHydrated, usePage } from '../../page';
import { gateQueries } from '../gates/queries';
import { addressLine, choiceOf } from '../../lib/address';
import { useGate } from '../../lib/gate';
import { AccountNav } from './AccountNav';
import { Csrf, Field, FormMessage, useAccountForm, useDone } from '../../components/form';
import { addressesQuery } from './queries';

function FieldError({ id, errors }: { id: string; errors?: string[] }) {
  return errors?.length ? (
    <p className="hint" id={id} role="alert">
      {errors.join(' ')}
    </p>
  ) : null;
}

/**
 * A new address: province, city and barangay lists (without JS a GET form steps through them, the
 * page coming back with the next list), then the street where the barangay has streets, and the
 * line a rider reads.
 */
export function AddressForm({ action, onSaved }: { action: string; onSaved: (a: AddressView) => void }) {
  const page = usePage();
  const v = page.vars;
  const hydrated = useHydrated();
  const [province, setProvince] = useState<number | null>(num(v.gateProvince) ?? DEFAULT_PROVINCE);
  const [city, setCity] = useState<number | null>(num(v.gateCity));
  const [barangay, setBarangay] = useState<number | null>(num(v.gateBarangay));
  const [street, setStreet] = useState<number | null>(num(page.form?.values.street_id));
  const vars: Vars = {
    gateFulfillment: String(DEFAULT_FULFILLMENT),
    gateProvince: province ? String(province) : undefined,
    gateCity: city ? String(city) : undefined,
    gateBarangay: barangay ? String(barangay) : undefined,
  };
  const provinces = useQuery(gateQueries.provinces.options());
  const cities = useQuery({ ...gateQueries.cities.options(vars), enabled: province !== null });
  const barangays = useQuery(gateQueries.barangays.options(vars));
  const streets = useQuery(gateQueries.streets.options(vars));
  const needsStreet = (streets.data?.results.length ?? 0) > 0;
  const [state, submit] = useAccountForm(
    calls.createAddress,
    (f) => ({ body: { address: f.get('address'), barangay_id: barangay, street_id: needsStreet ? street : null } }),
    onSaved,
  );
  return (
    <div className="address-form">
      <form method="get" action={action} aria-label="Where the address is">
        <Select
          prefix="address"
          name="province"
          label="Province"
          empty="No Province available"
          items={provinces.data?.results}
          loading={provinces.isPending}
          value={province}
          id={(p) => p.id}
          text={(p) => p.province_name}
          onChange={(p) => {
            setProvince(p);
            setCity(null);
            setBarangay(null);
            setStreet(null);
          }}
        />
        <Select
          prefix="address"
          name="city"
          label="City"
          empty="No Cities available"
          items={cities.data?.results.locations}
          loading={cities.isPending && province !== null}
          value={city}
          id={(c) => c.city_id}
          text={(c) => c.city_name}
          disabled={province === null}
          onChange={(c) => {
            setCity(c);
            setBarangay(null);
            setStreet(null);
          }}
        />
        <Select
          prefix="address"
          name="barangay"
          label="Barangay"
          empty="No barangay available"
          items={barangays.data?.results}
          loading={barangays.isFetching}
          value={barangay}
          id={(b) => b.id}
          text={(b) => b.barangay_name}
          disabled={city === null}
          onChange={(b) => {
            setBarangay(b);
            setStreet(null);
          }}
        />
        <FieldError id="field-barangay_id-error" errors={state.errors.barangay_id} />
        {!hydrated && (
          <button type="submit" className="secondary">
            Show the next list
          </button>
        )}
      </form>
      <form method="post" action={page.url} onSubmit={submit} noValidate aria-label="New address">
        <Csrf />
        <input type="hidden" name="action" value="create" />
        <input type="hidden" name="barangay_id" value={barangay ?? ''} />
        {needsStreet && (
          <Select
            prefix="address"
            name="street_id"
            label="Street"
            empty="No street available"
            items={streets.data?.results}
            loading={false}
            value={street}
            id={(s) => s.id}
            text={(s) => s.street_name}
            onChange={setStreet}
          />
        )}
        <FieldError id="field-street_id-error" errors={state.errors.street_id} />
        <Field
          name="address"
          label="House or unit number, building and street"
          autoComplete="street-address"
          state={state}
          required
        />
        <FormMessage state={state} fields={['address', 'barangay_id', 'street_id']} />
        <button type="submit" disabled={state.busy}>
          Save Address
        </button>
      </form>
    </div>
  );
}

function SavedAddress({ a }: { a: AddressView }) {
  const [state, submit] = useAccountForm(
    calls.updateAddress,
    (f) => ({ path: { addressId: String(a.id) }, body: { address: f.get('address'), barangay_id: a.barangay_id, street_id: a.street_id } }),
    () => window.location.assign('/my-account/addresses?done=saved'),
  );
  const [removing, setRemoving] = useState<string | null>(null);
  const line = addressLine(a);
  return (
    <li className="saved-address">
      <p>{line}</p>
      <details>
        <summary>Edit</summary>
        <form method="post" action="/my-account/addresses" onSubmit={submit} noValidate aria-label={`Edit ${line}`}>
          <Csrf />
          <input type="hidden" name="action" value="update" />
          <input type="hidden" name="id" value={a.id} />
          <input type="hidden" name="barangay_id" value={a.barangay_id} />
          {a.street_id !== null && <input type="hidden" name="street_id" value={a.street_id} />}
          <Field
            id={`address-${a.id}`}
            name="address"
            label="House or unit number, building and street"
            defaultValue={a.address}
            state={state}
            required
          />
          <FormMessage state={state} fields={['address']} />
          <button type="submit" disabled={state.busy}>
            Save Address
          </button>
        </form>
      </details>
      <form
        method="post"
        action="/my-account/addresses"
        onSubmit={async (e) => {
          e.preventDefault();
          // SPEC 9's confirmation.
          if (!window.confirm(`Are you sure you want to delete ${line}?`)) return;
          setRemoving('');
          const r = await send(calls.deleteAddress, { path: { addressId: String(a.id) } });
          if (r.ok) window.location.assign('/my-account/addresses?done=deleted');
          else setRemoving(r.message);
        }}
      >
        <Csrf />
        <input type="hidden" name="action" value="delete" />
        <input type="hidden" name="id" value={a.id} />
        <button type="submit" className="secondary" disabled={removing === ''} aria-label={`Delete ${line}`}>
          Delete
        </button>
        {removing && (
          <p className="form-message error" role="alert">
            {removing}
          </p>
        )}
      </form>
    </li>
  );
}

export function Addresses() {
  const addresses = useQuery(addressesQuery.options());
  const done = useDone({
    added: 'Your address has been saved.',
    saved: 'Your address has been saved.',
    deleted: 'The address has been deleted.',
  });
  return (
    <div className="account-layout">
      <AccountNav current="/my-account/addresses" />
      <section className="account-page" aria-labelledby="addresses-title">
        <h1 id="addresses-title">My Addresses</h1>
        {done && (
          <p className="form-message" role="status">
            {done}
          </p>
        )}
        <QueryState
          query={addresses}
          loading="Loading your addresses…"
          error="We could not load your addresses. Please reload the page."
          retry
          empty="You have no saved addresses yet."
          isEmpty={(d) => d.results.length === 0}
        >
          {(d) => (
            <ul className="addresses">
              {d.results.map((a) => (
                <SavedAddress key={a.id} a={a} />
              ))}
            </ul>
          )}
        </QueryState>
        <h2>Add an Address</h2>
        <AddressForm action="/my-account/addresses" onSaved={() => window.location.assign('/my-account/addresses?done=added')} />
      </section>
    </div>
  );
}

/** /setup-address: the first address after registration (members only). */
export function SetupAddress() {
  const { chooseLocation } = useGate();
  const done = useDone({ welcome: 'Welcome to Tala Brewing Co.! Your account is ready.' });
  return (
    <section className="account-page" aria-labelledby="setup-title">
      <h1 id="setup-title">Where Should We Deliver?</h1>
      {done && (
        <p className="form-message" role="status">
          {done}
        </p>
      )}
      <p>Save your delivery address now and choose it in one tap when you order.</p>
      {/* The first address becomes the shop's location, as USE THIS ADDRESS does. */}
      <AddressForm
        action="/setup-address"
        onSaved={(a) => chooseLocation(choiceOf(a))}
      />
      <p>
        <a href="/buy-beer">Skip for now</a>
      </p>
    </section>
  );
}
