/**
 * Test doubles for the overlay math: a node factory and a DrawContext that
 * records every call and rasterises fillRect/rect+fill into a tiny RGBA
 * grid, so painters can be checked by the pixels they would set.
 */
import type { DrawContext, Rect, WritableCostNode } from '../../src/overlay/types';

export interface TestNode extends WritableCostNode {
  name?: string;
}

export function node(id: number, o: Partial<TestNode> = {}): TestNode {
  return { id, parentId: null, depth: 0, layout: 0, authored: 1, rendered: 1, bounds: null, ...o };
}

/** Builds a parent → children tree from [id, parentId] pairs, depths filled in. */
export function tree(spec: [number, number | null, Partial<TestNode>?][]): Map<number, TestNode> {
  const m = new Map<number, TestNode>();
  for (const [id, parentId, o] of spec) m.set(id, node(id, { parentId, ...o }));
  for (const n of m.values()) {
    let d = 0;
    for (let p = n.parentId; p !== null && m.has(p) && d < 1000; p = m.get(p)!.parentId) d++;
    n.depth = d;
  }
  return m;
}

export interface Call {
  op: string;
  args: unknown[];
  fill?: unknown;
}

export class FakeContext implements DrawContext {
  fillStyle: unknown = '#000';
  strokeStyle: unknown = '#000';
  lineWidth = 1;
  font = '10px sans-serif';
  textBaseline = 'alphabetic';
  globalAlpha = 1;
  calls: Call[] = [];
  /** Rects of the current path (rect() only). */
  private path: Rect[] = [];
  /** Every rect that got filled, with the fill it got. */
  fills: { rect: Rect; fill: unknown }[] = [];
  texts: { text: string; x: number; y: number; fill: unknown }[] = [];

  private log(op: string, ...args: unknown[]): void {
    this.calls.push({ op, args });
  }
  setTransform(...a: number[]): void { this.log('setTransform', ...a); }
  clearRect(...a: number[]): void { this.log('clearRect', ...a); }
  fillRect(x: number, y: number, width: number, height: number): void {
    this.log('fillRect', x, y, width, height);
    this.fills.push({ rect: { x, y, width, height }, fill: this.fillStyle });
  }
  beginPath(): void { this.path = []; this.log('beginPath'); }
  closePath(): void { this.log('closePath'); }
  rect(x: number, y: number, width: number, height: number): void {
    this.path.push({ x, y, width, height });
    this.log('rect', x, y, width, height);
  }
  moveTo(...a: number[]): void { this.log('moveTo', ...a); }
  lineTo(...a: number[]): void { this.log('lineTo', ...a); }
  arcTo(...a: number[]): void { this.log('arcTo', ...a); }
  fill(): void {
    this.log('fill');
    for (const r of this.path) this.fills.push({ rect: r, fill: this.fillStyle });
  }
  /** Axis-aligned rect paths only: records the pixels each stroked edge covers as filled rects. */
  stroke(): void {
    this.log('stroke');
    const t = this.lineWidth;
    for (const r of this.path) {
      const edges: Rect[] = [
        { x: r.x - t / 2, y: r.y - t / 2, width: r.width + t, height: t },
        { x: r.x - t / 2, y: r.y + r.height - t / 2, width: r.width + t, height: t },
        { x: r.x - t / 2, y: r.y + t / 2, width: t, height: r.height - t },
        { x: r.x + r.width - t / 2, y: r.y + t / 2, width: t, height: r.height - t },
      ];
      for (const e of edges) this.fills.push({ rect: e, fill: this.strokeStyle });
    }
  }
  save(): void { this.log('save'); }
  restore(): void { this.log('restore'); }
  clip(fillRule?: string): void { this.log('clip', fillRule ?? 'nonzero'); }
  fillText(text: string, x: number, y: number): void {
    this.log('fillText', text, x, y);
    this.texts.push({ text, x, y, fill: this.fillStyle });
  }
  measureText(text: string): { width: number } {
    const px = Number(/(\d+)px/.exec(this.font)?.[1] ?? 10);
    return { width: text.length * px * 0.6 };
  }

  count(op: string): number {
    return this.calls.filter((c) => c.op === op).length;
  }

  /** The fill covering device pixel (x, y) last, or undefined. */
  fillAt(x: number, y: number): unknown {
    let found: unknown;
    for (const f of this.fills) {
      const r = f.rect;
      if (x >= r.x && x < r.x + r.width && y >= r.y && y < r.y + r.height) found = f.fill;
    }
    return found;
  }
}
