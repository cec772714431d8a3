/**
 * Page-supplied strings (component names, keys, stacks, URLs) on their way
 * into the panel's DOM. The panel runs with extension privileges, so these
 * only ever become text nodes (see `dom.ts`); here they are also made short
 * and inert: capped so a 100 000-character name never reaches layout, bidi
 * controls removed so a name cannot reorder the text around it, and other
 * invisible control characters shown as U+FFFD instead of silently vanishing.
 */
import { nodeInflation, ownRendered } from '../overlay/ramps';

/** Default cap for names, keys and URLs; the full string is never rendered. */
export const MAX_TEXT_CHARS = 200;
/** Cap per stack line; stacks are capped in lines too (`capLines`). */
export const MAX_STACK_LINE_CHARS = 200;
export const MAX_STACK_LINES = 40;
const ELLIPSIS = '…';

// U+202A–U+202E (embeddings/overrides), U+2066–U+2069 (isolates), U+200E/U+200F/U+061C (marks).
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;
// C0/C1 controls except tab and newline (kept for stacks), plus line/paragraph separators.
const OTHER_CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u2028\u2029]/g;

/** True for the bidi control characters `neutralize` removes. */
export function hasBidiControls(s: string): boolean {
  BIDI_CONTROLS.lastIndex = 0;
  return BIDI_CONTROLS.test(s);
}

/** Removes bidi controls and replaces other control characters by U+FFFD. */
export function neutralize(s: string): string {
  return s.replace(BIDI_CONTROLS, '').replace(OTHER_CONTROLS, '\uFFFD');
}

/** How much of a string is ever looked at: a 100 000-character name is never scanned in full. */
const SCAN_LIMIT_CHARS = 8192;

/**
 * Caps to `max` characters (ellipsis included) without splitting a
 * surrogate pair, after neutralizing (removed controls do not count).
 */
export function capText(raw: unknown, max = MAX_TEXT_CHARS): string {
  if (typeof raw !== 'string') return '';
  const head = raw.length > SCAN_LIMIT_CHARS ? raw.slice(0, SCAN_LIMIT_CHARS) : raw;
  const clean = neutralize(head);
  const truncated = raw.length > head.length || clean.length > max;
  if (!truncated) return clean;
  let end = Math.min(clean.length, max - 1);
  const code = clean.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return clean.slice(0, end) + ELLIPSIS;
}

/** A stack trace: at most `MAX_STACK_LINES` lines of at most `MAX_STACK_LINE_CHARS` each. */
export function capStack(raw: unknown): string {
  if (typeof raw !== 'string') return '';
  const lines = raw.slice(0, SCAN_LIMIT_CHARS * 8).split('\n');
  const out = lines.slice(0, MAX_STACK_LINES).map((l) => capText(l.replace(/\t/g, '  '), MAX_STACK_LINE_CHARS));
  if (lines.length > MAX_STACK_LINES) out.push(`${ELLIPSIS} ${lines.length - MAX_STACK_LINES}+ more lines`);
  return out.join('\n');
}

/** Milliseconds for a table cell: 2 decimals under 10, 1 under 100, none above. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '–';
  if (ms === 0) return '0';
  if (ms < 0.005) return '<0.01';
  return ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0);
}

/** Counts with thin grouping so 12 345 reads at a glance. */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return '–';
  return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, '\u2009');
}

/**
 * The inflation the panel shows: the overlay's (`nodeInflation` in `src/overlay/ramps.ts`: own rendered elements ÷
 * authored, portaled-in elements left out), and `null` when the component has no DOM of its own at all (nothing to
 * say, shown as "–").
 */
export function shownInflation(n: { authored: number; rendered: number; portaledIn?: number }): number | null {
  if (!(ownRendered(n) > 0) && !(n.authored > 0)) return null;
  return nodeInflation(n);
}

export function formatRatio(r: number | null): string {
  if (r === null) return '–';
  return r < 10 ? `${r.toFixed(1)}×` : `${Math.round(r)}×`;
}

/** One line of "What dirtied it": what changed, where, how often, from whom. */
export function dirtiedLine(d: { kind: string; name: string; on: string; source: string; perFrame: number; last: number }): {
  count: string; what: string; rest: string;
} {
  const n = d.perFrame >= 10 ? Math.round(d.perFrame).toLocaleString('en-US') : d.perFrame.toFixed(1);
  const on = capText(d.on, 40).toUpperCase();
  const from = d.source === 'react' ? 'from React' : 'from other code';
  const last = `last frame ${Math.round(d.last)}`;
  if (d.kind === 'attribute') return { count: n, what: capText(d.name, 60), rest: ` changes on ${on} per frame, ${from} (${last})` };
  if (d.kind === 'text') return { count: n, what: 'text', rest: ` changes in ${on} per frame, ${from} (${last})` };
  return { count: n, what: d.name === 'added' ? 'children added' : 'children removed', rest: ` ${d.name === 'added' ? 'to' : 'from'} ${on} per frame, ${from} (${last})` };
}
