/**
 * The always-on / on-enable split (issue 10), from Chrome's own trace: a page
 * load with the overlay off evaluates only the boot files (inject.js in the
 * MAIN world, content.js in the isolated world), in every frame; enabling
 * evaluates the rest (content-agent.js, agent.js) in the frame that needs it.
 */
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { attribute, profileFor } from '../../bench/lib/profile';
import { launch, lc, measuredAgain, waitFor, type Harness } from './harness';

interface TraceEvent { name: string; ph: string; args?: { data?: { url?: string; frame?: string } } }

/** Which of our files Chrome evaluated (EvaluateScript events with our URL), with how many evaluations each. */
async function traced(page: Page, prefix: string, during: () => Promise<void>, frame?: string): Promise<Record<string, number>> {
  await page.tracing.start({ categories: ['devtools.timeline'] });
  await during();
  const raw = await page.tracing.stop();
  const trace = JSON.parse(Buffer.from(raw ?? new Uint8Array()).toString('utf8')) as { traceEvents: TraceEvent[] };
  const out: Record<string, number> = {};
  for (const e of trace.traceEvents) {
    const url = e.args?.data?.url ?? '';
    if (e.name !== 'EvaluateScript' || !url.startsWith(prefix)) continue;
    if (frame !== undefined && e.args?.data?.frame !== frame) continue;
    const file = url.slice(prefix.length);
    out[file] = (out[file] ?? 0) + 1;
  }
  return out;
}

/**
 * `internals().channel`, whether `window.status` is empty (the channel's
 * secret crossed through it at load and must not be left there) and
 * `internals().shadowTapped` (the attachShadow tap goes in when React shows
 * itself or on enable, not at load) in the page and each of its frames: the top page and
 * its same-origin frames read through the top page's window, the cross-site ones (out-of-process frames) through
 * their own target's DevTools session. Not `frame.evaluate`: a frame that turns into an out-of-process frame while
 * it loads can leave puppeteer waiting for an execution context that never comes (puppeteer #10715; a 30 s
 * timeout here beside a CPU hog).
 */
