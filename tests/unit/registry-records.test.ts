import { expect } from 'chai';
import { RecordKind, RENDERS_PACK, toLines } from '../../src/protocol';
import type { FrameworkAdapter } from '../../src/inject/agent/adapter';
import type { DomCounter } from '../../src/inject/agent/pipeline/dom-counts';
import { Interner, KeyBatch } from '../../src/inject/agent/pipeline/interner';
import { GONE, Registry, REGISTRY_MARKS, type Entry } from '../../src/inject/agent/pipeline/registry';
import { Causes } from '../../src/inject/agent/pipeline/causes';
import { RingBuffer } from '../../src/inject/agent/ring-buffer';

/**
 * What the registry writes at a flush: a whole Stats record for a component whose authored, rendered or portaled-in
 * count changed, and its commit count packed into a Renders record (five to a record) when only that changed.
 */
describe('Registry flush records', () => {
  /** Each component's subtree authors `authored[id]` elements and renders as many (no DOM here: the counter reads the table). */
  function setup() {
    const ring = new RingBuffer(1 << 12);
    const authored = new Map<number, number>();
    const handles = new Map<object, number>();
    const adapter = {
      portalCount: 0,
      portalVersion: 0,
      authored: (h: object) => authored.get(handles.get(h) ?? 0) ?? 0,
      topHostNodes: (h: object, out: Element[]) => {
        out.push({ id: handles.get(h) } as unknown as Element);
        return false;
      },
      portalAbove: () => false,
      portals: () => undefined,
    } as unknown as FrameworkAdapter;
    const counter = { count: (hosts: Element[]) => authored.get((hosts[0] as unknown as { id: number }).id) ?? 0 } as unknown as DomCounter;
    const reg = new Registry(ring, new Interner(), new KeyBatch(), counter, () => adapter, new Causes(() => [], () => 0, 4, 16));
    // A panel or a recording reads commit counts: they go out at each flush (the held case has a test of its own).
    reg.wantCommits = true;
    const mount = (parent: Entry | null, n: number): Entry => {
      const h = {};
      const e = reg.mount(h, parent, parent === null ? 0 : 1, 'C', null);
      handles.set(h, e.id);
      authored.set(e.id, n);
      return e;
    };
    /** The records of one flushStats (what was written before it is dropped). */
    const flush = (): string[] => {
      ring.drain();
      reg.flushStats();
      return toLines(ring.drain(), ['C']);
    };
    return { reg, ring, authored, mount, flush };
  }

  it('sends a component whose counts changed whole, and one that only rendered packed', () => {
    const { reg, authored, mount, flush } = setup();
    // The parent's subtree authors its child's two elements.
    const a = mount(null, 2);
    const b = mount(a, 2);
    // A mount is its component's first render: commits start at 1.
    expect(flush()).to.deep.equal([`Stats ${b.id} commits=1 authored=2 rendered=2`, `Stats ${a.id} commits=1 authored=2 rendered=2`]);
    reg.rendered(b);
    reg.rendered(b);
    reg.rendered(a);
    expect(flush()).to.deep.equal([`Renders ${b.id}:3 ${a.id}:2`]);
    // Rendered and its DOM changed in the same flush: whole, with its commits.
    reg.rendered(b);
    authored.set(b.id, 3);
    reg.structure(b);
    expect(flush()).to.deep.equal([`Stats ${b.id} commits=4 authored=3 rendered=3`, `Stats ${a.id} commits=2 authored=3 rendered=3`]);
    expect(flush()).to.deep.equal([]);
  });

  it('keeps counts above 2^15 − 1 exact, in and out of the packed form, and passes their differences up', () => {
    const { reg, authored, mount, flush } = setup();
    const a = mount(null, 40_001);
    const b = mount(a, 40_000);
    expect(flush()).to.deep.equal([`Stats ${b.id} commits=1 authored=40000 rendered=40000`, `Stats ${a.id} commits=1 authored=40001 rendered=40001`]);
    // Down into the packed form for the child; the parent takes the difference and stays above.
    authored.set(b.id, 7);
    reg.structure(b);
    expect(flush()).to.deep.equal([`Stats ${b.id} commits=1 authored=7 rendered=7`, `Stats ${a.id} commits=1 authored=8 rendered=8`]);
    expect([a.authored, a.rendered, b.authored, b.rendered]).to.deep.equal([8, 8, 7, 7]);
    authored.set(b.id, 32_767);
    reg.structure(b);
    expect(flush()).to.deep.equal([`Stats ${b.id} commits=1 authored=32767 rendered=32767`, `Stats ${a.id} commits=1 authored=32768 rendered=32768`]);
    authored.set(b.id, 1_000_000);
    reg.structure(b);
    expect(flush()).to.deep.equal([`Stats ${b.id} commits=1 authored=1000000 rendered=1000000`, `Stats ${a.id} commits=1 authored=1000001 rendered=1000001`]);
  });

  it('fills Renders records five at a time and pads the last with −1', () => {
    const { reg, mount, flush } = setup();
    const es = [1, 2, 3, 4, 5, 6, 7].map(() => mount(null, 1));
    const ids = es.map((e) => e.id);
    flush();
    for (const e of es) reg.rendered(e);
    const lines = flush();
    expect(lines).to.deep.equal([`Renders ${ids.slice(0, 5).map((i) => `${i}:2`).join(' ')}`, `Renders ${ids[5]}:2 ${ids[6]}:2`]);
    // Every slot decodes to the exact id and count.
    reg.rendered(es[6]);
    const ring = new RingBuffer(8);
    ring.write(RecordKind.Renders, ids[6] * RENDERS_PACK + 3, -1, -1, -1, -1);
    expect(flush()).to.deep.equal(toLines(ring.drain()));
  });

  it('leaves out a component unmounted after it rendered', () => {
    const { reg, ring, mount, flush } = setup();
    const a = mount(null, 1);
    const b = mount(null, 1);
    flush();
    reg.rendered(a);
    reg.rendered(b);
    reg.unmount(a);
    // The adapter may hand an unmounted component back in the same commit (React 16/17): ignored.
    reg.rendered(a);
    reg.structure(a);
    reg.changed(a, null, 1);
    reg.unmount(a);
    expect(toLines(ring.drain(), ['C']).filter((l) => l.startsWith('Unmount'))).to.have.length(1);
    expect(flush()).to.deep.equal([`Renders ${b.id}:2`]);
    // Its change after the unmount is no cause of the frame.
    expect(reg.causes.length).to.equal(0);
    // A child mounted under it (a stale parent) is a root.
    const c = mount(a, 1);
    expect(c.parent).to.equal(null);
  });

  it('holds commit counts while nothing reads them, and releases them as totals', () => {
    const { reg, ring, authored, mount, flush } = setup();
    reg.wantCommits = false;
    const a = mount(null, 2);
    const b = mount(a, 2);
    const c = mount(null, 1);
    // A mount's first record is whole, its commits left out (−1: the content store keeps none while nothing reads them).
    // Recounted children before their parents: the latest mounted first.
    expect(flush()).to.deep.equal([`Stats ${c.id} commits=-1 authored=1 rendered=1`, `Stats ${b.id} commits=-1 authored=2 rendered=2`,
      `Stats ${a.id} commits=-1 authored=2 rendered=2`]);
    reg.rendered(b);
    reg.rendered(b);
    reg.rendered(c);
    expect(flush()).to.deep.equal([]);
    reg.rendered(b);
    // Counts that changed still go out at once, without the commits (still held).
    reg.rendered(a);
    authored.set(a.id, 3);
    reg.structure(a);
    expect(flush()).to.deep.equal([`Stats ${a.id} commits=-1 authored=3 rendered=3`]);
    reg.rendered(c);
    reg.unmount(c);
    ring.drain();
    reg.releaseCommits();
    // b's mount and three renders, a's mount and one, once; c unmounted.
    expect(toLines(ring.drain(), ['C'])).to.deep.equal([`Commits ${b.id}:4 ${a.id}:2`]);
    reg.releaseCommits();
    expect(ring.length).to.equal(0);
    // Wanted again: each flush's renders as before.
    reg.wantCommits = true;
    reg.rendered(b);
    expect(flush()).to.deep.equal([`Renders ${b.id}:5`]);
  });

  it('lists a held component once, however often its counts go out whole between renders', () => {
    const { reg, ring, authored, mount, flush } = setup();
    reg.wantCommits = false;
    const list = mount(null, 1);
    flush();
    // A list that grows in one commit and only re-renders in the next, for a long time.
    for (let i = 0; i < 500; i++) {
      reg.rendered(list);
      authored.set(list.id, 2 + i);
      reg.structure(list);
      expect(flush()).to.deep.equal([`Stats ${list.id} commits=-1 authored=${2 + i} rendered=${2 + i}`]);
      reg.rendered(list);
      expect(flush()).to.deep.equal([]);
    }
    expect((reg as unknown as { held: Entry[] }).held).to.deep.equal([list]);
    ring.drain();
    reg.releaseCommits();
    expect(toLines(ring.drain(), ['C'])).to.deep.equal([`Commits ${list.id}:1001`]);
    // Released and not rendered since: a change of its other counts holds nothing, and nothing is released.
    authored.set(list.id, 1);
    reg.structure(list);
    flush();
    reg.releaseCommits();
    expect(ring.length).to.equal(0);
  });

  it('lets go of held components that unmounted, on a page that mounts and unmounts while nothing reads commits', () => {
    const { reg, mount, flush } = setup();
    reg.wantCommits = false;
    const keep = mount(null, 1);
    flush();
    reg.rendered(keep);
    for (let round = 0; round < 30; round++) {
      const batch = Array.from({ length: 200 }, () => mount(null, 1));
      flush();
      for (const e of batch) reg.rendered(e);
      flush();
      for (const e of batch) reg.unmount(e);
    }
    const held = (reg as unknown as { held: Entry[] }).held;
    expect(held.length).to.be.below(2 * 1024 + 400);
    expect(held).to.include(keep);
  });

  it('holds keys while nothing shows them, then sends each live one once (Key records), and mounts with keys after', () => {
    const ring = new RingBuffer(1 << 10);
    const keyOfHandle = new Map<object, string | null>();
    const adapter = { keyOf: (h: object) => keyOfHandle.get(h) ?? null } as unknown as FrameworkAdapter;
    const keys = new KeyBatch();
    const reg = new Registry(ring, new Interner(), keys, { count: () => 0 } as unknown as DomCounter, () => adapter, new Causes(() => [], () => 0, 4, 16));
    const mount = (key: string | null): Entry => {
      const h = {};
      keyOfHandle.set(h, key);
      return reg.mount(h, null, 0, 'C', key);
    };
    const lines = (): string[] => toLines(ring.drain(), ['C'], keys.take());
    const a = mount('a');
    const b = mount('b');
    mount(null);
    // Nothing shows keys: the Mount records carry none.
    expect(lines()).to.deep.equal([`Mount ${a.id} parent=-1 depth=0 name="C"`, `Mount ${b.id} parent=-1 depth=0 name="C"`,
      `Mount ${a.id + 2} parent=-1 depth=0 name="C"`]);
    reg.unmount(b);
    lines();
    expect(reg.keyOf(a.id)).to.equal('a');
    expect(reg.keyOf(b.id)).to.equal(null); // unmounted
    reg.wantKeys = true;
    reg.sendKeys();
    // The live keyed one only (b is gone, the third has no key).
    expect(lines()).to.deep.equal([`Key ${a.id} "a"`]);
    reg.sendKeys();
    expect(lines()).to.deep.equal([]);
    const d = mount('d');
    expect(lines()).to.deep.equal([`Mount ${d.id} parent=-1 depth=0 name="C" key="d"`]);
    // Off and on again: nothing is sent twice.
    reg.wantKeys = false;
    const e = mount('e');
    reg.wantKeys = true;
    reg.sendKeys();
    expect(lines()).to.deep.equal([`Mount ${e.id} parent=-1 depth=0 name="C"`, `Key ${e.id} "e"`]);
  });

  it('keeps each component\'s commit count above its marks, through the marks it gets and loses, and past what they hold', () => {
    const ring = new RingBuffer(1 << 12);
    const reg = new Registry(ring, new Interner(), new KeyBatch(), { count: () => 0 } as unknown as DomCounter, () => null, new Causes(() => [], () => 0, 4, 16));
    reg.wantKeys = true;
    const deep = reg.mount({}, null, 4000, 'C', 'k');
    // The depth goes out in the Mount record; the registry keeps none.
    expect(toLines(ring.drain(), ['C'])[0]).to.equal(`Mount ${deep.id} parent=-1 depth=4000 name="C" key=#0`);
    expect(deep.commits).to.equal(1);
    // Every mark the registry sets lies below the count.
    expect(REGISTRY_MARKS < 1 << 11).to.equal(true);
    reg.rendered(deep);
    reg.structure(deep);
    expect(deep.commits).to.equal(2);
    expect(deep.marks >>> 11).to.equal(2);
    // Past 2^19 − 1 the count moves to the entry's counts object, exact, with the counts beside it, and the marks stay a
    // small integer (under 2^30).
    const busy = reg.mount({}, null, 0, 'C', null);
    busy.setCounts(3, 40_000);
    for (let i = 1; i < 2 ** 19 + 5; i++) busy.addCommit();
    expect([busy.commits, busy.authored, busy.rendered]).to.deep.equal([2 ** 19 + 5, 3, 40_000]);
    expect(busy.marks < 2 ** 30 && busy.marks >= 0).to.equal(true);
    busy.setCounts(1, 2); // small counts again: the count stays where it is
    expect([busy.commits, busy.authored, busy.rendered]).to.deep.equal([2 ** 19 + 5, 1, 2]);
    busy.addCommit();
    expect(busy.commits).to.equal(2 ** 19 + 6);
    reg.unmount(deep);
    expect(deep.marks).to.equal(GONE);
  });
});
