/**
 * The page shell: header on top, the grid card and the side panel below.
 * The shell itself never re-renders after mount (the controls and the grid
 * subscribe to the store themselves), so a tick's cost stays with the grid.
 */
import type { ControlStore, DemoApi } from './demo-api';
import { Header } from './header';
import { SidePanel } from './side-panel';
import { GridCard } from './stress-grid';

export interface AppProps {
  store: ControlStore;
  api: DemoApi;
  seed: number;
}

export function App({ store, api, seed }: AppProps) {
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
