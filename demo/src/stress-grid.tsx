/**
 * The grid: 70 × 70 `Cell` components and the 33 ms tick that rewrites a
 * chosen share of them. Cells are memoised, so a tick re-renders exactly the
 * cells it changed; each changed cell swaps its text and its colour class,
 * which dirties both style and layout, the work the overlay is built to show.
 */
import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import { stepUnavailable, type ControlStore, type DemoApi } from './demo-api';
import {
  CELL_COUNT, createRandom, DistinctSampler, GRID_COLUMNS, GRID_ROWS, initialCells, mutate,
  TICK_INTERVAL_MS, type CellValue,
} from './grid-data';

/** Five colour bands over 0–99; the class changes with the value so style recalc has real work too. */
const BAND_SIZE = 20;
/** Values at or above this are drawn bold: a wider glyph run, so the text box really re-measures. */
const HOT_VALUE = 90;

const Cell = memo(function Cell({ value, up }: CellValue) {
  const band = Math.floor(value / BAND_SIZE);
  const className = `cell b${band} ${up ? 'up' : 'down'}${value >= HOT_VALUE ? ' hot' : ''}`;
  return <div className={className}>{value}</div>;
});
// The demo ships minified (as real apps do); explicit names keep the overlay and panel readable.
Cell.displayName = 'Cell';

interface StressGridProps {
  store: ControlStore;
  api: DemoApi;
  seed: number;
}

export function StressGrid({ store, api, seed }: StressGridProps) {
  const { paused } = useSyncExternalStore(store.subscribe, store.get);
  // The generator and sampler live for the component's lifetime: the tick must not re-seed.
  const engine = useRef<{ random: () => number; sampler: DistinctSampler } | null>(null);
  if (engine.current === null) {
    const random = createRandom(seed);
    engine.current = { random, sampler: new DistinctSampler(CELL_COUNT, random) };
  }
  const [cells, setCells] = useState<CellValue[]>(() => initialCells(engine.current!.random));
  // The tick computes from a ref, not inside a state updater, because the sampler is stateful
  // and updaters must stay pure (React may call them twice).
  const latest = useRef(cells);

  // Reads the share at tick time, so changing it does not restart the interval's phase.
  const tick = useCallback(() => {
    const { random, sampler } = engine.current!;
    const { pct } = store.get();
    const next = mutate(latest.current, pct, sampler, random);
    api.lastMutated = Math.round((CELL_COUNT * pct) / 100);
    latest.current = next;
    setCells(next);
  }, [api, store]);

  useEffect(() => {
    if (paused) return undefined;
    const id = setInterval(tick, TICK_INTERVAL_MS);
    return () => clearInterval(id);
  }, [paused, tick]);

  // `__demo.step()`: one tick on demand, so tests and benchmarks can drive exact, countable updates.
  useEffect(() => {
    api.step = tick;
    return () => {
      api.step = stepUnavailable;
    };
  }, [api, tick]);

  // One layout effect per commit in which the cells changed: the benchmark's "React commits".
  useLayoutEffect(() => {
    api.commits++;
  }, [cells, api]);

  return (
    <div
      className="grid"
      role="grid"
      aria-label={`${GRID_COLUMNS} by ${GRID_ROWS} stress grid`}
      aria-busy={!paused}
    >
      {cells.map((c, i) => <Cell key={i} value={c.value} up={c.up} />)}
    </div>
  );
}
StressGrid.displayName = 'StressGrid';

/** The card around the grid: its caption repeats the live settings so a screenshot is self-describing. */
export function GridCard({ store, api, seed }: StressGridProps) {
  const { pct, paused } = useSyncExternalStore(store.subscribe, store.get);
  return (
    <section className="card grid-card">
      <div className="card-title">
        <h2>StressGrid</h2>
        <span className="muted">
          {GRID_COLUMNS} × {GRID_ROWS} = {CELL_COUNT.toLocaleString('en-US')} cells · {pct} % per {TICK_INTERVAL_MS} ms tick
          {paused ? ' · paused' : ''}
        </span>
      </div>
      <StressGrid store={store} api={api} seed={seed} />
    </section>
  );
}
GridCard.displayName = 'GridCard';
