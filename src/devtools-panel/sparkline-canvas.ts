/**
 * The pinned component's larger sparkline: one bar per 100 ms bucket (max
 * layout ms within it), oldest on the left, colored by the ms ramp, on a
 * canvas sized to its CSS box × devicePixelRatio so bars stay crisp. The
 * vertical scale is the larger of the ramp's red threshold and the peak,
 * so a quiet component reads as quiet rather than being stretched to full
 * height.
 */
import { rampLevel } from '../overlay/ramps';

export interface SparkColors {
  levels: [string, string, string, string];
  grid: string;
  text: string;
  colorBlind: boolean;
}

export function drawSparkline(
  canvas: HTMLCanvasElement, values: readonly number[], ramp: readonly [number, number, number], colors: SparkColors,
): void {
  const dpr = window.devicePixelRatio || 1;
  const cssW = Math.max(1, canvas.clientWidth), cssH = Math.max(1, canvas.clientHeight);
  const w = Math.round(cssW * dpr), h = Math.round(cssH * dpr);
  if (canvas.width !== w || canvas.height !== h) {
    canvas.width = w;
    canvas.height = h;
  }
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.clearRect(0, 0, w, h);
  const peak = values.reduce((m, v) => (v > m ? v : m), 0);
  const scale = Math.max(ramp[2] * 1.25, peak, 1e-6);
  // Threshold guides: yellow, orange, red steps, snapped to whole device pixels.
  ctx.fillStyle = colors.grid;
  for (const t of ramp) {
    if (t > scale) continue;
    const y = Math.round(h - (t / scale) * h);
    ctx.fillRect(0, Math.min(h - 1, y), w, Math.max(1, Math.round(dpr / 2)));
  }
  const n = values.length;
  if (n === 0) return;
  const slot = w / n;
  const gap = slot >= 4 ? Math.round(dpr) : 0;
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (!(v > 0)) continue;
    const x0 = Math.round(i * slot), x1 = Math.round((i + 1) * slot) - gap;
    const bh = Math.max(Math.round(dpr), Math.round((Math.min(v, scale) / scale) * h));
    const lvl = rampLevel(v, ramp);
    ctx.fillStyle = colors.levels[lvl];
    ctx.fillRect(x0, h - bh, Math.max(1, x1 - x0), bh);
    if (colors.colorBlind && lvl >= 2) stripe(ctx, x0, h - bh, Math.max(1, x1 - x0), bh, dpr);
  }
  ctx.fillStyle = colors.text;
  ctx.font = `${Math.round(10 * dpr)}px system-ui, sans-serif`;
  ctx.textBaseline = 'top';
  ctx.fillText(`max ${peak.toFixed(peak < 10 ? 2 : 1)} ms`, Math.round(4 * dpr), Math.round(2 * dpr));
}

/** Diagonal stripes: the color-blind-safe cue for orange and red (SPEC §3). */
function stripe(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, dpr: number): void {
  ctx.save();
  ctx.beginPath();
  ctx.rect(x, y, w, h);
  ctx.clip();
  ctx.strokeStyle = 'rgba(0,0,0,0.55)';
  ctx.lineWidth = Math.max(1, dpr);
  const step = 4 * dpr;
  ctx.beginPath();
  for (let d = -h; d < w + h; d += step) {
    ctx.moveTo(x + d, y + h);
    ctx.lineTo(x + d + h, y);
  }
  ctx.stroke();
  ctx.restore();
}

/** Reads the ramp colors from CSS custom properties, so the canvas follows the theme. */
export function sparkColorsFrom(el: Element, colorBlind: boolean): SparkColors {
  const cs = getComputedStyle(el);
  const v = (name: string, fallback: string) => cs.getPropertyValue(name).trim() || fallback;
  return {
    levels: [v('--lvl-0', '#3fb950'), v('--lvl-1', '#d4b000'), v('--lvl-2', '#f0883e'), v('--lvl-3', '#f85149')],
    grid: v('--spark-grid', 'rgba(128,128,128,0.35)'),
    text: v('--fg-dim', '#888'),
    colorBlind,
  };
}
