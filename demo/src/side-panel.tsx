/**
 * The side panel: a legend, web components with open and closed shadow
 * roots, an imperatively built chart and a static list of ~300 elements.
 * Nothing here changes with the grid's tick, so in the overlay it should sit
 * near zero layout cost while its rendered/authored counts tell three
 * different inflation stories.
 */
import { useSyncExternalStore } from 'react';
import type { ControlStore, DemoApi } from './demo-api';
import { createRandom } from './grid-data';
import { ImperativeChart } from './imperative-chart';

const LIST_ROWS = 60;
const LIST_SEED = 42;
const COMPANY_WORDS = ['Acme', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Vandelay', 'Stark', 'Wayne', 'Tyrell', 'Soylent',
  'Cyberdyne', 'Wonka', 'Gringotts', 'Monarch', 'Oscorp', 'Nakatomi'];
const COMPANY_KINDS = ['Systems', 'Holdings', 'Labs', 'Industries', 'Foods', 'Energy', 'Logistics', 'Media'];

interface Row {
  symbol: string;
  name: string;
  price: number;
  change: number;
}

/** Deterministic rows: the list is static, and screenshots should not differ between runs. */
function makeRows(): Row[] {
  const random = createRandom(LIST_SEED);
  const letters = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  return Array.from({ length: LIST_ROWS }, () => {
    const len = 3 + Math.floor(random() * 2);
    let symbol = '';
    for (let i = 0; i < len; i++) symbol += letters[Math.floor(random() * letters.length)];
    const name = `${COMPANY_WORDS[Math.floor(random() * COMPANY_WORDS.length)]} ${COMPANY_KINDS[Math.floor(random() * COMPANY_KINDS.length)]}`;
    return { symbol, name, price: 5 + random() * 495, change: (random() - 0.5) * 8 };
  });
}

const ROWS = makeRows();

const BANDS: [string, string][] = [
  ['b0', '0–19'], ['b1', '20–39'], ['b2', '40–59'], ['b3', '60–79'], ['b4', '80–99'],
];

// Minified builds rename functions; the displayName lines keep the overlay readable.
function Legend() {
  return (
    <section className="card">
      <h3>Legend</h3>
      <ul className="legend">
        {BANDS.map(([band, label]) => (
          <li key={band}><span className={`swatch ${band}`} />{label}</li>
        ))}
      </ul>
      <p className="muted small">
        Each cell is its own React component; its underline shows whether the value rose (green) or fell (red).
        <b> Bold</b> values (≥ 90) and colour changes re-measure text on every tick.
      </p>
    </section>
  );
}
Legend.displayName = 'Legend';

function ListRow({ row }: { row: Row }) {
  const up = row.change >= 0;
  return (
    <li className="list-row">
      <span className="sym">{row.symbol}</span>
      <span className="name">{row.name}</span>
      <span className="px">{row.price.toFixed(2)}</span>
      <span className={up ? 'chg up' : 'chg down'}>{up ? '+' : ''}{row.change.toFixed(2)}%</span>
    </li>
  );
}
ListRow.displayName = 'ListRow';

/** 60 rows × 5 elements = 300 static elements: cheap once laid out, never touched by the tick. */
function StaticList() {
  return (
    <section className="card">
      <h3>Watchlist <span className="muted small">{ROWS.length} symbols · static</span></h3>
      <ul className="static-list">
        {ROWS.map((row, i) => <ListRow key={i} row={row} />)}
      </ul>
    </section>
  );
}
StaticList.displayName = 'StaticList';

/** React authors one element per widget; each brings a shadow root with more inside. */
function WebWidgets() {
  return (
    <section className="card">
      <h3>Web components</h3>
      <div className="stat-cards">
        <stat-card label="Open orders" value="1,284" trend="3,5,4,7,6" />
        <stat-card label="Fill rate" value="97.2 %" trend="6,6,7,8,8" />
        <stat-card label="Latency" value="41 ms" trend="5,3,6,2,4" />
      </div>
      <div className="gauges">
        <span className="muted small">CPU (closed shadow root)</span>
        <sealed-gauge level={62} />
        <span className="muted small">Memory (closed shadow root)</span>
        <sealed-gauge level={38} />
      </div>
    </section>
  );
}
WebWidgets.displayName = 'WebWidgets';

export function SidePanel({ store, api }: { store: ControlStore; api: DemoApi }) {
  const { paused } = useSyncExternalStore(store.subscribe, store.get);
  return (
    <aside className="side-panel">
      <Legend />
      <WebWidgets />
      <section className="card">
        <h3>Throughput</h3>
        <ImperativeChart api={api} paused={paused} />
      </section>
      <StaticList />
    </aside>
  );
}
SidePanel.displayName = 'SidePanel';
