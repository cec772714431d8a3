/**
 * The service worker: a thin router keyed by tab id. It keeps each tab's
 * mode (mirrored in storage.session so a restarted worker picks it up),
 * routes panel ⇄ content messages, injects the agent into a frame on
 * demand, runs the Ctrl+Shift+L command and the toolbar action, and sets the
 * badge. Every listener is registered at top level: MV3 restarts the worker.
 */
import browser from 'webextension-polyfill';
import { Screenshots } from './capture';
import { grantedSites, parseSiteChanged, SITE_SCRIPT_IDS, siteAccess, siteScripts } from '../protocol/sites';
import { SourceLocator } from './sources';
import {
  DropCounter, envelope, nextMode, parseMessage, PORT_NAME_CONTENT, PORT_NAME_DEVTOOLS, PORT_NAME_PANEL, Source,
  type BackgroundToContent, type BackgroundToPanel, type Mode,
} from '../protocol';

type Port = browser.Runtime.Port;

/** Presses closer together than this are one press seen by two listeners. */
const TOGGLE_DEDUP_MS = 150;
const BADGE: Record<Mode, string> = { off: '', components: 'C', heatmap: 'H', inspect: 'I' };
const SESSION_KEY = 'tabModes';

const drops = new DropCounter();
const screenshots = new Screenshots();
const sources = new SourceLocator();
const contents = new Map<number, Map<number, Port>>();
const panels = new Map<number, Port>();
const modes = new Map<number, Mode>();
const lastToggle = new Map<number, number>();
/** When each tab's overlay was last turned on (epoch ms); unknown after a worker restart (a hello then counts as a new document). */
const onSince = new Map<number, number>();

const restored: Promise<void> = (async () => {
  try {
    const got = await browser.storage.session.get(SESSION_KEY);
    const saved = got[SESSION_KEY] as Record<string, unknown> | undefined;
    if (saved && typeof saved === 'object') {
      for (const [k, v] of Object.entries(saved)) {
        if (typeof v === 'string' && ['components', 'heatmap', 'inspect'].includes(v)) modes.set(Number(k), v as Mode);
      }
    }
  } catch {
    drops.drop();
  }
})();

/** One storage.session write per burst of mode changes (issue 11: 5 000 enable/disable calls made 5 000 writes). */
const PERSIST_DELAY_MS = 100;
let persistTimer: ReturnType<typeof setTimeout> | null = null;
const counters = { persists: 0, contentAgent: 0, helloRegistrations: 0, siteRegistrations: 0, offers: 0 };

/**
 * Frames say hello (and so touch the extension APIs at load) only while some tab is being inspected: while any tab
 * has the overlay on or a panel open, `content-hello.js` is registered for every frame at document_start; it asks the
 * boot to say hello (src/content/boot). With no tab active nothing is registered, and a page load runs only the two
 * boot files, which say nothing (docs/ARCHITECTURE.md, docs/PERFORMANCE.md "Always on").
 */
const HELLO_SCRIPT_ID = 'layout-cost-hello';
let helloRegistered: boolean | null = null;
/** The matches the hello script is registered with (they follow the granted sites). */
let helloMatches = '';
let helloSync: Promise<void> = Promise.resolve();

/**
 * Where it runs (issue 48, docs/SITES.md): the manifest's own scripts cover the default sites (every site in the
 * automation build); for each site the user granted beyond them, the same two scripts are registered here, kept
 * across browser restarts. The browser's grants are the record: this follows them at start and on every change.
 */
const COVERED: readonly string[] = (() => {
  try {
    return chrome.runtime.getManifest().content_scripts?.[0]?.matches ?? [];
  } catch {
    return [];
  }
})();
let granted: string[] = [];
let sitesSync: Promise<void> = Promise.resolve();

