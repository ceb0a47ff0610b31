import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { calls, type CatalogProduct, type CityChoice } from '../../../api/contract.gen';
import { Photo } from '../../../components/Photo';
import { QueryState } from '../../../components/QueryState';
import { DoneMessage, FormCall, FormMessage, useAccountForm, useDone, useScopedForm, type FormState } from '../../../components/form';
import { usePage } from '../../../page';
import { PhotoRemove, PhotoUpload, removeQuestion } from '../Photos';
import { CityBoxes } from './Product';
import { catalogQuery, servedCitiesQuery } from '../queries';
import { FieldErrors } from '../StaffForm';
import { StaffPage } from '../StaffPage';

/** The form that sells the ticked products in more cities, or fewer (its boxes sit in the rows). */
const CITIES_FORM = 'cities';

/**
 * The form's state as this form shows it. The page sent back after a refused post (without
 * JavaScript) carries one posted state that every form starts from: only the form it was sent
 * by shows it (by its product and kind; a body that could not be read, in the first row). What a
 * form is told after its own click (with JavaScript) is its own.
 */
function useOwnForm(sku: string, remove: boolean, first: boolean, confirm?: string): [FormState, (e: FormEvent<HTMLFormElement>) => Promise<void>] {
  const posted = usePage().form;
  const [state, submit] = useAccountForm(confirm ? { confirm } : {});
  const fromPosted = posted != null && state.errors === posted.errors;
  const sent = posted?.values ?? {};
  const mine = sent.form === CITIES_FORM ? false : sent.sku === undefined ? first && !remove : sent.sku === sku && (sent.remove !== undefined) === remove;
  return [fromPosted && !mine ? { ...state, message: null, errors: {} } : state, submit];
}

function PhotoForm({ product, first }: { product: CatalogProduct; first: boolean }) {
  const [state, submit] = useOwnForm(product.sku, false, first);
  return <PhotoUpload action="/staff/catalog" id={`photo-${product.anchor}`} name={product.product_name} hidden={{ sku: product.sku }} state={state} submit={submit} />;
}

function RemoveForm({ product }: { product: CatalogProduct }) {
  const [state, submit] = useOwnForm(product.sku, true, false, removeQuestion(product.product_name, 'Its drawing shows'));
  return <PhotoRemove action="/staff/catalog" name={product.product_name} hidden={{ sku: product.sku }} state={state} submit={submit} />;
}

function ProductRow({ product, first, ticked }: { product: CatalogProduct; first: boolean; ticked: boolean }) {
  return (
    <tr id={product.anchor}>
      <td>
        <input type="checkbox" name="products" value={String(product.id)} form={CITIES_FORM} defaultChecked={ticked} aria-label={`Choose ${product.product_name}`} />
      </td>
      <td>
        {product.photo ? (
          <Photo photo={product.photo} alt="" sizes="96px" className="catalog-thumb" />
        ) : product.product_image ? (
          <img src={product.product_image} alt="" width={96} height={96} className="catalog-thumb" loading="lazy" />
        ) : null}
      </td>
      <th scope="row">
        <a href={`/staff/catalog/products/${product.id}`}>{product.product_name}</a>
        <span className="muted"> · {product.sku}</span>
        {!product.orderable && <span className="badge">Out Of Stock</span>}
      </th>
      <td>{product.photo ? `Photo, ${product.photo.width} x ${product.photo.height} px` : 'Drawing'}</td>
      <td>
        <PhotoForm product={product} first={first} />
        {product.photo && <RemoveForm product={product} />}
      </td>
    </tr>
  );
}

/**
 * Sells the products ticked in the table in more cities, or fewer: the next page lists every change
 * before it is saved.
 */
function CitiesForm({ choices, state, submit }: { choices: CityChoice[]; state: FormState; submit: (e: FormEvent<HTMLFormElement>) => void }) {
  const how = state.values.how ?? 'add';
  return (
    <form id={CITIES_FORM} method="post" action="/staff/catalog" onSubmit={submit} noValidate aria-labelledby="cities-title">
      <h2 id="cities-title">Sold in these cities</h2>
      <p>Tick products in the table above, then the cities, and see every change before it is saved.</p>
      <FormCall call={calls.staffCitiesSave} />
      <input type="hidden" name="form" value={CITIES_FORM} />
      <FieldErrors state={state} name="products" id="products-error" />
      <fieldset>
        <legend>Change</legend>
        <label className="check">
          <input type="radio" name="how" value="add" defaultChecked={how === 'add'} /> Sell them in these cities too
        </label>
        <label className="check">
          <input type="radio" name="how" value="remove" defaultChecked={how === 'remove'} /> Stop selling them in these cities
        </label>
      </fieldset>
      <CityBoxes choices={choices} chosen={[]} state={state} legend="Cities" />
      <FormMessage state={state} fields={['products', 'cities']} />
      <button type="submit" disabled={state.busy}>
        Show the Changes
      </button>
    </form>
  );
}

/** The catalog for managers: every product (its own page to edit it), its photo, and the cities many are sold in. */
export function Catalog() {
  const catalog = useQuery(catalogQuery.options());
  const cities = useQuery(servedCitiesQuery.options());
  const [citiesState, citiesSubmit] = useScopedForm(CITIES_FORM);
  const tickedProducts = citiesState.values.products?.split(',') ?? [];
  const done = useDone({
    photo: 'The photo is saved: the shop shows it within a second.',
    removed: 'The photo is taken away: the shop shows the drawing again.',
    cities: 'Saved: the shop shows the products in their cities within a second.',
    imported: 'Imported: the shop shows the catalog file within a second.',
  });
  return (
    <StaffPage current="/staff/catalog" id="staff-catalog" title="Catalog">
      <DoneMessage text={done} />
      <p>
        <a href="/staff/catalog/banners">Banners and their days</a> · <a href="/staff/catalog/promos">Promos and their days</a> · <a href="/staff/catalog/charges">Deposits and delivery fees</a> · <a href="/staff/catalog/calendar">Holidays and notices</a> · <a href="/staff/catalog/import">Export or import the catalog file</a> (prices, cities, deposits, delivery fees, banners and promos at once)
      </p>
      <QueryState query={catalog} loading="Loading the catalog…" error="We could not load the catalog. Please reload the page." retry>
        {(c) => (
          <table className="catalog">
            <caption>Every product and its picture</caption>
            <thead>
              <tr>
                <th scope="col">Choose</th>
                <th scope="col">Picture</th>
                <th scope="col">Product</th>
                <th scope="col">Shown</th>
                <th scope="col">Photo</th>
              </tr>
            </thead>
            <tbody>
              {c.results.map((p, i) => (
                <ProductRow key={p.id} product={p} first={i === 0} ticked={tickedProducts.includes(String(p.id))} />
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
      {cities.data && <CitiesForm choices={cities.data.results} state={citiesState} submit={citiesSubmit} />}
    </StaffPage>
  );
}
