// /my-account/go-to-cases: the member's Go-to Cases with their items at
// today's prices for the gate's barangay; rename, change quantities, remove items, delete (asked
// first), and Add to Cart for the current barangay. Every change is a form to this page (the
// route's actions) that works without JavaScript; Add to Cart posts to /cart.
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { calls, GOTO_CASE_CLIPPED, GOTO_CASE_MAX_NAME, MAX_QUANTITY, type Call, type GotoCaseView } from '../../api/contract.gen';
import { AccountPage } from '../../components/AccountPage';
import { DoneMessage, FormCall, usePageForm, useScopedForm, type Kept } from '../../components/form';
import { QueryState } from '../../components/QueryState';
import { RefillForm } from '../../components/RefillForm';
import { count } from '../cart';
import { useGate } from '../gate';
import { formatPhp } from '../../lib/money';
import { usePage, usePageParam } from '../../page';
import { gotoCasesQuery } from './queries';
import { added, created, deleteQuestion } from './rules';

export const GOTO_PATH = '/my-account/go-to-cases';

/** What the page says after a change (`done`), of the case it names (`case`). */
function doneText(done: string | null, c: GotoCaseView | undefined): string | null {
  switch (done) {
    case 'created':
      return c ? created(c.case_name, c.case_type) : null;
    case 'added':
      return c ? added(c.case_name, c.case_type) : null;
    case 'added-capped':
      return c ? `${added(c.case_name, c.case_type)}. ${GOTO_CASE_CLIPPED}` : null;
    case 'saved':
      return c ? `Your Go-to Case "${c.case_name}" is saved.` : 'Your Go-to Case is saved.';
    case 'removed':
      return c ? `Removed from your Go-to Case "${c.case_name}".` : null;
    case 'deleted':
      return 'Your Go-to Case has been deleted.';
    default:
      return null;
  }
}

export function GoToCasesPage() {
  const page = usePage();
  const cases = useQuery(gotoCasesQuery.options(page.vars));
  const done = usePageParam('done');
  const named = Number(usePageParam('case'));
  const text = doneText(done, cases.data?.data.find((c) => c.id === named));
  return (
    <AccountPage current={GOTO_PATH} id="cases" title="My Go-to Cases">
      <DoneMessage text={text} />
      <Orphan ids={cases.data?.data.map((c) => c.id)} />
      <Place />
      <QueryState
        query={cases}
        loading="Loading your Go-to Cases…"
        error="We could not load your Go-to Cases. Please reload the page."
        retry
        isEmpty={(d) => d.data.length === 0}
        empty={
          <>
            You have no Go-to Cases yet. Save a case from your cart as a Go-to Case to order it again in one step.{' '}
            <a className="button" href="/buy-beer">
              Buy Beer
            </a>
          </>
        }
      >
        {(d) => (
          <ul className="goto-list">
            {d.data.map((c) => (
              <GoToCaseCard key={c.id} c={c} />
            ))}
          </ul>
        )}
      </QueryState>
    </AccountPage>
  );
}

/**
 * A form posted without JavaScript that came back refused for a case the page no longer lists (it
 * was deleted in another tab) or naming none: its message, for the page.
 */
function Orphan({ ids }: { ids: number[] | undefined }) {
  const { form } = usePage();
  if (!form?.message || !ids) return null;
  const of = Number(/-(\d+)$/.exec(form.values.form ?? '')?.[1]);
  if (ids.includes(of)) return null;
  return (
    <p className="form-message error" role="alert">
      {form.message}
    </p>
  );
}

/** Where the cases are priced: the gate's place, with a way to change it. */
function Place() {
  const { gate, open } = useGate();
  const where = gate.barangayName && gate.cityName ? `${gate.barangayName}, ${gate.cityName}` : null;
  return (
    <p className="muted">
      {where ? <>Prices and availability for {where}. </> : <>Choose your location to see what you can buy there and to add a case to your cart. </>}
      <a
        href={`${GOTO_PATH}?gate=location`}
        onClick={(e) => {
          e.preventDefault();
          open('location');
        }}
      >
        {where ? 'Change location' : 'Choose your location'}
      </a>
    </p>
  );
}

/**
 * A form of this page that runs `call` for case `c`: posted without JavaScript it comes back with
 * its message when it failed (the page's posted form names the case); with JavaScript the page
 * reloads at the case on success, and on a failing link the change waits, kept on the device, to
 * be sent from whichever page is open (`keep`: what it is called meanwhile).
 */
function CaseForm({ id, call, keep, children, className }: { id: string; call: Call<unknown>; keep: Kept; children: ReactNode; className?: string }) {
  const [state, submit] = useScopedForm(id, { keep });
  const message = state.message;
  return (
    <form method="post" action={GOTO_PATH} className={className ?? 'inline-form'} onSubmit={submit}>
      <FormCall call={call} />
      <input type="hidden" name="form" value={id} />
      {children}
      {message && (
        <p className="form-message error" role="alert" id={`${id}-message`}>
          {message}
        </p>
      )}
    </form>
  );
}

type CaseItem = GotoCaseView['items'][number];

