/**
 * content-agent.js: the content script's agent, injected into a frame's
 * isolated world by the service worker when the frame first needs it (the
 * overlay on, a panel open, a call of the page's API); never at page load.
 * Owns the rollup store, the overlay canvas and the user's interaction state.
 * Makes the private channel with the secret the boot handed over (../boot/handoff.ts, page-channel.ts);
 * talks to the MAIN world over that port (untrusted data, validated) and to
 * the service worker over a long-lived runtime port.
 */
import browser from 'webextension-polyfill';
import { experimentRequest, type ExperimentOutcome } from '../../protocol/experiment';
import { EXPERIMENT_OVERLAY_OFF } from '../../protocol/experiment-request';
import { envelope, Source, settingsValidator, INVALID, type Mode, type PixelAnswer, type PageStatus, type SelfCost, type Settings, type Snapshot } from '../../protocol';
import { DEFAULT_SETTINGS, SETTINGS_STORAGE_KEY } from '../../overlay/settings';
import { BackgroundPort, type BackgroundMessage } from './background-port';
import { HANDOFF_KEY, AGENT_STARTED, type Handoff } from '../boot/handoff';
import { Overlay } from './canvas';
import { renderDue } from './canvas/cadence';
import { MAX_ROWS, Recorder, tee, toTrace, type Recording } from './recorder';
import { PageChannel, type PageMessage } from './page-channel';
import { enableMode, experimentArgs, pinId, recordingRows } from './api-calls';
import { PanelFeed, silentPage } from './panel-feed';
import { Pending } from '../../protocol/pending';
import { SelfCostMeter } from './self-cost';
import { pageScripts, SourceBook } from './sources';
import { RollupStore } from './store';
import { ModeSync } from './mode-sync';
import { mergeVitals, NO_VITALS, renameVitals, type LayoutShift, type Vitals, type VitalsDelta } from '../../protocol/vitals';

/** The agent gives up after 250 ms per requested frame at most; the answer comes well before this. */
const EXPERIMENT_TIMEOUT_MS = 170_000;
/** Captures wait their turn (two a second in Chrome): three steps of one experiment take about 1.5 s. */
const CAPTURE_TIMEOUT_MS = 10_000;
const API_MODE_DELAY_MS = 30;
/** A layout shift is outlined this long as it happens, and one picked in the panel's Vitals tab this long. */
const SHIFT_FLASH_MS = 1500;
const SHIFT_SHOW_MS = 4000;
/** A locate request unanswered this long is asked again (docs/SOURCES.md). */
const LOCATE_TIMEOUT_MS = 60_000;
/** The live strip: the panel's last frames (about 10 s of StressGrid), at most this many component rows. */
export const LIVE_FRAMES = 120;
const LIVE_MAX_ROWS = 12_000;

class Controller {
  readonly store = new RollupStore();
  /** Our own main-thread time (the agent's, reported in its batches, and ours). */
  readonly self = new SelfCostMeter();
  mode: Mode = 'off';
  pageStatus: PageStatus | null = null;
  private settings: Settings = { ...DEFAULT_SETTINGS };
  private renderTimer: ReturnType<typeof setTimeout> | null = null;
  /** When the pending render is due, and when the last one ran (performance.now()). */
  private renderDue = 0;
  private renderedAt = -Infinity;
  private lastConfigKey = '';
  /** Requests to the page and the worker waiting for their answers (pending.ts). */
  private readonly hits = new Pending<number | null>();
  private readonly experiments = new Pending<ExperimentOutcome>();
  private readonly captures = new Pending<PixelAnswer>();
  private devtoolsOpen = false;
  /** The recording in progress, and the last one stopped (for exportTrace and the panel). */
  private recorder: Recorder | null = null;
  private lastRecording: Recording | null = null;
  /** Component types' source locations and original names (issue 15). */
  private readonly sources = new SourceBook();
  /** The locate request in flight (one at a time). */
  private locating: number | null = null;
  private locateSeq = 0;
  /** The panel's live frame strip: the last LIVE_FRAMES frames, kept only while a panel is open and measuring. */
  private live: Recorder | null = null;
  private pendingMode: Mode | null = null;
  /** The worker's word on the mode, against a switch of this frame's own not yet heard back (mode-sync.ts). */
  private readonly modeSync = new ModeSync();
  /** Interactions and layout shifts since enable, as the page agent last sent them (issue 46). */
  vitals: Vitals = NO_VITALS;
  /** The last records batch number applied (0: none yet). */
  private lastSeq = 0;
  private modeTimer: ReturnType<typeof setTimeout> | null = null;
  readonly page: PageChannel;
  readonly bg: BackgroundPort;
  readonly overlay: Overlay;
  readonly feed: PanelFeed;
  private readonly bootDrops: Handoff;

