/** The validator of what dirtied a component (snapshot.ts DirtiedBy): its own module, shared by messages and recordings. */
import type { DirtiedBy } from './snapshot';
import { isRecord, num, oneOf, str, type Validator } from './validate';

export const dirtiedByValidator: Validator<DirtiedBy> = isRecord({
  kind: oneOf(['attribute', 'text', 'children'] as const), name: str(60), on: str(40), source: oneOf(['react', 'other'] as const),
  perFrame: num(0, 1e7), last: num(0, 1e7),
});
