// "Download My Data": what the store holds about the member, behind the current password. The form
// posts to the page's address without JavaScript (api::accounts::my_data_form answers this page showing the
// data, or the JSON file from the Download button); with JavaScript it calls the API (`myData`)
// itself, shows the same and makes the same file in the browser.
import { useRef, useState, type FormEvent } from 'react';
import { calls, type MyData as Data, type OrderView } from '../../api/contract.gen';
import { send } from '../../api/send';
import { AccountPage } from '../../components/AccountPage';
import { Csrf, Field, FormMessage, type FormState } from '../../components/form';
import { formatPhp } from '../../lib/money';
import { usePage } from '../../page';

/** The file's name: the store's and the day it was made (`made_at`'s date). */
function fileName(data: Data): string {
  return `tala-my-data-${data.made_at.slice(0, 10)}.json`;
}

/** Saves the data as a JSON file, as the server's Download answer would. */
function saveFile(data: Data) {
  const blob = new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName(data);
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function Profile({ data }: { data: Data }) {
  const p = data.profile;
  const rows: [string, string][] = [
    ['Name', `${p.first_name} ${p.last_name}`],
    ['Email address', p.email],
    ['Mobile number', p.mobile],
    ['Birth date', p.birth_date],
    ['Website policy', p.policy_agreement_accepted ? 'Accepted' : 'Not accepted'],
    ['Password', p.password_set ? 'Chosen by you (we keep only a one-way hash of it)' : 'None chosen yet (made through a social login)'],
    ['Account made', p.created_at],
  ];
  return (
    <section aria-labelledby="data-profile">
      <h3 id="data-profile">Profile</h3>
      <dl className="data-list">
        {rows.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

function Addresses({ data }: { data: Data }) {
  return (
    <section aria-labelledby="data-addresses">
      <h3 id="data-addresses">Saved addresses ({data.addresses.length})</h3>
      {data.addresses.length === 0 ? (
        <p>None.</p>
      ) : (
        <ul>
          {data.addresses.map((a) => (
            <li key={a.id}>{[a.address, a.street_name, a.barangay_name, a.city_name, a.province_name].filter(Boolean).join(', ')}</li>
          ))}
        </ul>
      )}
    </section>
  );
}

function Order({ o }: { o: OrderView }) {
  return (
    <article className="data-order" aria-labelledby={`data-order-${o.id}`}>
      <h4 id={`data-order-${o.id}`}>
        Order {o.number}: {o.status_label}
      </h4>
      <p>
        Placed {o.placed_at} · {o.fulfillment} · {o.payment}
      </p>
      <p>
        Contact: {o.contact_name}, {o.mobile}, {o.email}
        <br />
        Address: {[o.address, o.place].filter(Boolean).join(', ')}
        {o.notes && (
          <>
            <br />
            Notes: {o.notes}
          </>
        )}
      </p>
      <ul>
        {o.items.map((i) => (
          <li key={`${i.product_id}-${i.case_name}`}>
            {i.quantity} × {i.product_name} ({i.case_name}): {formatPhp(i.amount)}
          </li>
        ))}
        {o.deposits.map((d) => (
          <li key={d.name}>
            {d.name}: {formatPhp(d.amount)}
          </li>
        ))}
      </ul>
      <p>
        Items {formatPhp(o.items_total)} · Deposits {formatPhp(o.deposits_total)} · Delivery {formatPhp(o.delivery_fee)} · Total <strong>{formatPhp(o.total)}</strong>
      </p>
      <p>History: {o.history.map((h) => `${h.label} ${h.at}${h.note ? ` (${h.note})` : ''}`).join('; ')}</p>
    </article>
  );
}

function Orders({ data }: { data: Data }) {
  return (
    <section aria-labelledby="data-orders">
      <h3 id="data-orders">Orders ({data.orders.length})</h3>
      {data.orders.length === 0 ? <p>None.</p> : data.orders.map((o) => <Order key={o.id} o={o} />)}
    </section>
  );
}

function GotoCases({ data }: { data: Data }) {
  return (
    <section aria-labelledby="data-cases">
      <h3 id="data-cases">Go-to Cases ({data.goto_cases.length})</h3>
      {data.goto_cases.length === 0 ? (
        <p>None.</p>
      ) : (
        <ul>
          {data.goto_cases.map((c) => (
            <li key={c.id}>
              {c.case_name} ({c.case_type}): {c.items.map((i) => `${i.quantity} × ${i.product_name}`).join(', ') || 'empty'}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const NEWSLETTER: Record<string, string> = {
  subscribed: 'Subscribed',
  waiting: 'Signed up, waiting for you to follow the confirmation link',
  'not subscribed': 'Not subscribed',
};

function NewsletterAndSessions({ data }: { data: Data }) {
  const n = data.newsletter;
  return (
    <>
      <section aria-labelledby="data-newsletter">
        <h3 id="data-newsletter">Newsletter</h3>
        <p>
          {NEWSLETTER[n.status] ?? n.status}
          {n.signed_up_at && `; signed up ${n.signed_up_at}`}
          {n.confirmed_at && `, confirmed ${n.confirmed_at}`}.
        </p>
      </section>
      <section aria-labelledby="data-sessions">
        <h3 id="data-sessions">Logged-in sessions ({data.sessions.length})</h3>
        <table>
          <caption>Each device or browser logged in to your account (Manila time)</caption>
          <thead>
            <tr>
              <th scope="col">Began</th>
              <th scope="col">Last used (to the half hour)</th>
              <th scope="col">Ends unless used</th>
            </tr>
          </thead>
          <tbody>
            {data.sessions.map((s, i) => (
              <tr key={i}>
                <td>
                  {s.began_at}
                  {s.this_session && ' (this one)'}
                </td>
                <td>{s.last_used_at}</td>
                <td>{s.expires_at}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}

/** The member's data, to read. */
function DataView({ data }: { data: Data }) {
  return (
    <section className="my-data" aria-labelledby="data-title">
      <h2 id="data-title">Your data as of {data.made_at}</h2>
      <Profile data={data} />
      <Addresses data={data} />
      <Orders data={data} />
      <GotoCases data={data} />
      <NewsletterAndSessions data={data} />
    </section>
  );
}

const EMPTY: FormState = { busy: false, message: null, ok: false, errors: {}, values: {} };

/** The form's submit with JavaScript: the API's call, then the data shown or saved as a file. */
function useDataForm(first: Data | null): [FormState, Data | null, (e: FormEvent<HTMLFormElement>) => Promise<void>] {
  const posted = usePage().form;
  const [state, setState] = useState<FormState>({ ...EMPTY, message: posted?.message || null, errors: posted?.errors ?? {} });
  const [data, setData] = useState<Data | null>(first);
  const inFlight = useRef(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (inFlight.current) return;
    const form = e.currentTarget;
    const asFile = (e.nativeEvent as SubmitEvent).submitter?.getAttribute('value') === 'json';
    const password = new FormData(form).get('current_password');
    inFlight.current = true;
    setState({ ...EMPTY, busy: true });
    const sent = await send(calls.myData, { body: { current_password: typeof password === 'string' ? password : '' } });
    inFlight.current = false;
    if (!sent.ok) {
      setState({ ...EMPTY, message: sent.message, errors: sent.errors });
      return;
    }
    setState(EMPTY);
    setData(sent.data);
    if (asFile) saveFile(sent.data);
  };
  return [state, data, submit];
}

export function MyData() {
  const posted = usePage().form;
  const [state, data, submit] = useDataForm((posted?.answer as Data | undefined) ?? null);
  return (
    <AccountPage current="/my-account/my-data" id="my-data" title="Download My Data">
      <p>
        See everything Tala Brewing Co. holds about you: your profile, saved addresses, orders, Go-to Cases, newsletter signup and the devices
        logged in to your account. Enter your password to show it here or to download it as a JSON file.
      </p>
      <form method="post" action="/my-account/my-data" onSubmit={submit} noValidate>
        <Csrf />
        <Field name="current_password" label="Current password" type="password" autoComplete="current-password" state={state} required />
        <FormMessage state={state} fields={['current_password']} />
        <div className="form-buttons">
          <button type="submit" name="format" value="page" disabled={state.busy}>
            Show My Data
          </button>
          <button type="submit" name="format" value="json" className="secondary" disabled={state.busy}>
            Download as a JSON File
          </button>
        </div>
      </form>
      {data && <DataView data={data} />}
    </AccountPage>
  );
}
