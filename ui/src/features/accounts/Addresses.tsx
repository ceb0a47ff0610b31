import { useQuery } from '@tanstack/react-query';
import { calls, DEFAULT_FULFILLMENT, type AddressView } from '../../api/contract.gen';
import { QueryState } from '../../components/QueryState';
import { AreaSelects, StreetSelect, useAddressPicker } from '../gate';
import { num } from '../../components/Select';
import { useHydrated, usePage } from '../../page';
import { addressLine } from './address';
import { AccountPage } from '../../components/AccountPage';
import { DoneMessage, Field, FormCall, FormMessage, useAccountForm, useDone } from '../../components/form';
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
export function AddressForm({ action }: { action: string }) {
  const page = usePage();
  const hydrated = useHydrated();
  const picker = useAddressPicker({ fulfillment: DEFAULT_FULFILLMENT, street: num(page.form?.values.street_id) });
  const { barangay } = picker;
  const [state, submit] = useAccountForm();
  return (
    <div className="address-form">
      <form method="get" action={action} aria-label="Where the address is">
        <AreaSelects picker={picker} prefix="address" />
        <FieldError id="field-barangay_id-error" errors={state.errors.barangay_id} />
        {!hydrated && (
          <button type="submit" className="secondary">
            Show the next list
          </button>
        )}
      </form>
      <form method="post" action={page.url} onSubmit={submit} noValidate aria-label="New address">
        <FormCall call={calls.createAddress} />
        <input type="hidden" name="barangay_id" value={barangay ?? ''} />
        <StreetSelect picker={picker} prefix="address" name="street_id" />
        <FieldError id="field-street_id-error" errors={state.errors.street_id} />
        <Field
          name="address"
          label="House or unit number, building and street"
          autoComplete="address-line1"
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
  const [state, submit] = useAccountForm();
  const line = addressLine(a);
  // Deleting an address asks first.
  const [removing, remove] = useAccountForm({ confirm: `Are you sure you want to delete ${line}?` });
  return (
    <li className="saved-address">
      <p>{line}</p>
      <details>
        <summary>Edit</summary>
        <form method="post" action="/my-account/addresses" onSubmit={submit} noValidate aria-label={`Edit ${line}`}>
          <FormCall call={calls.updateAddress} />
          <input type="hidden" name="addressId" value={a.id} />
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
      <form method="post" action="/my-account/addresses" onSubmit={remove}>
        <FormCall call={calls.deleteAddress} />
        <input type="hidden" name="addressId" value={a.id} />
        <button type="submit" className="secondary" disabled={removing.busy} aria-label={`Delete ${line}`}>
          Delete
        </button>
        {removing.message && (
          <p className="form-message error" role="alert">
            {removing.message}
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
    <AccountPage current="/my-account/addresses" id="addresses" title="My Addresses">
      <DoneMessage text={done} />
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
      <AddressForm action="/my-account/addresses" />
    </AccountPage>
  );
}

/** /setup-address: the first address after registration (members only). */
export function SetupAddress() {
  const done = useDone({ welcome: 'Welcome to Tala Brewing Co.! Your account is ready.' });
  return (
    <section className="account-page" aria-labelledby="setup-title">
      <h1 id="setup-title">Where Should We Deliver?</h1>
      <DoneMessage text={done} />
      <p>Save your delivery address now and choose it in one tap when you order.</p>
      {/* The first address becomes the shop's location, as USE THIS ADDRESS does (the server sets it). */}
      <AddressForm action="/setup-address" />
      <p>
        <a href="/buy-beer">Skip for now</a>
      </p>
    </section>
  );
}
