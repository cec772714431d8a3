/**
 * The "Layout Cost" DevTools panel: wires the port to the worker, the model
 * and the views. Layout: toolbar, honest-states strip, then the component
 * table beside a tabbed side pane (Pinned / Settings / Legend).
 *
 * No UI library (docs/PANEL.md): the panel is a handful of views updated
 * in place, and `dom.ts` is the only way strings reach the DOM.
 */
import browser from 'webextension-polyfill';
import type { Mode, PinnedDetail, RowSource, Settings, StripBar } from '../protocol';
import { SETTINGS_STORAGE_KEY } from '../overlay/settings';
import { PanelConnection, type BackgroundMessage } from './connection';
import { el } from './dom';
import { ExperimentBook } from './experiment-model';
import { LegendView } from './legend-view';
import { PanelModel } from './model';
import { PinnedView } from './pinned-view';
import { recordingTable } from './recording-model';
import { RecordingView } from './recording-view';
import { cloneDefaults, readSettings } from './settings-model';
import { SettingsView } from './settings-view';
import { isToggleShortcut } from '../protocol/shortcut';
import { commandBinding, DEFAULT_SHORTCUT, IS_MAC, isFilterShortcut } from './shortcuts';
import { SnapshotExporter } from './snapshot-export';
import { notices, StatusView, type Notice } from './status';
import { TableView } from './table-view';
import { Tabs } from './tabs';
import { VitalsView } from './vitals-view';
import { followTheme } from './theme';
import { ToolbarView } from './toolbar-view';
import { SiteBar } from './site-view';

/** The table is rebuilt at most this often, however fast updates arrive. */
const TABLE_MIN_INTERVAL_MS = 250;
const FLASH_MS = 5000;

/**
 * The inspected tab. Outside DevTools (panel.html?tabId=N opened as a tab, for
 * debugging the UI at any size) there is no inspectedWindow: take it from the URL.
 */
const inspected = (globalThis as { chrome?: { devtools?: typeof chrome.devtools } }).chrome?.devtools?.inspectedWindow;
const tabId = inspected?.tabId ?? Number(new URLSearchParams(location.search).get('tabId') ?? -1);
const model = new PanelModel();
let settings: Settings = cloneDefaults();
let shortcut = DEFAULT_SHORTCUT;
let flash: Notice | null = null;
let flashTimer: ReturnType<typeof setTimeout> | null = null;

followTheme();

const conn = new PanelConnection(tabId, onMessage, (c) => {
  model.setConnected(c);
  if (!c && experiments.running) {
    experiments.abandon('the connection to the page dropped during the experiment');
    pinned.setExperiments(experiments);
  }
  schedule();
});

const send = {
  hover: (id: number | null) => model.frameId !== null && conn.send('hover', { id, frameId: model.frameId }),
  pin: (id: number | null) => model.frameId !== null && conn.send('pin', { id, frameId: model.frameId }),
  mode: (mode: Mode) => conn.send('setMode', { mode }),
  outline: (cause: number | null, moved: number[]) => model.frameId !== null && conn.send('outline', { cause, moved, frameId: model.frameId }),
};

const table = new TableView({ hover: send.hover, pin: send.pin, openSource }, settings);
const experiments = new ExperimentBook();
const pinned = new PinnedView({ pin: send.pin, reveal, tryCss, copy, openSource }, settings);
pinned.setExperiments(experiments);
const settingsView = new SettingsView({ write: writeSettings });
const legend = new LegendView(() => {
  browser.tabs.create({ url: 'chrome://extensions/shortcuts' }).catch((e: unknown) => showFlash('warn', `Open chrome://extensions/shortcuts yourself (${String(e)})`));
});
const vitals = new VitalsView({ pin: (id) => send.pin(id), hover: send.hover, outline: send.outline, mark: (w) => recordingView.mark(w) });
const tabs = new Tabs([
  { id: 'pinned', label: 'Pinned', panel: pinned.root },
  { id: 'vitals', label: 'Vitals', panel: vitals.root },
  { id: 'settings', label: 'Settings', panel: settingsView.root },
  { id: 'legend', label: 'Legend & shortcut', panel: legend.root },
], (id) => id === 'pinned' && requestAnimationFrame(() => pinned.redrawSparkline()));
const exporter = new SnapshotExporter(
  (reqId) => {
    if (model.frameId === null || !conn.connected) return false;
    conn.send('snapshotRequest', { reqId, frameId: model.frameId });
    return true;
  },
  (ok, message) => showFlash(ok ? 'info' : 'warn', message),
);
const toolbar = new ToolbarView({
  setMode: send.mode,
  selectFrame: (id) => {
    model.selectFrame(id);
    schedule();
  },
  filter: (text) => {
    table.setFilter(text);
    saveFilter(text);
  },
  showLibraries: (on) => writeSettings({ ...settings, showLibraries: on }),
  exportSnapshot: () => exporter.start(model.status?.url ?? ''),
});
const statusView = new StatusView();
const recordingView = new RecordingView({
  record: (on) => {
    if (model.frameId === null || !conn.connected) return false;
    conn.send('record', { frameId: model.frameId, on });
    return true;
  },
  pause: (frame) => {
    if (model.frameId === null || !conn.connected) return false;
    conn.send('recent', { frameId: model.frameId, frame });
    return true;
  },
  changed: () => {
    renderedTable = -1;
    schedule();
  },
  flash: (ok, message) => showFlash(ok ? 'info' : 'warn', message),
});
toolbar.root.append(recordingView.toolbarItems);

