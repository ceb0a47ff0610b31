import type { ReactNode } from 'react';
import type { Call } from '../../api/contract.gen';
import { FormCall, FormMessage, useScopedForm, type FormState } from '../../components/form';

/** A staff form of `call` posted to `action`, scoped by `id` ([`useScopedForm`]); `confirm` asks first (with JavaScript). */
export function StaffForm({ id, call, action, fields = [], className, confirm, children }: { id: string; call: Call<unknown>; action: string; fields?: string[]; className?: string; confirm?: string; children: (state: FormState) => ReactNode }) {
  const [state, submit] = useScopedForm(id, confirm ? { confirm } : {});
  return (
    <form method="post" action={action} onSubmit={submit} noValidate className={className} aria-label={undefined}>
      <FormCall call={call} />
      <input type="hidden" name="form" value={id} />
      {children(state)}
      <FormMessage state={state} fields={fields} />
    </form>
  );
}

/** A field's messages under a control that is not a text field (a select, a list of boxes). */
export function FieldErrors({ state, name, id }: { state: FormState; name: string; id: string }) {
  const errors = state.errors[name] ?? [];
  return errors.length > 0 ? (
    <p className="hint" id={id}>
      {errors.join(' ')}
    </p>
  ) : null;
}

/** A text area with its label and messages: `state` keeps what was typed after a refusal. */
export function TextArea({ id, name, label, state, defaultValue, rows = 3, required }: { id: string; name: string; label: string; state: FormState; defaultValue: string; rows?: number; required?: boolean }) {
  const invalid = Boolean(state.errors[name]);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} name={name} rows={rows} required={required} defaultValue={state.values[name] ?? defaultValue} aria-invalid={invalid || undefined} aria-describedby={invalid ? `${id}-error` : undefined} />
      <FieldErrors state={state} name={name} id={`${id}-error`} />
    </div>
  );
}
