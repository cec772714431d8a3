/**
 * Entry of the StressGrid demo (bundled to build/demo/demo.js by
 * scripts/build-fixtures.ts). Query parameters: `?pct=10|20|50|100`,
 * `?paused=1`, `?seed=<int>`. `window.__demo` exposes the counters and
 * controls for benchmarks.
 */
import { createRoot } from 'react-dom/client';
import { ControlStore, installDemoApi, readQuery, type DemoApi } from './demo-api';
import { Header } from './header';
import { SidePanel } from './side-panel';
import { GridCard } from './stress-grid';
import { defineWebComponents } from './web-components';

interface AppProps {
  store: ControlStore;
  api: DemoApi;
  seed: number;
}

/**
 * The page shell: header on top, the grid card and the side panel below.
 * The shell never re-renders after mount (the controls and the grid subscribe
 * to the store themselves), so a tick's cost stays with the grid.
 */
function App({ store, api, seed }: AppProps) {
  return (
    <div className="app">
      <Header store={store} api={api} />
      <main className="main">
        <GridCard store={store} api={api} seed={seed} />
        <SidePanel store={store} api={api} />
      </main>
    </div>
  );
}
// Minified builds rename functions; an explicit name keeps the overlay readable.
App.displayName = 'App';

// Before the first render: React must create <stat-card> as an upgraded element, not a placeholder.
defineWebComponents();

const { seed, ...controls } = readQuery(location.search);
const store = new ControlStore(controls);
const api = installDemoApi(store);

const container = document.getElementById('root');
if (!container) throw new Error('StressGrid: #root is missing from index.html');
createRoot(container).render(<App store={store} api={api} seed={seed} />);
