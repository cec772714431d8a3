/**
 * Interactions and layout shifts, per component (issue 46), against the page's own entries: a PerformanceObserver of
 * the same `event` and `layout-shift` entries started in the page at enable, and web-vitals (onINP with its
 * attribution, onCLS; reportAllChanges, durationThreshold 16) as the reference for INP, its phases and CLS. Each
 * interaction and shift of tests/fixtures/src/vitals.tsx has a known culprit.
 */
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { DEFAULT_SETTINGS } from '../../src/overlay/settings';
import { launch, lc, openPanel, waitFor, type Harness } from './harness';
import { at as pixelAt, shot, type RGB } from './overlay-pixels';
import { decodePng } from './png';
import { traced, TRACE_CATEGORIES, type TraceEvent } from './timing-helpers';

const log = (...a: unknown[]): void => console.log('    [vitals]', ...a);

/** The overlay's wash over a flashed shift (src/overlay/paint-meters.ts): the cause orange at 18 %, the moved violet at 10 %. */
const CAUSE: [RGB, number] = [[234, 88, 12], 0.18];
const MOVED: [RGB, number] = [[124, 58, 237], 0.10];
const blend = (under: RGB, [c, a]: [RGB, number]): RGB => [0, 1, 2].map((k) => under[k] * (1 - a) + c[k] * a) as unknown as RGB;
const washed = (px: RGB, under: RGB, wash: [RGB, number]): boolean => {
  const want = blend(under, wash);
  return [0, 1, 2].every((k) => Math.abs(px[k] - want[k]) <= 3) && [0, 1, 2].some((k) => Math.abs(px[k] - under[k]) > 3);
};
/** A point inside the element's box, clear of its edges and of the meter at its top-right. */
const inside = (page: Page, sel: string): Promise<{ x: number; y: number }> => page.evaluate((q) => {
  const r = document.querySelector(q)!.getBoundingClientRect();
  return { x: Math.round(r.left + 4), y: Math.round(r.top + r.height / 2) };
}, sel);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Chrome's own account, the second truth: a trace of the same seconds (EventDispatch in devtools.timeline, LayoutShift
 * in loading) and a user-timing mark that ties its clock to performance.now(): `at(ms)` is that time in trace µs.
 */
async function chromeTrace(page: Page, body: () => Promise<void>): Promise<{ events: TraceEvent[]; at: (ms: number) => number }> {
  let markMs = 0;
  const events = await traced(page, async () => {
    markMs = await page.evaluate(() => performance.mark('lc-vitals-ref').startTime);
    await body();
  }, [...TRACE_CATEGORIES, 'loading']);
  const mark = events.find((e) => e.name === 'lc-vitals-ref' && e.cat.includes('user_timing'));
  if (mark === undefined) throw new Error('the reference mark is not in the trace');
  return { events, at: (ms) => mark.ts + (ms - markMs) * 1000 };
}

interface Ref {
  inp: { value: number; id: number; inputDelay: number; processing: number; presentationDelay: number } | null;
  cls: number | null;
  events: { name: string; interactionId: number; startTime: number; duration: number }[];
  shifts: { value: number; startTime: number }[];
}