function syncSites(): Promise<void> {
  sitesSync = sitesSync.then(async () => {
    try {
      granted = grantedSites((await chrome.permissions.getAll()).origins, COVERED);
      const want = siteScripts(granted, COVERED);
      const have = await chrome.scripting.getRegisteredContentScripts({ ids: Object.values(SITE_SCRIPT_IDS) });
      const key = (xs: { id: string; matches?: string[] }[]) => JSON.stringify(xs.map((x) => [x.id, x.matches ?? []]).sort());
      if (key(have) !== key(want)) {
        if (have.length > 0) await chrome.scripting.unregisterContentScripts({ ids: have.map((x) => x.id) });
        if (want.length > 0) await chrome.scripting.registerContentScripts(want);
        counters.siteRegistrations++;
      }
    } catch {
      drops.drop();
    }
  });
  // The hello script's matches follow the sites.
  return sitesSync.then(() => {
    syncHello();
    return helloSync;
  });
}

function anyTabActive(): boolean {
  if (panels.size > 0) return true;
  for (const m of modes.values()) if (m !== 'off') return true;
  return false;
}

function syncHello(): void {
  helloSync = helloSync.then(async () => {
    const want = anyTabActive();
    const matches = [...COVERED, ...granted];
    try {
      if (helloRegistered === null) {
        const found = await chrome.scripting.getRegisteredContentScripts({ ids: [HELLO_SCRIPT_ID] });
        helloRegistered = found.length > 0;
        helloMatches = JSON.stringify(found[0]?.matches ?? []);
      }
      if (want && helloRegistered && helloMatches !== JSON.stringify(matches)) {
        // The sites changed while it was registered: registered again below with the new ones.
        await chrome.scripting.unregisterContentScripts({ ids: [HELLO_SCRIPT_ID] });
        helloRegistered = false;
      }
      if (want && !helloRegistered) {
        // Only where our scripts run: the default sites and the granted ones (issue 48).
        await chrome.scripting.registerContentScripts([{
          id: HELLO_SCRIPT_ID, js: ['content-hello.js'], matches, allFrames: true, matchOriginAsFallback: true,
          runAt: 'document_start', persistAcrossSessions: false,
        }]);
        helloRegistered = true;
        helloMatches = JSON.stringify(matches);
        counters.helloRegistrations++;
      } else if (!want && helloRegistered) {
        await chrome.scripting.unregisterContentScripts({ ids: [HELLO_SCRIPT_ID] });
        helloRegistered = false;
      }
    } catch {
      helloRegistered = null;
      drops.drop();
    }
  });
}

/**
 * The content script's agent into every frame of the tab that has the boot and not yet the content agent (a first,
 * tiny injection asks each frame; the 60 KB file is evaluated only where it is missing).
 */
async function injectAgentEverywhere(tabId: number): Promise<void> {
  try {
    const found = await chrome.scripting.executeScript({
      target: { tabId, allFrames: true }, injectImmediately: true,
      func: () => (globalThis as Record<string, unknown>).__layoutCostContent !== undefined
        && (globalThis as Record<symbol, unknown>)[Symbol.for('layout-cost.content-agent')] === undefined,
    });
    await injectAgent(tabId, found.filter((r) => r.result === true).map((r) => r.frameId));
  } catch {
    // chrome:// and the web store, or a tab that went away.
    drops.drop();
  }
}

/**
 * The content script's agent into these frames' isolated world (src/content/agent: never at page load), each with
 * the agent in its MAIN world just before (src/inject/agent: the channel's page end, the API's answers, the pipeline).
 * The agent's bundle offers itself to the boot script there and its completion value is the offer's number
 * (src/inject/boot/link.ts): written into the frame's isolated world, where main reads it and offers the channel under
 * it (src/content/boot/handoff.ts). A page sees neither the number nor the secret.
 */