async function channels(h: Harness, page: Page): Promise<string[]> {
  const read = (w: any): string => {
    const i = w.__LAYOUT_COST__.internals();
    return `${i.channel}/${w.status === ''}/${i.shadowTapped}`;
  };
  const local = await page.evaluate((src) => {
    const f = new Function('w', `return (${src})(w)`) as (w: unknown) => string;
    return [window, ...[...document.querySelectorAll('iframe')].map((e) => e.contentWindow)].map((w) => {
      try { return f(w); } catch { return null; } // a cross-origin window: read below
    }).filter((v): v is string => v !== null);
  }, read.toString());
  const other = new URL(page.url()).hostname === 'localhost' ? '127.0.0.1' : 'localhost';
  const targets = await waitFor(() => {
    const ts = h.browser.targets().filter((t) => t.url().startsWith(`http://${other}:`) && t.url().includes('/plain.html?frame='));
    return ts.length === 5 ? ts : null;
  }, { what: 'five out-of-process frames' });
  const remote = await Promise.all(targets.map(async (t) => {
    const cdp = await t.createCDPSession();
    try {
      const r = await cdp.send('Runtime.evaluate', { expression: `(${read.toString()})(window)`, returnByValue: true });
      if (r.exceptionDetails) throw new Error(`in ${t.url()}: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
      return String(r.result.value);
    } finally {
      await cdp.detach().catch(() => undefined);
    }
  }));
  return [...local, ...remote];
}

describe('always on, on enable (e2e)', function () {
  this.timeout(120_000);
  let h: Harness;
  before(async () => {
    h = await launch();
  });
  after(async () => h?.close());
  // A test that failed half-way leaves its page on (and the worker's hello script registered): the next starts clean.
  afterEach(async () => {
    for (const p of await h.browser.pages()) if (p.url() !== 'about:blank') await p.close().catch(() => undefined);
  });

  it('a page load with the overlay off evaluates only inject.js and content.js, in every frame', async () => {
    const prefix = `chrome-extension://${h.extensionId}/`;
    const load = async (p: Page): Promise<Record<string, number>> => traced(p, prefix, async () => {
      await p.goto(h.url('frames10.html'), { waitUntil: 'load' });
      await waitFor(() => p.evaluate(() => [...document.querySelectorAll('iframe')]
        .every((f) => (f as HTMLIFrameElement).contentDocument?.readyState !== 'loading')), { what: 'frames' });
      await new Promise((r) => setTimeout(r, 300));
    });
    // A renderer started while the trace runs can evaluate its scripts before Chrome's tracing reaches it: in CI the
    // five cross-site frames' evaluations were all missing (6 of 11, both files), on the load and on its retry. A
    // keeper tab on the same page first starts both sites' renderers; the traced load's frames reuse them. It is
    // closed before the frames are counted below.
    const keeper = await h.browser.newPage();
    await keeper.goto(h.url('frames10.html'), { waitUntil: 'load' });
    let page = await h.browser.newPage();
    let files = await load(page);
    if ((files['inject.js'] ?? 0) < 11 || (files['content.js'] ?? 0) < 11) {
      // Beside a CPU hog one cross-site frame's evaluations were once missing from the trace (10 of 11, both files):
      // loaded once more in a fresh tab. More than 11, or a third file, fails at once.
      console.log(`    [always-on] ${JSON.stringify(files)} in the trace: the load once more`);
      await page.close();
      page = await h.browser.newPage();
      files = await load(page);
    }
    await keeper.close();
    // Eleven documents (the page and ten frames, five of them cross-site): each evaluated both boot files, nothing else.
    expect(files).to.deep.equal({ 'inject.js': 11, 'content.js': 11 });
    // In none was the private channel made (it is made when wanted), no page sees the secret it will need, and none
    // has the attachShadow tap (no React there: the first touch of Element is the page's to make, not ours).
    expect(await channels(h, page)).to.deep.equal(Array(11).fill('false/true/false'));
    // On enable (a call of the API in the top page; the worker's injection in the frames) each frame makes the
    // channel, and each frame's agent puts the tap in.
    await lc.enable(page);
    await waitFor(async () => (await channels(h, page)).every((c) => c === 'true/true/true'), { what: 'every frame\'s channel and tap' });
    await lc.disable(page);
    await page.close();
  });

  it('enabling evaluates content-agent.js and agent.js once in the frame, and off loads nothing more', async () => {
    const page = await h.newPage('basic-r19.html');
    await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: 'fixture' });
    const prefix = `chrome-extension://${h.extensionId}/`;
    // This document's evaluations only (a trace may carry the tail of the load's).
    const frame = (page.mainFrame() as unknown as { _id: string })._id;
    const on = await traced(page, prefix, async () => {
      await lc.enable(page);
      await waitFor(async () => ((await lc.snapshot(page)) as any).components.length > 3, { what: 'components' });
    }, frame);
    // (The boot files may show again: a trace can carry the tail of the page load's events.)
    expect(on['content-agent.js']).to.equal(1);
    expect(on['agent.js']).to.equal(1);
    // Our own cost, from our own timers, against a CPU profile of the same seconds: a list of 300 items changing
    // every 20 ms (commits to hook and tables to roll up, little layout).
    await page.evaluate(() => {
      const keys = (k: number): string[] => Array.from({ length: 300 }, (_, i) => `${k}-${i % 150}-${i}`);
      let k = 0;
      (window as any).__churn = setInterval(() => (window as any).__setItems(keys(k++ % 2)), 20);
    });
    const measure = async (): Promise<{ ours: number; jsMs: number; nativeMs: number }> => {
      await waitFor(async () => (await lc.state(page)).self, { what: 'state().self' });
      // Every self window read below lies inside the churn (a window lasts a second; the first may have begun before it).
      await new Promise((r) => setTimeout(r, 1100));
      const cdp = await page.createCDPSession();
      const shares: number[] = [];
      let stop = false;
      const sampling = (async () => {
        while (!stop) {
          await new Promise((r) => setTimeout(r, 1000));
          if (!stop) shares.push((await lc.state(page)).self?.mainThreadShare ?? NaN);
        }
      })();
      const profile = await profileFor(cdp, 3200, 200);
      stop = true;
      await sampling;
      await cdp.detach();
      const a = attribute(profile);
      // Our JS, and the natives it called less the two through which the frame-end measurement flushes the page's own
      // style (getAnimations) and layout (getBoundingClientRect): that work is the page's, only moved earlier, and our
      // timers leave it out (self-clock.ts); with a clean layout our own reads of boxes are cheap.
      let jsMs = 0, nativeMs = 0, flushMs = 0;
      for (const f of a.functions.values()) {
        if (!f.url.startsWith(prefix)) continue;
        jsMs += f.ms - f.nativeMs;
        for (const [api, ms] of f.natives) {
          if (api === 'getBoundingClientRect' || api === 'getAnimations') flushMs += ms;
          else nativeMs += ms;
        }
      }
      // A window read twice (no new one closed between two reads) counts once.
      const windows = shares.filter((x, i) => i === 0 || x !== shares[i - 1]);
      const ours = (windows.reduce((x, y) => x + y, 0) / windows.length) * a.windowMs;
      console.log(`    [always-on] own time over ${a.windowMs.toFixed(0)} ms: state().self ${ours.toFixed(1)} ms `
        + `(shares ${shares.map((x) => (x * 100).toFixed(2)).join(', ')} %); the profile: our JS ${jsMs.toFixed(1)} ms, `
        + `natives it called ${nativeMs.toFixed(1)} ms, the page's style and layout it flushed ${flushMs.toFixed(1)} ms`);
      return { ours, jsMs, nativeMs };
    };
    // The self figure is sampled once a second, the profile every 0.2 ms: at least 40 % of our JS, and at most twice
    // what ran under our frames. Both read wall time, and a preempted thread skews each its own way: beside a CPU hog
    // and a second browser the self clock ran past the profile (2026-11-27: 718 ms against 364 ms, one second read
    // 26 %), and in CI beside the parallel lane the profile ran past the self clock (2026-11-28: 335 ms against 644 ms;
    // alone, 290–360 ms against 280–300 ms; 2026-11-29, a clean clone beside a hog and a second browser: 749 ms
    // against 335, one second of four read 27.8 % and the others 10.3–10.5). Missing our code would read near 0;
    // counting the page's own flushed style and layout would add 700–1 100 ms here.
    // The machine's share of such a second comes and goes (CI, 2026-11-30, load 9.6: seconds read 58.5, 5.8 and 28.1 %
    // against a profile of 336 ms of our JS): a miss is measured again, twice at most; a wrong clock misses three times.
    const got = await measuredAgain(measure, (x) => !(x.ours >= 0.4 * x.jsMs && x.ours <= 2.5 * (x.jsMs + x.nativeMs) + 3));
    await page.evaluate(() => clearInterval((window as any).__churn));
    const { ours, jsMs, nativeMs } = got;
    expect(jsMs, 'the profile saw our code run').to.be.greaterThan(20);
    expect(ours).to.be.within(0.4 * jsMs, 2.5 * (jsMs + nativeMs) + 3);
    expect(((await lc.snapshot(page)) as any).self).to.have.keys(['msPerFrame', 'mainThreadShare']);
    const again = await traced(page, prefix, async () => {
      await lc.disable(page);
      await waitFor(async () => (await lc.state(page)).mode === 'off', { what: 'off' });
      expect((await lc.state(page)).self, 'no own cost while off').to.equal(null);
      await lc.enable(page);
      await waitFor(async () => (await lc.state(page)).mode === 'components', { what: 'on again' });
    }, frame);
    expect(again['content-agent.js'] ?? 0).to.equal(0);
    expect(again['agent.js'] ?? 0).to.equal(0);
    await page.close();
  });

  it('while a tab is inspected a frame added later turns on (the hello script); with none, nothing is registered', async () => {
    const worker = await h.worker();
    const registered = (): Promise<boolean | null> =>
      worker.evaluate(() => (globalThis as any).__layoutCostBackground.helloRegistered() as boolean | null);
    const page = await h.newPage('basic-r19.html');
    await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: 'fixture' });
    expect(await registered()).to.not.equal(true);
    await lc.enable(page);
    await waitFor(async () => (await registered()) === true, { what: 'the hello script registered' });
    // A same-origin frame added now: its boot says hello, the worker answers with the tab's mode, it turns on.
    await page.evaluate((src) => {
      const f = document.createElement('iframe');
      f.src = src;
      f.id = 'late';
      document.body.appendChild(f);
    }, h.url('basic-r18.html'));
    const frame = await waitFor(() => page.frames().find((f) => f.url().includes('basic-r18.html')) ?? null, { what: 'the frame' });
    await waitFor(async () => (await lc.state(frame)).mode === 'components', { what: 'the late frame on' });
    await waitFor(async () => ((await lc.snapshot(frame)) as any).components.length > 3, { what: 'its components' });
    await lc.disable(page);
    await waitFor(async () => (await registered()) === false, { what: 'unregistered when no tab is inspected' });
    await page.close();
  });
});
