/**
 * Hostile pages and faults (issue 11), in real Chromium: what a page script
 * can do to built-ins and names must never make the extension throw into the
 * page, stop half-way without saying so, or keep what it took after off.
 */
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { startServer } from '../../scripts/server';
import { launch, lc, waitFor, type Harness } from './harness';
import { expectMatches } from './truth-match';
import { RECORD_STRIDE, RecordKind } from '../../src/protocol/records';

const internal = (page: Page): Promise<Record<string, number>> =>
  page.evaluate(() => (window as any).__LAYOUT_COST__.internals());

/** Evaluates an expression in the extension's content-script world of the page's main frame (CDP). */
async function contentWorld(page: Page): Promise<(expression: string) => Promise<unknown>> {
  const cdp = await page.createCDPSession();
  const contexts: { id: number; name: string; auxData?: { type?: string; frameId?: string; isDefault?: boolean } }[] = [];
  cdp.on('Runtime.executionContextCreated', (e: any) => contexts.push(e.context));
  await cdp.send('Runtime.enable');
  const frameId = (page.mainFrame() as any)._id as string;
  const ctx = await waitFor(async () => contexts.find((c) => c.name === 'Layout Cost' && c.auxData?.type === 'isolated'
    && c.auxData.frameId === frameId) ?? null, { what: 'the content script world' });
  return async (expression) => {
    const r = await cdp.send('Runtime.evaluate', { expression, contextId: ctx.id, returnByValue: true });
    if (r.exceptionDetails) throw new Error(r.exceptionDetails.text);
    return r.result.value;
  };
}

/** Ctrl+Shift+L as real key presses (the user's own, trusted). */
async function pressToggle(page: Page): Promise<void> {
  await page.keyboard.down('Control');
  await page.keyboard.down('Shift');
  await page.keyboard.press('KeyL');
  await page.keyboard.up('Shift');
  await page.keyboard.up('Control');
}

