import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import type { CatalogProduct } from '../../api/contract.gen';
import { Photo } from '../../components/Photo';
import { QueryState } from '../../components/QueryState';
import { Csrf, DoneMessage, FormMessage, useAccountForm, useDone, type FormState } from '../../components/form';
import { usePage } from '../../page';
import { catalogQuery } from './queries';
import { StaffPage } from './StaffPage';

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
  const mine = sent.sku === undefined ? first && !remove : sent.sku === sku && (sent.remove !== undefined) === remove;
  return [fromPosted && !mine ? { ...state, message: null, errors: {} } : state, submit];
}

/**
 * One product's photo form: a file sent as it is (`multipart/form-data`) to the page's address,
 * with JavaScript or without; the server checks it (type from the content, bytes and pixels) and
 * answers its message beside this product.
 */
function PhotoForm({ product, first }: { product: CatalogProduct; first: boolean }) {
  const [state, submit] = useOwnForm(product.sku, false, first);
  const input = `photo-${product.anchor}`;
  const hint = `${input}-hint`;
  const error = `${input}-error`;
  const invalid = Boolean(state.errors.photo);
  return (
    <form method="post" action="/staff/catalog" encType="multipart/form-data" onSubmit={submit} className="inline-form">
      <Csrf />
      <input type="hidden" name="sku" value={product.sku} />
      <label htmlFor={input}>{`Photo of ${product.product_name}`}</label>
      <input
        id={input}
        type="file"
        name="photo"
        accept="image/jpeg,image/png,image/webp"
        aria-describedby={invalid ? `${hint} ${error}` : hint}
        aria-invalid={invalid ? true : undefined}
      />
      <span id={hint} className="muted">
        JPEG, PNG or WebP, up to 10 MB.
      </span>
      <button type="submit" disabled={state.busy}>
        {state.busy ? 'Uploading…' : 'Upload Photo'}
        <span className="visually-hidden">{` of ${product.product_name}`}</span>
      </button>
      <div id={error}>
        <FormMessage state={state} />
      </div>
    </form>
  );
}

function RemoveForm({ product }: { product: CatalogProduct }) {
  const [state, submit] = useOwnForm(product.sku, true, false, `Take the photo of ${product.product_name} away? Its drawing shows again.`);
  return (
    <form method="post" action="/staff/catalog" encType="multipart/form-data" onSubmit={submit} className="inline-form">
      <Csrf />
      <input type="hidden" name="sku" value={product.sku} />
      <input type="hidden" name="remove" value="true" />
      <button type="submit" className="secondary" disabled={state.busy}>
        Remove Photo<span className="visually-hidden">{` of ${product.product_name}`}</span>
      </button>
      <FormMessage state={state} />
    </form>
  );
}

function ProductRow({ product, first }: { product: CatalogProduct; first: boolean }) {
  return (
    <tr id={product.anchor}>
      <td>
        {product.photo ? (
          <Photo photo={product.photo} alt="" sizes="96px" className="catalog-thumb" />
        ) : product.product_image ? (
          <img src={product.product_image} alt="" width={96} height={96} className="catalog-thumb" loading="lazy" />
        ) : null}
      </td>
      <th scope="row">
        <a href={`/single-product/${encodeURIComponent(product.slug)}`}>{product.product_name}</a>
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

/** The catalog for managers: every product and its photo, a photo given or taken away. */
export function Catalog() {
  const catalog = useQuery(catalogQuery.options());
  const done = useDone({ photo: 'The photo is saved: the shop shows it within a second.', removed: 'The photo is taken away: the shop shows the drawing again.' });
  return (
    <StaffPage current="/staff/catalog" id="staff-catalog" title="Catalog">
      <DoneMessage text={done} />
      <QueryState query={catalog} loading="Loading the catalog…" error="We could not load the catalog. Please reload the page." retry>
        {(c) => (
          <table className="catalog">
            <caption>Every product and its picture</caption>
            <thead>
              <tr>
                <th scope="col">Picture</th>
                <th scope="col">Product</th>
                <th scope="col">Shown</th>
                <th scope="col">Photo</th>
              </tr>
            </thead>
            <tbody>
              {c.results.map((p, i) => (
                <ProductRow key={p.id} product={p} first={i === 0} />
              ))}
            </tbody>
          </table>
        )}
      </QueryState>
    </StaffPage>
  );
}