async function injectAgent(tabId: number, frameIds: number[]): Promise<void> {
  if (frameIds.length === 0) return;
  counters.contentAgent += frameIds.length;
  try {
    const offered = await chrome.scripting.executeScript({
      target: { tabId, frameIds }, world: 'MAIN', files: ['agent.js'], injectImmediately: true,
    });
    await Promise.all(offered.map(async (r) => {
      const token = r.result;
      if (typeof token !== 'number' || !Number.isInteger(token) || token <= 0) return drops.drop();
      try {
        await chrome.scripting.executeScript({
          target: { tabId, frameIds: [r.frameId] }, injectImmediately: true, args: [token],
          func: (n: number) => {
            const handoff = (globalThis as Record<string, unknown>).__layoutCostContent;
            if (Array.isArray(handoff)) handoff[2] = n;
          },
        });
      } catch {
        drops.drop();
      }
    }));
    await chrome.scripting.executeScript({ target: { tabId, frameIds }, files: ['content-agent.js'], injectImmediately: true });
  } catch {
    // Pages the extension may not script (chrome://, the web store) or a frame that went away.
    drops.drop();
  }
}

function persist(): void {
  if (persistTimer !== null) return;
  persistTimer = setTimeout(() => {
    persistTimer = null;
    counters.persists++;
    const obj: Record<string, Mode> = {};
    for (const [k, v] of modes) if (v !== 'off') obj[k] = v;
    browser.storage.session.set({ [SESSION_KEY]: obj }).catch(() => drops.drop());
  }, PERSIST_DELAY_MS);
}

function sendContent<T extends keyof BackgroundToContent>(port: Port, type: T, payload: BackgroundToContent[T]): void {
  try {
    port.postMessage(envelope(Source.Background, type, payload));
  } catch {
    drops.drop();
  }
}

function sendPanel<T extends keyof BackgroundToPanel>(tabId: number, type: T, payload: BackgroundToPanel[T]): void {
  const port = panels.get(tabId);
  if (!port) return;
  try {
    port.postMessage(envelope(Source.Background, type, payload));
  } catch {
    drops.drop();
  }
}

/**
 * Tells every frame of the tab, including those that hold no port (a content script with the overlay off and no
 * panel open keeps none: background-port.ts); frames with a port hear it twice, which changes nothing.
 */
function broadcast<T extends keyof BackgroundToContent>(tabId: number, type: T, payload: BackgroundToContent[T]): void {
  for (const port of contents.get(tabId)?.values() ?? []) sendContent(port, type, payload);
  browser.tabs.sendMessage(tabId, envelope(Source.Background, type, payload)).catch(() => {
    // No content script in the tab (chrome://, the web store, a page loaded before the extension).
  });
}

/** What a content script's hello (port or portless) changes, and the mode to tell it. */
function hello(tabId: number, top: boolean, pageMode: Mode, since: number): Mode {
  const known = modes.get(tabId);
  // A document that started before the tab was turned on (the worker injected its agent when it turned on) keeps
  // the mode; one that started after is a new page.
  const newDocument = since > (onSince.get(tabId) ?? 0);
  if (top && newDocument && pageMode === 'off' && known && known !== 'off' && !panels.has(tabId)) {
    // A new top-level document: off until asked, unless a panel is inspecting this tab.
    setTabMode(tabId, 'off');
  } else if (known === undefined && pageMode !== 'off') {
    // The worker restarted and lost nothing the page still knows.
    setTabMode(tabId, pageMode);
  }
  return modes.get(tabId) ?? 'off';
}

function setTabMode(tabId: number, mode: Mode): void {
  const was = modes.get(tabId) ?? 'off';
  if (was === mode) return;
  modes.set(tabId, mode);
  if (was === 'off') onSince.set(tabId, Date.now());
  persist();
  syncHello();
  // Frames that never said hello have no content agent yet: give it to every frame (it takes the mode from its hello).
  if (was === 'off' && mode !== 'off' && !panels.has(tabId)) void injectAgentEverywhere(tabId);
  broadcast(tabId, 'mode', { mode });
  sendPanel(tabId, 'mode', { mode });
  chrome.action.setBadgeText({ tabId, text: BADGE[mode] }).catch(() => drops.drop());
  chrome.action.setBadgeBackgroundColor({ tabId, color: '#3a7d44' }).catch(() => drops.drop());
}

function toggle(tabId: number): void {
  const now = Date.now();
  if (now - (lastToggle.get(tabId) ?? 0) < TOGGLE_DEDUP_MS) return;
  lastToggle.set(tabId, now);
  setTabMode(tabId, nextMode(modes.get(tabId) ?? 'off'));
}