describe('hostile pages (e2e)', function () {
  this.timeout(120_000);
  let h: Harness;
  before(async () => {
    h = await launch();
  });
  after(async () => h?.close());

  async function open(p: string): Promise<Page> {
    const page = await h.newPage(p);
    await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: 'fixture' });
    return page;
  }

  // Issue 45, item 4: built-ins patched after load, misbehaving for our calls only (the fixture tells ours by stack).
  for (const patch of ['listenersDrop', 'listenersThrow', 'push', 'mapSet', 'setAdd', 'json', 'timers']) {
    it(`built-ins patched after load (${patch}): the snapshot still equals the fiber walk, through updates, and nothing of ours throws`, async () => {
      const page = await open('hostile-patched.html');
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      await page.evaluate((p) => (window as any).__patches[p](), patch);
      await lc.enable(page);
      await expectMatches(page);
      await page.evaluate(() => (window as any).__setItems(['a', 'c', 'd', 'e']));
      await expectMatches(page, ['root'], { ordered: false });
      const st = await lc.state(page);
      expect(st.agent, 'agent').to.equal(true);
      expect(errors).to.deep.equal([]);
      await lc.disable(page);
      await page.close();
    });
  }

  // Issue 67: a built-in that throws for our calls only, then put back. While it is replaced, state().degraded names it
  // and nothing of ours throws into the page; within 2 s of its restore the snapshot equals the fiber walk again —
  // whether the overlay went on under it or was on when it started (React updating meanwhile both times).
  const sabotage: [string, string][] = [['pushThrow', 'Array.prototype.push'], ['mapSetThrow', 'Map.prototype.set'],
    ['setAdd', 'Set.prototype.add'], ['weakMapSetThrow', 'WeakMap.prototype.set'], ['indexOfThrow', 'Array.prototype.indexOf']];
  for (const [patch, name] of sabotage) {
    it(`self-healing (${name} throws for ours, then is put back): degraded with its name, then the fiber walk within 2 s`, async () => {
      const page = await open('hostile-patched.html');
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(String(e)));
      const degraded = async (): Promise<boolean> => (await lc.state(page)).degraded.some((d: string) => d.includes(name));
      // Enabled under it.
      await page.evaluate((p) => (window as any).__patches[p](), patch);
      await lc.enable(page);
      await waitFor(degraded, { what: `state().degraded to name ${name}` });
      await page.evaluate(() => (window as any).__setItems(['a', 'c', 'd', 'e']));
      await page.evaluate(() => (window as any).__restore());
      await expectMatches(page, ['root'], { ordered: false, timeout: 2000 });
      await waitFor(async () => !(await degraded()), { what: 'the reason gone', timeout: 2000 });
      // On when it starts.
      await page.evaluate((p) => (window as any).__patches[p](), patch);
      await page.evaluate(() => (window as any).__setItems(['x', 'a', 'y']));
      await waitFor(degraded, { what: `state().degraded to name ${name} (on)` });
      await page.evaluate(() => (window as any).__setItems(['x', 'y', 'z', 'w', 'v']));
      await page.evaluate(() => (window as any).__restore());
      await expectMatches(page, ['root'], { ordered: false, timeout: 2000 });
      await waitFor(async () => !(await degraded()), { what: 'the reason gone (on)', timeout: 2000 });
      // No second copy left by a rebuild: the agent holds what the snapshot shows.
      expect((await internal(page)).entries).to.equal(((await lc.snapshot(page)) as any).components.length);
      expect(errors).to.deep.equal([]);
      await lc.disable(page);
      await page.close();
    });
  }

  it('a page that breaks Map.prototype.set while the overlay is on: its own rAF calls never throw and all run', async () => {
    const page = await open('hostile-builtins.html');
    await lc.enable(page);
    await waitFor(async () => ((await lc.snapshot(page)) as any).components.length > 0, { what: 'components' });
    await page.evaluate(() => (window as any).__breakBuiltins());
    const storm = await page.evaluate(() => (window as any).__rafStorm(200));
    expect(storm).to.deep.equal({ threw: 0, ran: 200 });
    // And again, whatever the frame loop made of it meanwhile.
    expect(await page.evaluate(() => (window as any).__rafStorm(50))).to.deep.equal({ threw: 0, ran: 50 });
    await page.close();
  });

  it('observers that cannot be created: the rest still starts, and state() says what is off', async () => {
    const page = await open('hostile-builtins.html');
    await page.evaluate(() => (window as any).__breakObservers());
    await lc.enable(page);
    await waitFor(async () => ((await lc.snapshot(page)) as any).components.length > 0, { what: 'components tracked' });
    await waitFor(async () => (await lc.state(page)).degraded.some((d: string) => /MutationObserver/.test(d)), { what: 'the reason' });
    await page.close();
  });

  /** What the page saw of ours: nothing, whatever it wrapped (hostile-channel.html counts each sighting). */
  async function expectNothingSeen(page: Page): Promise<void> {
    const seen = await page.evaluate(() => ({ ...(window as any).__seen }));
    expect(seen.messages, 'channel messages seen by the page').to.equal(0);
    expect(seen.tokens, 'tokens or ports seen by the page').to.equal(0);
    expect(seen.ourPortGot, 'messages on the page\'s forged ports').to.equal(0);
    expect(seen.fakeAgentStarted).to.equal(false);
    // The offer, made on enable while the page listened, was heard by no listener of the page's.
    expect(seen.offersHeard, 'offers heard by the page').to.equal(0);
  }

  it('the private channel can be neither taken nor read: forged handshakes, a forged agent, built-ins wrapped once it is made', async () => {
    const page = await open('hostile-channel.html?wrap=after');
    const before = await page.evaluate(() => ({ ...(window as any).__seen }));
    // The names are ours from document_start: the page's own definitions failed.
    expect(before.apiTaken).to.equal(false);
    expect(before.offerTaken).to.equal(false);
    // The channel's secret crossed from our isolated world to our MAIN world through window.status before this page's
    // first script: that script found it as it was.
    expect(before.status).to.equal('');
    expect(await page.evaluate(() => typeof (window as any).__LAYOUT_COST__.enable)).to.equal('function');
    // MessagePort's onmessage was wrapped from the start (as zone.js does): the channel does not use it.
    await lc.enable(page);
    await waitFor(async () => (await internal(page)).entries > 3, { what: 'the real agent tracking' });
    // From now on every built-in the channel uses is wrapped: it keeps the ones it checked when it was made.
    await page.evaluate(() => (window as any).__wrapAll());
    await expectMatches(page);
    await page.evaluate(() => (window as any).__setItems?.(['p', 'q', 'r']));
    await expectMatches(page);
    const snap = (await lc.snapshot(page)) as any;
    expect(snap.components.length).to.be.greaterThan(3);
    await expectNothingSeen(page);
    expect((await internal(page)).channel).to.equal(true);
    expect((await lc.state(page)).agent).to.equal(true);
    // The test can fail: a message of that shape through the page's wrapped postMessage is counted.
    await page.evaluate(() => window.postMessage({ source: 'layout-cost:probe' }, '*'));
    expect(await page.evaluate(() => (window as any).__seen.messages)).to.be.at.least(1);
    await page.close();
  });

  it('a page that wrapped the channel\'s built-ins before it was made is refused the channel and sees nothing; it is told why', async () => {
    const page = await open('hostile-channel.html');
    expect(await page.evaluate(() => (window as any).__seen.wrapped)).to.equal(true);
    // The API is still ours; enabling makes the content script offer the channel, which the boot does not take.
    await page.evaluate(() => (window as any).__LAYOUT_COST__.enable());
    const st = await waitFor(async () => {
      const s = await page.evaluate(() => (window as any).__LAYOUT_COST__.state());
      return s.degraded.some((d: string) => d.includes('MessageEvent\'s built-ins')) ? s : null;
    }, { what: 'the refusal said in state().degraded' });
    expect(st.agent).to.equal(false);
    expect((await internal(page)).channel).to.equal(false);
    // The content script knows (the panel shows why in its status): the offer was not taken.
    const content = await contentWorld(page);
    expect(await content(`globalThis[Symbol.for('layout-cost.content-agent')].taken`)).to.equal(false);
    await expectNothingSeen(page);
    // The page's own ports still work: the test can see a message there.
    await page.evaluate(() => {
      const ch = new MessageChannel();
      ch.port1.onmessage = () => { (window as any).__seen.ourPortGot++; };
      ch.port2.postMessage('x');
    });
    await waitFor(() => page.evaluate(() => (window as any).__seen.ourPortGot === 1), { what: 'a page port message' });
    await page.close();
  });

  it('5 000 enable/disable calls in a loop settle at once, with a handful of mode switches and storage writes', async () => {
    const page = await open('basic-r19.html');
    const w = await h.worker();
    const persists = (): Promise<number> => w.evaluate(() => (globalThis as any).__layoutCostBackground.counters.persists);
    const before = await persists();
    await page.evaluate(() => {
      const api = (window as any).__LAYOUT_COST__;
      for (let i = 0; i < 2500; i++) {
        api.enable();
        api.disable();
      }
      api.enable('heatmap');
    });
    await waitFor(async () => (await lc.state(page)).mode === 'heatmap', { what: 'the last call wins', timeout: 5000 });
    await waitFor(() => w.evaluate(() => (globalThis as any).__layoutCostBackground.modes.size > 0), { what: 'the worker has it' });
    await waitFor(async () => (await persists()) > before, { what: 'the mode persisted' });
    expect((await persists()) - before).to.be.at.most(3);
    await lc.disable(page);
    await page.close();
  });

  it('with the overlay off and no panel, a stopped worker stays stopped (no frame reconnects); a key press brings it back', async () => {
    const page = await open('basic-r19.html');
    // The portless hello was answered: the content script knows the mode (off) and holds no port.
    const w = await h.worker();
    await waitFor(() => w.evaluate(() => {
      const bg = (globalThis as any).__layoutCostBackground;
      let ports = 0;
      for (const frames of bg.contents.values()) ports += frames.size;
      return ports === 0;
    }), { what: 'no content port held' });
    const session = await h.browser.target().createCDPSession();
    const ours = async () => (await session.send('Target.getTargets')).targetInfos
      .filter((t) => t.type === 'service_worker' && t.url.startsWith(`chrome-extension://${h.extensionId}/`));
    const [target] = await ours();
    await session.send('Target.closeTarget', { targetId: target.targetId });
    await waitFor(async () => (await ours()).length === 0, { what: 'the worker to stop', interval: 20 });
    // An observation window, not a wait for something: every frame used to reconnect 250 ms after a stop.
    const until = Date.now() + 1500;
    while (Date.now() < until) {
      expect((await ours()).length, 'a frame woke the worker').to.equal(0);
      await new Promise((r) => setTimeout(r, 100));
    }
    await pressToggle(page);
    // The key press starts the worker; puppeteer holds new workers at start for its debugger: let it run.
    const info = await waitFor(async () => (await ours())[0], { what: 'the worker started by the key press', interval: 20 });
    const fresh = await waitFor(() => h.browser.targets().find((t) => (t as unknown as { _targetId: string })._targetId === info.targetId),
      { what: 'puppeteer to see it', interval: 20 });
    const cdp = await fresh.createCDPSession();
    await cdp.send('Runtime.runIfWaitingForDebugger');
    await cdp.detach().catch(() => undefined);
    await session.detach();
    await waitFor(async () => (await lc.state(page)).mode === 'components', { what: 'on again', timeout: 10_000 });
    await waitFor(async () => ((await lc.snapshot(page)) as any).components.length > 0, { what: 'components' });
    await page.close();
  });

  it('neither a synthetic Ctrl+Shift+L nor a cross-origin frame\'s API switches the tab', async () => {
    const other = await startServer(); // another port: another origin
    try {
      const page = await open(`cross-origin-frame.html?frame=${encodeURIComponent(`${other.origin}/basic-r19.html`)}`);
      const frame = await waitFor(() => page.frames().find((f) => f.url().startsWith(other.origin)), { what: 'the other origin\'s frame' });
      await waitFor(() => frame.evaluate(() => (window as any).__fixtureReady === true && !!(window as any).__LAYOUT_COST__), { what: 'its API' });
      // A page script's keydown, in the top page and in the frame: not the user's.
      for (const f of [page.mainFrame(), frame]) {
        await f.evaluate(() => {
          for (const t of [window, document]) {
            t.dispatchEvent(new KeyboardEvent('keydown', { key: 'L', code: 'KeyL', ctrlKey: true, shiftKey: true, bubbles: true }));
          }
        });
      }
      await frame.evaluate(() => (window as any).__LAYOUT_COST__.enable());
      // The same calls from the top frame do switch it (so the checks below cannot pass by a dead path).
      const dropped = async () => (await lc.state(frame)).droppedMessages;
      await waitFor(async () => (await dropped()) > 0, { what: 'the frame\'s call refused' });
      expect((await lc.state(page)).mode).to.equal('off');
      expect((await lc.state(frame)).mode).to.equal('off');
      expect((await internal(page)).agent).to.equal(false);
      await lc.enable(page);
      await waitFor(async () => (await lc.state(frame)).mode === 'components', { what: 'the top\'s enable reaches the frame' });
      await page.close();
    } finally {
      await other.close();
    }
  });

  it('a records batch lost on the way is noticed (a gap in its numbers) and everything is sent again', async () => {
    const page = await open('basic-r19-dev.html');
    await lc.enable(page);
    await expectMatches(page);
    const idsOf = async (): Promise<Map<string, number>> => {
      // Components told apart by name, key and depth (the ones that are so alone).
      const m = new Map<string, number>();
      const twice = new Set<string>();
      for (const c of ((await lc.snapshot(page)) as any).components) {
        const k = `${c.name}#${c.key}@${c.depth}`;
        if (m.has(k)) twice.add(k);
        m.set(k, c.id);
      }
      for (const k of twice) m.delete(k);
      return m;
    };
    const before = await idsOf();
    // The failure path, injected where no page can reach: in the content script's isolated world (over CDP), its
    // end of the private port drops records batches while __lose is set (a batch that failed on the way).
    const content = await contentWorld(page);
    await content(`(() => {
      const port = globalThis[Symbol.for('layout-cost.content-agent')].port;
      const orig = port.onmessage;
      globalThis.__lose = true;
      globalThis.__lost = 0;
      globalThis.__resets = 0;
      port.onmessage = (e) => {
        if (globalThis.__lose && e.data && e.data.type === 'records') { globalThis.__lost++; return; }
        // The resync's batch begins with a Reset: counted before the store applies it.
        if (!globalThis.__lose && e.data && e.data.type === 'records') {
          const d = new Float64Array(e.data.payload.buffer);
          for (let i = 0; i < e.data.payload.count; i++) if (d[i * ${RECORD_STRIDE}] === ${RecordKind.Reset}) globalThis.__resets++;
        }
        orig.call(port, e);
      };
    })()`);
    await page.evaluate(() => (window as any).__setItems(['x', 'y', 'z', 'w', 'v']));
    await waitFor(async () => (await content('globalThis.__lost')) as number > 0, { what: 'a batch lost' });
    await content('globalThis.__lose = false');
    // The next batch (any commit) shows the gap; the resync sends the whole tree again. Held once its Reset has landed:
    // in a clean-clone run beside a CPU hog the components read after the match kept none of the ids by name, key and
    // depth (0 of more than 3), the match made, it seems, on the store as it stood before the resync's batch.
    await page.evaluate(() => (window as any).__setItems(['x', 'y']));
    await waitFor(async () => (await content('globalThis.__resets')) as number > 0, { what: 'the resync\'s Reset' });
    await expectMatches(page, ['root'], { ordered: false });
    // Components that lived through it kept their ids (the panel's pin and recordings with them); the new ones got new.
    const after = await idsOf();
    const kept = [...after].filter(([k]) => before.has(k));
    expect(kept.length).to.be.greaterThan(3);
    for (const [k, id] of kept) expect(id, k).to.equal(before.get(k));
    const fresh = [...after].filter(([k]) => !before.has(k)).map(([, id]) => id);
    expect(fresh.length).to.be.greaterThan(0);
    for (const id of fresh) expect([...before.values()]).to.not.include(id);
    await page.close();
  });

  it('off frees what on took: the store and the agent tables are empty after disable', async () => {
    // 5 000 components (issue 11 saw 50 000 stay after disable; what this holds is that nothing stays).
    const page = await open('big.html?sections=10');
    await lc.enable(page);
    await waitFor(async () => ((await lc.snapshot(page)) as any).components.length > 1000, { what: 'a big tree', timeout: 20_000 });
    await lc.disable(page);
    await waitFor(async () => ((await lc.snapshot(page)) as any).components.length === 0, { what: 'an empty store' });
    const stats = await internal(page);
    expect(stats).to.include({ running: 0, entries: 0, ring: 0, ringBytes: 0, portals: 0, floating: 0 });
    await page.close();
  });
});
