/**
 * The honest-states strip under the toolbar: one line per notice from
 * `status-model.ts`, reused by id so screen readers announce only changes.
 */
import { el, setText } from './dom';
import type { Notice } from './status-model';

export class StatusView {
  readonly root = el('div', { id: 'status', class: 'status', attrs: { role: 'status', 'aria-live': 'polite' } });
  private readonly items = new Map<string, HTMLElement>();

  update(list: readonly Notice[]): void {
    const keep = new Set(list.map((n) => n.id));
    for (const [id, node] of this.items) {
      if (!keep.has(id)) {
        node.remove();
        this.items.delete(id);
      }
    }
    let prev: HTMLElement | null = null;
    for (const n of list) {
      let node = this.items.get(n.id);
      if (!node) {
        node = el('span', { class: 'notice', attrs: { 'data-notice': n.id } });
        this.items.set(n.id, node);
      }
      node.className = `notice ${n.level}`;
      setText(node, n.text);
      // Keep DOM order equal to list order without re-inserting unchanged nodes.
      const want: ChildNode | null = prev ? prev.nextSibling : this.root.firstChild;
      if (want !== node) this.root.insertBefore(node, want);
      prev = node;
    }
  }
}
