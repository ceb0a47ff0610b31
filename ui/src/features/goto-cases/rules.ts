// The Go-to Case form's rules and the store's words for it, shared by the cart's Go-to Case form
// and the Go-to Cases page. Pure: tested in rules.test.ts.
import type { GotoCaseOption } from '../../api/contract.gen';

/** The form's choice: nothing yet, an existing Go-to Case (its id), or Create A New Case. */
export type Choice = null | 'new' | number;

/**
 * Submit is disabled when no existing case is chosen and the new name is empty, or when
 * Create A New Case is chosen with an empty name.
 */
export function canSubmit(choice: Choice, name: string): boolean {
  if (typeof choice === 'number') return true;
  return name.trim() !== '';
}

/** The Go-to Cases a cart case can be added to: those of its case type. */
export function compatible(options: GotoCaseOption[], packagingId: number): GotoCaseOption[] {
  return options.filter((o) => o.packaging_id === packagingId);
}

export const created = (name: string, cartCase: string) => `You successfully created Go-to Case "${name}" from your case "${cartCase}"`;
export const added = (name: string, cartCase: string) => `You successfully added from your case "${cartCase}" to your existing Go-to Case "${name}"`;
export const createFailed = (name: string) => `Something went wrong creating your Go-to Case "${name}". Please try again.`;
export const addFailed = (name: string) => `Something went wrong adding to your Go-to Case "${name}". Please try again.`;
export const deleteQuestion = (name: string) => `Are you sure you want to delete ${name}?`;

/**
 * What the form says of a failure: the store's own words when it refused what was sent (a 422: a
 * name in use, a limit, a name to correct), else "Something went wrong ..." for the choice
 * (a case gone in another tab, the store or the network failing).
 */
export function failure(status: number, message: string, choice: Choice, name: string, options: GotoCaseOption[]): string {
  if (status === 422 && message) return message;
  if (typeof choice === 'number') return addFailed(options.find((o) => o.id === choice)?.case_name ?? name);
  return createFailed(name.trim());
}