/** The page-reported URL when it is of the origin the browser says the frame has; else the browser's. */
function trustedUrl(reported: string, known: string | undefined): string {
  if (known === undefined) return '';
  try {
    return new URL(reported).origin === new URL(known).origin ? reported : known;
  } catch {
    return known;
  }
}

function onContentConnect(port: Port): void {
  const tabId = port.sender?.tab?.id;
  const frameId = port.sender?.frameId ?? 0;
  if (tabId === undefined) return port.disconnect();
  let frames = contents.get(tabId);
  if (!frames) contents.set(tabId, (frames = new Map()));
  frames.set(frameId, port);

  port.onMessage.addListener(async (raw: unknown) => {
    const msg = parseMessage(raw, Source.Content);
    if (msg === null) return drops.drop();
    await restored;
    switch (msg.type) {
      case 'hello': {
        const mode = hello(tabId, msg.payload.top, msg.payload.mode, msg.payload.since);
        if (mode !== msg.payload.mode) sendContent(port, 'mode', { mode });
        sendContent(port, 'panel', { connected: panels.has(tabId) });
        sendContent(port, 'devtools', { open: devtoolsPorts.has(tabId) });
        break;
      }
      case 'toggle':
        toggle(tabId);
        break;
      case 'setMode':
        // Said back to the frame when it changes nothing (a change is broadcast): the frame waits for its own switch
        // to come back before it takes the worker's word again (src/content/agent/mode-sync.ts).
        if (modes.get(tabId) !== msg.payload.mode) setTabMode(tabId, msg.payload.mode);
        else sendContent(port, 'mode', { mode: msg.payload.mode });
        break;
      case 'status':
        // The panel picks the frame to evaluate in ("Reveal in Elements") by this URL: a frame may report its own
        // URL after an SPA navigation, never another origin's (issue 11: a cross-origin frame could claim the top's).
        sendPanel(tabId, 'status', { ...msg.payload, frameId, url: trustedUrl(msg.payload.url, port.sender?.url) });
        break;
      case 'table':
        sendPanel(tabId, 'table', { ...msg.payload, frameId });
        break;
      case 'snapshot':
        sendPanel(tabId, 'snapshot', { ...msg.payload, frameId });
        break;
      case 'experimentResult':
        sendPanel(tabId, 'experimentResult', { ...msg.payload, frameId });
        break;
      case 'recording':
        sendPanel(tabId, 'recording', { recording: msg.payload.recording, frame: msg.payload.frame, frameId });
        break;
      case 'capture': {
        const { reqId, step, rect, dpr } = msg.payload;
        // A frame cannot know where it is on the screen: pixels are compared in the top frame only.
        const answer = frameId !== 0
          ? Promise.resolve({ ok: false, error: 'pixels are compared in the top frame only', pixelsCompared: 0, pixelsChanged: 0 })
          : screenshots.take(tabId, step, rect, dpr);
        void answer.then((a) => sendContent(port, 'captured', { reqId, ...a }));
        break;
      }
      case 'locate': {
        const { reqId, request } = msg.payload;
        void sources.locate(request, port.sender?.url ?? null)
          .catch(() => [])
          .then((types) => sendContent(port, 'located', { reqId, types }));
        break;
      }
      default:
        drops.drop();
    }
  });
  port.onDisconnect.addListener(() => {
    if (contents.get(tabId)?.get(frameId) === port) contents.get(tabId)?.delete(frameId);
    sendPanel(tabId, 'contentGone', { frameId });
  });
}

