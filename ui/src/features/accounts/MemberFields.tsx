import type { Member } from '../../api/contract.gen';
import { Field, type FormState } from '../../components/form';

/**
 * A member's details as the registration and profile forms ask for them: names, mobile
 * and birth date, with what the member has now (`user`) or nothing; `between` goes after the names
 * (the registration's email address).
 */
export function MemberFields({ state, user, between }: { state: FormState; user?: Member; between?: React.ReactNode }) {
  return (
    <>
      <Field name="first_name" label="First name" autoComplete="given-name" defaultValue={user?.firstname} state={state} required />
      <Field name="last_name" label="Last name" autoComplete="family-name" defaultValue={user?.lastname} state={state} required />
      {between}
      <Field
        name="mobile"
        label="Mobile number"
        type="tel"
        inputMode="tel"
        autoComplete="tel"
        hint="09 followed by 9 digits, e.g. 09171234567"
        defaultValue={user?.mobile}
        state={state}
        required
      />
      <Field
        name="birth_date"
        label="Birth date"
        type="date"
        autoComplete="bday"
        hint="You must be 18 or older."
        defaultValue={user?.birth_date}
        state={state}
        required
      />
    </>
  );
}

/** The fields `MemberFields` draws, for the form's message. */
export const MEMBER_FIELDS = ['first_name', 'last_name', 'mobile', 'birth_date'];
