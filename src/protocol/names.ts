/** Whether component names look minified (issue 15): measured from the names seen, shared by the agent and the content script. */

/**
 * A name looks minified when it is what a minifier leaves: one or two characters (`a`, `Xe`, `t`), or three with a
 * digit or `$`/`_` in them. Real three-letter names (`App`, `Row`, `Tab`) do not count.
 */
export function nameLooksMinified(name: string): boolean {
  if (name.length <= 2) return name !== '' && /^[\w$]+$/.test(name);
  return name.length === 3 && /^[\w$]+$/.test(name) && /[\d$_]/.test(name);
}

/**
 * Names look minified when at least 3 distinct names, and at least a third of them, look minified (a page of
 * `Grid`, `Cell`, `Row` with one `Xe` from a library does not).
 */
export function namesLookMinified(names: Iterable<string>): boolean {
  let total = 0, short = 0;
  for (const n of names) {
    if (n === 'Anonymous') continue;
    total++;
    if (nameLooksMinified(n)) short++;
  }
  return short >= 3 && short * 3 >= total;
}
