// Parts of a page the server renders on their own and splices into a shared page (issue 15):
// each must render exactly what it renders in place (no useId, no context), so hydration matches.
import type { ReactElement } from 'react';
import type { CartAnswer } from './api/contract.gen';

export interface PartInput {
  part: string;
  cart: CartAnswer | null;
}

export const parts: Record<string, (input: PartInput) => ReactElement> = {};
