// The page forms' shared parts. Every form is a real `<form method="post">` to an address of the
// store, naming its API call (`_call`) and carrying the session's CSRF token, so it works without
// JavaScript (the server answers 303, or the page again with the messages). With JavaScript the
// same fields are posted as they are with `Accept: application/json`: the server answers where to
// go, or the messages to show in place; a form cannot be sent twice while one is on its way.

import type { QueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { requestKey } from '../api/request-key';
import { NETWORK_FAILED } from '../api/send';
import { sendWrite, tell, type Answer, type Write } from '../api/waiting';
import type { Call } from '../api/contract.gen';
import type { PostedForm } from '../lib/render-input';
import { usePage, usePageParam } from '../page';

export interface FormState {
  busy: boolean;
  message: string | null;
  /** Whether the message reports success. */
  ok: boolean;
  errors: Record<string, string[]>;
  values: Record<string, string>;
}

/** What the server answers a form posted with JavaScript. */
type FormAnswer = { location: string } | { message: string; errors: Record<string, string[]> };

/**
 * Posts a form's fields as they are to its address and reads the answer (a form that sends files
 * as `multipart/form-data`); with the name and value of the button that sent it, as a browser
 * sends them without JavaScript (a form whose buttons say what to do).
 */
export async function postForm(form: HTMLFormElement, submitter?: HTMLElement | null): Promise<FormAnswer> {
  const fields = fieldsOf(form, submitter, form.enctype === 'multipart/form-data');
  let res: Response;
  try {
    res = await fetch(form.action, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
      body: fields,
    });
  } catch {
    return { message: NETWORK_FAILED, errors: {} };
  }
  return readFormAnswer(await res.text());
}

/** A form's fields as the browser posts them: urlencoded, or with its files (`multipart`). */
function fieldsOf(form: HTMLFormElement, submitter: HTMLElement | null | undefined, multipart: boolean): URLSearchParams | FormData {
  const fields = multipart ? new FormData(form) : new URLSearchParams();
  if (fields instanceof URLSearchParams) for (const [name, value] of new FormData(form)) if (typeof value === 'string') fields.append(name, value);
  if (submitter instanceof HTMLButtonElement && submitter.name) fields.append(submitter.name, submitter.value);
  return fields;
}

/** What a page form's change is called while it waits to be sent, and whether it removes. */
export interface Kept {
  /** What the shopper sees waiting: 'Rename Go-to Case: Friday'. */
  label: string;
  /** It removes something: a 404 means it is gone already, and ends it as done (`Write.goneIsDone`). */
  goneIsDone?: boolean;
}

/**
 * Posts a form whose change outlives the page on a failing link (a Go-to Case's quantity, name,
 * item or the case itself): its fields (urlencoded, with the button that sent it) are a write kept
 * on the device and sent again until the store answers, from whichever page is open
 * (api/waiting.ts); the answer, if it comes while the page is open, is the page's.
 */
async function postKept(form: HTMLFormElement, submitter: HTMLElement | null | undefined, kept: Kept): Promise<FormAnswer> {
  // A form with files is not kept (its files would not be): posted as any form.
  if (form.enctype === 'multipart/form-data') return postForm(form, submitter);
  const answer = await sendForm(form, submitter, kept, 'form');
  if (!answer) return { message: NETWORK_FAILED, errors: {} };
  // Gone already: the page is loaded again as it is now.
  if (answer.status === 404 && kept.goneIsDone) return { location: form.action };
  return readFormAnswer(answer.text);
}

/**
 * Sends a form's fields (urlencoded, with the button that sent it) as a write that outlives the
 * page (api/waiting.ts), of `kind`: its answer, or null when the shopper gave it up.
 */
export function sendForm(form: HTMLFormElement, submitter: HTMLElement | null | undefined, kept: Kept, kind: string): Promise<Answer | null> {
  return sendWrite({
    id: requestKey(),
    url: form.action,
    method: 'POST',
    body: fieldsOf(form, submitter, false).toString(),
    form: true,
    label: kept.label,
    kind,
    madeAt: Date.now(),
    ...(kept.goneIsDone ? { goneIsDone: true } : {}),
  });
}

