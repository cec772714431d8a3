/**
 * bench/own-js.ts splits our own JS by room (bench/lib/profile.ts `roomOf`): each source file of ours lands in the
 * room it runs in, the nested agent folders before the agent's catch-all, and every room of `src/` is named by some
 * file that exists.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { roomOf, ROOMS } from '../../bench/lib/profile';

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