describe('interactions and layout shifts (e2e)', function () {
  this.timeout(180_000);
  let h: Harness;
  let page: Page;
  before(async () => {
    h = await launch();
    page = await h.newPage('vitals-r19.html?coi=1');
    await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: 'fixture' });
    await lc.enable(page);
    await waitFor(async () => ((await lc.snapshot(page)) as any).components.some((c: any) => c.name === 'Feed'), { what: 'Feed' });
    await page.evaluate(() => (window as any).__startVitals());
  });
  after(async () => h?.close());
  // A test that failed half-way may leave the outline setting on and a recording running (both read every shift): the
  // next starts from the defaults, so that one failure is reported once.
  afterEach(async function () {
    if (this.currentTest?.state !== 'failed') return;
    await (await h.worker()).evaluate((st) => chrome.storage.local.set({ settings: st }), { ...DEFAULT_SETTINGS }).catch(() => undefined);
    await page.evaluate(() => { try { (window as any).__LAYOUT_COST__.stopRecording(); } catch { /* none running */ } }).catch(() => undefined);
  });

  const snap = async (): Promise<any> => lc.snapshot(page);
  const ref = async (): Promise<Ref> => page.evaluate(() => JSON.parse(JSON.stringify((window as any).__reference)));

  it('each interaction: Event Timing\'s duration, web-vitals\' phases and INP, its target\'s component, and the component that caused its layout first', async () => {
    const trace = await chromeTrace(page, async () => {
      for (let i = 0; i < 3; i++) {
        await page.click('#filter');
        await sleep(400);
      }
      await page.focus('#search');
      await page.keyboard.type('ab', { delay: 250 });
      await sleep(300);
    });
    // Entries come after the paint; web-vitals reports in an idle callback.
    await waitFor(async () => {
      const [s, r] = [await snap(), await ref()];
      return s.interactions.length >= 5 && r.inp !== null && s.inp?.interactionId === r.inp.id ? true : null;
    }, { what: 'five interactions and INP on both sides' });
    const s = await snap();
    const r = await ref();
    log(s.interactions.map((x: any) => `${x.type} on ${x.target?.name}: ${x.duration} ms (${x.inputDelay.toFixed(1)} + `
      + `${x.processing.toFixed(1)} + ${x.presentationDelay.toFixed(1)}), layout ${x.layoutMs.toFixed(1)} forced `
      + `${x.forcedMs.toFixed(1)}; first ${x.components[0]?.name}`).join(' | '));
    log(`INP ours ${JSON.stringify(s.inp)}, web-vitals ${JSON.stringify(r.inp)}`);
    // The page's own entries: per interactionId, the longest entry is the interaction's latency.
    const truth = new Map<number, number>();
    for (const e of r.events) if (e.interactionId > 0) truth.set(e.interactionId, Math.max(truth.get(e.interactionId) ?? 0, e.duration));
    expect(truth.size).to.equal(5);
    for (const [id, duration] of truth) {
      const ours = s.interactions.find((x: any) => x.id === id);
      expect(ours, `interaction ${id}`).to.not.equal(undefined);
      expect(Math.abs(ours.duration - duration)).to.be.at.most(Math.max(8, 0.1 * duration));
      // The phases add up to the latency (web-vitals' definition: to the paint, or to the handlers' start when the
      // duration, rounded to 8 ms, ends before it — 122.3 against 120 once beside a CPU hog).
      expect(ours.inputDelay + ours.processing + ours.presentationDelay).to.be.within(ours.duration - 0.01, ours.duration + 8);
    }
    // Chrome's trace: each interaction's handlers ran where its phases say. Its processing phase (web-vitals': from
    // the longest entry's handlers' start to the end of the last handlers of that paint) is the span of the trace's
    // EventDispatch events in it: one begins as the phase does and one ends as it does, within 4 ms (the stamp and the
    // dispatch can be preempted apart beside a CPU hog: 2.6 ms once, in the parallel lane beside one `yes`, 2026-12-02;
    // a phase taken from the wrong entry or paint, or rounded to Event Timing's 8 ms, is off by more). And an
    // EventDispatch of an input of its type lies between its start and its paint.
    const dispatches = trace.events.filter((e) => e.name === 'EventDispatch' && e.ph === 'X')
      .map((e) => ({ from: e.ts, to: e.ts + (e.dur ?? 0), type: String((e.args?.data as { type?: string } | undefined)?.type ?? '') }));
    log(`trace: ${dispatches.length} EventDispatch events for ${s.interactions.length} interactions`);
    for (const x of s.interactions) {
      const pS = trace.at(x.start + x.inputDelay), pE = trace.at(x.start + x.inputDelay + x.processing);
      const near = (a: number, b: number): boolean => Math.abs(a - b) <= 4000;
      const what = `${x.type} ${x.id}: processing ${x.processing.toFixed(1)} ms; dispatches ${dispatches
        .filter((d) => d.to >= pS - 20_000 && d.from <= pE + 20_000).map((d) => `${d.type} ${((d.from - pS) / 1000).toFixed(1)}…${((d.to - pS) / 1000).toFixed(1)}`).join(', ')}`;
      expect(dispatches.some((d) => near(d.from, pS)), `a dispatch begins with the processing phase (${what})`).to.equal(true);
      expect(dispatches.some((d) => near(d.to, pE)), `a dispatch ends with it (${what})`).to.equal(true);
      // Its start is its longest entry's (a click's pointerup can be the longest, after its pointerdown's frame).
      const input = x.type === 'pointer' ? /^(pointerdown|pointerup|mousedown|mouseup|click)$/ : /^(keydown|keypress|keyup)$/;
      expect(dispatches.some((d) => input.test(d.type) && d.from >= trace.at(x.start) - 1000 && d.from <= trace.at(x.start + x.duration)),
        `an input of its type dispatched within it (${what})`).to.equal(true);
    }
    // INP as web-vitals computes it, and its phases as web-vitals' attribution build does.
    expect(s.inp).to.deep.equal({ value: r.inp!.value, interactionId: r.inp!.id });
    const worst = s.interactions.find((x: any) => x.id === r.inp!.id);
    for (const k of ['inputDelay', 'processing', 'presentationDelay'] as const) {
      expect(Math.abs(worst[k] - r.inp![k]), `${k}: ours ${worst[k]}, web-vitals ${r.inp![k]}`).to.be.at.most(Math.max(8, 0.1 * r.inp![k]));
    }
    // The clicks: on FilterBar's button; ResultsGrid's layout effect forced the reflows, and it ranks first.
    const clicks = s.interactions.filter((x: any) => x.type === 'pointer');
    expect(clicks).to.have.length(3);
    for (const c of clicks) {
      expect(c.target?.name).to.equal('FilterBar');
      expect(c.components[0].name).to.equal('ResultsGrid');
      expect(c.components[0].forcedMs).to.be.greaterThan(0.5 * c.forcedMs);
      expect(c.components[0].renders).to.be.at.least(1);
    }
    // Long Animation Frames: a click with a long frame (over 50 ms) names the scripts that ran in it, the page's
    // handler among them (React's listener on the root, in the fixture's bundle), none of ours.
    const slowest = clicks.reduce((a: any, b: any) => (b.duration > a.duration ? b : a));
    log(`scripts of the slowest click (${slowest.duration} ms): ${slowest.scripts.map((x: any) => `${x.invoker} ${x.fn} ${x.source} ${x.durationMs.toFixed(1)} ms`).join(' | ')}`);
    if (slowest.duration >= 64) {
      expect(slowest.scripts.length).to.be.at.least(1);
      expect(slowest.scripts.some((x: any) => /\/build\/fixtures\/vitals-r19\.js:/.test(x.source) && /click/i.test(x.invoker)), 'the click handler').to.equal(true);
      for (const x of slowest.scripts) expect(x.source).to.not.match(/^chrome-extension:/);
    }
    // The keys: typed in SearchBox's input; Suggestions rendered for each.
    const keys = s.interactions.filter((x: any) => x.type === 'keyboard');
    expect(keys).to.have.length(2);
    for (const k of keys) {
      expect(k.target?.name).to.equal('SearchBox');
      expect(k.components.find((c: any) => c.name === 'Suggestions')?.renders, `Suggestions in ${JSON.stringify(k.components)}`).to.be.at.least(1);
    }
  });

  it('each shift: its value, the components that moved, and its cause in words; CLS as web-vitals', async () => {
    // No input for a while: shifts right after one are expected and left out (hadRecentInput).
    await sleep(700);
    // Outlined as they happen: the setting (off by default) turned on.
    const w = await h.worker();
    // The setting goes worker → content script → agent; under load it came after the banner's shift once (no outline,
    // and the rest of the steps never ran). With nothing else reading shifts yet (no panel, no recording), the agent
    // reads them once the outline is on: waited for before the recording starts.
    await waitFor(async () => (await lc.internals(page)).vitalsShiftsRead === 0, { what: 'nothing reading shifts yet' });
    await w.evaluate((st) => chrome.storage.local.set({ settings: st }), { ...DEFAULT_SETTINGS, flashShifts: true });
    await waitFor(async () => (await lc.internals(page)).vitalsShiftsRead === 1, { what: 'the outline setting in the agent' });
    await page.evaluate(() => (window as any).__LAYOUT_COST__.startRecording());
    // Every frame the compositor makes meanwhile, beside the shots: a shot beside two CPU hogs and two other browsers
    // takes about a second, and none of 22 in 20 s held the wash once (the shift handed over, its cause Banner).
    const cast = await page.createCDPSession();
    const cast0: Buffer[] = [];
    cast.on('Page.screencastFrame', (f) => {
      if (cast0.length < 400) cast0.push(Buffer.from(f.data, 'base64'));
      cast.send('Page.screencastFrameAck', { sessionId: f.sessionId }).catch(() => undefined);
    });
    await cast.send('Page.startScreencast', { format: 'png', everyNthFrame: 1 });
    const shiftTrace = await chromeTrace(page, async () => {
      await page.evaluate(() => (window as any).__banner());
      // The overlay outlines the shift's cause and what moved for 1.5 s as it happens (setting flashShifts): shots now,
      // each compared with one taken after, when the outlines are gone and the page is as it was.
      // Under load the hand-over (100 ms after the entry) can come late: beside two hogs and two other browsers no shot
      // of the first 3 s was washed once. Shots until one is washed over the banner's own background (a flash lasts
      // 1.5 s) or for 20 s (a machine half as fast as this suite's usual, with tracing on: 9 shots in 8 s, none
      // washed, once); the after-shot, taken once any flash begun in them is over, is what they are held against.
      // What each shot and screencast frame held at the probe: one pixel each (every frame kept decoded held hundreds
      // of megabytes).
      const held: RGB[] = [];
      let shots = 0;
      const background = (): Promise<RGB | null> => page.evaluate(() => {
        const e = document.getElementById('banner');
        const m = e ? /^rgba?\((\d+), (\d+), (\d+)/.exec(getComputedStyle(e).backgroundColor) : null;
        return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
      }) as Promise<RGB | null>;
      // Where to look and what the banner is without a wash: read once it is there (neither changes while shooting).
      let probe: { x: number; y: number; bg: RGB } | null = null;
      // The screencast's frames, read one at a time with the event loop let go between them: a frame's decoding took
      // 60-360 ms beside a hog and two other browsers, and the screencast sends its next frame only once this one is
      // acknowledged (the handler above); twenty decoded at a stretch held a 1.5 s flash's frames back (2026-12-04).
      let decoded = 0;
      const readFrames = async (p: { x: number; y: number }, stopAt: RGB | null): Promise<void> => {
        while (decoded < cast0.length) {
          const px = pixelAt(decodePng(cast0[decoded]), p.x, p.y);
          cast0[decoded++] = Buffer.alloc(0);
          held.push(px);
          if (stopAt !== null && washed(px, stopAt, CAUSE)) return;
          await new Promise((r) => setImmediate(r));
        }
      };
      for (const t0 = Date.now(); Date.now() - t0 < 20_000;) {
        const img = await shot(page);
        shots++;
        if (probe === null) {
          const bg = await background();
          if (bg !== null) probe = { ...(await inside(page, '#banner')), bg };
        }
        if (probe === null) continue;
        held.push(pixelAt(img, probe.x, probe.y));
        await readFrames(probe, probe.bg);
        if (held.some((px) => washed(px, probe!.bg, CAUSE))) break;
      }
      await sleep(1700);
      // Stopped before the steps below (their frames are not the flash's); the `finally` below detaches.
      await cast.send('Page.stopScreencast').catch(() => undefined);
      const bannerAt = await inside(page, '#banner');
      expect(probe === null ? null : { x: probe.x, y: probe.y }, 'the banner where the shots looked').to.deep.equal(bannerAt);
      const after = pixelAt(await shot(page), bannerAt.x, bannerAt.y);
      const washedAfter = (): number => held.filter((px) => washed(px, after, CAUSE)).length;
      // No washed one yet: the frames not read are read too, each held against the after-shot.
      if (washedAfter() === 0) await readFrames(bannerAt, null);
      log(`flash: ${shots} shots, ${decoded} of ${cast0.length} screencast frames read, ${washedAfter()} of all washed`);
      if (washedAfter() === 0) {
        // What the overlay had to go on: the shifts handed over so far and the pixels the shots held there.
        const s0 = await snap();
        log(`no washed shot: shifts ${JSON.stringify(s0.shifts.map((x: any) => ({ t: Math.round(x.time), cause: x.cause?.name, moved: x.shifted.map((c: any) => c.name) })))}`
          + `; now ${Math.round(await page.evaluate(() => performance.now()))}; probe ${JSON.stringify(probe)}`
          + `; pixels ${held.map((px) => px.join('/')).join(' ')}; internals ${JSON.stringify(await lc.internals(page))}`);
      }
      expect(held.some((px) => washed(px, after, CAUSE)),
        `Banner washed orange as its shift happened (${held.length} shots and screencast frames; after ${after})`).to.equal(true);
      // The image's bytes come 400 ms after React set its source: the shift is the load's, in a frame with no commit.
      await page.evaluate(() => (window as any).__image('/photo.svg?delay=400'));
      await waitFor(() => page.evaluate(() => (document.getElementById('photo') as HTMLImageElement | null)?.complete === true), { what: 'the image' });
      await sleep(600);
      await page.evaluate(() => (window as any).__pageCode());
      await sleep(600);
      // Headline's text set in a web font that arrives 400 ms later: nothing moves until the swap (a frame with no commit).
      await page.evaluate(() => (window as any).__font());
      await waitFor(() => page.evaluate(() => document.fonts.check('30px LateFont') && document.fonts.status === 'loaded'), { what: 'the web font' });
      await waitFor(async () => ((await snap()).shifts.length >= 5 ? true : null), { what: 'five shifts' });
    }).finally(async () => {
      // Stopped on a failure inside too (a screencast left on would stream frames for the rest of the file).
      await cast.send('Page.stopScreencast').catch(() => undefined);
      await cast.detach().catch(() => undefined);
    });
    await sleep(300);
    const s = await snap();
    const r = await ref();
    log(s.shifts.map((x: any) => `${x.value.toFixed(4)}: ${x.shifted.map((c: any) => c.name).join(', ')} moved; `
      + `${x.cause ? `${x.cause.name}, ${x.cause.reason}` : 'no cause'}`).join(' | '));
    log(`CLS ours ${s.cls}, web-vitals ${r.cls}`);
    expect(s.shifts.map((x: any) => [x.value, Math.round(x.time)])).to.deep.equal(r.shifts.map((x) => [x.value, Math.round(x.startTime)]));
    expect(s.cls).to.be.closeTo(r.cls!, 1e-9);
    // Chrome's trace: a LayoutShift without recent input for each, of the same score, in the same order; and what it
    // says moved (its impacted nodes) lies in Feed's DOM, which we name among the moved.
    const layoutShifts = shiftTrace.events.filter((e) => e.name === 'LayoutShift')
      .map((e) => e.args?.data as { score: number; had_recent_input: boolean; is_main_frame?: boolean; impacted_nodes?: { node_id: number }[] })
      .filter((d) => d !== undefined && !d.had_recent_input && d.is_main_frame !== false);
    expect(layoutShifts.map((d) => d.score.toFixed(6)), 'the trace\'s scores').to.deep.equal(s.shifts.map((x: any) => x.value.toFixed(6)));
    log(`trace: LayoutShift scores ${layoutShifts.map((d) => d.score.toFixed(4)).join(', ')}; impacted nodes ${layoutShifts.map((d) => d.impacted_nodes?.length ?? 0).join(', ')}`);
    const cdp = await page.createCDPSession();
    try {
      await cdp.send('DOM.getDocument', { depth: 0 });
      for (const [i, d] of layoutShifts.entries()) {
        let inFeed = 0;
        for (const n of d.impacted_nodes ?? []) {
          const { object } = await cdp.send('DOM.resolveNode', { backendNodeId: n.node_id });
          const r = await cdp.send('Runtime.callFunctionOn', {
            objectId: object.objectId!, returnByValue: true,
            functionDeclaration: 'function () { const e = this.nodeType === 1 ? this : this.parentElement; return !!(e && e.closest("#feed")); }',
          });
          if (r.result.value === true) inFeed++;
        }
        expect(inFeed, `shift ${i}: impacted nodes in Feed (of ${d.impacted_nodes?.length ?? 0})`).to.be.at.least(1);
      }
    } finally {
      await cdp.detach();
    }
    for (const x of s.shifts) expect(x.shifted.map((c: any) => c.name)).to.include('Feed');
    expect(s.shifts).to.have.length(5);
    const [banner, src, load, code, font] = s.shifts.map((x: any) => x.cause);
    expect(banner).to.include({ name: 'Banner' });
    expect(banner.reason).to.match(/^mounted above Feed without space reserved/);
    expect(src).to.include({ name: 'Gallery' });
    expect(src.reason).to.match(/^re-rendered and changed size/);
    if (load === null) {
      // What dates the image: its bytes (Resource Timing) and the element, against the shift's time.
      const img = await page.evaluate(() => {
        const el = document.getElementById('photo') as HTMLImageElement | null;
        const rt = el === null ? [] : performance.getEntriesByName(el.currentSrc, 'resource') as PerformanceResourceTiming[];
        return { complete: el?.complete, src: el?.currentSrc, responseEnd: rt.map((e) => e.responseEnd), resources: performance.getEntriesByType('resource').length };
      });
      log(`image shift at ${s.shifts[2].time.toFixed(1)} ms, no cause; the image: ${JSON.stringify(img)}`);
    }
    expect(load).to.include({ name: 'Gallery' });
    expect(load.reason).to.match(/^an image loaded without width and height/);
    expect(code).to.include({ name: 'Promo' });
    expect(code.reason).to.match(/outside React \(page code\)/);
    expect(font).to.include({ name: 'Headline' });
    expect(font.reason).to.match(/^a web font loaded \(LateFont\) and its text, laid out again in it, changed size above Feed/);
    // The recording made meanwhile carries them, and its trace export has an instant per shift.
    const rec = await page.evaluate(() => (window as any).__LAYOUT_COST__.stopRecording());
    expect(rec.shifts.map((x: any) => x.value)).to.deep.equal(s.shifts.map((x: any) => x.value));
    expect(rec.interactions, 'the interactions came before it').to.deep.equal([]);
    const trace = await page.evaluate(() => (window as any).__LAYOUT_COST__.exportTrace());
    expect(trace.traceEvents.filter((e: any) => e.cat === 'layout-cost,shift').map((e: any) => e.args.cause?.name)).to.deep.equal(['Banner', 'Gallery', 'Gallery', 'Promo', 'Headline']);
    const st = await lc.internals(page);
    log(`own cost: ${st.vitalsEntries} entries, ${(st.vitalsMs as number).toFixed(2)} ms, at most ${(st.vitalsMaxMs as number).toFixed(3)} ms an entry`);
    await w.evaluate((st) => chrome.storage.local.set({ settings: st }), { ...DEFAULT_SETTINGS });
  });

  it('with nothing reading them (no outline, no panel, no recording) a shift waits as it came; the API builds it, cause and all', async () => {
    // The settings (the outline off again) and the recording's end reach the agent through the content script.
    await waitFor(async () => (await lc.internals(page)).vitalsShiftsRead === 0, { what: 'nothing reading shifts' });
    if (!await page.evaluate(() => document.querySelector('#promo p.extra') !== null)) {
      // The test before failed before its page code ran: the paragraph put in here (its shift built by the snapshot).
      const k = (await ref()).shifts.length;
      await page.evaluate(() => (window as any).__pageCode());
      await waitFor(() => page.evaluate((n) => (window as any).__reference.shifts.length > n, k), { what: 'the paragraph\'s shift' });
      await sleep(1200);
    }
    const n0 = (await snap()).shifts.length;
    const r0 = (await ref()).shifts.length;
    // Page code takes Promo's added paragraph out again: Feed moves up.
    await page.evaluate(() => document.querySelector('#promo p.extra')!.remove());
    await waitFor(() => page.evaluate((k) => (window as any).__reference.shifts.length > k, r0), { what: 'the page\'s own entry' });
    // Past the unread settle (a second), and a records batch after it (a change of the page's own).
    await sleep(1200);
    await page.evaluate(() => document.body.appendChild(document.createElement('i')).remove());
    await sleep(300);
    const st = await lc.internals(page);
    expect(st.vitalsShiftsWaiting, `noted and settled, its cause not looked for (${JSON.stringify(st)})`).to.equal(1);
    const s = await snap();
    expect((await lc.internals(page)).vitalsShiftsWaiting).to.equal(0);
    expect(s.shifts).to.have.length(n0 + 1);
    const last = s.shifts[s.shifts.length - 1];
    const r = await ref();
    expect(last.value).to.equal(r.shifts[r.shifts.length - 1].value);
    expect(last.shifted.map((c: any) => c.name)).to.include('Feed');
    expect(last.cause).to.include({ name: 'Promo' });
    expect(last.cause.reason).to.match(/outside React \(page code\)/);
  });

  it('the panel\'s Vitals tab: INP and CLS, interactions worst first with their components, shifts with their causes', async () => {
    const s = await snap();
    const { panel, devtools } = await openPanel(h, page);
    try {
      await panel.evaluate(() => (document.querySelector('#tab-vitals') as HTMLButtonElement).click());
      await waitFor(async () => (await panel.$eval('#vitals-inp', (e) => e.textContent ?? '')).startsWith('INP'), { what: 'INP in the panel' });
      expect(await panel.$eval('#vitals-inp', (e) => e.textContent)).to.equal(`INP since enable: ${s.inp.value} ms (${s.inp.value <= 200 ? 'good' : s.inp.value <= 500 ? 'needs improvement' : 'poor'})`);
      expect(await panel.$eval('#vitals-cls', (e) => e.textContent)).to.match(new RegExp(`^CLS since enable: ${s.cls.toFixed(3)} `));
      const rows = await panel.$$eval('#vitals-interactions > li', (l) => l.map((x) => x.textContent ?? ''));
      expect(rows).to.have.length(s.interactions.length);
      // Worst first, the INP one marked (a click here, or under load a key once: whichever the page made slowest).
      const worst = [...s.interactions].sort((a: any, b: any) => b.duration - a.duration)[0];
      const kind = (x: any): string => `${x.type === 'keyboard' ? 'key' : 'pointer'} on ${x.target.name}`;
      expect(rows[0]).to.match(new RegExp(`^${worst.duration} ms ${kind(worst)} INP`));
      // Open the slowest click: its components, ResultsGrid first.
      const at = rows.findIndex((r) => / ms pointer on FilterBar/.test(r));
      expect(at).to.be.at.least(0);
      await panel.evaluate((i) => (document.querySelectorAll('#vitals-interactions > li .vitals-row')[i] as HTMLButtonElement).click(), at);
      const first = await waitFor(() => panel.$eval('#vitals-interactions .vitals-components tbody tr td', (e) => e.textContent).catch(() => null), { what: 'the components' });
      expect(first).to.equal('ResultsGrid');
      // A click while the panel is open: opened in the list, its frames are marked on the live frame strip.
      const clickAndMark = async (): Promise<{ fresh: any; open: () => Promise<void>; marked: number }> => {
        const n0 = (await snap()).interactions.length;
        // In front: a page behind DevTools' window may draw no frames (nothing to measure, nothing to mark).
        await page.bringToFront();
        await page.click('#filter');
        const fresh = await waitFor(async () => {
          const list = (await snap()).interactions as any[];
          return list.length > n0 ? list.reduce((a, b) => (b.start > a.start ? b : a)) : null;
        }, { what: 'the click made with the panel open' });
        const row = `#vitals-interactions .vitals-row[data-id="${fresh.id}"]`;
        // Clicked in the panel's own script: the list is re-drawn as updates come (worst first), and a click by
        // coordinates can land on the row that took its place.
        const open = (): Promise<void> => panel.evaluate((q) => (document.querySelector(q) as HTMLButtonElement).click(), row);
        await waitFor(() => panel.$(row), { what: 'its row' });
        await open();
        const marked = await waitFor(async () => {
          const m = await panel.$eval('canvas.rec-strip', (c) => (c as HTMLCanvasElement).dataset.marked ?? '');
          return m === '' ? null : m.split(',').length;
        }, { what: 'its frames marked on the strip' });
        return { fresh, open, marked };
      };
      // The live strip holds the page's last 120 frames: beside the hog, in the parallel lane, once none of them was
      // the click's by the time its row opened. A second click is held to everything; a strip that never marks misses
      // twice.
      const { fresh, open, marked } = await clickAndMark().catch(async (e: Error) => {
        log(`${e.message}; a second click`);
        await panel.evaluate(() => (document.querySelector('#vitals-interactions .vitals-row[aria-expanded="true"]') as HTMLButtonElement | null)?.click());
        return clickAndMark();
      });
      log(`interaction ${fresh.duration} ms: ${marked} frames marked on the live strip`);
      if (process.env.LC_SCREENSHOT) await devtools.screenshot({ path: process.env.LC_SCREENSHOT as `${string}.png` });
      await open();
      await waitFor(async () => (await panel.$eval('canvas.rec-strip', (c) => (c as HTMLCanvasElement).dataset.marked)) === '' ? true : null,
        { what: 'no frame marked once it is closed' });
      const shifts = await panel.$$eval('#vitals-shifts > li', (l) => l.map((x) => x.textContent ?? ''));
      expect(shifts).to.have.length(s.shifts.length);
      expect(shifts[shifts.length - 1]).to.match(/^Show 0\.\d{4} .*Feed.* moved — Banner mounted above Feed without space reserved for it$/);
      // Show: the cause (Banner) washed orange and what it moved (Promo, Headline, Feed: Promo is in view) violet on
      // the page for a few seconds.
      const [bAt, fAt] = [await inside(page, '#banner'), await inside(page, '#promo')];
      const before = await shot(page);
      await panel.evaluate(() => (document.querySelector('#vitals-shifts > li:last-child .vitals-show') as HTMLButtonElement).click());
      // DevTools' window has the focus now: the page draws (and is shot) only in front.
      await page.bringToFront();
      await waitFor(async () => {
        const img = await shot(page);
        return washed(pixelAt(img, bAt.x, bAt.y), pixelAt(before, bAt.x, bAt.y), CAUSE) && washed(pixelAt(img, fAt.x, fAt.y), pixelAt(before, fAt.x, fAt.y), MOVED) ? true : null;
      }, { what: 'Banner orange and Promo violet on the page', timeout: 3500 });
      if (process.env.LC_SCREENSHOT_PAGE) await page.screenshot({ path: process.env.LC_SCREENSHOT_PAGE as `${string}.png` });
      await panel.evaluate(() => (document.querySelector('#vitals-shifts > li:last-child .vitals-cause') as HTMLButtonElement).click());
      const banner = s.shifts[0].cause.id;
      await waitFor(async () => ((await lc.state(page)).pinned === banner ? true : null), { what: 'Banner pinned from the panel' });
    } finally {
      await devtools.close();
    }
  });
});
