/**
 * bench/own-js.ts splits our own JS by room (bench/lib/profile.ts `roomOf`): each source file of ours lands in the
 * room it runs in, the nested agent folders before the agent's catch-all, and every room of `src/` is named by some
 * file that exists.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { attribute, capGaps, roomOf, ROOMS, type CpuProfile } from '../../bench/lib/profile';

describe('bench rooms: own JS by where it runs', () => {
  it('puts each kind of source in its room, the more specific prefix first', () => {
    expect(roomOf('src/inject/agent/react/adapter.ts:243')).to.equal('agent: React adapter (MAIN)');
    expect(roomOf('src/inject/agent/pipeline/pipeline.ts:295')).to.equal('agent: pipeline and timing (MAIN)');
    expect(roomOf('src/inject/agent/timing/wrap.ts:123')).to.equal('agent: pipeline and timing (MAIN)');
    expect(roomOf('src/inject/boot/raf.ts:29')).to.equal('boot: hook, rAF, channel (MAIN)');
    expect(roomOf('src/overlay/plan.ts:92')).to.equal('drawing: choice, placement, raster (isolated)');
    expect(roomOf('src/content/agent/canvas/index.ts:164')).to.equal('drawing: choice, placement, raster (isolated)');
    expect(roomOf('src/content/agent/store.ts:229')).to.equal('store, panel feed, relay (isolated)');
    expect(roomOf('src/content/boot/index.ts:89')).to.equal('store, panel feed, relay (isolated)');
    expect(roomOf('src/protocol/guard.ts:30')).to.equal('protocol checks (both)');
    expect(roomOf('agent.js')).to.equal('other');
  });

  it('names folders that exist, so a move of the tree cannot leave a room empty unnoticed', () => {
    const root = path.resolve(__dirname, '../..');
    for (const { prefixes } of ROOMS) {
      for (const p of prefixes) expect(fs.existsSync(path.join(root, p)), p).to.equal(true);
    }
  });
});

describe('bench profile: gaps capped', () => {
  // Two scripts, ten samples 100 µs apart, the one of ours followed by a 5 ms gap.
  const node = (id: number, name: string, url: string, children: number[] = []) =>
    ({ id, callFrame: { functionName: name, scriptId: '1', url, lineNumber: id, columnNumber: 0 }, children });
  const profile = (): CpuProfile => ({
    nodes: [node(1, '(root)', '', [2, 3]), node(2, 'ours', 'chrome-extension://x/agent.js'), node(3, 'page', 'http://a/app.js')],
    startTime: 0,
    samples: [3, 3, 3, 3, 2, 3, 3, 3, 3, 3],
    timeDeltas: [0, 100, 100, 100, 100, 5000, 100, 100, 100, 100],
    endTime: 5_900,
  });

  it('charges a sample followed by a long gap the whole gap, and at most three intervals once capped', () => {
    const raw = attribute(profile());
    expect(raw.byUrl.get('chrome-extension://x/agent.js')).to.equal(5);
    const capped = attribute(capGaps(profile()));
    expect(capped.byUrl.get('chrome-extension://x/agent.js')).to.equal(0.3);
    expect(capped.byUrl.get('http://a/app.js')).to.be.closeTo(0.9, 1e-9);
  });

  it('leaves a profile of even intervals as it was', () => {
    const p = profile();
    p.timeDeltas = p.timeDeltas!.map((d, i) => (i === 0 ? 0 : 100));
    p.endTime = 1_000;
    const a = attribute(p), b = attribute(capGaps(p));
    expect(b.busyMs).to.equal(a.busyMs);
    expect(b.byUrl.get('chrome-extension://x/agent.js')).to.equal(a.byUrl.get('chrome-extension://x/agent.js'));
  });
});
