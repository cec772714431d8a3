/**
 * The panel's only way to build DOM. Children are nodes or strings, and
 * strings always become text nodes: there is no path from data to HTML
 * parsing (no innerHTML, insertAdjacentHTML or document.write anywhere in
 * the panel — `tests/unit/panel-no-html.test.ts` greps for them).
 */

export type Child = Node | string | null | undefined | false;

export interface Props {
  id?: string;
  class?: string;
  /** Static attributes chosen by the panel's code (never URLs from the page). */
  attrs?: Record<string, string>;
  on?: { [K in keyof HTMLElementEventMap]?: (e: HTMLElementEventMap[K]) => void };
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props.id) node.id = props.id;
  if (props.class) node.className = props.class;
  if (props.attrs) for (const [k, v] of Object.entries(props.attrs)) node.setAttribute(k, v);
  if (props.on) {
    for (const [type, fn] of Object.entries(props.on)) node.addEventListener(type, fn as EventListener);
  }
  append(node, ...children);
  return node;
}

export function append(parent: Node, ...children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    parent.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
  }
}

/** Sets text only when it changed: the table refreshes twice a second and most cells stay put. */
export function setText(node: Node, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}

export function clear(node: Node): void {
  while (node.firstChild) node.removeChild(node.firstChild);
}

/**
 * A page-supplied name: `label` is already capped and neutralized
 * (text.ts); <bdi> isolates it anyway so right-to-left names cannot
 * reorder the numbers beside them.
 */
export function nameNode(label: string, cls = 'name'): HTMLElement {
  return el('bdi', { class: cls }, label);
}
