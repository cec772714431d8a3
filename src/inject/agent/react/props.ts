/**
 * What React writes to a host element in a commit, from its props before and after (issue 43). React 19 flags every
 * re-rendered host element as updated and diffs the props only while it writes them; React 16–18 flag only those
 * whose props differ, but name no prop. Either way this compares the two props objects the fiber pair holds and
 * reads each difference the DOM sees — a text child, the class list, each inline style property, every other
 * attribute — as CHANGE_* bits. Event handlers (functions) never reach the DOM; a re-render with equal props is 0.
 * A `dangerouslySetInnerHTML` change is a new subtree: style and layout of all of it.
 */
import { CHANGE_TEXT, howOf, KIND_LAYOUT, KIND_STYLE, KIND_TREE, type ComponentSink } from '../adapter';

type Props = Record<string, unknown>;

/** Props React handles without writing an attribute of their own. */
const SILENT = new Set(['suppressHydrationWarning', 'suppressContentEditableWarning', 'key', 'ref', 'defaultValue', 'defaultChecked']);
/** React's prop names whose attribute is named otherwise. */
const ATTRIBUTE: Record<string, string> = { className: 'class', htmlFor: 'for', tabIndex: 'tabindex', readOnly: 'readonly' };
const MAX_KEYS = 256;
const SVG_NS = 'http://www.w3.org/2000/svg';
/** What a plain object inherits, by name (read for a prop named like one of its methods). */
const INHERITED = Object.prototype as unknown as Props;

const isText = (v: unknown): boolean => typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint';
/** Whether an element with this `children` prop has no child elements (text, or nothing). */
const isLeaf = (c: unknown): boolean => c === undefined || c === null || isText(c);
/** The attribute's value as React writes it: false drops a boolean attribute, but aria-* and data-* say "false". */
function str(v: unknown, name = ''): string | null {
  if (v === null || v === undefined) return null;
  if (v === false && !name.startsWith('aria-') && !name.startsWith('data-')) return null;
  return typeof v === 'object' ? '[object]' : String(v);
}

/**
 * The CHANGE_* bits of what React wrote to an element going from props `prev` to `next` (0: nothing the DOM sees), one
 * call's worth: a busy grid's cell changes its text and its class, and the cause table hears of it once. An element
 * whose child is text (or nothing) has no child elements: a leaf, known without asking the DOM.
 */
export function diffProps(sink: ComponentSink, el: Element, next: unknown, prev: unknown): number {
  if (next === prev) return 0;
  // Nothing to compare (not React's shape): a change somewhere in it.
  if (typeof next !== 'object' || next === null || typeof prev !== 'object' || prev === null) return CHANGE_TEXT;
  const a = next as Props, b = prev as Props;
  let how = 0;
  let kind = 0;
  let classChanged = false;
  let leaf = true;
  // `a`'s keys that `b` holds too: when `b` has no more keys than that, none was removed (no look-up per key).
  let n = 0, held = 0;
  for (const k in a) {
    if (++n > MAX_KEYS) break;
    const v = a[k], w = b[k];
    // Not a method `b` inherits (a prop named `toString`): for-in would not count it among `b`'s keys. What an object
    // inherits is a function (`__proto__` aside): a string or number is `b`'s own, with no look-up on the prototype (a
    // page that puts other values on Object.prototype may hide a removed prop of a new prop's name: a missed detail,
    // never an error).
    if (w !== undefined && (typeof w !== 'function' || w !== INHERITED[k]) && k !== '__proto__') held++;
    if (k === 'children') {
      leaf = isLeaf(v);
      if (v === w) continue;
      // Element children are fibers of their own; only a text child is this element's own write. Different values of
      // one primitive type differ as text too: no string made for a grid cell's number.
      const t = typeof v;
      if (t === typeof w ? t === 'string' || t === 'number' || t === 'bigint' : (isText(v) || isText(w)) && String(v) !== String(w)) {
        how |= CHANGE_TEXT;
      }
    } else if (v !== w) {
      if (k === 'className') classChanged = true;
      else kind |= prop(sink, el, k, v, w);
    }
  }
  let nb = 0;
  for (const k in b) {
    if (++nb > MAX_KEYS) break;
    // Only counted: a key's name is a string whatever it is, and what `b` holds is read below when it may be gone.
    void k;
  }
  if (nb > held) {
    nb = 0;
    for (const k in b) {
      if (++nb > MAX_KEYS) break;
      if (k in a || b[k] === undefined) continue;
      if (k === 'className') classChanged = true;
      else if (k === 'children') how |= isText(b[k]) ? CHANGE_TEXT : 0;
      else kind |= prop(sink, el, k, undefined, b[k]);
    }
  }
  if (!classChanged && kind === 0) return how;
  if (classChanged) {
    // The class list as React writes it (a value of another type too: `str`), read only when it differs.
    const before = typeof b.className === 'string' ? b.className : str(b.className);
    const after = typeof a.className === 'string' ? a.className : str(a.className);
    // A leaf whose text changed too is a cause already: its class only restyles it (no subtree to restyle, and what
    // it may move is moved by the text). No look-up for the busy grid's cells.
    if (before !== after) kind |= (how & CHANGE_TEXT) !== 0 && leaf ? KIND_STYLE : sink.attributeKind('class', before, after);
  }
  return how | howOf(kind, leaf);
}

/** KIND_* bits of one prop (not children, not the class) going from `w` to `v`. */
function prop(sink: ComponentSink, el: Element, k: string, v: unknown, w: unknown): number {
  if (typeof v === 'function' || typeof w === 'function' || SILENT.has(k)) return 0;
  if (k === 'style') return style(sink, v, w);
  if (k === 'dangerouslySetInnerHTML') {
    const h1 = (v as { __html?: unknown } | null | undefined)?.__html, h2 = (w as { __html?: unknown } | null | undefined)?.__html;
    return h1 !== h2 ? KIND_STYLE | KIND_LAYOUT | KIND_TREE : 0;
  }
  const name = ATTRIBUTE[k] ?? (el.namespaceURI === SVG_NS ? k : k.toLowerCase());
  const before = str(w, name), after = str(v, name);
  return before !== after ? sink.attributeKind(name, before, after) : 0;
}

function style(sink: ComponentSink, v: unknown, w: unknown): number {
  if (typeof v === 'string' || typeof w === 'string') return sink.attributeKind('style', str(w), str(v));
  const a = (typeof v === 'object' && v !== null ? v : {}) as Props;
  const b = (typeof w === 'object' && w !== null ? w : {}) as Props;
  let kind = 0;
  let n = 0;
  for (const k in a) {
    if (++n > MAX_KEYS) break;
    if (a[k] !== b[k]) kind |= sink.styleKind(k);
  }
  n = 0;
  for (const k in b) {
    if (++n > MAX_KEYS) break;
    if (!(k in a) && b[k] !== undefined && b[k] !== null && b[k] !== '') kind |= sink.styleKind(k);
  }
  return kind;
}