/**
 * The answer of a page form's change that arrived after its page had gone (a refusal is told by the
 * writes' machinery): told done, with the page it leads to; what the page holds is asked for again.
 */
export function formAnswered(client: QueryClient, write: Write, answer: Answer): void {
  void client.invalidateQueries();
  const done = answer.status === 404 ? { location: write.url } : readFormAnswer(answer.text);
  if (!('location' in done)) return;
  if (toSignIn(done.location)) tell({ id: write.id, label: write.label, done: false, message: SIGNED_OUT, href: done.location });
  else tell({ id: write.id, label: write.label, done: true, message: '', href: done.location });
}

/** What a change that arrived after its session had ended is told. */
export const SIGNED_OUT = 'Your session had ended, so it was not made: sign in and make it again.';

/**
 * Whether a form's answer sends the shopper to sign in: the store's answer to a form of a session
 * that has ended (nothing was done).
 */
export function toSignIn(location: string): boolean {
  const path = new URL(location, 'http://store.invalid').pathname;
  return path === '/login' || path === '/staff/login';
}

/** Reads the server's answer to a form posted with JavaScript: where to go, or the messages. */
export function readFormAnswer(text: string): FormAnswer {
  try {
    const answer = JSON.parse(text) as Partial<{ location: string; message: string; errors: Record<string, string[]> }>;
    if (answer.location) return { location: answer.location };
    return { message: answer.message ?? text, errors: answer.errors ?? {} };
  } catch {
    // A refusal before the form was read (another site, too large) is plain text.
    return { message: text || 'Something went wrong on our side. Please try again.', errors: {} };
  }
}

/**
 * A form's state, starting from what the server sent back (no-JS), and its submit handler, which
 * posts the form's fields and goes where the server says; `confirm` asks first.
 */
export function useAccountForm(
  opts: { confirm?: string; keep?: Kept } = {},
): [FormState, (e: FormEvent<HTMLFormElement>) => Promise<void>, (s: Partial<FormState>) => void] {
  const page = usePage();
  const posted = page.form;
  const [state, setState] = useState<FormState>({
    busy: false,
    message: posted?.message || null,
    ok: false,
    errors: posted?.errors ?? {},
    values: posted?.values ?? {},
  });
  const update = (s: Partial<FormState>) => setState((old) => ({ ...old, ...s }));
  // A double click sends once: the flag is set before React renders the disabled button.
  const inFlight = useRef(false);
  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const submitter = (e.nativeEvent as SubmitEvent).submitter;
    if (inFlight.current) return;
    if (opts.confirm && !window.confirm(opts.confirm)) return;
    inFlight.current = true;
    update({ busy: true, message: null, errors: {} });
    const answer = opts.keep ? await postKept(form, submitter, opts.keep) : await postForm(form, submitter);
    if ('location' in answer) {
      // Every form leaves the page on success: the flag stays, so a late click sends nothing.
      update({ busy: false });
      goTo(answer.location);
    } else {
      inFlight.current = false;
      update({ busy: false, ok: false, message: answer.message, errors: answer.errors });
    }
  };
  return [state, submit, update];
}

/**
 * Goes where a form's answer says. The same address with a `#part` would only scroll (a fragment
 * navigation keeps the page as it was): the page is loaded again instead, at that part.
 */
function goTo(location: string) {
  const to = new URL(location, window.location.href);
  const here = window.location;
  if (to.hash && to.pathname === here.pathname && to.search === here.search) {
    here.hash = to.hash;
    here.reload();
  } else {
    here.assign(to.href);
  }
}

/** The hidden fields of a form that runs `call`: its name and the session's CSRF token. */
export function FormCall({ call }: { call: Call<unknown> }) {
  return (
    <>
      <input type="hidden" name="_call" value={call.name} />
      <Csrf />
    </>
  );
}

