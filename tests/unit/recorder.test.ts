import { expect } from 'chai';
import { MAX_FRAME_COMPONENTS, MAX_ROWS, Recorder, tee, toTrace } from '../../src/content/agent/recorder';

const info = (id: number) => ({ name: `C${id}`, parentId: id > 1 ? 1 : null, depth: id > 1 ? 1 : 0, key: null });

describe('recording', () => {
  it('the live strip\'s ring keeps the last N frames, its bars oldest first (with their times), and names only what its frames mention', () => {
    const r = new Recorder(info, 1000, 3);
    for (let f = 1; f <= 5; f++) {
      r.inclusive(f + 1, 0.1 * f, f, 0);
      r.endFrame(f, f * 16, 0.1 * f, f, 0);
    }
    expect(r.bars(10)).to.deep.equal([[3, 0.30000000000000004, 3, 0, 48], [4, 0.4, 4, 0, 64], [5, 0.5, 5, 0, 80]]);
    expect(r.bars(1)).to.deep.equal([[5, 0.5, 5, 0, 80]]);
    const rec = r.finish('');
    expect(rec.frames.map((f) => f.frame)).to.deep.equal([3, 4, 5]);
    expect(rec.droppedFrames).to.equal(2);
    // Components 2 and 3 were in the dropped frames only.
    expect(Object.keys(rec.components).sort()).to.deep.equal(['4', '5', '6']);
  });

  it('leaves out frames that began before it started (their records arrive after the start)', () => {
    const r = new Recorder(info, 1000, Infinity, 500);
    r.mount(2);
    r.inclusive(2, 0, 9, 0);
    r.endFrame(1, 480, 0, 9, 0);
    r.inclusive(3, 0, 1, 0);
    r.endFrame(2, 510, 0, 1, 0);
    const rec = r.finish('');
    expect(rec.frames.map((f) => f.frame)).to.deep.equal([2]);
    expect(rec.frames[0].components.map((c) => c.id)).to.deep.equal([3]);
    expect(rec.frames[0].mounts).to.deep.equal([]);
  });

  it('tee feeds a recording and the live ring the same frames; either alone is itself', () => {
    const a = new Recorder(info);
    const b = new Recorder(info, 1000, 2);
    expect(tee(a, null)).to.equal(a);
    expect(tee(null, b)).to.equal(b);
    expect(tee(null, null)).to.equal(null);
    const t = tee(a, b)!;
    t.mount(2);
    t.commits(2, 1);
    t.self(2, 0, 3, 0);
    t.inclusive(2, 0, 3, 0);
    t.endFrame(1, 16, 0, 3, 0);
    t.stack(2, 1, 'at x');
    t.unmount(2);
    t.endFrame(2, 32, 0, 0, 0);
    const ra = a.finish('');
    const rb = b.finish('');
    expect(rb.frames).to.deep.equal(ra.frames);
    expect(ra.frames[0].stacks).to.have.length(1);
    expect(ra.frames[1].unmounts).to.deep.equal([2]);
  });

  it('keeps per frame the components that carried cost, self and inclusive, with mounts, commits and stacks', () => {
    const r = new Recorder(info);
    r.mount(2);
    r.commits(2, 3);
    r.self(2, 0.5, 4, 0);
    r.inclusive(2, 0.5, 4, 0);
    r.inclusive(1, 0.5, 4, 0);
    r.endFrame(7, 1000, 0.5, 4, 0);
    r.stack(2, 1.2, 'at f (x.js:1:2)');
    const rec = r.finish('http://x/');
    expect(rec.kind).to.equal('layout-cost-recording');
    expect(rec.frames).to.have.length(1);
    const f = rec.frames[0];
    expect(f).to.include({ frame: 7, time: 1000, styleMs: 0.5, layoutMs: 4, forcedMs: 0, componentsLeftOut: 0 });
    expect(f.components[0]).to.deep.equal({ id: 2, selfStyleMs: 0.5, selfLayoutMs: 4, selfForcedMs: 0, styleMs: 0.5, layoutMs: 4, forcedMs: 0, forcedCount: 0 });
    expect(f.components[1]).to.include({ id: 1, selfLayoutMs: 0, layoutMs: 4 });
    expect(f.mounts).to.deep.equal([2]);
    expect(f.commits).to.deep.equal([[2, 3]]);
    expect(f.stacks[0]).to.include({ id: 2, ms: 1.2 });
    expect(rec.components['2'].name).to.equal('C2');
  });

  it('stays under its cap: the oldest frames go and are counted; a frame keeps its costliest components', () => {
    const r = new Recorder(info);
    const frames = Math.ceil(MAX_ROWS / (MAX_FRAME_COMPONENTS + 1)) + 50;
    for (let f = 1; f <= frames; f++) {
      for (let id = 1; id <= MAX_FRAME_COMPONENTS + 20; id++) r.inclusive(id, 0, id, 0);
      r.endFrame(f, f * 16, 0, 1, 0);
    }
    const rec = r.finish('');
    const rows = rec.frames.reduce((t, f) => t + f.components.length + 1, 0);
    expect(rows).to.be.at.most(MAX_ROWS);
    expect(rec.droppedFrames).to.be.greaterThan(0);
    expect(rec.frames.length + rec.droppedFrames).to.equal(frames);
    expect(rec.frames[rec.frames.length - 1].frame).to.equal(frames);
    expect(rec.frames[0].components[0].id).to.equal(MAX_FRAME_COMPONENTS + 20);
    expect(rec.frames[0].componentsLeftOut).to.equal(20);
  });

  it('exports Chrome\'s Trace Event Format: a frame event and, end to end inside it, one event per component', () => {
    const r = new Recorder(info);
    r.self(2, 0, 3, 0); r.inclusive(2, 0, 3, 0);
    r.self(0, 0.5, 0, 0); r.inclusive(0, 0.5, 0, 0);
    r.inclusive(1, 0, 3, 0);
    r.endFrame(1, 10, 0.5, 3, 0);
    const t = toTrace(r.finish(''));
    const x = t.traceEvents.filter((e) => e.ph === 'X');
    expect(x.map((e) => [e.name, e.ts, e.dur])).to.deep.equal([['Frame 1', 10000, 3500], ['C2', 10000, 3000], ['<page>', 13000, 500]]);
    expect(x[1].cat).to.equal('layout-cost');
    expect(x[1].args).to.include({ id: 2, layoutMs: 3 });
  });
});