/** One item's row: the product, its price, its quantity's form, its total and Remove. */
function ItemRow({ c, i }: { c: GotoCaseView; i: CaseItem }) {
  return (
    <tr className={i.available ? undefined : 'unavailable'}>
      <th scope="row">
        <a href={`/single-product/${encodeURIComponent(i.slug)}`}>{i.product_name}</a>
        {!i.available && <span className="warning"> {i.unavailable_reason}</span>}
      </th>
      <td>
        {formatPhp(i.price)} / {c.unit_noun || 'unit'}
      </td>
      <td>
        <CaseForm id={`qty-${i.id}-${c.id}`} call={calls.updateGotoCase} keep={{ label: `Change the quantity of ${i.product_name} in ${c.case_name}` }}>
          <input type="hidden" name="case_id" value={c.id} />
          <input type="hidden" name="product_id" value={i.id} />
          <label className="visually-hidden" htmlFor={`goto-${c.id}-qty-${i.id}`}>
            Quantity of {i.product_name}
          </label>
          <input id={`goto-${c.id}-qty-${i.id}`} name="quantity" type="number" min={1} max={MAX_QUANTITY} required defaultValue={i.quantity} inputMode="numeric" />
          <button type="submit" className="secondary">
            Update<span className="visually-hidden"> {i.product_name}</span>
          </button>
        </CaseForm>
      </td>
      <td>{formatPhp(i.total_price)}</td>
      <td>
        <CaseForm id={`remove-${i.id}-${c.id}`} call={calls.removeGotoCaseItems} keep={{ label: `Remove ${i.product_name} from ${c.case_name}`, goneIsDone: true }}>
          <input type="hidden" name="case_id" value={c.id} />
          <input type="hidden" name="items" value={i.id} />
          <button type="submit" className="secondary">
            Remove<span className="visually-hidden"> {i.product_name}</span>
          </button>
        </CaseForm>
      </td>
    </tr>
  );
}

/** The case's items at today's prices, or what to do with an empty case. */
function CaseItems({ c }: { c: GotoCaseView }) {
  if (c.items.length === 0) return <p className="empty">This Go-to Case is empty. Save a case from your cart into it, or delete it.</p>;
  return (
    <table className="goto-items">
      <caption className="visually-hidden">Items of {c.case_name}</caption>
      <thead>
        <tr>
          <th scope="col">Product</th>
          <th scope="col">Price</th>
          <th scope="col">Quantity</th>
          <th scope="col">Total</th>
          <th scope="col">
            <span className="visually-hidden">Remove</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {c.items.map((i) => (
          <ItemRow key={i.id} c={c} i={i} />
        ))}
      </tbody>
    </table>
  );
}

/** Add to Cart for the gate's place, or why it cannot be (no location, nothing available there). */
function AddCaseToCart({ c }: { c: GotoCaseView }) {
  const page = usePage();
  const { gate } = useGate();
  const available = c.items.filter((i) => i.available).length;
  return (
    <>
      {page.vars.barangay && available > 0 ? (
        <RefillForm
          call={calls.gotoCaseToCart}
          fields={{ caseId: c.id, barangayId: page.vars.barangay, fulfillment: gate.fulfillmentId, street_id: gate.streetId }}
          label={
            <>
              Add to Cart<span className="visually-hidden"> {c.case_name}</span>
            </>
          }
        />
      ) : (
        <button type="button" disabled aria-describedby={`case-${c.id}-why`}>
          Add to Cart
        </button>
      )}
      {!(page.vars.barangay && available > 0) && (
        <span className="muted" id={`case-${c.id}-why`}>
          {page.vars.barangay ? 'Nothing in this case can be bought at your location now.' : 'Choose your location first.'}
        </span>
      )}
    </>
  );
}

/** Rename (a `<details>`): opens by itself when a rename came back refused, with what was typed. */
function RenameCase({ c }: { c: GotoCaseView }) {
  const renaming = usePageForm((v) => v.form === `rename-${c.id}`);
  return (
    <details className="confirm" open={renaming ? true : undefined}>
      <summary className="button secondary">
        Rename<span className="visually-hidden"> {c.case_name}</span>
      </summary>
      <CaseForm id={`rename-${c.id}`} call={calls.updateGotoCase} keep={{ label: `Rename the Go-to Case ${c.case_name}` }}>
        <input type="hidden" name="case_id" value={c.id} />
        <label htmlFor={`goto-${c.id}-name`}>New name</label>
        <input
          id={`goto-${c.id}-name`}
          name="name"
          maxLength={GOTO_CASE_MAX_NAME}
          required
          defaultValue={renaming?.values.name ?? c.case_name}
          aria-invalid={renaming?.errors.name ? true : undefined}
          aria-describedby={renaming ? `rename-${c.id}-message` : undefined}
        />
        <button type="submit">Save Name</button>
      </CaseForm>
    </details>
  );
}

/** Delete, asked first (a `<details>` with the question and Yes, delete). */
function DeleteCase({ c }: { c: GotoCaseView }) {
  return (
    <details className="confirm">
      <summary className="button secondary">
        Delete<span className="visually-hidden"> {c.case_name}</span>
      </summary>
      <p>{deleteQuestion(c.case_name)}</p>
      <CaseForm id={`delete-${c.id}`} call={calls.deleteGotoCase} keep={{ label: `Delete the Go-to Case ${c.case_name}`, goneIsDone: true }}>
        <input type="hidden" name="id" value={c.id} />
        <button type="submit" className="danger">
          Yes, delete
        </button>
      </CaseForm>
    </details>
  );
}

function GoToCaseCard({ c }: { c: GotoCaseView }) {
  const title = `case-${c.id}-title`;
  return (
    <li id={`case-${c.id}`} className="goto-case">
      <article aria-labelledby={title}>
        <h2 id={title}>{c.case_name}</h2>
        <p className="muted">
          {c.case_type} · {count(c.units, c.unit_noun || 'unit')} · {formatPhp(c.total)}
        </p>
        <CaseItems c={c} />
        <div className="goto-actions">
          <AddCaseToCart c={c} />
          <RenameCase c={c} />
          <DeleteCase c={c} />
        </div>
      </article>
    </li>
  );
}
