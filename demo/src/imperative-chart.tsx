/**
 * A widget that builds its DOM by hand, the way chart and editor libraries
 * do: React authors one <div>, the effect adds ~50 elements beneath it and
 * keeps updating them without React (a live chart of the grid's commits/s).
 * The overlay's "rendered" count and its MutationObserver path exist for
 * exactly this kind of DOM.
 */
import { useEffect, useRef } from 'react';
import type { DemoApi } from './demo-api';

const BAR_COUNT = 24;
/** One bar per second: a chart that refreshes once a second, next to a grid that ticks 30 times. */
const REFRESH_INTERVAL_MS = 1000;
/** The tick's own rate (1000 / 33 ms): a full-height bar means the grid kept up. */
const TARGET_COMMITS_PER_SEC = 30;
/** Bars above this share of the target are drawn in the "keeping up" colour. */
const GOOD_SHARE = 0.8;

function makeEl(tag: string, className: string, parent: Node, text?: string): HTMLElement {
  const node = document.createElement(tag);
  node.className = className;
  if (text !== undefined) node.textContent = text;
  parent.appendChild(node);
  return node;
}

export function ImperativeChart({ api, paused }: { api: DemoApi; paused: boolean }) {
  const host = useRef<HTMLDivElement>(null);
  const bars = useRef<HTMLElement[]>([]);
  const history = useRef<number[]>(new Array<number>(BAR_COUNT).fill(0));

  // Build once: caption + plot + 24 × (column, bar) = 50 elements React never sees.
  useEffect(() => {
    const root = host.current;
    if (!root) return undefined;
    makeEl('div', 'chart-caption', root, `Grid commits/s, last ${BAR_COUNT} s (full height = ${TARGET_COMMITS_PER_SEC}/s)`);
    const plot = makeEl('div', 'chart-plot', root);
    bars.current = history.current.map(() => makeEl('div', 'chart-bar', makeEl('div', 'chart-col', plot)));
    return () => {
      root.replaceChildren();
      bars.current = [];
    };
  }, []);

  // Height changes here dirty layout outside React's commit: attributable only via DOM observation.
  useEffect(() => {
    if (paused) return undefined;
    let last = { t: performance.now(), commits: api.commits };
    const id = setInterval(() => {
      const now = { t: performance.now(), commits: api.commits };
      const rate = (now.commits - last.commits) / Math.max(1e-3, (now.t - last.t) / 1000);
      last = now;
      history.current = [...history.current.slice(1), rate];
      bars.current.forEach((bar, i) => {
        const share = Math.min(1, history.current[i] / TARGET_COMMITS_PER_SEC);
        bar.style.height = `${Math.round(share * 100)}%`;
        bar.classList.toggle('good', share >= GOOD_SHARE);
        bar.title = `${history.current[i].toFixed(1)} commits/s`;
      });
    }, REFRESH_INTERVAL_MS);
    return () => clearInterval(id);
  }, [api, paused]);

  return <div ref={host} className="chart" aria-label="Grid commits per second (imperative DOM)" />;
}
// Minified builds rename functions; an explicit name keeps the overlay readable.
ImperativeChart.displayName = 'ImperativeChart';
