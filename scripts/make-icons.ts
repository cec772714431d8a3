/**
 * Draws the extension's toolbar and store icons (icons/icon{16,32,48,128}.png):
 * a dark rounded tile, the overlay's meter, with a rising sparkline coloured
 * along the cost ramp (green → yellow → orange → red). A dark tile with bright
 * strokes and a light rim reads on both light and dark toolbars.
 *
 *   npx tsx scripts/make-icons.ts            rewrite icons/*.png
 *   npx tsx scripts/make-icons.ts --preview  also write out/icons-preview.png
 *                                            (each icon on light and dark, enlarged)
 *
 * Only Node built-ins: shapes are signed-distance functions sampled 16 × 16
 * per pixel (supersampling is the anti-aliasing), and zlib encodes the PNG.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { ROOT } from './chrome';

type Rgba = [number, number, number, number];

interface IconSpec {
  size: number;
  /** Transparent margin around the tile, px (Chrome's store guideline: 16 px at 128). */
  padPx: number;
  strokePx: number;
  /** End-of-line dot, px radius; 0 where it would only blur the line. */
  dotPx: number;
  /** The sparkline in tile units (0–1, y down). */
  line: [number, number][];
  /** Opacity of the wash under the line; at 16 px it only muddies the stroke. */
  washAlpha: number;
}

/** A cost that wobbles, then climbs. */
const LINE: [number, number][] = [[0.14, 0.7], [0.3, 0.56], [0.43, 0.66], [0.58, 0.4], [0.7, 0.5], [0.86, 0.22]];
/** At 16 px five segments turn to mush: three bolder ones keep the shape readable. */
const LINE_SMALL: [number, number][] = [[0.12, 0.74], [0.36, 0.5], [0.56, 0.64], [0.88, 0.18]];

const SPECS: IconSpec[] = [
  { size: 16, padPx: 0, strokePx: 2.1, dotPx: 0, line: LINE_SMALL, washAlpha: 0 },
  { size: 32, padPx: 1, strokePx: 2.8, dotPx: 2.6, line: LINE, washAlpha: 0.22 },
  { size: 48, padPx: 2, strokePx: 3.8, dotPx: 3.6, line: LINE, washAlpha: 0.28 },
  { size: 128, padPx: 16, strokePx: 7, dotPx: 7.5, line: LINE, washAlpha: 0.28 },
];
const SAMPLES_PER_AXIS = 16;
const TILE_RADIUS = 0.22;
const RIM_PX = 1;
const WASH_BOTTOM = 0.86;
/** The ramp of the overlay's layout-ms meter (SPEC §3), as colour stops along x. */
const RAMP: [number, Rgba][] = [
  [0.14, [34, 197, 94, 1]], [0.45, [234, 179, 8, 1]], [0.68, [249, 115, 22, 1]], [0.86, [239, 68, 68, 1]],
];
const TILE_TOP: Rgba = [46, 52, 66, 1];
const TILE_BOTTOM: Rgba = [22, 25, 33, 1];
const RIM: Rgba = [255, 255, 255, 0.2];

const mix = (a: number, b: number, t: number): number => a + (b - a) * t;
const clamp01 = (t: number): number => Math.min(1, Math.max(0, t));

function ramp(x: number): Rgba {
  if (x <= RAMP[0][0]) return RAMP[0][1];
  for (let i = 1; i < RAMP.length; i++) {
    const [x1, c1] = RAMP[i];
    const [x0, c0] = RAMP[i - 1];
    if (x <= x1) {
      const t = (x - x0) / (x1 - x0);
      return [mix(c0[0], c1[0], t), mix(c0[1], c1[1], t), mix(c0[2], c1[2], t), 1];
    }
  }
  return RAMP[RAMP.length - 1][1];
}

/** Signed distance to a rounded box centred at (cx, cy): negative inside. */
function roundedBox(x: number, y: number, cx: number, cy: number, half: number, r: number): number {
  const qx = Math.abs(x - cx) - half + r;
  const qy = Math.abs(y - cy) - half + r;
  return Math.hypot(Math.max(qx, 0), Math.max(qy, 0)) + Math.min(Math.max(qx, qy), 0) - r;
}

