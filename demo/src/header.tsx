/**
 * The page header: title, the mutation-share and pause controls, and a live
 * readout of commits/s, frames/s and seed 001's "effective refresh"
 * (min of the two: the rate at which fresh content actually reaches the screen).
 */
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { ControlStore, DemoApi } from './demo-api';
import { MUTATION_PERCENTS, type MutationPercent } from './grid-data';

/** How often the readout samples the counters: long enough to smooth, short enough to feel live. */
const READOUT_INTERVAL_MS = 500;

interface Rates {
  commitsPerSec: number;
  framesPerSec: number;
}

/**
 * Counts animation frames only while the grid runs, so a paused demo lets the
 * page go fully idle (a perpetual rAF loop would keep every frame "dirty").
 */
function useFrameCounter(api: DemoApi, running: boolean): void {
  useEffect(() => {
    if (!running) return undefined;
    let handle = requestAnimationFrame(function count() {
      api.frames++;
      handle = requestAnimationFrame(count);
    });
    return () => cancelAnimationFrame(handle);
  }, [api, running]);
}

function useRates(api: DemoApi, running: boolean): Rates {
  const [rates, setRates] = useState<Rates>({ commitsPerSec: 0, framesPerSec: 0 });
  useEffect(() => {
    if (!running) {
      setRates({ commitsPerSec: 0, framesPerSec: 0 });
      return undefined;
    }
    let last = { t: performance.now(), commits: api.commits, frames: api.frames };
    const id = setInterval(() => {
      const now = { t: performance.now(), commits: api.commits, frames: api.frames };
      const sec = Math.max(1e-3, (now.t - last.t) / 1000);
      setRates({ commitsPerSec: (now.commits - last.commits) / sec, framesPerSec: (now.frames - last.frames) / sec });
      last = now;
    }, READOUT_INTERVAL_MS);
    return () => clearInterval(id);
  }, [api, running]);
  return rates;
}

function Readout({ label, value, title }: { label: string; value: number; title: string }) {
  return (
    <div className="readout" title={title}>
      <span className="readout-value">{value.toFixed(1)}</span>
      <span className="readout-label">{label}</span>
    </div>
  );
}
// Minified builds rename functions; explicit names keep the overlay readable.
Readout.displayName = 'Readout';

function Controls({ store }: { store: ControlStore }) {
  const { pct, paused } = useSyncExternalStore(store.subscribe, store.get);
  return (
    <div className="controls">
      <div className="segmented" role="radiogroup" aria-label="Cells mutated per tick">
        {MUTATION_PERCENTS.map((p: MutationPercent) => (
          <label key={p} className={p === pct ? 'seg active' : 'seg'}>
            <input type="radio" name="pct" value={p} checked={p === pct} onChange={() => store.set({ pct: p })} />
            {p} %
          </label>
        ))}
      </div>
      <button type="button" className={paused ? 'run-button paused' : 'run-button'} onClick={() => store.set({ paused: !paused })}>
        {paused ? '▶ Run' : '❚❚ Pause'}
      </button>
    </div>
  );
}
Controls.displayName = 'Controls';

export function Header({ store, api }: { store: ControlStore; api: DemoApi }) {
  const { paused } = useSyncExternalStore(store.subscribe, store.get);
  useFrameCounter(api, !paused);
  const { commitsPerSec, framesPerSec } = useRates(api, !paused);
  return (
    <header className="header">
      <div className="brand">
        <span className="logo" aria-hidden="true" />
        <div>
          <h1>StressGrid</h1>
          <p className="muted">Layout Cost demo · React 19</p>
        </div>
      </div>
      <Controls store={store} />
      <div className="readouts">
        <Readout label="commits/s" value={commitsPerSec} title="React commits of the grid per second" />
        <Readout label="fps" value={framesPerSec} title="Animation frames per second" />
        <Readout
          label="effective"
          value={Math.min(commitsPerSec, framesPerSec)}
          title="Effective refresh = min(commits/s, frames/s)"
        />
      </div>
    </header>
  );
}
Header.displayName = 'Header';
