/**
 * Shapes shared by the pure overlay math. Nothing here touches a DOM global:
 * the drawing functions take a `DrawContext` (the subset of
 * CanvasRenderingContext2D they use), so they run on the main thread, in an
 * OffscreenCanvas, or against a recording fake in unit tests.
 */

/** A rectangle in viewport CSS px (or device px where a name says so). */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The canvas' view of the window: CSS px size and device pixels per CSS px (zoom included). */
export interface Viewport {
  width: number;
  height: number;
  dpr: number;
}

/**
 * One component as the overlay math sees it. The content script's
 * StoredComponent satisfies this structurally, so choosing meters for
 * thousands of components allocates nothing per component.
 * `layout` is the EMA of subtree-inclusive layout ms, already decayed to now.
 */
export interface CostNode {
  readonly id: number;
  readonly parentId: number | null;
  readonly depth: number;
  readonly layout: number;
  readonly authored: number;
  readonly rendered: number;
  /** Elements of `rendered` that another component's portal placed in its DOM (not its inflation). */
  readonly portaledIn?: number;
  /** The occluder (1-based, stacking order) whose content holds it; 0 or absent: the page itself. */
  readonly layer?: number;
  /** It sits directly in a floating portal's content (a dialog, menu, tooltip): a surface of its own. */
  readonly surfaceRoot?: boolean;
  readonly bounds: Rect | null;
}

/** A CostNode whose fields can be written (benchmark and test doubles that change their nodes between frames). */
export type WritableCostNode = { -readonly [K in keyof CostNode]: CostNode[K] };

/** The part of CanvasRenderingContext2D the painters use. */
export interface DrawContext {
  fillStyle: unknown;
  strokeStyle: unknown;
  lineWidth: number;
  font: string;
  textBaseline: string;
  globalAlpha: number;
  setTransform(a: number, b: number, c: number, d: number, e: number, f: number): void;
  clearRect(x: number, y: number, w: number, h: number): void;
  fillRect(x: number, y: number, w: number, h: number): void;
  beginPath(): void;
  closePath(): void;
  rect(x: number, y: number, w: number, h: number): void;
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  fill(): void;
  stroke(): void;
  save(): void;
  restore(): void;
  clip(fillRule?: 'nonzero' | 'evenodd'): void;
  fillText(text: string, x: number, y: number): void;
  measureText(text: string): { width: number };
}