import { recordingSummary, recordingTable } from '../../src/devtools-panel/recording-model';
import { recordingValidator } from '../../src/protocol/recording';
import { INVALID } from '../../src/protocol/validate';

describe('recording in the panel', () => {
  function sample() {
    const r = new Recorder(info);
    for (let f = 1; f <= 4; f++) {
      r.self(2, 0, f, 0); r.inclusive(2, 0, f, 0); r.inclusive(1, 0, f, 0);
      r.endFrame(f, f * 100, 0, f, 0);
    }
    return r.finish('http://x/');
  }

  it('tables one frame, or all frames as the mean per frame with the worst as "Last"', () => {
    const rec = sample();
    const one = recordingTable(rec, 2);
    expect(one.rows.find((x) => x.id === 2)).to.include({ name: 'C2', layoutMs: 3, lastFrameMs: 3 });
    const all = recordingTable(rec, null);
    expect(all.rows.find((x) => x.id === 2)).to.include({ layoutMs: 2.5, lastFrameMs: 4 });
    expect(recordingSummary(rec)).to.match(/^4 frames over 0\.3 s/);
  });

  it('a recording from a file is data: checked, capped, and refused when it is not one', () => {
    const rec = sample();
    expect(recordingValidator(JSON.parse(JSON.stringify(rec)))).to.not.equal(INVALID);
    expect(recordingValidator({ ...rec, version: 99 })).to.equal(INVALID);
    expect(recordingValidator({ ...rec, kind: 'other' })).to.equal(INVALID);
    const hostile = JSON.parse(JSON.stringify(rec));
    hostile.components['2'].name = 'x'.repeat(10_000);
    hostile.components['__proto__x'] = { name: 'y', parentId: null, depth: 0, key: null };
    hostile.frames[0].components[0].layoutMs = 'lots';
    const v = recordingValidator(hostile);
    expect(v).to.not.equal(INVALID);
    if (v === INVALID) return;
    expect(v.components['2']).to.equal(undefined); // a name over the cap: that entry is dropped
    expect(v.components['__proto__x']).to.equal(undefined);
    expect(v.frames[0].components.length).to.equal(rec.frames[0].components.length - 1);
  });
});

describe('recordings carry interactions and shifts (issue 46)', () => {
  it('those that began while it recorded, through the validator and into the trace export', () => {
    const r = new Recorder(() => ({ name: 'X', parentId: null, depth: 0, key: null }));
    const now = performance.now();
    const it = (id: number, start: number) => ({
      id, type: 'pointer' as const, target: { id: 2, name: 'FilterBar' }, start, duration: 48, inputDelay: 2, processing: 40,
      presentationDelay: 6, styleMs: 0, layoutMs: 1, forcedMs: 30, components: [{ id: 3, name: 'Grid', styleMs: 0, layoutMs: 1, forcedMs: 30, renders: 1 }],
    });
    const shift = { value: 0.04, time: now + 10, shifted: [{ id: 4, name: 'Feed' }], cause: { id: 5, name: 'Banner', reason: 'mounted above Feed' } };
    const rec = r.finish('http://x/', null, { interactions: [it(1, now - 60_000), it(2, now + 5)], inp: null, shifts: [shift], cls: 0.04 });
    expect(rec.interactions?.map((i) => i.id)).to.deep.equal([2]);
    const back = recordingValidator(JSON.parse(JSON.stringify(rec)));
    expect(back).to.not.equal(INVALID);
    expect((back as typeof rec).shifts).to.deep.equal([shift]);
    const t = toTrace(rec).traceEvents;
    expect(t.find((e) => e.cat === 'layout-cost,interaction')).to.include({ name: 'Pointer on FilterBar', dur: 48_000 });
    expect(t.find((e) => e.cat === 'layout-cost,shift')).to.include({ name: 'Layout shift 0.0400', ph: 'i' });
  });
});
