/**
 * The overlay's input handling, all on window in the capture phase (the
 * content script runs at document_start, so these listeners precede the
 * page's own window listeners):
 *
 * - Inspect hover: pointer moves ask the agent which component is under the
 *   point, one hit-test in flight at a time, the latest point winning.
 * - The pinning click: in Inspect, a primary-button press over a hovered
 *   component pins it (or unpins it when it is the pinned one). That one
 *   gesture — pointerdown, mousedown, pointerup, mouseup, click and a
 *   following dblclick — is stopped before the page sees it. So is a press on
 *   the legend, which the overlay draws over the page (it hides the legend).
 *   Every other click, and every click in Components and Heatmap, reaches the page.
 * - Esc unpins. It is never swallowed: the page's own Esc (closing its
 *   dialog or menu) must work exactly as without the extension.
 * - Scroll (of the document or any nested scroller: scroll events do not
 *   bubble, but they do pass window's capture phase) and resize ask for
 *   fresh bounds.
 */

export interface InteractionDeps {
  inspecting(): boolean;
  hovered(): number | null;
  pinned(): number | null;
  hitTest(x: number, y: number): Promise<number | null>;
  setHovered(id: number | null): void;
  pin(id: number | null): void;
  /** Handles Esc (the key still reaches the page). */
  escape(): void;
  /** True when a viewport point is on the legend the overlay drew. */
  onLegend(x: number, y: number): boolean;
  dismissLegend(): void;
  viewportChanged(): void;
}

const GESTURE_EVENTS = ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click', 'dblclick'] as const;
/** A dblclick later than this after a swallowed click belongs to a new gesture. */
const DBLCLICK_WINDOW_MS = 600;

export class Interaction {
  private swallowing = false;
  private lastSwallowedClick = -Infinity;
  private inFlight = false;
  private pendingPoint: { x: number; y: number } | null = null;
  /** Where the hovered component was last hit-tested. */
  private hitPoint: { x: number; y: number } | null = null;
  private readonly listeners: [string, EventListener, AddEventListenerOptions][] = [];

  constructor(private readonly deps: InteractionDeps) {
    const on = (type: string, fn: (e: Event) => void, passive = false): void => {
      this.listeners.push([type, fn as EventListener, { capture: true, passive }]);
    };
    for (const type of GESTURE_EVENTS) on(type, (e) => this.gesture(e as MouseEvent));
    on('pointermove', (e) => this.move(e as PointerEvent), true);
    on('mouseout', (e) => this.leave(e as MouseEvent), true);
    on('keydown', (e) => this.key(e as KeyboardEvent));
    on('scroll', () => this.deps.viewportChanged(), true);
    on('resize', () => this.deps.viewportChanged(), true);
  }

  attach(): void {
    for (const [type, fn, opts] of this.listeners) window.addEventListener(type, fn, opts);
  }

  detach(): void {
    for (const [type, fn, opts] of this.listeners) window.removeEventListener(type, fn, opts);
    this.swallowing = false;
    this.pendingPoint = null;
    this.hitPoint = null;
  }

  private gesture(e: MouseEvent): void {
    if (e.type === 'pointerdown') {
      // Each press decides afresh whether its gesture is a pinning one, and only
      // on a hit-test of this very spot: a press that outran the hit-test of a
      // fresh pointer move goes to the page rather than pinning what was there before.
      if (e.button === 0 && this.deps.onLegend(e.clientX, e.clientY)) {
        // A press on our own legend is not the page's: it hides the legend and goes no further.
        this.swallowing = true;
        this.deps.dismissLegend();
        e.preventDefault();
        e.stopImmediatePropagation();
        return;
      }
      const h = this.hitPoint;
      const fresh = h !== null && this.pendingPoint === null && Math.abs(h.x - e.clientX) <= 4 && Math.abs(h.y - e.clientY) <= 4;
      const target = fresh && this.deps.inspecting() && e.button === 0 && (e as PointerEvent).isPrimary !== false
        ? this.deps.hovered() : null;
      this.swallowing = target !== null;
      if (target !== null) this.deps.pin(this.deps.pinned() === target ? null : target);
    }
    const dbl = e.type === 'dblclick' && performance.now() - this.lastSwallowedClick < DBLCLICK_WINDOW_MS;
    if (!this.swallowing && !dbl) return;
    e.preventDefault();
    e.stopImmediatePropagation();
    if (e.type === 'click') {
      this.swallowing = false;
      this.lastSwallowedClick = performance.now();
    }
  }

  private move(e: PointerEvent): void {
    if (!this.deps.inspecting()) return;
    this.pendingPoint = { x: e.clientX, y: e.clientY };
    if (!this.inFlight) void this.flushHitTest();
  }

  private async flushHitTest(): Promise<void> {
    this.inFlight = true;
    try {
      while (this.pendingPoint) {
        const { x, y } = this.pendingPoint;
        this.pendingPoint = null;
        const id = await this.deps.hitTest(x, y);
        if (this.deps.inspecting()) {
          this.hitPoint = { x, y };
          this.deps.setHovered(id);
        }
      }
    } finally {
      this.inFlight = false;
    }
  }

  private leave(e: MouseEvent): void {
    // relatedTarget null: the pointer left the document.
    if (e.relatedTarget === null && this.deps.inspecting()) {
      this.pendingPoint = null;
      this.deps.setHovered(null);
    }
  }

  private key(e: KeyboardEvent): void {
    if (e.key !== 'Escape' || e.repeat) return;
    this.deps.escape();
  }
}