function onPanelConnect(port: Port): void {
  let tabId: number | null = null;
  port.onMessage.addListener(async (raw: unknown) => {
    const msg = parseMessage(raw, Source.Panel);
    if (msg === null) return drops.drop();
    await restored;
    if (msg.type === 'hello') {
      tabId = msg.payload.tabId;
      const hadPanel = panels.has(tabId);
      panels.set(tabId, port);
      syncHello();
      if (!hadPanel && (modes.get(tabId) ?? 'off') === 'off') void injectAgentEverywhere(tabId);
      broadcast(tabId, 'panel', { connected: true });
      sendPanel(tabId, 'mode', { mode: modes.get(tabId) ?? 'off' });
      return;
    }
    if (tabId === null) return drops.drop();
    const frame = (id: number) => contents.get(tabId as number)?.get(id);
    switch (msg.type) {
      case 'toggle':
        toggle(tabId);
        break;
      case 'setMode':
        setTabMode(tabId, msg.payload.mode);
        break;
      case 'pin': {
        const p = frame(msg.payload.frameId);
        if (p) sendContent(p, 'pin', { id: msg.payload.id });
        break;
      }
      case 'hover': {
        const p = frame(msg.payload.frameId);
        if (p) sendContent(p, 'hover', { id: msg.payload.id });
        break;
      }
      case 'outline': {
        const p = frame(msg.payload.frameId);
        if (p) sendContent(p, 'outline', { cause: msg.payload.cause, moved: msg.payload.moved });
        break;
      }
      case 'snapshotRequest': {
        const p = frame(msg.payload.frameId);
        if (p) sendContent(p, 'snapshotRequest', { reqId: msg.payload.reqId });
        break;
      }
      case 'record': {
        const p = frame(msg.payload.frameId);
        if (p) sendContent(p, 'record', { on: msg.payload.on });
        break;
      }
      case 'recent': {
        const p = frame(msg.payload.frameId);
        if (p) sendContent(p, 'recent', { frame: msg.payload.frame });
        break;
      }
      case 'tableResync': {
        const p = frame(msg.payload.frameId);
        if (p) sendContent(p, 'tableResync', {});
        break;
      }
      case 'experiment': {
        const p = frame(msg.payload.frameId);
        if (p) sendContent(p, 'experiment', { reqId: msg.payload.reqId, request: msg.payload.request });
        else sendPanel(tabId!, 'experimentResult', {
          reqId: msg.payload.reqId, frameId: msg.payload.frameId, outcome: { ok: false, error: 'that frame is gone' },
        });
        break;
      }
      default:
        drops.drop();
    }
  });
  port.onDisconnect.addListener(() => {
    if (tabId === null || panels.get(tabId) !== port) return;
    panels.delete(tabId);
    syncHello();
    broadcast(tabId, 'panel', { connected: false });
  });
}

/**
 * A content script's portless messages: the boot's hello, the user's key press, and its ask for the content agent (it holds
 * a port only while it has something to say).
 */
browser.runtime.onMessage.addListener((raw: unknown, sender: browser.Runtime.MessageSender) => {
  // Our own pages (the popup, the panel), never a content script's frame.
  if (typeof sender.url === 'string' && sender.url.startsWith(chrome.runtime.getURL('')) && sender.id === chrome.runtime.id) {
    const site = parseSiteChanged(raw);
    if (site !== null) return siteChanged(site.tabId);
  }
  const tabId = sender.tab?.id;
  const msg = parseMessage(raw, Source.Content);
  if (tabId === undefined || msg === null) {
    drops.drop();
    return undefined;
  }
  switch (msg.type) {
    case 'hello':
      return restored.then(() => {
        const mode = hello(tabId, msg.payload.top, msg.payload.mode, msg.payload.since);
        return envelope(Source.Background, 'helloAck', { mode, panel: panels.has(tabId) });
      });
    case 'toggle':
      return restored.then(() => {
        toggle(tabId);
        return null;
      });
    case 'needContent':
      return injectAgent(tabId, [sender.frameId ?? 0]).then(() => null);
    default:
      drops.drop();
      return undefined;
  }
});

/** Tabs with DevTools open (their devtools page's ports): the Performance panel track is written only there. */
const devtoolsPorts = new Map<number, Set<Port>>();

