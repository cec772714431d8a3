/**
 * The keys of an API result's components, filled in here in the page's world. The agent hands keys to the content
 * script only while a DevTools panel or a recording shows them (pipeline/registry.ts `wantKeys`), so a snapshot or a
 * recording the content script answers an API call with may have `key: null` for a component that has one; the agent
 * reads it from the component's fiber instead (a live component; an unmounted one keeps what the content script had).
 *
 * The result came from our content script over the private port (a structured clone in this world): nothing of the
 * page's has run on it yet. Language constructs only (no page-replaceable built-ins); the caller catches.
 */
export function fillKeys(result: unknown, keyOf: (id: number) => string | null): void {
  if (typeof result !== 'object' || result === null) return;
  // A snapshot's `components` (a list) or a stopped recording's (by id); the boot's API unwrapped the answer.
  const comps = (result as { components?: unknown }).components;
  if (typeof comps !== 'object' || comps === null) return;
  const fill = (c: unknown, id: unknown): void => {
    if (typeof c !== 'object' || c === null || typeof id !== 'number' || !(id > 0)) return;
    const row = c as { key?: unknown };
    if (row.key !== null) return;
    const key = keyOf(id);
    if (key !== null) row.key = key;
  };
  const list = comps as { length?: unknown } & Record<string, unknown>;
  if (typeof list.length === 'number') {
    // A snapshot's list of rows, each with its id.
    for (let i = 0; i < list.length; i++) {
      const c = list[i] as { id?: unknown } | null;
      fill(c, typeof c === 'object' && c !== null ? c.id : undefined);
    }
    return;
  }
  // A recording's components by id.
  for (const k in list) fill(list[k], +k);
}
