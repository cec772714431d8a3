/**
 * The in-page half of bench/canvas-flush.ts, bundled by esbuild and run in
 * headless Chromium on a real 2D canvas: the same planner and painters the
 * content script flushes with (src/overlay), on synthetic components.
 *
 * A flush is what Overlay.render() does per frame: clear, outlines, meters
 * (rasterised into the atlas where their content changed, then one blit
 * each), the pinned caption — and, in the "plan + paint"
 * variant, the planning over every mounted component first (EMA-free: the
 * synthetic nodes hold their decayed ms already).
 */
import { MeterAtlas, type AtlasMeter, type AtlasSurface } from '../src/overlay/atlas';
import type { MeterStyle } from '../src/overlay/meter-raster';
import { paintOutlines } from '../src/overlay/paint-meters';
import { measureLines, paintLines, pinCaption, placeCaption } from '../src/overlay/paint-text';
import { chooseFrame, placeFrame, type Choice, type PlanInput } from '../src/overlay/plan';
import { DEFAULT_SETTINGS } from '../src/overlay/settings';
import type { Viewport, WritableCostNode } from '../src/overlay/types';

interface BenchNode extends WritableCostNode {
  spark: Float32Array;
  name: string;
}

export interface FlushCase {
  /** Components mounted; every one but the root surfaces (inflated), so the plan keeps min(n, cap). */
  components: number;
  dpr: number;
  meterStyle: 'sparkline' | 'bars';
  colorBlind: boolean;
  /**
   * Plan (place the chosen meters) every flush, and choose them — O(all
   * components) — every this many flushes: 1 is the worst case, 8 what the
   * renderer does (a choice is reused for 250 ms, flushes come every 33 ms).
   * 0 paints one ready plan over and over (paint cost only).
   */
  chooseEvery: number;
  /** Read one pixel back after each flush: forces the canvas to rasterise what was recorded. */
  raster: boolean;
  samples: number;
  /** Flushes per timed sample (performance.now() is 0.1 ms coarse here). */
  batch: number;
  /**
   * Flushes per sparkline bucket: 3 is the real cadence (33 ms flushes, 100 ms
   * buckets), so two flushes in three reuse the columns; 1 recomputes every
   * sparkline every flush (the worst case).
   */
  flushesPerBucket: number;
  /** Draw nothing but the clear: the floor of a flush (and, with raster, of the read-back). */
  empty?: boolean;
}

/** A deterministic pseudo-random sequence, so every run draws the same picture. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function makeNodes(n: number, vp: Viewport): BenchNode[] {
  const rand = rng(42);
  const cols = 20, cellW = vp.width / cols, cellH = 44;
  const rows = Math.ceil(vp.height / cellH);
  const nodes: BenchNode[] = [{
    id: 1, parentId: null, depth: 0, layout: 20, authored: n * 2, rendered: n * 3, name: 'App',
    bounds: { x: 0, y: 0, width: vp.width, height: vp.height }, spark: new Float32Array(60),
  }];
  // n components besides the page's own node (App, the plan's `page`, which gets no meter).
  for (let i = 0; i < n; i++) {
    const slot = i % (cols * rows);
    const spark = new Float32Array(60);
    for (let b = 0; b < 60; b++) spark[b] = rand() < 0.3 ? rand() * 30 : 0;
    nodes.push({
      id: i + 2, parentId: 1, depth: 1, layout: rand() * 20, authored: 1 + Math.floor(rand() * 20),
      rendered: 100 + Math.floor(rand() * 400), name: `Cell${i}`, spark,
      bounds: { x: (slot % cols) * cellW + 2, y: Math.floor(slot / cols) * cellH + 2, width: cellW - 4, height: cellH - 4 },
    });
  }
  return nodes;
}

let flushNo = 0;

/** What the content script's surface factory does: ImageData pixels uploaded into an OffscreenCanvas. */
function makeSurface(width: number, height: number): AtlasSurface | null {
  const canvas = new OffscreenCanvas(width, height);
  const ctx = canvas.getContext('2d')!;
  const image = new ImageData(width, height);
  return { pixels: image, source: canvas, upload: (x, y, w, h) => ctx.putImageData(image, 0, 0, x, y, w, h) };
}