const siteBar = new SiteBar({
  tabId,
  url: () => new Promise((resolve) => {
    if (!inspected) {
      chrome.tabs.get(tabId).then((t) => resolve(t.url ?? null), () => resolve(null));
      return;
    }
    inspected.eval('location.href', (href: unknown, exc?: chrome.devtools.inspectedWindow.EvaluationExceptionInfo) => {
      resolve(!exc && typeof href === 'string' ? href : null);
    });
  }),
  flash: (ok, message) => showFlash(ok ? 'info' : 'warn', message),
  changed: () => schedule(),
});
settingsView.root.append(siteBar.settings);
siteBar.refresh().catch((e: unknown) => console.debug('[layout-cost] where it runs', e));
(globalThis as { chrome?: { devtools?: typeof chrome.devtools } }).chrome?.devtools?.network?.onNavigated.addListener((url: string) => void siteBar.refresh(typeof url === 'string' ? url : undefined));

const app = document.getElementById('app') as HTMLElement;
app.append(toolbar.root, statusView.root, siteBar.root, recordingView.root, el('main', { class: 'layout' }, table.root, tabs.root));

function onMessage(msg: BackgroundMessage): void {
  switch (msg.type) {
    case 'mode':
      model.setMode(msg.payload.mode);
      break;
    case 'status': {
      const before = model.pinnedId;
      model.onStatus(msg.payload);
      if (msg.payload.frameId === 0) siteBar.seen(msg.payload.url);
      // Show what was just pinned (from the table, the chain or the page's Inspect mode).
      if (model.pinnedId !== null && model.pinnedId !== before) tabs.selectId('pinned');
      break;
    }
    case 'table':
      // A missed update (the table goes as changes): ask the frame for a whole one.
      if (model.onTable(msg.payload) && conn.connected) conn.send('tableResync', { frameId: msg.payload.frameId });
      break;
    case 'snapshot':
      exporter.onSnapshot(msg.payload.reqId, msg.payload.snapshot);
      break;
    case 'contentGone':
      model.onContentGone(msg.payload.frameId);
      if (msg.payload.frameId === experimentFrame) {
        experiments.abandon('the page went away (reload or navigation) during the experiment');
        pinned.setExperiments(experiments);
      }
      break;
    case 'recording':
      if (msg.payload.frame === null) recordingView.setRecordingNow(false);
      recordingView.show(msg.payload.recording, msg.payload.frame);
      break;
    case 'experimentResult':
      if (experiments.settle(msg.payload.reqId, msg.payload.outcome)) pinned.setExperiments(experiments);
      break;
    default:
      break;
  }
  schedule();
}

const NO_BARS: StripBar[] = [];
let renderTimer: ReturnType<typeof setTimeout> | null = null;
let lastTableRender = 0;
let renderedTable = -1;
let lastDetail: PinnedDetail | null = null;

function schedule(delay = 0): void {
  if (renderTimer !== null) return;
  renderTimer = setTimeout(() => {
    renderTimer = null;
    render();
  }, delay);
}

