/**
 * The overlay: decides what to draw (src/overlay/plan.ts), draws it on the
 * one canvas (src/overlay/paint-*.ts), and owns the interaction state —
 * mode, Inspect hover, the pin, the legend and the mode caption.
 *
 * Cadence: the controller flushes at most every 33 ms while the store
 * changed; while the overlay is on an idle ticker asks for a flush every
 * 200 ms so sparklines keep moving (and decay) on a quiet page and captions
 * expire. Bounds come from the agent after its frames; the overlay asks for
 * them through `wantBounds()` and, on scroll and resize, `requestBounds`.
 */
import type { Mode, Settings } from '../../../protocol';
import type { AtlasMeter } from '../../../overlay/atlas';
import { pinCaption } from '../../../overlay/paint-text';
import { legendLines, modeCaption } from '../../../overlay/legend';
import { ownRendered } from '../../../overlay/ramps';
import { chooseFrame, placeFrame, type Choice, type Plan, type PlanInput, type PlannedMeter, type ShiftFlash } from '../../../overlay/plan';
import { buildTree, type ComponentTree } from '../../../overlay/surface';
import { SPARKLINE_BUCKETS } from '../../../overlay/sparkline';
import type { Point } from '../../../overlay/anchor';
import type { RollupStore, StoredComponent } from '../store';
import { choiceReuse, samePlan, type ChoiceKey, type PlanKey } from './choice';
import { CanvasHost } from './host';
import type { PaintCaption, PaintFrame, PaintLabel } from './paint-frame';
import { Interaction } from './interaction';
import { LegendState, type LegendStorage } from './legend-state';

export const IDLE_TICK_MS = 200;
export const MODE_CAPTION_MS = 1500;
/** How long a choice of meters (surface-through, heatmap ranking: O(all components)) is reused. */
export const CHOICE_REFRESH_MS = 250;
/** Scroll events come every frame while scrolling: ask the agent for bounds at most this often (trailing). */
export const BOUNDS_REQUEST_MS = 30;
/** A flashed shift whose outlines no frame could draw (no boxes came) goes after this long. */
export const FLASH_WAIT_MS = 5_000;

export interface OverlayDeps {
  store: RollupStore;
  /** Ask the agent which component is under a viewport point (Inspect mode). */
  hitTest(x: number, y: number): Promise<number | null>;
  /** The user pinned or unpinned a component on the canvas. */
  onPin(id: number | null): void;
  /** Ask for a flush (the controller throttles it to 33 ms); without it the overlay draws at once. */
  requestRender?(): void;
  /** Ask the agent to read bounds again: the page scrolled or the viewport changed. */
  requestBounds?(): void;
  /** Where the legend's dismissal is remembered (chrome.storage.local); null keeps it in memory. */
  legendStorage?: LegendStorage | null;
}

