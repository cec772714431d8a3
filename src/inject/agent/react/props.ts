/**
 * What React writes to a host element in a commit, from its props before and after (issue 43). React 19 flags every
 * re-rendered host element as updated and diffs the props only while it writes them; React 16–18 flag only those
 * whose props differ, but name no prop. Either way this compares the two props objects the fiber pair holds and
 * reports each difference the DOM sees: a text child, the class list, each inline style property, every other
 * attribute. Event handlers (functions) never reach the DOM; a re-render with equal props reports nothing.
 */
import { CHANGE_STYLE_TREE, CHANGE_TEXT, type ComponentRef, type ComponentSink } from '../adapter';

type Props = Record<string, unknown>;

/** Props React handles without writing an attribute of their own. */
const SILENT = new Set(['suppressHydrationWarning', 'suppressContentEditableWarning', 'key', 'ref', 'defaultValue', 'defaultChecked']);
/** React's prop names whose attribute is named otherwise. */
const ATTRIBUTE: Record<string, string> = { className: 'class', htmlFor: 'for', tabIndex: 'tabindex', readOnly: 'readonly' };
const MAX_KEYS = 256;

const isText = (v: unknown): boolean => typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint';
/** The attribute's value as React writes it: false drops a boolean attribute, but aria-* and data-* say "false". */
function str(v: unknown, name = ''): string | null {
  if (v === null || v === undefined) return null;
  if (v === false && !name.startsWith('aria-') && !name.startsWith('data-')) return null;
  return typeof v === 'object' ? '[object]' : String(v);
}

export function diffProps(sink: ComponentSink, owner: ComponentRef, el: Element, next: unknown, prev: unknown): void {
  if (next === prev) return;
  if (typeof next !== 'object' || next === null || typeof prev !== 'object' || prev === null) {
    // Nothing to compare (not React's shape): a change somewhere in it.
    sink.changed(owner, el, CHANGE_TEXT);
    return;
  }
  const a = next as Props, b = prev as Props;
  let n = 0;
  for (const k in a) {
    if (++n > MAX_KEYS) break;
    const v = a[k], w = b[k];
    if (v !== w) prop(sink, owner, el, k, v, w);
  }
  n = 0;
  for (const k in b) {
    if (++n > MAX_KEYS) break;
    if (!(k in a) && b[k] !== undefined) prop(sink, owner, el, k, undefined, b[k]);
  }
}

function prop(sink: ComponentSink, owner: ComponentRef, el: Element, k: string, v: unknown, w: unknown): void {
  if (k === 'children') {
    // Element children are fibers of their own; only a text child is this element's own write.
    if (isText(v) || isText(w)) {
      if (String(v) !== String(w)) sink.changed(owner, el, CHANGE_TEXT);
    }
    return;
  }
  if (typeof v === 'function' || typeof w === 'function' || SILENT.has(k)) return;
  if (k === 'style') {
    style(sink, owner, el, v, w);
    return;
  }
  if (k === 'dangerouslySetInnerHTML') {
    const h1 = (v as { __html?: unknown } | null | undefined)?.__html, h2 = (w as { __html?: unknown } | null | undefined)?.__html;
    if (h1 !== h2) sink.changed(owner, el, CHANGE_TEXT | CHANGE_STYLE_TREE);
    return;
  }
  const name = ATTRIBUTE[k] ?? (el.namespaceURI === 'http://www.w3.org/2000/svg' ? k : k.toLowerCase());
  const before = str(w, name), after = str(v, name);
  if (before !== after) sink.attribute(owner, el, name, before, after);
}

function style(sink: ComponentSink, owner: ComponentRef, el: Element, v: unknown, w: unknown): void {
  const a = (typeof v === 'object' && v !== null ? v : {}) as Props;
  const b = (typeof w === 'object' && w !== null ? w : {}) as Props;
  if (typeof v === 'string' || typeof w === 'string') {
    sink.attribute(owner, el, 'style', str(w), str(v));
    return;
  }
  let n = 0;
  for (const k in a) {
    if (++n > MAX_KEYS) break;
    if (a[k] !== b[k]) sink.styleProperty(owner, el, k);
  }
  n = 0;
  for (const k in b) {
    if (++n > MAX_KEYS) break;
    if (!(k in a) && b[k] !== undefined && b[k] !== null && b[k] !== '') sink.styleProperty(owner, el, k);
  }
}