/**
 * The hidden CSRF field of the page's session. Empty for a visitor without one when the page was
 * made for everyone (its token a slot the server fills with nothing): the server's HTML has the
 * field, so the browser's render has it too.
 */
export function Csrf() {
  const { csrf } = usePage();
  return csrf != null ? <input type="hidden" name="csrf" value={csrf} /> : null;
}

export const CHECK_FIELDS = 'Please correct the fields marked below.';

/**
 * The form's message: an alert for a failure, a status for a success. When the failure belongs to
 * fields the form shows (`fields`), their own messages say it and this one points to them.
 */
export function FormMessage({ state, fields = [] }: { state: Pick<FormState, 'message' | 'ok' | 'errors'>; fields?: string[] }) {
  const marked = Object.keys(state.errors).some((k) => fields.includes(k));
  return (
    <p className={state.ok ? 'form-message' : 'form-message error'} role={state.ok ? 'status' : 'alert'}>
      {marked ? CHECK_FIELDS : (state.message ?? '')}
    </p>
  );
}

export function Field(props: {
  name: string;
  label: string;
  state: FormState;
  type?: 'text' | 'email' | 'password' | 'tel' | 'date' | 'number';
  autoComplete?: string;
  defaultValue?: string;
  hint?: ReactNode;
  required?: boolean;
  inputMode?: 'numeric' | 'decimal' | 'email' | 'tel';
  /** The input's id, when a page has two forms with the same field. */
  id?: string;
}) {
  const { name, label, state } = props;
  const id = props.id ?? `field-${name}`;
  const errors = state.errors[name] ?? [];
  const described = [props.hint ? `${id}-hint` : null, errors.length ? `${id}-error` : null].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {props.hint && (
        <p className="field-hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      )}
      <input
        id={id}
        name={name}
        type={props.type ?? 'text'}
        autoComplete={props.autoComplete}
        inputMode={props.inputMode}
        required={props.required}
        defaultValue={props.type === 'password' ? undefined : (state.values[name] ?? props.defaultValue)}
        aria-invalid={errors.length > 0 || undefined}
        aria-describedby={described || undefined}
      />
      {errors.length > 0 && (
        <p className="hint" id={`${id}-error`}>
          {errors.join(' ')}
        </p>
      )}
    </div>
  );
}

/** A page message named by the `done` query parameter after a form (no-JS and JS alike). */
export function useDone(messages: Record<string, string>): string | null {
  const done = usePageParam('done');
  return done ? (messages[done] ?? null) : null;
}

/** The page's message after a form (`useDone`), as a status; nothing without one. */
export function DoneMessage({ text }: { text: string | null }) {
  return text ? (
    <p className="form-message" role="status">
      {text}
    </p>
  ) : null;
}

/**
 * The form the server sent back without JavaScript (a failure), when it is this one: `match`
 * tells by what was typed (a page with one form per item names the item in a hidden field).
 */
export function usePageForm(match: (values: Record<string, string>) => boolean): PostedForm | null {
  const { form } = usePage();
  return form && match(form.values) ? form : null;
}

/**
 * One of several forms of a page that run the same call (a run's stops, a Go-to Case's items): posted without
 * JavaScript it comes back with its messages when it failed (the posted form names itself in the
 * hidden `form` field), and only it shows them; with JavaScript its own answer does.
 */
export function useScopedForm(id: string, opts: { confirm?: string; keep?: Kept } = {}): [FormState, (e: FormEvent<HTMLFormElement>) => void] {
  const posted = usePageForm((v) => v.form === id);
  const [state, submit] = useAccountForm(opts);
  const [mine, setMine] = useState(false);
  const shown: FormState = mine ? state : { ...state, message: posted?.message ?? null, errors: posted?.errors ?? {}, values: posted?.values ?? {} };
  return [
    shown,
    (e) => {
      setMine(true);
      void submit(e);
    },
  ];
}
