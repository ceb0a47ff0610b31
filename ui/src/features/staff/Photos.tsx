import type { FormEvent } from 'react';
import { Csrf, FormMessage, type FormState } from '../../components/form';

/** The photos the store takes (the server reads the type from the content), as a file input offers them. */
export const PHOTO_ACCEPT = 'image/jpeg,image/png,image/webp';

/** What a photo's file input says of it. */
export const PHOTO_HINT = 'JPEG, PNG or WebP, up to 10 MB.';

/** What a photo form posts besides the file: the owner's key (`sku`, `bannerId`) and the form's scope. */
type Hidden = Record<string, string>;

function HiddenFields({ hidden }: { hidden: Hidden }) {
  return (
    <>
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
    </>
  );
}

/**
 * A photo's upload form for one product or banner: the file sent as it is (`multipart/form-data`)
 * to the page's address, with JavaScript or without; the server checks it (type from the content,
 * bytes and pixels) and answers its message beside this form. `name` says whose photo it is.
 */
export function PhotoUpload({ action, id, name, hidden, state, submit }: { action: string; id: string; name: string; hidden: Hidden; state: FormState; submit: (e: FormEvent<HTMLFormElement>) => void }) {
  const hint = `${id}-hint`;
  const error = `${id}-error`;
  const invalid = Boolean(state.errors.photo);
  // The error box is named whatever it holds: a missing banner or a stale page is said there too.
  return (
    <form method="post" action={action} encType="multipart/form-data" onSubmit={submit} className="inline-form">
      <Csrf />
      <HiddenFields hidden={hidden} />
      <label htmlFor={id}>{`Photo of ${name}`}</label>
      <input id={id} type="file" name="photo" accept={PHOTO_ACCEPT} aria-describedby={`${hint} ${error}`} aria-invalid={invalid ? true : undefined} />
      <span id={hint} className="muted">
        {PHOTO_HINT}
      </span>
      <button type="submit" disabled={state.busy}>
        {state.busy ? 'Uploading…' : 'Upload Photo'}
        <span className="visually-hidden">{` of ${name}`}</span>
      </button>
      <div id={error}>
        <FormMessage state={state} />
      </div>
    </form>
  );
}

/** Takes the photo of `name` away (its drawing shows again); the caller's `submit` asks first with JavaScript. */
export function PhotoRemove({ action, name, hidden, state, submit }: { action: string; name: string; hidden: Hidden; state: FormState; submit: (e: FormEvent<HTMLFormElement>) => void }) {
  return (
    <form method="post" action={action} encType="multipart/form-data" onSubmit={submit} className="inline-form">
      <Csrf />
      <HiddenFields hidden={hidden} />
      <input type="hidden" name="remove" value="true" />
      <button type="submit" className="secondary" disabled={state.busy}>
        Remove Photo<span className="visually-hidden">{` of ${name}`}</span>
      </button>
      <FormMessage state={state} />
    </form>
  );
}

/** The question a photo's Remove asks first (with JavaScript); `instead` is what shows again. */
export function removeQuestion(name: string, instead: 'Its drawing shows' | 'Its images show'): string {
  return `Take the photo of ${name} away? ${instead} again.`;
}