function render(): void {
  toolbar.update(model);
  restoreFilter(model.status?.url);
  const list = notices(model.status, {
    connected: model.connected, otherReactFrames: model.otherReactFrames(), shortcut, tableRows: model.table?.rows.length ?? null,
    siteOff: siteBar.off,
  });
  statusView.update(flash ? [...list, flash] : list);
  const rec = recordingView.recording;
  recordingView.setLive(model.table?.strip ?? NO_BARS);
  if (rec !== null) {
    // A recording is shown: its table (a frame, or all frames) instead of the live one, until "Back to live".
    if (renderedTable !== -2) {
      renderedTable = -2;
      table.setData(recordingTable(rec, recordingView.selected), null);
    }
  } else if (model.tableVersion !== renderedTable) {
    const wait = lastTableRender + TABLE_MIN_INTERVAL_MS - performance.now();
    if (wait > 0) return schedule(wait);
    renderedTable = model.tableVersion;
    lastTableRender = performance.now();
    model.tableRenders++;
    table.setData(model.table, model.pinnedId);
  }
  table.setPinned(model.pinnedId);
  // Status (the pin) and table (its details) arrive separately: keep showing the
  // last details of the same component rather than blinking empty in between.
  const detail = model.table?.pinned ?? null;
  if (detail !== null && detail.id === model.pinnedId) lastDetail = detail;
  else if (lastDetail?.id !== model.pinnedId) lastDetail = null;
  pinned.update(lastDetail);
  vitals.update(model.status?.vitals ?? null, (model.status?.renderers ?? 0) > 0 || (model.status?.vue === undefined && model.status?.preact === undefined));
}

function showFlash(level: Notice['level'], text: string): void {
  flash = { id: 'flash', level, text };
  if (flashTimer !== null) clearTimeout(flashTimer);
  flashTimer = setTimeout(() => {
    flash = null;
    schedule();
  }, FLASH_MS);
  schedule();
}

/** The frame the running experiment runs in. */
let experimentFrame: number | null = null;

/** Runs a containment experiment on a component of the selected frame (the agent runs one at a time). */
function tryCss(id: number, css: string): void {
  if (model.frameId === null || !conn.connected || experiments.running) return;
  const frames = experiments.framesFor(id, css);
  const reqId = experiments.begin(id, css);
  experimentFrame = model.frameId;
  conn.send('experiment', { reqId, frameId: model.frameId, request: { id, css, frames } });
  pinned.setExperiments(experiments);
}

/** The clipboard, or the old way where DevTools' focus rules refuse it. */
async function copy(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = el('textarea', { class: 'copy-buffer' });
    area.value = text;
    document.body.append(area);
    area.select();
    let ok = false;
    try {
      ok = document.execCommand('copy');
    } catch {
      ok = false;
    }
    area.remove();
    return ok;
  }
}

/**
 * Opens a component's source in DevTools' Sources panel (the original file when a map gave it). DevTools knows an
 * original file only once it has loaded the page's source map (seconds for a big inline map after DevTools opens):
 * a file it does not know yet is asked for again for a few seconds before saying so.
 */
const OPEN_RETRIES = 8;
const OPEN_RETRY_MS = 500;
function openSource(src: RowSource, attempt = 0): void {
  const panels = (globalThis as { chrome?: typeof chrome }).chrome?.devtools?.panels;
  if (!panels) return showFlash('info', 'Open in Sources works in DevTools only');
  // Firefox's DevTools give extensions no way to open a file in its debugger (docs/FIREFOX.md).
  if (typeof panels.openResource !== 'function') return showFlash('info', `This browser's DevTools cannot open files for extensions: ${src.file}:${src.line}`);
  panels.openResource(src.url, Math.max(0, src.line - 1), Math.max(0, src.column - 1), (res?: { code?: string }) => {
    if (!res || !res.code || res.code === 'OK') return;
    if (res.code === 'E_NOTFOUND' && attempt < OPEN_RETRIES) {
      setTimeout(() => openSource(src, attempt + 1), OPEN_RETRY_MS);
      return;
    }
    showFlash('warn', `DevTools could not open ${src.file} (${res.code})${src.state === 'react-debug' && !/^[a-z][\w+.-]*:/i.test(src.url)
      ? ': React gave a path on disk, which DevTools names differently' : ''}`);
  });
}

/** Selects the component's first host node in the Elements panel. */
function reveal(id: number): void {
  if (!Number.isInteger(id) || id <= 0) return;
  const s = model.status;
  const expr = `((n) => (n ? (inspect(n), true) : false))(window.__LAYOUT_COST__ && window.__LAYOUT_COST__.node(${id}))`;
  // Subframes: evaluate in the frame that owns the component.
  const opts = s && s.frameId !== 0 ? { frameURL: s.url } : {};
  if (!inspected) return showFlash('info', 'Reveal in Elements works in DevTools only');
  inspected.eval(expr, opts, (found: unknown, exc?: chrome.devtools.inspectedWindow.EvaluationExceptionInfo) => {
    if (exc?.isException || exc?.isError) showFlash('warn', 'Could not reveal: the page did not answer');
    else if (found !== true) showFlash('info', 'This component has no DOM node to reveal');
  });
}