export class Overlay {
  mode: Mode = 'off';
  pinned: number | null = null;
  /** Highlight from the panel's table row hover. */
  hovered: number | null = null;
  /** The component under the pointer in Inspect mode. */
  inspectHover: number | null = null;
  capped = false;
  drawnCount = 0;
  /** Meters left out this frame: no free slot beside the others, or covered by a dialog or menu. */
  hiddenCount = 0;
  private canvasHost: CanvasHost | null = null;
  private readonly interaction: Interaction;
  private readonly legend: LegendState;
  private ticker: ReturnType<typeof setInterval> | null = null;
  private modeCaptionUntil = 0;
  private want: number[] = [];
  private drawnIds = new Set<number>();
  private chains = new Map<number, number[]>();
  private choice: (ChoiceKey & { choice: Choice<StoredComponent>; at: number }) | null = null;
  /** The last placement and what it was made from (kept while `samePlan`). */
  private plan: Plan<StoredComponent> | null = null;
  private planKey: PlanKey | null = null;
  /** The store's components as a tree, rebuilt only when they mount or unmount (`store.structure` moved). */
  private tree: { store: RollupStore; structure: number; tree: ComponentTree<StoredComponent> } | null = null;
  /** A library's or the framework's component: no meter of its own unless the user shows them (issue 44). */
  private readonly foreign = (n: StoredComponent): boolean => this.deps.store.sources?.foreign(n.typeId) ?? false;
  private boundsTimer: ReturnType<typeof setTimeout> | null = null;
  /** Where each drawn meter went (top-left, viewport CSS px). */
  private meterPositions = new Map<number, Point>();
  /** A layout shift outlined for a moment (issue 46), and when it goes. */
  private shiftFlash: ShiftFlash | null = null;
  /** How long the flash stays once a frame draws it; 0 once one has (its timer then runs). */
  private flashPendingMs = 0;
  private flashTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly deps: OverlayDeps, protected settings: Settings) {
    this.legend = new LegendState(deps.legendStorage ?? null);
    this.interaction = new Interaction({
      inspecting: () => this.mode === 'inspect',
      hovered: () => this.inspectHover,
      pinned: () => this.pinned,
      hitTest: (x, y) => this.deps.hitTest(x, y),
      setHovered: (id) => {
        if (id === this.inspectHover) return;
        this.inspectHover = id;
        this.requestBounds();
        this.requestRender();
      },
      pin: (id) => this.deps.onPin(id),
      escape: () => this.escape(),
      onLegend: (x, y) => {
        const r = this.canvasHost?.legendRect() ?? null;
        return r !== null && this.legend.visible() && x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height;
      },
      dismissLegend: () => {
        if (this.legend.dismiss()) this.requestRender();
      },
      // The agent re-reads bounds on scroll and resize by itself (it listens too); the canvas only redraws.
      viewportChanged: () => this.requestRender(),
    });
  }

  setSettings(s: Settings): void {
    this.settings = s;
    this.requestRender();
  }

  setMode(mode: Mode): void {
    const prev = this.mode;
    this.mode = mode;
    if (mode === 'off') {
      this.removeHost();
      this.legend.disabled();
      return;
    }
    if (mode !== 'inspect') this.inspectHover = null;
    this.ensureHost();
    if (prev === 'off') this.legend.enabled();
    if (prev !== mode) this.modeCaptionUntil = performance.now() + MODE_CAPTION_MS;
    this.render();
  }

  /**
   * Outlines a layout shift's cause and the components it moved for `ms`, in any mode but off (a shift as it happens,
   * or one picked in the panel's Vitals tab); a newer one replaces it. The `ms` run from the first frame that draws an
   * outline: the boxes come from the agent after its next frame, and on a loaded machine (2026-12-04: two other
   * browsers and a CPU hog beside the page) that took most of a short flash. Boxes that never come (the components
   * unmounted) end it after FLASH_WAIT_MS.
   */
  flash(cause: number | null, moved: readonly number[], ms: number): void {
    if (this.mode === 'off') return;
    const f: ShiftFlash = { cause: cause !== null && cause > 0 ? cause : null, moved: moved.filter((id) => id > 0).slice(0, 10) };
    if (f.cause === null && f.moved.length === 0) return;
    this.shiftFlash = f;
    this.flashPendingMs = ms;
    this.endFlashIn(FLASH_WAIT_MS);
    this.requestBounds();
    this.requestRender();
  }

  private endFlashIn(ms: number): void {
    if (this.flashTimer !== null) clearTimeout(this.flashTimer);
    this.flashTimer = setTimeout(() => {
      this.flashTimer = null;
      this.shiftFlash = null;
      this.requestRender();
    }, ms);
  }

  setPin(id: number | null): void {
    this.pinned = id;
  }

  setHover(id: number | null): void {
    this.hovered = id;
  }

  /** Ids whose bounds the agent should read after its next frame: pinned and hovered first, then the plan's (capped). */
  wantBounds(): number[] {
    if (this.mode === 'off') return [];
    const f = this.shiftFlash;
    const ids = [this.pinned, this.inspectHover, this.hovered, ...(f === null ? [] : [f.cause, ...f.moved])]
      .filter((id): id is number => id !== null && id !== 0);
    return [...new Set([...ids, ...this.want])];
  }

  /** Where the meter of `id` was last drawn, or null. */
  meterAt(id: number): Point | null {
    const p = this.meterPositions.get(id);
    return p ? { x: p.x, y: p.y } : null;
  }

  /** The components folded into the meter that shows `id` (shallowest first), for the panel. */
  chainOf(id: number): number[] {
    return this.chains.get(id) ?? [id];
  }

  /** Keeps our meters out of the page's screenshots (an experiment's pixel comparison). */
  hideForCapture(hidden: boolean): void {
    this.canvasHost?.setHidden(hidden);
  }

  get hostElement(): HTMLElement | null {
    return this.canvasHost?.host ?? null;
  }

  render(): void {
    const host = this.canvasHost;
    if (!host || this.mode === 'off') return;
    const vp = host.viewport();
    const { store } = this.deps;
    const s = this.settings;
    const input: PlanInput<StoredComponent> = {
      mode: this.mode, nodes: store.components.values(), get: (id) => store.components.get(id), page: store.page,
      viewport: vp, rtl: document.dir === 'rtl',
      rules: {
        layoutFraction: s.surfaceLayoutFraction, renderedFraction: s.surfaceRenderedFraction,
        inflationFactor: s.surfaceInflationFactor, msRamp: s.msRamp, inflationRamp: s.inflationRamp,
      },
      pinned: this.pinned, hovered: this.mode === 'inspect' ? this.inspectHover : null, highlighted: this.hovered,
      occluders: store.occluders,
      skip: s.showLibraries || store.sources === null ? undefined : this.foreign,
      flash: this.shiftFlash,
    };
    const choice = this.choose(input);
    const key: PlanKey = {
      choice, geometry: store.geometry, width: vp.width, height: vp.height, dpr: vp.dpr, rtl: input.rtl,
      pinned: input.pinned, hovered: input.hovered, highlighted: input.highlighted, flash: this.shiftFlash,
    };
    let plan = this.plan;
    if (plan === null || !samePlan(this.planKey, key)) {
      plan = this.plan = placeFrame(input, choice);
      this.planKey = key;
      this.want = plan.wantBounds;
      this.capped = plan.capped;
      this.hiddenCount = plan.hidden;
      this.chains.clear();
      this.meterPositions.clear();
      this.drawnIds.clear();
      for (const m of plan.meters) {
        this.meterPositions.set(m.node.id, { x: m.at.x, y: m.at.y });
        this.drawnIds.add(m.node.id);
        if (m.chain.length > 1) for (const n of m.chain) this.chains.set(n.id, m.chain.map((x) => x.id));
      }
      this.drawnCount = plan.meters.length;
    }
    if (this.shiftFlash !== null && this.flashPendingMs > 0 && plan.causeOutlines.length + plan.movedOutlines.length > 0) {
      this.endFlashIn(this.flashPendingMs);
      this.flashPendingMs = 0;
    }
    host.paint(this.paintFrame(plan, vp));
  }

  /**
   * The panel's hovered row as the canvas last drew it (its placement's key): what the panel's status says is outlined
   * on the page. The redraw follows a hover within RENDER_INTERVAL_MS, later on a loaded machine; a status sent between
   * them said an outline was gone while the page still showed it.
   */
  get drawnHover(): number | null {
    return this.planKey?.highlighted ?? null;
  }

  /** What this flush shows, placed: the host draws it. */
  private paintFrame(plan: Plan<StoredComponent>, vp: PaintFrame['vp']): PaintFrame {
    const s = this.settings;
    const labels: PaintLabel[] = [];
    for (const m of plan.meters) if (m.label !== null) labels.push({ text: m.label, at: m.at });
    const captions: PaintCaption[] = plan.captions.map((c) => {
      const n = c.node;
      if (c.shiftCause) return { lines: [`Layout shift: caused by ${n.name}`], at: c.at, bounds: n.bounds, pinned: false, shiftCause: true };
      return { lines: [pinCaption(n.name, n.layout, n.authored, n.rendered, n.portaledIn)], at: c.at, bounds: n.bounds, pinned: c.pinned };
    });
    return {
      vp, outlines: plan.outlines, covers: plan.outlineCovers as PaintFrame['covers'], accent: plan.accentOutlines, pin: plan.pinOutline,
      shiftCause: plan.causeOutlines, shiftMoved: plan.movedOutlines,
      meters: plan.meters.map((m) => this.meterDraw(m)), labels, captions,
      modeCaption: performance.now() < this.modeCaptionUntil ? modeCaption(this.mode) : null,
      legend: this.legend.visible() ? legendLines(s) : null,
      style: { meterStyle: s.meterStyle, msRamp: s.msRamp, inflationRamp: s.inflationRamp, colorBlind: s.colorBlind },
    };
  }

  /**
   * Which components may get a meter: O(all components), so it is reused
   * while it stands (choice.ts: nothing reached the store since, or only
   * numbers within CHOICE_REFRESH_MS). Between choices only the chosen few
   * (and the pinned and hovered ones) have their EMAs decayed to now.
   */
  private choose(input: PlanInput<StoredComponent>): Choice<StoredComponent> {
    const { store } = this.deps;
    const now = performance.now();
    const key: ChoiceKey = {
      mode: this.mode, settings: this.settings, structure: store.structure, version: store.version, frameNo: store.frameNo,
      sources: store.sources?.drawVersion ?? 0,
    };
    const c = this.choice;
    const reuse = choiceReuse(c, key, now, CHOICE_REFRESH_MS);
    if (c && reuse === 'same') return c.choice;
    if (c && reuse === 'recent') {
      // Unmounted since: drop them (a remount is a new object). The same choice object while none did (the placement
      // is kept while it stands: samePlan).
      const live = c.choice.chosen.filter((n) => n.id === 0 || store.components.get(n.id) === n);
      for (const n of live) store.decay(n);
      for (const id of [this.pinned, this.inspectHover]) if (id !== null) this.decay(id);
      if (live.length !== c.choice.chosen.length) c.choice = { ...c.choice, chosen: live };
      return c.choice;
    }
    if (this.mode !== 'inspect') store.components.forEach((n) => store.decay(n));
    else for (const id of [this.pinned, this.inspectHover]) if (id !== null) this.decay(id);
    store.decay(store.page);
    const t = this.tree;
    if (this.mode === 'components' && (t === null || t.store !== store || t.structure !== store.structure)) {
      this.tree = { store, structure: store.structure, tree: buildTree(store.components.values()) };
    }
    const choice = chooseFrame(this.mode === 'components' ? { ...input, tree: this.tree!.tree } : input);
    this.choice = { ...key, choice, at: now };
    return choice;
  }

  private decay(id: number): void {
    const c = this.deps.store.components.get(id);
    if (c) this.deps.store.decay(c);
  }

  private meterDraw(m: PlannedMeter<StoredComponent>): AtlasMeter {
    const c = m.node;
    const cost = c.cost;
    const bucket = this.deps.store.advanceSparkline(c);
    const oldest = bucket === undefined ? 0 : (bucket + 1) % SPARKLINE_BUCKETS;
    return {
      x: m.at.x, y: m.at.y, layoutMs: c.layout, authored: c.authored, rendered: ownRendered(c),
      spark: cost?.spark ?? null, sparkOldest: oldest, sparkBucket: bucket,
    };
  }

  private escape(): void {
    if (this.mode !== 'off' && this.pinned !== null) this.deps.onPin(null);
  }

  private requestBounds(): void {
    if (this.boundsTimer !== null || !this.deps.requestBounds) return;
    this.boundsTimer = setTimeout(() => {
      this.boundsTimer = null;
      if (this.mode !== 'off') this.deps.requestBounds?.();
    }, BOUNDS_REQUEST_MS);
  }

  private requestRender(): void {
    if (this.deps.requestRender) this.deps.requestRender();
    else this.render();
  }

  private ensureHost(): void {
    if (this.canvasHost) return;
    this.canvasHost = new CanvasHost(() => this.requestRender());
    this.interaction.attach();
    this.ticker = setInterval(() => this.requestRender(), IDLE_TICK_MS);
  }

  private removeHost(): void {
    this.canvasHost?.remove();
    this.canvasHost = null;
    this.interaction.detach();
    if (this.ticker !== null) clearInterval(this.ticker);
    this.ticker = null;
    this.inspectHover = null;
    this.shiftFlash = null;
    if (this.flashTimer !== null) clearTimeout(this.flashTimer);
    this.flashTimer = null;
    this.drawnIds.clear();
    this.chains.clear();
    this.meterPositions.clear();
    this.choice = null;
    this.plan = null;
    this.planKey = null;
    this.tree = null;
    this.want = [];
    this.drawnCount = 0;
    this.hiddenCount = 0;
    this.capped = false;
  }
}