  constructor(handoff: Handoff) {
    this.store.sources = this.sources;
    const controller = this; // the feed reads the mode and the page status as they change
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
    this.page = new PageChannel(handoff[0], handoff[2], (m) => this.onPage(m));
    if (!this.page.taken) {
      // Nothing will come from the page: say why where its status would be (the panel shows it).
      this.pageStatus = silentPage(['the page did not take Layout Cost\'s private channel: a script of the page replaced '
        + 'built-ins the channel needs (MessagePort, MessageEvent) before Layout Cost connected, or our scripts could '
        + 'not run in this frame\'s page world; the overlay cannot read this page']);
    }
    this.page.onDrop = () => this.pushState();
    this.bootDrops = handoff;
    const overlay = this.overlay;
    this.feed = new PanelFeed({
      store: this.store,
      get mode() {
        return controller.mode;
      },
      get pageStatus() {
        return controller.pageStatus;
      },
      send: (type: 'status' | 'table', payload: unknown) => this.bg.send(type, payload as never),
      overlayView: () => ({
        pinned: overlay.pinned, hovered: overlay.drawnHover, drawnCount: overlay.drawnCount, hiddenCount: overlay.hiddenCount,
        capped: overlay.capped,
      }),
      chainOf: (id) => overlay.chainOf(id),
      droppedMessages: () => this.droppedMessages(),
      selfCost: () => this.selfCost(),
      strip: () => this.live?.bars(LIVE_FRAMES) ?? [],
      sources: () => (this.mode === 'off' ? null : this.sources.summary()),
      sourcesVersion: () => this.sources.version,
      ownNamesMinified: () => (this.mode === 'off' ? null : this.sources.ownNamesMinified()),
      vitals: () => this.namedVitals(),
    });
    // The port to the worker is held only while there is something to say (background-port.ts).
    this.bg = new BackgroundPort(
      (m) => this.onBackground(m), () => ({ top: window === window.top, mode: this.mode, since: performance.timeOrigin }),
      () => this.mode !== 'off' || this.feed.isConnected,
    );
    this.hello();
    // The MAIN world answers the first state with its status (React or not) and from then on keeps it current.
    this.pushState();
    if (this.mode !== 'off') this.pushConfig(true);
    void this.loadSettings();
  }

  /**
   * Asks the worker once, without a port, whether this tab's overlay is on or a panel is open on it, and from then on
   * hears its broadcasts (`tabs.sendMessage` reaches every frame of the tab, ported or not).
   */
  private hello(): void {
    try {
      browser.runtime.onMessage.addListener((raw: unknown, sender: { id?: string }) => {
        if (sender.id === browser.runtime.id) this.bg.receive(raw);
        return undefined;
      });
      const said = envelope(Source.Content, 'hello', { top: window === window.top, mode: this.mode, since: performance.timeOrigin });
      browser.runtime.sendMessage(said).then((ack: unknown) => {
        if (ack !== undefined) this.bg.receive(ack);
      }, () => this.bg.drops.drop());
    } catch {
      this.bg.drops.drop();
    }
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
    // Whether shifts are outlined as they happen is the agent's to know (it then looks for their causes at once).
    if (this.mode !== 'off') this.pushConfig();
  }

