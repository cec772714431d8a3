/**
 * The isolated-world content script, in every frame: owns the rollup store,
 * the overlay canvas and the user's interaction state. Talks to the MAIN
 * world over the private port (untrusted data, validated) and to the
 * service worker over a long-lived runtime port.
 */
import browser from 'webextension-polyfill';
import { settingsValidator, INVALID, type Mode, type PageStatus, type Settings } from '../protocol';
import { DEFAULT_SETTINGS, SETTINGS_STORAGE_KEY } from '../overlay/settings';
import { BackgroundPort, type BackgroundMessage } from './background-port';
import { isToggleShortcut } from './keys';
import { Overlay } from './overlay';
import { PageChannel, type PageMessage } from './page-channel';
import { PanelFeed } from './panel-feed';
import { RollupStore } from './store';

const RENDER_INTERVAL_MS = 33;
const API_MODE_DELAY_MS = 30;

class Controller {
  readonly store = new RollupStore();
  mode: Mode = 'off';
  pageStatus: PageStatus | null = null;
  private settings: Settings = { ...DEFAULT_SETTINGS };
  private agentRequested = false;
  private renderTimer: ReturnType<typeof setTimeout> | null = null;
  private lastConfigKey = '';
  private hitSeq = 0;
  private hitWaiters = new Map<number, (id: number | null) => void>();
  private pendingMode: Mode | null = null;
  /** The last records batch number applied (0: none yet). */
  private lastSeq = 0;
  private modeTimer: ReturnType<typeof setTimeout> | null = null;
  readonly page: PageChannel;
  readonly bg: BackgroundPort;
  readonly overlay: Overlay;
  readonly feed: PanelFeed;

  constructor() {
    this.overlay = new Overlay({
      store: this.store,
      hitTest: (x, y) => this.hitTest(x, y),
      onPin: (id) => this.pin(id),
      requestRender: () => this.scheduleRender(),
      // Scroll, resize or a new Inspect hover: the agent re-reads bounds for wantBounds().
      requestBounds: () => this.pushConfig(true),
      legendStorage: {
        get: async (key) => (await browser.storage.local.get(key))[key],
        set: (key, value) => browser.storage.local.set({ [key]: value }),
      },
    }, this.settings);
    this.page = new PageChannel((m) => this.onPage(m), () => {
      this.pushState();
      // A mode that arrived from the worker before the page's port did.
      if (this.mode !== 'off') this.pushConfig(true);
    });
    this.page.onDrop = () => this.pushState();
    this.feed = new PanelFeed(this);
    // The port to the worker is held only while there is something to say (background-port.ts).
    this.bg = new BackgroundPort(
      (m) => this.onBackground(m), () => ({ top: window === window.top, mode: this.mode }),
      () => this.mode !== 'off' || this.feed.isConnected,
    );
    window.addEventListener('keydown', (e) => {
      // Only the user's own key press: a page's synthetic keydown must not switch the whole tab (issue 11).
      if (!e.isTrusted || !isToggleShortcut(e)) return;
      e.preventDefault();
      e.stopImmediatePropagation();
      this.bg.send('toggle', { via: 'key' });
    }, true);
    void this.loadSettings();
  }

  private async loadSettings(): Promise<void> {
    try {
      const got = await browser.storage.local.get(SETTINGS_STORAGE_KEY);
      this.applySettings(got[SETTINGS_STORAGE_KEY]);
      browser.storage.onChanged.addListener((changes, area) => {
        if (area === 'local' && changes[SETTINGS_STORAGE_KEY]) this.applySettings(changes[SETTINGS_STORAGE_KEY].newValue);
      });
    } catch {
      this.bg.drops.drop();
    }
  }

  private applySettings(raw: unknown): void {
    const s = raw === undefined ? INVALID : settingsValidator(raw);
    this.settings = s === INVALID ? { ...DEFAULT_SETTINGS } : s;
    this.overlay.setSettings(this.settings);
    this.scheduleRender();
  }

  /** The one place a mode change lands, whatever asked for it. */
  setMode(mode: Mode): void {
    if (mode === this.mode) return;
    const wasOff = this.mode === 'off';
    this.mode = mode;
    // Off frees what on took (issue 11: 50 000 components stayed after disable); on starts from a clean store.
    if (wasOff !== (mode === 'off')) {
      this.store.reset();
      this.lastSeq = 0;
    }
    if (mode !== 'off' && !this.agentRequested) {
      this.agentRequested = true;
      this.bg.send('needAgent', {});
    }
    if (mode === 'off') this.overlay.setPin(null);
    this.overlay.setMode(mode);
    this.pushConfig(true);
    this.pushState();
    this.feed.statusChanged(true);
    this.scheduleRender();
    this.bg.sync();
  }

  pin(id: number | null): void {
    this.overlay.setPin(id !== null && this.store.components.has(id) ? id : null);
    this.pushConfig(true);
    this.pushState();
    this.feed.statusChanged(true);
    this.scheduleRender();
  }

  private pushState(): void {
    this.page.send('state', {
      mode: this.mode, pinned: this.overlay.pinned, capped: this.overlay.capped, dropped: this.droppedMessages(),
    });
  }

