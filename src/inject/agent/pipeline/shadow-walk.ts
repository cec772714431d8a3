/**
 * The shadow roots attached before the attachShadow tap went in (boot/shadow.ts installs it when React first shows
 * itself, or on enable): the open ones are found here, once, by walking the document and each root found. A closed
 * root attached before the tap cannot be reached from this world and stays uncounted (docs/REACT-ADAPTER.md, counts).
 */
import type { ShadowState } from '../../boot/link';

/** A hostile page's roots cannot make the walk unbounded. */
const MAX_SCOPES = 10_000;

/** Notes every open root not yet known under `doc`; the number noted. */
export function findEarlierRoots(doc: Document, shadow: ShadowState): number {
  let noted = 0;
  const scopes: (Document | ShadowRoot)[] = [doc];
  for (let walked = 0; scopes.length > 0 && walked < MAX_SCOPES; walked++) {
    const all = (scopes.pop() as Document | ShadowRoot).querySelectorAll('*');
    for (let i = 0; i < all.length; i++) {
      const el = all[i];
      const known = shadow.rootOf.get(el);
      const root = known ?? el.shadowRoot;
      if (root === null || root === undefined) continue;
      if (known === undefined) {
        shadow.note(el, root);
        noted++;
      }
      // A known root may hold roots attached before the tap: every root is walked.
      scopes.push(root);
    }
  }
  return noted;
}
