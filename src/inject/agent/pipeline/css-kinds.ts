/**
 * What a CSS property or an attribute change can cost the engine (issue 43): style only (colour, a transform, an
 * opacity), or layout too; for the element alone, or for its subtree (an inherited property). Pure tables, no DOM.
 *
 * A property is layout-affecting unless it is listed here as painting or compositing only: an unknown property costs
 * layout (the safe side: a wrong "no layout" would hide a cause).
 */

import { KIND_LAYOUT, KIND_STYLE, KIND_TREE } from '../adapter';

/** The change restyles the element (the sink's KIND_* bits, adapter.ts). */
export const K_STYLE = KIND_STYLE;
/** The change can move or resize boxes. */
export const K_LAYOUT = KIND_LAYOUT;
/** Its subtree restyles too (an inherited property; a selector that reads it above a combinator). */
export const K_TREE = KIND_TREE;

/** Properties whose change paints or composites but never moves a box. */
const NO_LAYOUT = new Set([
  'color', 'opacity', 'transform', 'translate', 'rotate', 'scale', 'transform-origin', 'transform-style', 'perspective',
  'perspective-origin', 'backface-visibility', 'filter', 'backdrop-filter', 'clip-path', 'mask', 'mask-image',
  'mask-position', 'mask-size', 'mask-repeat', 'mask-origin', 'mask-clip', 'mask-composite', 'mask-mode', 'mask-type',
  'background', 'background-color', 'background-image', 'background-position', 'background-position-x',
  'background-position-y', 'background-size', 'background-repeat', 'background-attachment', 'background-origin',
  'background-clip', 'background-blend-mode', 'border-color', 'border-top-color', 'border-right-color',
  'border-bottom-color', 'border-left-color', 'border-block-color', 'border-inline-color', 'border-block-start-color',
  'border-block-end-color', 'border-inline-start-color', 'border-inline-end-color', 'border-radius',
  'border-top-left-radius', 'border-top-right-radius', 'border-bottom-left-radius', 'border-bottom-right-radius',
  'border-start-start-radius', 'border-start-end-radius', 'border-end-start-radius', 'border-end-end-radius',
  'outline', 'outline-color', 'outline-style', 'outline-width', 'outline-offset', 'box-shadow', 'text-shadow',
  'text-decoration', 'text-decoration-color', 'text-decoration-line', 'text-decoration-style',
  'text-decoration-thickness', 'text-underline-offset', 'text-emphasis-color', 'caret-color', 'accent-color',
  'visibility', 'cursor', 'pointer-events', 'user-select', 'touch-action', 'z-index', 'mix-blend-mode', 'isolation',
  'fill', 'fill-opacity', 'stroke', 'stroke-opacity', 'stop-color', 'stop-opacity', 'flood-color', 'flood-opacity',
  'lighting-color', 'color-scheme', 'image-rendering', 'shape-rendering', 'object-position', 'scroll-behavior',
  'transition', 'transition-property', 'transition-duration', 'transition-delay', 'transition-timing-function',
  'transition-behavior', 'animation', 'animation-name', 'animation-duration', 'animation-delay',
  'animation-play-state', 'animation-timing-function', 'animation-iteration-count', 'animation-direction',
  'animation-fill-mode', 'print-color-adjust', 'forced-color-adjust', 'paint-order',
  'overscroll-behavior', 'overscroll-behavior-x', 'overscroll-behavior-y', 'scroll-snap-type', 'scroll-snap-align',
  '-webkit-tap-highlight-color', '-webkit-font-smoothing',
]);

/** Inherited properties: a change restyles the subtree (the custom properties too, `--*`). */
const INHERITED = new Set([
  'color', 'font', 'font-family', 'font-size', 'font-style', 'font-weight', 'font-variant', 'font-stretch',
  'font-feature-settings', 'font-kerning', 'font-size-adjust', 'font-synthesis', 'font-optical-sizing', 'line-height',
  'letter-spacing', 'word-spacing', 'text-align', 'text-align-last', 'text-indent', 'text-transform', 'text-rendering',
  'text-shadow', 'white-space', 'white-space-collapse', 'text-wrap', 'word-break', 'overflow-wrap', 'word-wrap',
  'hyphens', 'tab-size', 'line-break', 'direction', 'writing-mode', 'text-orientation', 'visibility', 'cursor',
  'list-style', 'list-style-type', 'list-style-position', 'list-style-image', 'quotes', 'caret-color', 'accent-color',
  'fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-opacity', 'pointer-events', 'color-scheme',
  'border-collapse', 'border-spacing', 'caption-side', 'empty-cells', 'orphans', 'widows', 'image-rendering',
  'shape-rendering', 'paint-order', '-webkit-font-smoothing', '-webkit-text-fill-color',
]);

/**
 * Attributes whose value the engine itself reads for layout (or the UA stylesheet does): a change costs style and
 * layout whatever the page's selectors say.
 */