function planInput(nodes: BenchNode[], byId: Map<number, BenchNode>, vp: Viewport): PlanInput<BenchNode> {
  return {
    mode: 'components', nodes, get: (id) => byId.get(id), page: nodes[0], viewport: vp, rtl: false,
    rules: {
      layoutFraction: 0.5, renderedFraction: 0.5, inflationFactor: 2,
      msRamp: DEFAULT_SETTINGS.msRamp, inflationRamp: DEFAULT_SETTINGS.inflationRamp,
    },
    pinned: 2, hovered: null, highlighted: null,
  };
}

let choice: Choice<BenchNode> | null = null;

function flush(
  ctx: CanvasRenderingContext2D, canvas: HTMLCanvasElement, nodes: BenchNode[], byId: Map<number, BenchNode>,
  vp: Viewport, style: MeterStyle, c: FlushCase, atlas: MeterAtlas, ready: ReturnType<typeof placeFrame<BenchNode>> | null,
): number {
  if (c.empty) {
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    return 0;
  }
  // The ring moves on every `flushesPerBucket` flushes, as a bucket ends.
  const n = flushNo++;
  const bucket = Math.floor(n / c.flushesPerBucket);
  let plan = ready;
  if (!plan) {
    const input = planInput(nodes, byId, vp);
    if (!choice || n % c.chooseEvery === 0) choice = chooseFrame(input);
    plan = placeFrame(input, choice);
  }
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  paintOutlines(ctx, plan.outlines, vp.dpr);
  const draws: AtlasMeter[] = plan.meters.map((m) => ({
    x: m.at.x, y: m.at.y, layoutMs: m.node.layout, authored: m.node.authored, rendered: m.node.rendered,
    spark: m.node.spark, sparkOldest: bucket % 60, sparkBucket: bucket,
  }));
  atlas.paint(ctx, draws, vp.dpr, style);
  for (const c of plan.captions) {
    const lines = [pinCaption(c.node.name, c.node.layout, c.node.authored, c.node.rendered)];
    const at = placeCaption(c.at, measureLines(ctx, lines, vp.dpr), vp, c.node.bounds);
    paintLines(ctx, lines, at.x, at.y, vp.dpr);
  }
  return plan.meters.length;
}

export function runFlushBench(c: FlushCase): { meters: number; samplesMs: number[] } {
  const vp: Viewport = { width: 1280, height: 900, dpr: c.dpr };
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(vp.width * c.dpr);
  canvas.height = Math.round(vp.height * c.dpr);
  canvas.style.cssText = 'position:fixed;inset:0;width:100vw;height:100vh;pointer-events:none';
  document.body.appendChild(canvas);
  const ctx = canvas.getContext('2d')!;
  const nodes = makeNodes(c.components, vp);
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const style: MeterStyle = {
    meterStyle: c.meterStyle, msRamp: DEFAULT_SETTINGS.msRamp, inflationRamp: DEFAULT_SETTINGS.inflationRamp, colorBlind: c.colorBlind,
  };
  const atlas = new MeterAtlas(makeSurface);
  choice = null;
  const ready = c.chooseEvery === 0 ? placeFrame(planInput(nodes, byId, vp), chooseFrame(planInput(nodes, byId, vp))) : null;
  let meters = 0;
  for (let i = 0; i < 20; i++) meters = flush(ctx, canvas, nodes, byId, vp, style, c, atlas, ready); // warm-up (JIT)
  const samplesMs: number[] = [];
  for (let s = 0; s < c.samples; s++) {
    const t0 = performance.now();
    for (let b = 0; b < c.batch; b++) {
      flush(ctx, canvas, nodes, byId, vp, style, c, atlas, ready);
      if (c.raster) ctx.getImageData(0, 0, 1, 1);
    }
    samplesMs.push((performance.now() - t0) / c.batch);
  }
  canvas.remove();
  return { meters, samplesMs };
}

(globalThis as unknown as { runFlushBench: typeof runFlushBench }).runFlushBench = runFlushBench;
