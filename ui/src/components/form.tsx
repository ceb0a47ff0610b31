// The account forms' shared parts. Every form is a real `<form method="post">` to its own page,
// with the session's CSRF token, so it works without JavaScript (the server answers 303, or the
// page again with the messages). With JavaScript the same form sends the JSON API call, shows the
// same messages in place, and cannot be sent twice while one is on its way.

import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { Call } from '../api/contract.gen';
import { send, type SendOptions, type Sent } from '../api/send';
import { searchParam, usePage } from '../page';

export interface FormState {
  busy: boolean;
  message: string | null;
  /** Whether the message reports success. */
  ok: boolean;
  errors: Record<string, string[]>;
  values: Record<string, string>;
}

/**
 * A form's state, starting from what the server sent back (no-JS), and its submit handler: `build`
 * turns the form's fields into the call (`null` to leave it to the browser), `done` runs on success.
 */
export function useAccountForm<A>(
  call: Call<A>,
  build: (fields: FormData) => SendOptions | null,
  done: (data: A, sent: Sent<A> & { ok: true }) => void,
  /** The message for a failure other than field errors or a rate limit (SPEC 8's registration text). */
  fallback?: string,
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
    const options = build(new FormData(e.currentTarget));
    if (!options) return;
    e.preventDefault();
    if (inFlight.current) return;
    inFlight.current = true;
    update({ busy: true, message: null, errors: {} });
    const sent = await send(call, { onSignedOut: () => window.location.assign('/login'), ...options });
    if (sent.ok) {
      // Every form leaves the page on success: the flag stays, so a late click sends nothing.
      update({ busy: false });
      done(sent.data, sent);
    } else {
      inFlight.current = false;
      const own = sent.status === 422 || sent.status === 429 || !fallback;
      update({ busy: false, ok: false, message: own ? sent.message : fallback, errors: sent.errors });
    }
  };
  return [state, submit, update];
}

/** The hidden CSRF field of the page's session. */
export function Csrf() {
  const { csrf } = usePage();
  return csrf ? <input type="hidden" name="csrf" value={csrf} /> : null;
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
  type?: 'text' | 'email' | 'password' | 'tel' | 'date';
  autoComplete?: string;
  defaultValue?: string;
  hint?: ReactNode;
  required?: boolean;
  inputMode?: 'numeric' | 'email' | 'tel';
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
  const done = searchParam(usePage().url, 'done');
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