export const INTRINSIC_ATTRIBUTES = new Set([
  'hidden', 'src', 'srcset', 'sizes', 'width', 'height', 'size', 'cols', 'rows', 'colspan', 'rowspan', 'span', 'value',
  'type', 'open', 'multiple', 'dir', 'lang', 'align', 'valign', 'border', 'cellpadding', 'cellspacing', 'face', 'nowrap',
  'wrap', 'start', 'reversed', 'poster', 'checked', 'selected', 'disabled', 'placeholder', 'contenteditable',
  'viewbox', 'd', 'x', 'y', 'cx', 'cy', 'r', 'rx', 'ry', 'x1', 'y1', 'x2', 'y2', 'points', 'transform',
  'preserveaspectratio', 'font-size', 'text-anchor', 'dx', 'dy', 'textlength',
]);

const kinds = new Map<string, number>();
const MAX_KNOWN = 2048;

/** `backgroundColor` → `background-color`, `WebkitTransform` → `-webkit-transform`, `--x` unchanged. */
export function kebab(name: string): string {
  if (name.startsWith('--')) return name;
  const k = name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
  return /^(webkit|moz|ms)-/.test(k) ? `-${k}` : k;
}

/** K_* bits of a changed CSS property (camelCase as React writes it, or kebab-case). */
export function propertyKind(name: string): number {
  let k = kinds.get(name);
  if (k !== undefined) return k;
  const p = kebab(name);
  if (p.startsWith('--')) k = K_STYLE | K_TREE;
  else k = K_STYLE | (NO_LAYOUT.has(p) ? 0 : K_LAYOUT) | (INHERITED.has(p) ? K_TREE : 0);
  if (kinds.size >= MAX_KNOWN) kinds.clear();
  kinds.set(name, k);
  return k;
}

/**
 * The properties an inline `style` attribute changed between two texts (as a MutationObserver reports it), OR-ed
 * into K_* bits. A text the simple split cannot read (a `;` inside a value) at worst names a property twice.
 */
export function styleTextKind(before: string | null, after: string | null): number {
  if (before === after) return 0;
  const same = sameShapeKind(before ?? '', after ?? '');
  if (same >= 0) return same;
  const a = declarations(before), b = declarations(after);
  let kind = 0;
  for (const [p, v] of a) if (b.get(p) !== v) kind |= propertyKind(p);
  for (const [p] of b) if (!a.has(p)) kind |= propertyKind(p);
  return kind;
}

/**
 * `styleTextKind` without allocating, for the common write: the same properties in the same order, some values
 * changed (page code or a library setting `el.style.width` on thousands of elements a frame makes a record each).
 * -1 when the two texts do not line up declaration by declaration: then the maps decide.
 */
function sameShapeKind(a: string, b: string): number {
  const na = Math.min(a.length, 4096), nb = Math.min(b.length, 4096);
  let i = 0, j = 0, kind = 0;
  for (;;) {
    const hasA = nextDeclaration(a, i, na, DA), hasB = nextDeclaration(b, j, nb, DB);
    if (!hasA || !hasB) return hasA === hasB ? kind : -1;
    if (!sameRange(a, DA[0], DA[1], b, DB[0], DB[1])) return -1;
    if (!sameRange(a, DA[2], DA[3], b, DB[2], DB[3])) {
      // The same property as the last record's (a loop writing one property of many elements) is not sliced again.
      if (!sameRange(a, DA[0], DA[1], lastName, 0, lastName.length)) {
        lastName = a.slice(DA[0], DA[1]);
        lastKind = propertyKind(lastName.toLowerCase());
      }
      kind |= lastKind;
    }
    i = DA[4];
    j = DB[4];
  }
}

let lastName = '';
let lastKind = 0;

/** One declaration's name [0, 1), value [2, 3) (both trimmed) and where the next starts [4]. */
const DA = [0, 0, 0, 0, 0];
const DB = [0, 0, 0, 0, 0];

/** The next `name: value` in `text` from `from` (a part without a name before a colon is skipped, as `declarations` does). */
function nextDeclaration(text: string, from: number, n: number, out: number[]): boolean {
  while (from < n) {
    let end = text.indexOf(';', from);
    if (end < 0 || end > n) end = n;
    const colon = text.indexOf(':', from);
    if (colon > from && colon < end) {
      const name = skipSpace(text, from, colon);
      if (name < colon) {
        out[0] = name;
        out[1] = trimEnd(text, name, colon);
        out[2] = skipSpace(text, colon + 1, end);
        out[3] = trimEnd(text, out[2], end);
        out[4] = end + 1;
        return true;
      }
    }
    from = end + 1;
  }
  return false;
}

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

function skipSpace(text: string, from: number, to: number): number {
  while (from < to && isSpace(text.charCodeAt(from))) from++;
  return from;
}

function trimEnd(text: string, from: number, to: number): number {
  while (to > from && isSpace(text.charCodeAt(to - 1))) to--;
  return to;
}

function sameRange(a: string, a0: number, a1: number, b: string, b0: number, b1: number): boolean {
  if (a1 - a0 !== b1 - b0) return false;
  for (let k = 0; k < a1 - a0; k++) if (a.charCodeAt(a0 + k) !== b.charCodeAt(b0 + k)) return false;
  return true;
}

function declarations(text: string | null): Map<string, string> {
  const out = new Map<string, string>();
  if (!text) return out;
  for (const part of text.slice(0, 4096).split(';')) {
    const colon = part.indexOf(':');
    if (colon <= 0) continue;
    out.set(part.slice(0, colon).trim().toLowerCase(), part.slice(colon + 1).trim());
  }
  return out;
}
