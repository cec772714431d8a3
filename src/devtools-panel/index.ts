/**
 * The "Layout Cost" panel. FOUNDATION VERSION: connects to the worker for the
 * inspected tab and shows the status and the mode; the full UI arrives with
 * the panel issue.
 */
import browser from 'webextension-polyfill';
import { envelope, parseMessage, PORT_NAME_PANEL, Source, MODES, type Mode, type Status, type TableUpdate } from '../protocol';

const tabId = browser.devtools.inspectedWindow.tabId;
const app = document.getElementById('app') as HTMLElement;
const statusEl = document.createElement('div');
statusEl.id = 'status';
const modeEl = document.createElement('select');
modeEl.id = 'mode';
for (const m of MODES) modeEl.append(new Option(m, m));
const rowsEl = document.createElement('div');
rowsEl.id = 'rows';
app.append(modeEl, statusEl, rowsEl);

let port: browser.Runtime.Port | null = null;
const state: { mode: Mode; status: Status | null; table: TableUpdate | null } = { mode: 'off', status: null, table: null };

function connect(): void {
  port = browser.runtime.connect({ name: PORT_NAME_PANEL });
  port.onMessage.addListener((raw: unknown) => {
    const msg = parseMessage(raw, Source.Background);
    if (!msg) return;
    if (msg.type === 'mode') state.mode = msg.payload.mode;
    else if (msg.type === 'status') state.status = msg.payload;
    else if (msg.type === 'table') state.table = msg.payload;
    render();
  });
  port.onDisconnect.addListener(() => {
    port = null;
    setTimeout(connect, 250);
  });
  port.postMessage(envelope(Source.Panel, 'hello', { tabId }));
}

modeEl.addEventListener('change', () => {
  port?.postMessage(envelope(Source.Panel, 'setMode', { mode: modeEl.value as Mode }));
});

function render(): void {
  modeEl.value = state.mode;
  const s = state.status;
  statusEl.textContent = s
    ? `${s.renderers} renderer(s), ${s.roots} root(s), ${s.components} components, mode ${s.mode}`
    : 'waiting for the page…';
  rowsEl.textContent = state.table ? `${state.table.rows.length} rows` : '';
}

connect();
render();
(globalThis as Record<string, unknown>).__panelState = state;
