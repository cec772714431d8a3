/**
 * Virtual scrolling math for the component table: fixed row height, so the
 * rows on screen follow from scrollTop alone and only those (plus a little
 * overscan) are in the DOM, whether the table has 50 rows or 50 000.
 */

export interface RowRange {
  /** First row index rendered (inclusive). */
  start: number;
  /** One past the last row index rendered. */
  end: number;
}

export function visibleRange(
  scrollTop: number, viewportPx: number, rowHeightPx: number, total: number, overscan = 4,
): RowRange {
  if (total <= 0 || rowHeightPx <= 0) return { start: 0, end: 0 };
  const top = Math.max(0, scrollTop);
  const first = Math.floor(top / rowHeightPx);
  const count = Math.ceil(Math.max(0, viewportPx) / rowHeightPx) + 1;
  const start = Math.max(0, Math.min(total - 1, first - overscan));
  const end = Math.min(total, first + count + overscan);
  return { start, end: Math.max(start, end) };
}

/** The scrollTop that brings row `index` fully into view, moving as little as possible. */
export function scrollToReveal(index: number, scrollTop: number, viewportPx: number, rowHeightPx: number): number {
  const top = index * rowHeightPx;
  const bottom = top + rowHeightPx;
  if (top < scrollTop) return top;
  if (bottom > scrollTop + viewportPx) return Math.max(0, bottom - viewportPx);
  return scrollTop;
}

/** Rows per page for PageUp/PageDown: at least one. */
export function pageSize(viewportPx: number, rowHeightPx: number): number {
  return Math.max(1, Math.floor(viewportPx / rowHeightPx) - 1);
}

/** Keyboard cursor movement, clamped to the table. `-1` means no cursor yet. */
export function moveCursor(cur: number, key: string, total: number, page: number): number {
  if (total <= 0) return -1;
  const c = cur < 0 ? -1 : Math.min(cur, total - 1);
  switch (key) {
    case 'ArrowDown': return Math.min(total - 1, c + 1);
    case 'ArrowUp': return c < 0 ? 0 : Math.max(0, c - 1);
    case 'PageDown': return Math.min(total - 1, Math.max(0, c) + page);
    case 'PageUp': return Math.max(0, c - page);
    case 'Home': return 0;
    case 'End': return total - 1;
    default: return c;
  }
}
