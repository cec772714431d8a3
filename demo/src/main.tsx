/**
 * Entry of the StressGrid demo (bundled to build/demo/demo.js by
 * scripts/build-fixtures.ts). Query parameters: `?pct=10|20|50|100`,
 * `?paused=1`, `?seed=<int>`. `window.__demo` exposes the counters and
 * controls for benchmarks.
 */
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { ControlStore, installDemoApi, readQuery } from './demo-api';
import { defineWebComponents } from './web-components';

// Before the first render: React must create <stat-card> as an upgraded element, not a placeholder.
defineWebComponents();

const { seed, ...controls } = readQuery(location.search);
const store = new ControlStore(controls);
const api = installDemoApi(store);

const container = document.getElementById('root');
if (!container) throw new Error('StressGrid: #root is missing from index.html');
createRoot(container).render(<App store={store} api={api} seed={seed} />);