  /** Tells the agent the mode and which bounds to read; only when it changed (or forced). */
  private pushConfig(force = false): void {
    const wantBounds = this.overlay.wantBounds();
    const key = `${this.mode}|${this.overlay.pinned}|${wantBounds.join(',')}`;
    if (!force && key === this.lastConfigKey) return;
    this.lastConfigKey = key;
    this.page.send('config', { mode: this.mode, wantBounds, pinned: this.overlay.pinned });
  }

  private hitTest(x: number, y: number): Promise<number | null> {
    const seq = ++this.hitSeq;
    return new Promise((resolve) => {
      this.hitWaiters.set(seq, resolve);
      this.page.send('hitTest', { seq, x, y });
      setTimeout(() => {
        if (this.hitWaiters.delete(seq)) resolve(null);
      }, 500);
    });
  }

  private onPage(msg: PageMessage): void {
    switch (msg.type) {
      case 'records': {
        // A batch still in flight when the overlay went off: nothing to keep it for.
        if (this.mode === 'off') break;
        const p = msg.payload;
        // A skipped number is a lost batch (a post that failed in the page): the tables are stale, start over.
        const gap = this.lastSeq !== 0 && p.seq !== this.lastSeq + 1;
        this.lastSeq = p.seq;
        if (gap) this.page.send('resync', {});
        try {
          this.store.apply(new Float64Array(p.buffer), p.count, p.strings, p.stringBase, p.dropped, p.keys);
        } catch (e) {
          // Validated, so not expected; a batch that still breaks the store is dropped and counted, never thrown.
          this.page.drops.drop();
          console.debug('[layout-cost] records batch dropped', e);
        }
        this.scheduleRender();
        break;
      }
      case 'status':
        this.pageStatus = msg.payload;
        this.feed.statusChanged();
        break;
      case 'api': {
        const p = msg.payload;
        if (p.call === 'snapshot') {
          this.page.send('apiResult', { reqId: p.reqId, result: this.store.snapshot((id) => this.overlay.meterAt(id)) });
        } else if ((p.call === 'enable' || p.call === 'disable') && !this.mayControlTab()) {
          // A cross-origin frame (an ad, an embed) does not switch the tab, nor get the agent into the top page.
          this.page.drops.drop();
          this.pushState();
        } else if (p.call === 'enable' || p.call === 'disable') {
          this.requestMode(p.call === 'disable' ? 'off' : (p.mode ?? 'components'));
        } else if (p.call === 'pin') {
          this.pin(p.id);
        }
        break;
      }
      case 'hit': {
        const w = this.hitWaiters.get(msg.payload.seq);
        if (w) {
          this.hitWaiters.delete(msg.payload.seq);
          w(msg.payload.id);
        }
        break;
      }
      case 'stack':
        this.feed.addStack(msg.payload.id, msg.payload.ms, msg.payload.stack);
        break;
    }
  }

  private onBackground(msg: BackgroundMessage): void {
    switch (msg.type) {
      case 'mode':
        this.setMode(msg.payload.mode);
        break;
      case 'panel':
        this.feed.setConnected(msg.payload.connected);
        break;
      case 'helloAck':
        this.feed.setConnected(msg.payload.panel);
        this.setMode(msg.payload.mode);
        break;
      case 'pin':
        this.pin(msg.payload.id);
        break;
      case 'hover':
        this.overlay.setHover(msg.payload.id);
        this.pushConfig();
        this.scheduleRender();
        break;
      case 'snapshotRequest':
        this.bg.send('snapshot', { reqId: msg.payload.reqId, snapshot: this.store.snapshot((id) => this.overlay.meterAt(id)) });
        break;
      default:
        break;
    }
  }

  scheduleRender(): void {
    if (this.renderTimer !== null) return;
    this.renderTimer = setTimeout(() => {
      this.renderTimer = null;
      if (this.mode === 'off') return;
      const wasCapped = this.overlay.capped;
      this.overlay.render();
      // state().capped follows what the overlay just drew.
      if (this.overlay.capped !== wasCapped) this.pushState();
      this.pushConfig();
      this.feed.tick();
    }, RENDER_INTERVAL_MS);
  }

  /**
   * API mode calls land together, latest wins, API_MODE_DELAY_MS after the first of a burst: a page that calls
   * enable/disable 5 000 times in a loop gets one switch, not 5 000 (issue 11).
   */
  private requestMode(mode: Mode): void {
    this.pendingMode = mode;
    this.modeTimer ??= setTimeout(() => {
      this.modeTimer = null;
      const m = this.pendingMode;
      if (m === null) return;
      this.pendingMode = null;
      this.setMode(m);
      this.bg.send('setMode', { mode: m });
    }, API_MODE_DELAY_MS);
  }

  /** The API may switch the tab's mode from the top frame and from frames of the top's origin. */
  private mayControlTab(): boolean {
    if (window === window.top) return true;
    try {
      return window.top !== null && window.top.location.origin === window.location.origin;
    } catch {
      // Reading a cross-origin top's location throws: another site's frame.
      return false;
    }
  }

  droppedMessages(): number {
    return this.page.drops.count + this.bg.drops.count;
  }
}

try {
  new Controller();
} catch (e) {
  console.warn('[layout-cost] content script failed to start', e);
}