function writeSettings(s: Settings): void {
  settings = s;
  applySettings();
  browser.storage.local.set({ [SETTINGS_STORAGE_KEY]: s }).catch((e: unknown) => showFlash('warn', `Settings not saved: ${String(e)}`));
}

function applySettings(): void {
  settingsView.update(settings);
  toolbar.setLibraries(settings.showLibraries);
  table.setSettings(settings);
  pinned.setSettings(settings);
  legend.setSettings(settings);
  document.documentElement.classList.toggle('color-blind', settings.colorBlind);
}

/**
 * The filter is remembered per site (issue 44): `filters` in storage, by origin, at most FILTER_SITES of them. The record
 * is read once and kept here; the panel's copy is the truth and is written back at each change (no read-modify-write
 * race between two saves, and a restore never reads a save still on its way).
 */
const FILTERS_KEY = 'filters';
const FILTER_SITES = 200;
let filterOrigin: string | null = null;
let filters: Promise<Record<string, string>> | null = null;

function originOf(url: string | undefined): string | null {
  try {
    return url ? new URL(url).origin : null;
  } catch {
    return null;
  }
}

function savedFilters(): Promise<Record<string, string>> {
  filters ??= browser.storage.local.get(FILTERS_KEY).then((got) => {
    const out: Record<string, string> = {};
    const v = got[FILTERS_KEY];
    if (v && typeof v === 'object') {
      for (const [k, t] of Object.entries(v as Record<string, unknown>)) if (typeof t === 'string') out[k] = t.slice(0, 500);
    }
    return out;
  }).catch(() => ({}));
  return filters;
}

function saveFilter(text: string): void {
  const origin = filterOrigin;
  if (origin === null) return;
  void savedFilters().then((all) => {
    delete all[origin];
    if (text.trim() !== '') all[origin] = text.slice(0, 500);
    const keys = Object.keys(all);
    for (const k of keys.slice(0, Math.max(0, keys.length - FILTER_SITES))) delete all[k];
    // At once, not when typing pauses: a filter cleared just before DevTools closes came back the next time (the
    // timer never ran; nor does a write on pagehide reach storage). The record is the panel's own copy: no race.
    browser.storage.local.set({ [FILTERS_KEY]: all }).catch(() => undefined);
  });
}

/** Another site in the inspected tab: its saved filter, in the box and on the table. No status (yet): no change. */
function restoreFilter(url: string | undefined): void {
  const origin = originOf(url);
  if (origin === null || origin === filterOrigin) return;
  filterOrigin = origin;
  void savedFilters().then((all) => {
    if (filterOrigin !== origin) return;
    const text = all[origin] ?? '';
    toolbar.setFilterText(text);
    table.setFilter(text);
  });
}

async function loadSettings(): Promise<void> {
  try {
    const got = await browser.storage.local.get(SETTINGS_STORAGE_KEY);
    settings = readSettings(got[SETTINGS_STORAGE_KEY]);
    applySettings();
    browser.storage.onChanged.addListener((changes, area) => {
      if (area !== 'local' || !changes[SETTINGS_STORAGE_KEY]) return;
      settings = readSettings(changes[SETTINGS_STORAGE_KEY].newValue);
      applySettings();
    });
  } catch (e) {
    showFlash('warn', `Settings unavailable: ${String(e)}`);
  }
}

async function loadShortcut(): Promise<void> {
  const s = await commandBinding();
  legend.setBinding(s);
  if (s) shortcut = s;
  schedule();
}

window.addEventListener('keydown', (e) => {
  if (isToggleShortcut(e, IS_MAC)) {
    e.preventDefault();
    e.stopPropagation();
    conn.send('toggle', { via: 'panel' });
  } else if (isFilterShortcut(e, e.target)) {
    e.preventDefault();
    toolbar.focusFilter();
  }
}, true);
// The outline a hovered row drew on the page must not outlive the panel.
window.addEventListener('pagehide', () => send.hover(null));

conn.connect();
applySettings();
void loadSettings();
void loadShortcut();
render();
(globalThis as Record<string, unknown>).__panelState = model;
(globalThis as Record<string, unknown>).__panelRecording = recordingView;
(globalThis as Record<string, unknown>).__panelExperiments = experiments;