/** Distance to the polyline and the x of the nearest point on it (for a continuous colour). */
function nearestOnLine(x: number, y: number, pts: [number, number][]): { d: number; x: number } {
  let best = { d: Infinity, x: pts[0][0] };
  for (let i = 1; i < pts.length; i++) {
    const [ax, ay] = pts[i - 1];
    const [bx, by] = pts[i];
    const t = clamp01(((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2));
    const px = ax + (bx - ax) * t;
    const d = Math.hypot(x - px, y - (ay + (by - ay) * t));
    if (d < best.d) best = { d, x: px };
  }
  return best;
}

/** The line's y at x (linear between points), for the area under it. */
function lineY(x: number, pts: [number, number][]): number {
  for (let i = 1; i < pts.length; i++) {
    if (x <= pts[i][0]) return mix(pts[i - 1][1], pts[i][1], (x - pts[i - 1][0]) / (pts[i][0] - pts[i - 1][0]));
  }
  return pts[pts.length - 1][1];
}

/** Porter–Duff "over" on straight-alpha colours. */
function over(dst: Rgba, src: Rgba): Rgba {
  const a = src[3] + dst[3] * (1 - src[3]);
  if (a === 0) return [0, 0, 0, 0];
  const ch = (i: number): number => (src[i] * src[3] + dst[i] * dst[3] * (1 - src[3])) / a;
  return [ch(0), ch(1), ch(2), a];
}

/** The colour of one sample point, in px coordinates of the icon. */
function shade(spec: IconSpec, x: number, y: number): Rgba {
  const tile = spec.size - 2 * spec.padPx;
  const c = spec.size / 2;
  const box = roundedBox(x, y, c, c, tile / 2, tile * TILE_RADIUS);
  if (box > 0) return [0, 0, 0, 0];
  const u = (x - spec.padPx) / tile;
  const v = (y - spec.padPx) / tile;
  let out: Rgba = [mix(TILE_TOP[0], TILE_BOTTOM[0], v), mix(TILE_TOP[1], TILE_BOTTOM[1], v), mix(TILE_TOP[2], TILE_BOTTOM[2], v), 1];
  if (box > -RIM_PX) out = over(out, RIM);
  const line = spec.line;
  // A faint wash under the line, fading towards the bottom: the meter's "area" reading.
  const top = lineY(u, line);
  if (spec.washAlpha > 0 && u >= line[0][0] && u <= line[line.length - 1][0] && v > top && v < WASH_BOTTOM) {
    const [r, g, b] = ramp(u);
    out = over(out, [r, g, b, spec.washAlpha * (1 - (v - top) / (WASH_BOTTOM - top))]);
  }
  const near = nearestOnLine(u, v, line);
  if (near.d * tile <= spec.strokePx / 2) out = over(out, ramp(near.x));
  if (spec.dotPx > 0) {
    const [ex, ey] = line[line.length - 1];
    const d = Math.hypot(u - ex, v - ey) * tile;
    if (d <= spec.dotPx + RIM_PX * 1.2) out = over(out, [22, 25, 33, 1]);
    if (d <= spec.dotPx) out = over(out, ramp(1));
  }
  return out;
}

export function render(spec: IconSpec): Buffer {
  const { size } = spec;
  const rgba = Buffer.alloc(size * size * 4);
  const n = SAMPLES_PER_AXIS;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      // Average premultiplied samples, so transparent samples do not darken the edge.
      let r = 0, g = 0, b = 0, a = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const s = shade(spec, px + (sx + 0.5) / n, py + (sy + 0.5) / n);
          r += s[0] * s[3]; g += s[1] * s[3]; b += s[2] * s[3]; a += s[3];
        }
      }
      const o = (py * size + px) * 4;
      rgba[o] = a ? Math.round(r / a) : 0;
      rgba[o + 1] = a ? Math.round(g / a) : 0;
      rgba[o + 2] = a ? Math.round(b / a) : 0;
      rgba[o + 3] = Math.round((a / (n * n)) * 255);
    }
  }
  return rgba;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([head.subarray(4), data])) >>> 0, 0);
  return Buffer.concat([head, data, crc]);
}

/** A minimal PNG: 8-bit RGBA, no interlace, filter 0 on every row. */
export function encodePng(width: number, height: number, rgba: Buffer): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) rgba.copy(raw, y * (width * 4 + 1) + 1, y * width * 4, (y + 1) * width * 4);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Every icon enlarged (nearest neighbour) on a light and a dark toolbar colour, for eyeballing. */
function preview(icons: { spec: IconSpec; rgba: Buffer }[]): Buffer {
  const scale = 8;
  const cell = 128 + 24;
  const backgrounds: Rgba[] = [[241, 243, 244, 1], [32, 33, 36, 1]];
  const width = cell * icons.length + 128 * 2;
  const height = cell * backgrounds.length;
  const out = Buffer.alloc(width * height * 4);
  backgrounds.forEach((bg, row) => {
    for (let y = row * cell; y < (row + 1) * cell; y++) {
      for (let x = 0; x < width; x++) out.set([bg[0], bg[1], bg[2], 255], (y * width + x) * 4);
    }
    // Actual size first (what the toolbar shows), then enlarged.
    let ax = 8;
    const blit = (icon: { spec: IconSpec; rgba: Buffer }, k: number, ox: number, oy: number): void => {
      const s = icon.spec.size;
      for (let y = 0; y < s * k; y++) {
        for (let x = 0; x < s * k; x++) {
          const i = (Math.floor(y / k) * s + Math.floor(x / k)) * 4;
          const o = ((oy + y) * width + ox + x) * 4;
          const px = over([bg[0], bg[1], bg[2], 1], [icon.rgba[i], icon.rgba[i + 1], icon.rgba[i + 2], icon.rgba[i + 3] / 255]);
          out.set([px[0], px[1], px[2], 255].map(Math.round), o);
        }
      }
    };
    for (const icon of icons) {
      blit(icon, 1, ax, row * cell + 12);
      ax += icon.spec.size + 8;
    }
    icons.forEach((icon, i) => {
      const k = Math.max(1, Math.min(scale, Math.floor(128 / icon.spec.size)));
      blit(icon, k, 256 + i * cell, row * cell + 12);
    });
  });
  return encodePng(width, height, out);
}

function main(): void {
  const dir = path.join(ROOT, 'icons');
  fs.mkdirSync(dir, { recursive: true });
  const icons = SPECS.map((spec) => ({ spec, rgba: render(spec) }));
  for (const { spec, rgba } of icons) {
    const file = path.join(dir, `icon${spec.size}.png`);
    fs.writeFileSync(file, encodePng(spec.size, spec.size, rgba));
    console.log(`wrote ${path.relative(ROOT, file)}`);
  }
  if (process.argv.includes('--preview')) {
    const file = path.join(ROOT, 'out', 'icons-preview.png');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, preview(icons));
    console.log(`wrote ${path.relative(ROOT, file)}`);
  }
}

main();