  /** The one place a mode change lands, whatever asked for it. */
  setMode(mode: Mode): void {
    if (mode === this.mode) return;
    const wasOff = this.mode === 'off';
    this.mode = mode;
    // Off frees what on took (issue 11: 50 000 components stayed after disable); on starts from a clean store.
    if (wasOff !== (mode === 'off')) {
      this.store.reset();
      this.sources.reset();
      this.locating = null;
      this.self.reset(0);
      this.lastSeq = 0;
      this.vitals = NO_VITALS;
    }
    if (mode === 'off') this.overlay.setPin(null);
    this.overlay.setMode(mode);
    this.pushConfig(true);
    this.pushState();
    this.feed.statusChanged(true);
    this.syncLive();
    this.scheduleRender();
    this.bg.sync();
  }

  /** Asks the worker to find the next batch of component types in the page's scripts (one request at a time). */
  private locateNext(): void {
    if (this.locating !== null || this.mode === 'off') return;
    const request = this.sources.nextBatch(() => pageScripts(document, performance, String(location.href)));
    if (request === null) return;
    const reqId = (this.locating = ++this.locateSeq);
    this.bg.send('locate', { reqId, request });
    // A worker that went away mid-request never answers: ask again later rather than never.
    setTimeout(() => {
      if (this.locating !== reqId) return;
      this.locating = null;
      this.sources.unask(request.types.map((t) => t.typeId));
      this.locateNext();
    }, LOCATE_TIMEOUT_MS);
  }

  /** Keeps the live strip's ring while a panel is open and the overlay on; drops it otherwise. */
  private syncLive(): void {
    const want = this.feed.isConnected && this.mode !== 'off';
    if (want === (this.live !== null)) return;
    this.live = want ? this.newRecorder(LIVE_MAX_ROWS, LIVE_FRAMES) : null;
    this.feedRecorders();
  }

