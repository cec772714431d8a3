/**
 * Two plain custom elements, so the side panel has DOM that React never
 * authored: `<stat-card>` keeps an OPEN shadow root (~10 elements the
 * overlay's "rendered" count should include) and `<sealed-gauge>` a CLOSED
 * one (only reachable through the extension's attachShadow wrapper).
 * Styles go through adoptedStyleSheets rather than <style> so the demo also
 * works under a strict CSP.
 */

const STAT_CARD_CSS = `
:host { display: block; font: 12px/1.3 system-ui, sans-serif; color: #1f2937; }
.card { border: 1px solid #e5e7eb; border-radius: 8px; padding: 8px 10px; background: #fff; }
.head { display: flex; align-items: center; gap: 6px; color: #6b7280; }
.dot { width: 8px; height: 8px; border-radius: 50%; background: #10b981; }
.value { font-size: 18px; font-weight: 600; margin: 2px 0 4px; font-variant-numeric: tabular-nums; }
.bars { display: flex; align-items: flex-end; gap: 3px; height: 18px; }
.bars i { flex: 1; background: #93c5fd; border-radius: 2px 2px 0 0; }
`;

const GAUGE_CSS = `
:host { display: block; font: 11px/1.2 system-ui, sans-serif; color: #374151; }
.gauge { display: grid; grid-template-columns: 1fr auto; align-items: center; gap: 8px; }
.track { height: 8px; border-radius: 4px; background: #e5e7eb; overflow: hidden; }
.fill { height: 100%; border-radius: 4px; background: linear-gradient(90deg, #22c55e, #eab308, #ef4444); }
.readout { font-variant-numeric: tabular-nums; min-width: 3ch; text-align: right; }
`;

function sheet(css: string): CSSStyleSheet {
  const s = new CSSStyleSheet();
  s.replaceSync(css);
  return s;
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, parent: Node): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  parent.appendChild(node);
  return node;
}

const STAT_BAR_COUNT = 5;

/** `<stat-card label="…" value="…" trend="3,5,2,6,4">`: open shadow root, 11 elements inside. */
export class StatCard extends HTMLElement {
  static readonly observedAttributes = ['label', 'value', 'trend'];
  private static styles: CSSStyleSheet | null = null;
  // Field names must not match attribute names: React 19 sets a custom element's prop as a
  // property when `name in element`, which would overwrite these references.
  private readonly labelBox: HTMLSpanElement;
  private readonly valueBox: HTMLDivElement;
  private readonly bars: HTMLElement[] = [];

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    StatCard.styles ??= sheet(STAT_CARD_CSS);
    root.adoptedStyleSheets = [StatCard.styles];
    const card = el('div', 'card', root);
    const head = el('div', 'head', card);
    el('span', 'dot', head);
    this.labelBox = el('span', 'label', head);
    this.valueBox = el('div', 'value', card);
    const bars = el('div', 'bars', card);
    for (let i = 0; i < STAT_BAR_COUNT; i++) this.bars.push(el('i', '', bars));
  }

  attributeChangedCallback(): void {
    this.labelBox.textContent = this.getAttribute('label') ?? '';
    this.valueBox.textContent = this.getAttribute('value') ?? '–';
    const trend = (this.getAttribute('trend') ?? '').split(',').map(Number);
    const max = Math.max(1, ...trend.filter(Number.isFinite));
    this.bars.forEach((bar, i) => {
      const v = Number.isFinite(trend[i]) ? trend[i] : 0;
      bar.style.height = `${Math.round((v / max) * 100)}%`;
    });
  }
}

/** `<sealed-gauge level="0–100">`: a CLOSED shadow root; page code cannot reach inside. */
export class SealedGauge extends HTMLElement {
  static readonly observedAttributes = ['level'];
  private static styles: CSSStyleSheet | null = null;
  private readonly fill: HTMLDivElement;
  private readonly readout: HTMLSpanElement;

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'closed' });
    SealedGauge.styles ??= sheet(GAUGE_CSS);
    root.adoptedStyleSheets = [SealedGauge.styles];
    const gauge = el('div', 'gauge', root);
    const track = el('div', 'track', gauge);
    this.fill = el('div', 'fill', track);
    this.readout = el('span', 'readout', gauge);
  }

  attributeChangedCallback(): void {
    const level = Math.min(100, Math.max(0, Number(this.getAttribute('level')) || 0));
    this.fill.style.width = `${level}%`;
    this.readout.textContent = `${Math.round(level)}%`;
  }
}

/** Idempotent: a second bundle on the page (or a hot reload) must not throw on define(). */
export function defineWebComponents(): void {
  if (!customElements.get('stat-card')) customElements.define('stat-card', StatCard);
  if (!customElements.get('sealed-gauge')) customElements.define('sealed-gauge', SealedGauge);
}

type CustomProps<A> = A & { children?: never; className?: string; key?: string | number };

declare module 'react' {
  namespace JSX {
    interface IntrinsicElements {
      'stat-card': CustomProps<{ label: string; value: string; trend?: string }>;
      'sealed-gauge': CustomProps<{ level: number | string }>;
    }
  }
}