function onDevtoolsConnect(port: Port, tabId: number): void {
  let set = devtoolsPorts.get(tabId);
  if (!set) devtoolsPorts.set(tabId, (set = new Set()));
  const first = set.size === 0;
  set.add(port);
  if (first) broadcast(tabId, 'devtools', { open: true });
  port.onDisconnect.addListener(() => {
    const s = devtoolsPorts.get(tabId);
    s?.delete(port);
    if (s && s.size === 0) {
      devtoolsPorts.delete(tabId);
      broadcast(tabId, 'devtools', { open: false });
    }
  });
}

browser.runtime.onConnect.addListener((port) => {
  if (port.name === PORT_NAME_CONTENT) onContentConnect(port);
  else if (port.name === PORT_NAME_PANEL) onPanelConnect(port);
  else if (port.name.startsWith(`${PORT_NAME_DEVTOOLS}:`) && port.sender?.tab === undefined) {
    // The devtools page (an extension page, not a tab's content script).
    const tabId = Number(port.name.slice(PORT_NAME_DEVTOOLS.length + 1));
    if (Number.isInteger(tabId) && tabId >= 0) onDevtoolsConnect(port, tabId);
    else port.disconnect();
  } else port.disconnect();
});

/**
 * The toolbar button or Ctrl+Shift+L: where Layout Cost runs, the overlay's next mode; elsewhere the popup that offers
 * to run it there (issue 48). Either press grants activeTab, so the tab's URL is known here.
 */
function pressed(tab: chrome.tabs.Tab | undefined): void {
  const tabId = tab?.id;
  if (tabId === undefined) return;
  void restored.then(() => sitesSync).then(async () => {
    const access = siteAccess(tab?.url, COVERED, granted);
    if (access !== 'off' && access !== 'never') return toggle(tabId);
    counters.offers++;
    try {
      // The popup learns the page from its own address: the press's activeTab grant shows the worker the URL, not it.
      const url = typeof tab?.url === 'string' && tab.url.length <= 4096 ? `&url=${encodeURIComponent(tab.url)}` : '';
      await chrome.action.setPopup({ tabId, popup: `popup.html?tab=${tabId}${url}` });
      // Chrome 127+: open it now; before, or where the browser declines, the next press opens it.
      await (chrome.action as { openPopup?: (o?: { windowId?: number }) => Promise<void> }).openPopup?.({ windowId: tab?.windowId });
    } catch {
      drops.drop();
    }
    return undefined;
  });
}

chrome.commands.onCommand.addListener((command, tab) => {
  if (command === 'cycle-mode') pressed(tab);
});

chrome.action.onClicked.addListener((tab) => pressed(tab));

// A new document in a tab: the button toggles again until a press finds the site off (the offer's popup is per tab).
chrome.tabs.onUpdated.addListener((tabId, info) => {
  if (info.status === 'loading') chrome.action.setPopup({ tabId, popup: '' }).catch(() => drops.drop());
});

chrome.permissions.onAdded.addListener(() => void syncSites());
chrome.permissions.onRemoved.addListener(() => void syncSites());

/** The popup's or the panel's word that the user granted or revoked a site: follow the grants, then reload the tab. */
async function siteChanged(tabId: number): Promise<null> {
  await syncSites();
  if (tabId >= 0) {
    await chrome.action.setPopup({ tabId, popup: '' }).catch(() => drops.drop());
    await chrome.tabs.reload(tabId).catch(() => drops.drop());
  }
  return null;
}

browser.tabs.onRemoved.addListener((tabId) => {
  contents.delete(tabId);
  panels.delete(tabId);
  lastToggle.delete(tabId);
  onSince.delete(tabId);
  if (modes.delete(tabId)) persist();
  syncHello();
});

/** For tests and debugging through the worker target: the router's own counters. */
(globalThis as Record<string, unknown>).__layoutCostBackground = {
  drops, modes, contents, panels, toggle, setTabMode, counters, helloRegistered: () => helloRegistered,
  sites: () => ({ covered: COVERED, granted, helloMatches }), syncSites, pressed,
};

// A restarted worker finds its registrations as it left them; make them match the grants and the restored modes.
void restored.then(syncSites);
