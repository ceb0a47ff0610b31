import { useQuery } from '@tanstack/react-query';
import { calls, type CityChoice, type ProductEdit as Product } from '../../../api/contract.gen';
import { QueryState } from '../../../components/QueryState';
import { DoneMessage, Field, FormCall, FormMessage, useAccountForm, useDone, type FormState } from '../../../components/form';
import { formatPhp } from '../../../lib/money';
import { usePage } from '../../../page';
import { productQuery } from '../queries';
import { FieldErrors, TextArea } from '../StaffForm';
import { StaffPage } from '../StaffPage';

/** The served cities by province, each a box (`cities`), ticked where the product is sold. */
export function CityBoxes({ choices, chosen, state, form, legend }: { choices: CityChoice[]; chosen: number[]; state: FormState; form?: string; legend: string }) {
  const provinces = [...new Set(choices.map((c) => c.province))];
  const posted = state.values.cities?.split(',');
  const ticked = (id: number) => (posted ? posted.includes(String(id)) : chosen.includes(id));
  return (
    <fieldset className="city-boxes" aria-describedby={state.errors.cities ? 'cities-error' : undefined}>
      <legend>{legend}</legend>
      {provinces.map((p) => (
        <fieldset key={p}>
          <legend>{p}</legend>
          {choices
            .filter((c) => c.province === p)
            .map((c) => (
              <label key={c.id} className="check">
                <input type="checkbox" name="cities" value={String(c.id)} defaultChecked={ticked(c.id)} form={form} /> {c.name}
              </label>
            ))}
        </fieldset>
      ))}
      <FieldErrors state={state} name="cities" id="cities-error" />
    </fieldset>
  );
}

function ProductForm({ p }: { p: Product }) {
  const [state, submit] = useAccountForm();
  const v = state.values;
  const everywhere = (v.sold ?? (p.every_city ? 'everywhere' : 'these_cities')) === 'everywhere';
  const inStock = (v.orderable ?? String(p.orderable)) === 'true';
  return (
    <form method="post" action={`/staff/catalog/products/${p.id}`} onSubmit={submit} noValidate aria-labelledby="product-form-title">
      <h2 id="product-form-title">{`${p.product_name} · ${p.sku}`}</h2>
      <FormCall call={calls.staffProductSave} />
      <input type="hidden" name="productId" value={String(p.id)} />
      <input type="hidden" name="whole" value="true" />
      <input type="hidden" name="version" value={v.version ?? p.version} />
      <Field name="product_name" label="Name" state={state} defaultValue={p.product_name} required />
      <TextArea id="field-description" name="description" label="Description" state={state} defaultValue={p.description} rows={5} />
      <Field name="price" label="Price per unit (pesos)" state={state} defaultValue={formatPhp(p.price)} inputMode="decimal" required />
      <Field name="price_per_case" label={`Price per case of ${p.unit_per_case} (pesos)`} state={state} defaultValue={formatPhp(p.price_per_case)} inputMode="decimal" required />
      <fieldset>
        <legend>Stock</legend>
        <label className="check">
          <input type="radio" name="orderable" value="true" defaultChecked={inStock} /> In stock
        </label>
        <label className="check">
          <input type="radio" name="orderable" value="false" defaultChecked={!inStock} /> Out of stock (the shop shows Out Of Stock)
        </label>
      </fieldset>
      <fieldset>
        <legend>Sold in</legend>
        <label className="check">
          <input type="radio" name="sold" value="everywhere" defaultChecked={everywhere} /> Every city the store serves
        </label>
        <label className="check">
          <input type="radio" name="sold" value="these_cities" defaultChecked={!everywhere} /> Only the cities ticked below
        </label>
      </fieldset>
      <CityBoxes choices={p.choices} chosen={p.cities} state={state} legend="Cities (with “Only the cities ticked below”)" />
      <FormMessage state={state} fields={['product_name', 'description', 'price', 'price_per_case', 'orderable', 'cities']} />
      <button type="submit" disabled={state.busy}>
        {state.busy ? 'Saving…' : 'Save Product'}
      </button>
    </form>
  );
}

/** One product for managers: its name, description, prices, stock and cities, checked as the catalog import checks them. */
export function ProductEdit() {
  const product = useQuery(productQuery.options(usePage().vars));
  const done = useDone({ saved: 'Saved: the shop shows it within a second.' });
  return (
    <StaffPage current="/staff/catalog" id="staff-product" title="Product">
      <DoneMessage text={done} />
      <QueryState query={product} loading="Loading the product…" error="We could not load the product. Please reload the page." retry>
        {(p) => (
          <>
            <p>
              <a href={`/staff/catalog#${p.anchor}`}>Back to the catalog</a> · <a href={`/single-product/${encodeURIComponent(p.slug)}`}>Its page in the shop</a>
            </p>
            <ProductForm p={p} />
          </>
        )}
      </QueryState>
    </StaffPage>
  );
}