  /** The store feeds the recording and the live strip; the agent sends each frame's commit counts only while one runs. */
  private feedRecorders(): void {
    this.store.recorder = tee(this.recorder, this.live);
    if (this.mode !== 'off') this.pushConfig();
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
      self: this.selfCost(), minified: this.sources.ownNamesMinified(),
    });
  }

  /** Tells the agent the mode and which bounds to read; only when it changed (or forced). */
  private pushConfig(force = false): void {
    const wantBounds = this.overlay.wantBounds();
    // Only while DevTools is open on the tab: the Performance panel can record only then (devtools.ts).
    const track = this.settings.performanceTrack && this.devtoolsOpen;
    // Commit counts each frame only while something reads them: a panel (its live strip) or a recording. Keys go over
    // under the same condition (the agent's registry, `wantKeys`).
    const commits = this.store.recorder !== null;
    // Shifts outlined as they happen (setting flashShifts): their causes are wanted at once.
    const flash = this.settings.flashShifts && this.mode !== 'off';
    const key = `${this.mode}|${this.overlay.pinned}|${track}|${commits}|${flash}|${wantBounds.join(',')}`;
    if (!force && key === this.lastConfigKey) return;
    this.lastConfigKey = key;
    this.page.send('config', { mode: this.mode, wantBounds, pinned: this.overlay.pinned, track, commits, flash });
  }

  private hitTest(x: number, y: number): Promise<number | null> {
    return this.hits.ask((seq) => this.page.send('hitTest', { seq, x, y }), 500, () => null);
  }

  /**
   * Runs a containment experiment in the agent (API and panel alike). The request is checked here whatever its
   * origin; the answer carries the component's name from the store.
   */
  private experiment(raw: unknown, fromPanel: boolean): Promise<ExperimentOutcome> {
    const req = experimentRequest(raw);
    if (req === INVALID) {
      return Promise.resolve({
        ok: false, error: 'not a valid experiment: { css: "property: value; …" (no braces or at-rules), frames: 12–600 }',
      });
    }
    if (this.mode === 'off') return Promise.resolve({ ok: false, error: EXPERIMENT_OVERLAY_OFF });
    return this.experiments.ask((seq) => this.page.send('experiment', { seq, request: req, pixels: fromPanel }),
      EXPERIMENT_TIMEOUT_MS, (): ExperimentOutcome => ({ ok: false, error: 'no answer from the page' })).then((outcome) => {
      if (outcome.ok) {
        // As the table names it (a production build's: the source map's name once placed).
        const c = this.store.components.get(outcome.result.id);
        outcome.result.name = c === undefined ? `#${outcome.result.id}` : this.sources.nameOf(c.typeId, c.name).name;
      }
      return outcome;
    });
  }

  /**
   * A screenshot step for the agent's experiment: our canvas hidden, two frames for the page (and the agent's
   * switch of the declaration) to reach the screen, then the worker captures the tab.
   */
  private capture(step: number, rect: number[]): Promise<PixelAnswer> {
    this.overlay.hideForCapture(true);
    return this.captures.ask((reqId) => requestAnimationFrame(() => requestAnimationFrame(() => {
      this.bg.send('capture', { reqId, step, rect, dpr: window.devicePixelRatio || 1 });
    })), CAPTURE_TIMEOUT_MS, (): PixelAnswer => ({ ok: false, error: 'no screenshot came', pixelsCompared: 0, pixelsChanged: 0 }))
      .finally(() => this.overlay.hideForCapture(false));
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
        const geometry = this.store.geometry;
        const structure = this.store.structure;
        try {
          this.self.add(p.selfMs);
          const data = Array.isArray(p.buffer) ? p.buffer : new Float64Array(p.buffer);
          this.self.time(() => this.store.apply(data, p.count, p.strings, p.stringBase, p.dropped, p.keys));
        } catch (e) {
          // Validated, so not expected; a batch that still breaks the store is dropped and counted, never thrown.
          this.page.drops.drop();
          console.debug('[layout-cost] records batch dropped', e);
        }
        // New components are typed a pass later, then placed: until then the own-only views leave them out (issue 44).
        if (this.store.structure !== structure) this.sources.noteMounts();
        this.scheduleRender(this.store.geometry === geometry);
        if (p.vitals !== undefined) this.takeVitals(p.vitals);
        break;
      }
      case 'status':
        this.pageStatus = msg.payload;
        this.feed.statusChanged();
        break;
      case 'api': {
        // The arguments as the page gave them (./api-calls.ts reads them); an answer is `{ ok, result }` or
        // `{ ok: false, error }`, which the boot's API turns into a rejection.
        const p = msg.payload;
        const [a, b] = p.args;
        if (p.call === 'snapshot') {
          this.page.send('apiResult', { reqId: p.reqId, result: { ok: true, result: this.snapshot() } });
        } else if ((p.call === 'enable' || p.call === 'disable') && !this.mayControlTab()) {
          // A cross-origin frame (an ad, an embed) does not switch the tab, nor get the agent into the top page.
          this.page.drops.drop();
          this.pushState();
        } else if (p.call === 'enable' || p.call === 'disable') {
          this.requestMode(p.call === 'disable' ? 'off' : enableMode(a));
        } else if (p.call === 'pin') {
          this.pin(pinId(a));
        } else if (p.call === 'startRecording') {
          this.startRecording(recordingRows(a, MAX_ROWS));
        } else if (p.call === 'stopRecording') {
          const r = this.stopRecording();
          this.page.send('apiResult', { reqId: p.reqId, result: r ? { ok: true, result: r } : { ok: false, error: 'not recording' } });
        } else if (p.call === 'exportTrace') {
          const r = this.lastRecording;
          this.page.send('apiResult', {
            reqId: p.reqId, result: r ? { ok: true, result: toTrace(r) } : { ok: false, error: 'no recording yet: startRecording(), then stopRecording()' },
          });
        } else if (p.call === 'experiment') {
          void this.experiment(experimentArgs(a, b), false).then((outcome) => this.page.send('apiResult', { reqId: p.reqId, result: outcome }));
        }
        break;
      }
      case 'capture': {
        const seq = msg.payload.seq;
        void this.capture(msg.payload.step, msg.payload.rect).then((a) => this.page.send('captured', { seq, ...a }));
        break;
      }
      case 'experimentResult':
        this.experiments.settle(msg.payload.seq, msg.payload.outcome);
        break;
      case 'hit':
        this.hits.settle(msg.payload.seq, msg.payload.id);
        break;
      case 'stack':
        this.feed.addStack(msg.payload.id, msg.payload.ms, msg.payload.stack, msg.payload.after);
        this.store.recorder?.stack(msg.payload.id, msg.payload.ms, msg.payload.stack, msg.payload.after);
        break;
      case 'dirtied':
        this.store.setDirtied(msg.payload);
        break;
      case 'types': {
        // The agent hands its records over before this message: every member has mounted here (unless capped).
        for (const [id, t] of msg.payload.members) {
          const c = this.store.components.get(id);
          if (c) {
            c.typeId = this.sources.localType(t);
            this.sources.noteName(c.typeId, c.name);
          }
        }
        if (this.sources.onTypes(msg.payload.types)) this.locateNext();
        this.feed.statusChanged();
        break;
      }
    }
  }

  /** Interactions and shifts with their components named as the table names them (source maps: renameVitals). */
  private namedVitals(): Vitals {
    return renameVitals(this.vitals, (id) => {
      const c = this.store.components.get(id);
      return c === undefined ? null : this.sources.nameOf(c.typeId, c.name).name;
    });
  }

  /** Interactions and shifts handed over with a records batch (issue 46). */
  private takeVitals(delta: VitalsDelta): void {
    this.vitals = mergeVitals(this.vitals, delta);
    this.feed.statusChanged();
    this.flashNewestShift(delta.shifts);
  }

  /** The newest shift of a hand-over, outlined on the page for a moment as it happens (setting `flashShifts`). */
  private flashNewestShift(shifts: readonly LayoutShift[]): void {
    const shift = shifts[shifts.length - 1];
    if (shift && this.settings.flashShifts) this.overlay.flash(shift.cause?.id ?? null, shift.shifted.map((c) => c.id), SHIFT_FLASH_MS);
  }

  private onBackground(msg: BackgroundMessage): void {
    switch (msg.type) {
      case 'mode':
        if (this.modeSync.take(msg.payload.mode, performance.now())) this.setMode(msg.payload.mode);
        break;
      case 'tableResync':
        this.feed.resync();
        break;
      case 'panel':
        this.feed.setConnected(msg.payload.connected);
        this.syncLive();
        break;
      case 'helloAck':
        this.feed.setConnected(msg.payload.panel);
        if (this.modeSync.take(msg.payload.mode, performance.now())) this.setMode(msg.payload.mode);
        this.syncLive();
        break;
      case 'recent': {
        // The panel paused on a frame of its live strip: the ring so far, that frame selected.
        const live = this.live;
        if (live) this.bg.send('recording', { recording: this.finishRecording(live), frame: msg.payload.frame });
        break;
      }
      case 'pin':
        this.pin(msg.payload.id);
        break;
      case 'hover':
        this.overlay.setHover(msg.payload.id);
        this.pushConfig();
        this.scheduleRender();
        break;
      case 'outline':
        this.overlay.flash(msg.payload.cause, msg.payload.moved, SHIFT_SHOW_MS);
        break;
      case 'snapshotRequest':
        this.bg.send('snapshot', { reqId: msg.payload.reqId, snapshot: this.snapshot() });
        break;
      case 'captured': {
        const { reqId, ok, error, pixelsCompared, pixelsChanged } = msg.payload;
        this.captures.settle(reqId, { ok, error, pixelsCompared, pixelsChanged });
        break;
      }
      case 'located':
        if (msg.payload.reqId !== this.locating) break;
        this.locating = null;
        this.sources.onLocated(msg.payload.types);
        this.feed.statusChanged();
        // state().minified judges the app's own names once some are placed.
        this.pushState();
        this.locateNext();
        break;
      case 'devtools':
        this.devtoolsOpen = msg.payload.open;
        if (this.mode !== 'off') this.pushConfig();
        break;
      case 'record':
        if (msg.payload.on) this.startRecording();
        else {
          const r = this.stopRecording();
          if (r) this.bg.send('recording', { recording: r, frame: null });
        }
        break;
      case 'experiment': {
        const reqId = msg.payload.reqId;
        void this.experiment(msg.payload.request, true).then((outcome) => this.bg.send('experimentResult', { reqId, outcome }));
        break;
      }
      default:
        break;
    }
  }

  /** `numbersOnly`: what changed moved nothing on screen (canvas/cadence.ts). A sooner request moves a later one up. */
  scheduleRender(numbersOnly = false): void {
    const now = performance.now();
    const due = renderDue(now, this.renderedAt, numbersOnly);
    if (this.renderTimer !== null) {
      if (this.renderDue <= due) return;
      clearTimeout(this.renderTimer);
    }
    this.renderDue = due;
    this.renderTimer = setTimeout(() => {
      this.renderTimer = null;
      this.renderedAt = performance.now();
      if (this.mode === 'off') return;
      const wasCapped = this.overlay.capped;
      this.self.time(() => {
        this.overlay.render();
        this.feed.tick();
      });
      // state().capped follows what the overlay just drew; state().self changes about once a second.
      const selfChanged = this.self.sample(this.store.frames.count);
      if (this.overlay.capped !== wasCapped || selfChanged) this.pushState();
      if (selfChanged) this.feed.statusChanged();
      this.pushConfig();
    }, due - now);
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
      this.modeSync.switched(m, performance.now());
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

  /** Starts a recording (a running one goes on). */
  startRecording(maxRows = MAX_ROWS): void {
    if (this.recorder) return;
    this.recorder = this.newRecorder(maxRows, Infinity, performance.now());
    this.feedRecorders();
  }

  private newRecorder(maxRows: number, maxFrames = Infinity, since = -Infinity): Recorder {
    const store = this.store;
    return new Recorder((id) => {
      const c = store.components.get(id);
      // The name a source map gave back, when it did (what the table shows).
      return c ? { name: this.sources.nameOf(c.typeId, c.name).name, parentId: c.parentId, depth: c.depth, key: this.store.keyOf(id) } : null;
    }, maxRows, maxFrames, since);
  }

  private finishRecording(rec: Recorder): Recording {
    const d = this.store.dirtied;
    return rec.finish(String(location.href).slice(0, 2048), d.id !== 0 ? { id: d.id, items: d.items } : null, this.namedVitals());
  }

  /** Stops the recording and keeps it as the last one; null when none ran. */
  stopRecording(): Recording | null {
    const rec = this.recorder;
    if (!rec) return null;
    this.recorder = null;
    this.feedRecorders();
    this.lastRecording = this.finishRecording(rec);
    return this.lastRecording;
  }

  private snapshot(): Snapshot {
    return this.store.snapshot((id) => this.overlay.meterAt(id), this.selfCost(), this.namedVitals());
  }

  selfCost(): SelfCost | null {
    return this.mode === 'off' ? null : this.self.value;
  }

  droppedMessages(): number {
    return this.page.drops.count + this.bg.drops.count + this.bootDrops[1];
  }
}

/** Calls and forgets the waiter for `seq`, if one is still waiting (an answer after its timeout finds none). */
const handoff = (globalThis as unknown as Record<string, unknown>)[HANDOFF_KEY] as Handoff | undefined;
const started = AGENT_STARTED;
const g = globalThis as unknown as Record<symbol, unknown>;
if (handoff !== undefined && g[started] === undefined) {
  g[started] = true;
  try {
    const c = new Controller(handoff);
    // The isolated world's own globals (the page cannot see them): the channel's port and whether the MAIN boot took
    // it, for the tests' failure paths.
    g[started] = { port: c.page.port, taken: c.page.taken };
  } catch (e) {
    console.warn('[layout-cost] content script failed to start', e);
  }
}
