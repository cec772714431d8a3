/**
 * The demo's controls (mutation share, paused) as one small external store,
 * shared by the React controls, the query string and `window.__demo`, so a
 * benchmark can drive the page without clicking and read the same counters
 * the header shows.
 */
import { DEFAULT_PERCENT, isMutationPercent, type MutationPercent } from './grid-data';

export interface DemoControls {
  readonly pct: MutationPercent;
  readonly paused: boolean;
}

/** `window.__demo`: counters are plain properties so reads are live without a call. */
export interface DemoApi {
  /** React commits of the grid (one per tick that changed cells, plus the mount). */
  commits: number;
  /** Animation frames seen by the header's frame counter while running. */
  frames: number;
  /** Cells changed by the last tick. */
  lastMutated: number;
  readonly pct: MutationPercent;
  readonly paused: boolean;
  setPct(n: number): void;
  pause(): void;
  resume(): void;
  /** Runs one tick now (also while paused); the grid commits it like any other tick. */
  step(): void;
}

declare global {
  interface Window {
    __demo?: DemoApi;
  }
}

type Listener = () => void;

export class ControlStore {
  private state: DemoControls;
  private readonly listeners = new Set<Listener>();

  constructor(initial: DemoControls) {
    this.state = initial;
  }

  readonly get = (): DemoControls => this.state;

  readonly subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  set(patch: Partial<DemoControls>): void {
    const next = { ...this.state, ...patch };
    if (next.pct === this.state.pct && next.paused === this.state.paused) return;
    this.state = next;
    for (const l of this.listeners) l();
  }
}

/** Reads `?pct=10|20|50|100`, `?paused=1` and `?seed=<int>`; bad values fall back to defaults. */
export function readQuery(search: string): DemoControls & { seed: number } {
  const q = new URLSearchParams(search);
  const pct = Number(q.get('pct'));
  const seed = Number.parseInt(q.get('seed') ?? '', 10);
  return {
    pct: isMutationPercent(pct) ? pct : DEFAULT_PERCENT,
    paused: q.get('paused') === '1' || q.get('paused') === 'true',
    seed: Number.isFinite(seed) ? seed : 0x5eed,
  };
}

/** `step()` before the grid has mounted (or after it unmounted) has nothing to tick. */
export function stepUnavailable(): never {
  throw new Error('__demo.step: the grid is not mounted');
}

export function installDemoApi(store: ControlStore): DemoApi {
  const api: DemoApi = {
    commits: 0,
    frames: 0,
    lastMutated: 0,
    get pct() {
      return store.get().pct;
    },
    get paused() {
      return store.get().paused;
    },
    setPct(n: number) {
      if (!isMutationPercent(n)) throw new RangeError(`__demo.setPct: expected 10, 20, 50 or 100, got ${String(n)}`);
      store.set({ pct: n });
    },
    pause: () => store.set({ paused: true }),
    resume: () => store.set({ paused: false }),
    step: stepUnavailable,
  };
  window.__demo = api;
  return api;
}
