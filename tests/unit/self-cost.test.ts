import { expect } from 'chai';
import { SelfClock } from '../../src/inject/agent/self-clock';
import { SelfCostMeter, SELF_WINDOW_MS } from '../../src/content/agent/self-cost';
import { formatSelf, notices } from '../../src/devtools-panel/status';
import type { Status } from '../../src/protocol';

describe('own cost ("Layout Cost itself")', () => {
  it('the agent clock counts nested entries once and leaves out the page\'s own style and layout', () => {
    let t = 0;
    const c = new SelfClock(() => t);
    c.enter();
    t = 2;
    c.run(() => { t = 5; }); // nested: part of the outer
    c.exclude(1.5); // the frame-end flush: the page's work
    // A batch posted inside the entry takes what closed before, and loses neither the exclusion nor the entry.
    expect(c.take()).to.equal(0);
    t = 6;
    c.leave();
    c.leave(); // an extra leave is ignored
    expect(c.take()).to.equal(4.5);
    expect(c.take()).to.equal(0);
    c.exclude(3); // outside an entry: nothing to take it from
    c.run(() => { t = 7; });
    expect(c.take()).to.equal(1);
  });

  it('the meter turns ms into ms per frame and a share of wall time, once a window is long enough', () => {
    let t = 0;
    const m = new SelfCostMeter(() => t);
    m.add(5);
    m.time(() => { t += 3; });
    t = SELF_WINDOW_MS / 2;
    expect(m.sample(10)).to.equal(false);
    expect(m.value).to.equal(null);
    t = 1000;
    expect(m.sample(40)).to.equal(true);
    expect(m.value).to.deep.equal({ msPerFrame: 8 / 40, mainThreadShare: 8 / 1000 });
    m.add(Number.NaN);
    m.add(-4);
    t = 2000;
    expect(m.sample(40)).to.equal(true);
    expect(m.value).to.deep.equal({ msPerFrame: 0, mainThreadShare: 0 });
    m.reset(0);
    expect(m.value).to.equal(null);
  });

  it('the panel says it in words while on, and not while off', () => {
    expect(formatSelf(0.214, 0.0112)).to.equal('Layout Cost itself: 0.2 ms/frame (1.1 % of the main thread)');
    expect(formatSelf(0.042, 0.0004)).to.equal('Layout Cost itself: 0.04 ms/frame (0.0 % of the main thread)');
    // A quiet page measured no frame in the window: no per-frame figure to give, only the share.
    expect(formatSelf(0, 0.009)).to.equal('Layout Cost itself: 0.9 % of the main thread (no frame measured in the last second)');
    // One frame measured in the second (a paused page, the panel's feed just sent): 70.8 ms of ours over one frame is
    // no per-frame figure either. 68 ms a second over 70.8 ms a frame: about one frame.
    expect(formatSelf(70.8, 0.068)).to.equal('Layout Cost itself: 6.8 % of the main thread (one frame measured in the last second)');
    expect(formatSelf(1.5, 0.002)).to.equal('Layout Cost itself: 0.2 % of the main thread (one frame measured in the last second)');
    // Two frames a second and more (rounded): per frame (a heavy page's slow frames are still frames).
    expect(formatSelf(1.5, 0.0025)).to.equal('Layout Cost itself: 1.5 ms/frame (0.3 % of the main thread)');
    expect(formatSelf(2.0, 0.006)).to.equal('Layout Cost itself: 2.0 ms/frame (0.6 % of the main thread)');
    const base: Status = {
      renderers: 1, roots: 1, agent: true, minified: false, degraded: [], timerResolutionMs: 0.1, url: 'http://a.test/',
      frameId: 0, mode: 'components', pinned: null, components: 3, droppedEvents: 0, droppedMessages: 0, drawn: 2,
      hidden: 0, capped: false, hovered: null, self: { msPerFrame: 0.5, mainThreadShare: 0.02 },
    };
    const ctx = { connected: true, otherReactFrames: 0, shortcut: 'Ctrl+Shift+L' };
    expect(notices(base, ctx).find((n) => n.id === 'self')?.text).to.equal('Layout Cost itself: 0.5 ms/frame (2.0 % of the main thread)');
    expect(notices({ ...base, mode: 'off' }, ctx).some((n) => n.id === 'self')).to.equal(false);
    expect(notices({ ...base, self: null }, ctx).some((n) => n.id === 'self')).to.equal(false);
  });
});
