/**
 * The overlay: one host element with a closed shadow root holding one
 * canvas, fixed over the viewport, `pointer-events: none`, `contain: strict`.
 * Created on first enable, removed on disable.
 *
 * FOUNDATION VERSION: draws outlines of components with bounds; the meters,
 * modes and interaction arrive with the overlay issue.
 */
import type { Mode, Settings } from '../../protocol';
import type { RollupStore } from '../store';

export interface OverlayDeps {
  store: RollupStore;
  /** Ask the agent which component is under a viewport point (Inspect mode). */
  hitTest(x: number, y: number): Promise<number | null>;
  /** The user pinned or unpinned a component on the canvas. */
  onPin(id: number | null): void;
}

export class Overlay {
  mode: Mode = 'off';
  pinned: number | null = null;
  hovered: number | null = null;
  capped = false;
  drawnCount = 0;
  private host: HTMLElement | null = null;
  private canvas: HTMLCanvasElement | null = null;

  constructor(private readonly deps: OverlayDeps, protected settings: Settings) {}

  setSettings(s: Settings): void {
    this.settings = s;
  }

  setMode(mode: Mode): void {
    this.mode = mode;
    if (mode === 'off') this.removeHost();
    else this.ensureHost();
  }

  setPin(id: number | null): void {
    this.pinned = id;
  }

  /** Highlight from the panel's table row hover. */
  setHover(id: number | null): void {
    this.hovered = id;
  }

  /** Ids whose bounds the agent should read after the next frame. */
  wantBounds(): number[] {
    if (this.mode === 'off') return [];
    const out: number[] = [];
    for (const c of this.deps.store.components.values()) {
      out.push(c.id);
      if (out.length >= 300) break;
    }
    return out;
  }

  render(): void {
    const canvas = this.canvas;
    if (!canvas) return;
    const dpr = window.devicePixelRatio || 1;
    const w = Math.round(window.innerWidth * dpr), h = Math.round(window.innerHeight * dpr);
    if (canvas.width !== w || canvas.height !== h) {
      canvas.width = w;
      canvas.height = h;
    }
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, w, h);
    ctx.strokeStyle = 'rgba(80,200,120,0.9)';
    ctx.lineWidth = 1;
    let drawn = 0;
    for (const c of this.deps.store.components.values()) {
      c.drawn = false;
      const b = c.bounds;
      if (!b || b.width < 40 || b.height < 40) continue;
      ctx.strokeRect(Math.round(b.x * dpr) + 0.5, Math.round(b.y * dpr) + 0.5, Math.round(b.width * dpr) - 1, Math.round(b.height * dpr) - 1);
      c.drawn = true;
      drawn++;
    }
    this.drawnCount = drawn;
  }

  private ensureHost(): void {
    if (this.host) return;
    const host = document.createElement('layout-cost-overlay');
    host.setAttribute('aria-hidden', 'true');
    host.style.cssText =
      'position:fixed!important;inset:0!important;width:100vw!important;height:100vh!important;' +
      'pointer-events:none!important;contain:strict!important;z-index:2147483647!important;' +
      'margin:0!important;padding:0!important;border:0!important;display:block!important;background:none!important';
    const shadow = host.attachShadow({ mode: 'closed' });
    const canvas = document.createElement('canvas');
    canvas.style.cssText = 'position:absolute;left:0;top:0;width:100%;height:100%;pointer-events:none';
    shadow.appendChild(canvas);
    (document.documentElement || document).appendChild(host);
    this.host = host;
    this.canvas = canvas;
  }

  private removeHost(): void {
    this.host?.remove();
    this.host = null;
    this.canvas = null;
    for (const c of this.deps.store.components.values()) c.drawn = false;
    this.drawnCount = 0;
  }

  get hostElement(): HTMLElement | null {
    return this.host;
  }
}
