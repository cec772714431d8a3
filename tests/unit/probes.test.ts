/**
 * The probes' schedule (pipeline/probes.ts, issue 43): which places are measured together and when. The engine's part
 * (a Web Animation dirtying layout, the forced layout timed) is the e2e suite's and bench/attribution.ts's; here the
 * window is a few plain objects whose forced layout advances a clock by what each place costs.
 */
import { expect } from 'chai';
import { PROBE_BOX, PROBE_LEAF, PROBE_TEXT, Probes, SEEN_FRESH_MS } from '../../src/inject/agent/pipeline/probes';
import { PASS_MS } from '../../src/protocol/layout-pass';

interface Place {
  isConnected: boolean;
  parentElement: null;
  name: string;
  ms: number;
}

/**
 * A window whose forced layout costs what changed since the last one: each place an animation started or stopped on,
 * its `ms` (on `clock.now`).
 */
function world() {
  /**
   * `preempt`: ms the next forced layout is held off the core for (a CPU hog beside the browser); `hold`, when set, ms
   * each forced layout is held for, told how many places it lays out.
   */
  const clock = { now: 0, preempt: 0, hold: null as ((places: number) => number) | null };
  const dirty = new Set<Place>();
  const measured: string[] = [];
  class SVGElement {}
  class SVGSVGElement {}
  const win = {
    Element: {
      prototype: {
        animate(this: Place) {
          dirty.add(this);
          measured.push(this.name);
          return { cancel: () => dirty.add(this) };
        },
      },
    },
    SVGElement, SVGSVGElement,
    CSSKeywordValue: undefined,
    getComputedStyle: () => ({ display: 'block', boxSizing: 'border-box' }),
    document: {
      getAnimations: () => [],
      documentElement: {
        getBoundingClientRect: () => {
          for (const p of dirty) clock.now += p.ms;
          if (clock.hold !== null) clock.now += clock.hold(dirty.size);
          dirty.clear();
          clock.now += clock.preempt;
          clock.preempt = 0;
        },
      },
    },
  };
  const probes = new Probes({ win: win as never, now: () => clock.now, pause() {}, resume() {}, debug() {} }, () => true);
  const place = (name: string, ms: number): Place => ({ isConnected: true, parentElement: null, name, ms });
  return { clock, probes, measured, place };
}

describe('probes: the schedule', () => {
  it('reads each place of a batch at most once a frame: a cheap place left alone is not read again at once', () => {
    const { probes, measured, place } = world();
    // A is done after two readings (10 ms each); B, cheap, wants six. Read back to back within one frame, a place's
    // caches are warm (a table cell read 1.6 then 0.65 ms): B's readings must come a frame apart, as A's did.
    const a = place('A', 10), b = place('B', 0.5);
    probes.start();
    for (const p of [a, b]) probes.estimate(PROBE_TEXT, p as never, [p as never], true);
    probes.settle();
    const frames: string[][] = [];
    for (let i = 0; i < 10; i++) {
      const before = measured.length;
      probes.run();
      frames.push(measured.slice(before));
    }
    for (const f of frames) expect(new Set(f).size, f.join(',')).to.equal(f.length);
    expect(measured.filter((n) => n === 'A')).to.have.length(2);
    expect(measured.filter((n) => n === 'B')).to.have.length(6);
  });

  it('measures places queued together in one batch, once the budget allows all of them (not one now, one later)', () => {
    const { clock, probes, measured, place } = world();
    const a = place('A', 10), b = place('B', 10);
    probes.start();
    const ask = () => {
      const got = [a, b].map((p) => probes.estimate(PROBE_BOX, p as never, [p as never], true));
      probes.settle();
      return got;
    };
    // Nothing known: both queued, then measured in turns (the first batch within the allowance), a probe a frame.
    expect(ask()).to.deep.equal([null, null]);
    expect(probes.pending).to.equal(2);
    for (let i = 0; i < 8; i++) probes.run();
    expect(measured).to.deep.equal(['A', 'B', 'A', 'B']);
    const first = ask();
    expect(first.map((e) => e?.one)).to.deep.equal([10, 10]);
    // Stale 20 s on (each probe cost 40 ms: 0.5 s of wait per ms), both queued again.
    clock.now = 20_100;
    measured.length = 0;
    ask();
    expect(probes.pending).to.equal(2);
    // At 35 s the budget (30 ms, then 0.3 % of the time) has room for one place's refresh, not both: none is made.
    clock.now = 35_000;
    for (let i = 0; i < 4; i++) probes.run();
    expect(measured).to.deep.equal([]);
    expect(probes.pending).to.equal(2);
    // At 45 s it has room for both: one batch, in turns.
    clock.now = 45_000;
    for (let i = 0; i < 8; i++) probes.run();
    expect(measured).to.deep.equal(['A', 'B', 'A', 'B']);
    expect(probes.pending).to.equal(0);
    const again = ask();
    expect(again[0]?.at).to.equal(again[1]?.at);
    expect(again[0]?.count).to.equal(2);
  });

  it('measures every place again when the frames\' layout drifts from what the estimates explain (another regime)', () => {
    const { clock, probes, measured, place } = world();
    const a = place('A', 10), b = place('B', 10);
    probes.start();
    const ask = (want = true) => {
      const got = [a, b].map((p) => probes.estimate(PROBE_BOX, p as never, [p as never], want));
      probes.settle();
      return got;
    };
    const batch = () => {
      for (let i = 0; i < 12; i++) probes.run();
    };
    ask();
    batch();
    expect(ask(false).map((e) => e?.one)).to.deep.equal([10, 10]);
    // The frames' layout as the estimates explain it: the reference.
    clock.now = 500;
    for (let i = 0; i < 5; i++) probes.observe(20, 20);
    // The page's layout goes to another regime: A costs a third of what it did. One frame off, then a preempted one
    // back on, is no drift; six in a row are.
    a.ms = 3;
    probes.observe(13, 20);
    probes.observe(20, 20);
    for (let i = 0; i < 5; i++) probes.observe(13, 20);
    measured.length = 0;
    ask();
    expect(probes.pending).to.equal(0);
    probes.observe(13, 20);
    ask();
    // Both queued though fresh, and measured at once, though the batch before spent the budget for the next 40 s.
    expect(probes.pending).to.equal(2);
    batch();
    expect(measured.slice(0, 2)).to.deep.equal(['A', 'B']);
    expect(probes.drifts).to.equal(1);
    // Put in place of the old estimates, not averaged with them.
    const [ea, eb] = ask(false);
    expect(ea?.one).to.be.closeTo(3, 1e-9);
    expect(eb?.one).to.be.closeTo(10, 1e-9);
    // A drift again a second later: at most one every 3 s (and within a budget of its own), so none yet.
    clock.now = 1_500;
    for (let i = 0; i < 5; i++) probes.observe(13, 13);
    a.ms = 10;
    for (let i = 0; i < 6; i++) probes.observe(20, 13);
    ask();
    expect(probes.pending).to.equal(0);
    clock.now = 20_000;
    for (let i = 0; i < 6; i++) probes.observe(20, 13);
    ask();
    expect(probes.pending).to.equal(2);
  });

  it('starts no other batch between a drift and its own: the drift\'s batch measures the frame\'s places', () => {
    const { clock, probes, measured, place } = world();
    const a = place('A', 0.5), b = place('B', 0.5), c = place('C', 0.5);
    probes.start();
    const ask = (places: Place[]) => {
      for (const p of places) probes.estimate(PROBE_BOX, p as never, [p as never], true);
      probes.settle();
    };
    ask([a, b]);
    for (let i = 0; i < 12; i++) probes.run();
    clock.now = 100;
    for (let i = 0; i < 5; i++) probes.observe(2, 2);
    // A frame that needs C (new) queues it; then the frames drift.
    ask([c]);
    expect(probes.pending).to.equal(1);
    for (let i = 0; i < 6; i++) probes.observe(1, 2);
    measured.length = 0;
    for (let i = 0; i < 12; i++) probes.run();
    expect(measured, 'no batch before the drift\'s').to.deep.equal([]);
    ask([a, b]);
    for (let i = 0; i < 12; i++) probes.run();
    expect(measured.slice(0, 2)).to.deep.equal(['A', 'B']);
    expect(measured).to.not.include('C');
    expect(probes.drifts).to.equal(1);
  });

  it('queues every place of a frame when one is due: a cheap place refreshed often brings the costly one with it', () => {
    const { clock, probes, measured, place } = world();
    const cheap = place('cheap', 0.5), costly = place('costly', 10);
    probes.start();
    const ask = (places: Place[], want = true) => {
      const got = places.map((p) => probes.estimate(PROBE_BOX, p as never, [p as never], want));
      probes.settle();
      return got;
    };
    // Each first seen in a frame of its own: the cheap one kept 3 s (0.5 s for each ms its probes took), the costly
    // one 40 s.
    ask([cheap]);
    for (let i = 0; i < 12; i++) probes.run();
    clock.now = 200;
    ask([costly]);
    for (let i = 0; i < 12; i++) probes.run();
    expect(ask([cheap, costly], false).map((e) => e?.count)).to.deep.equal([1, 1]);
    // Four seconds on, only the cheap one is stale; a frame asks for both: both are queued, and measured in one batch
    // once the budget has room for the costly one too.
    clock.now = 4_000;
    measured.length = 0;
    ask([cheap, costly]);
    expect(probes.pending).to.equal(2);
    clock.now = 60_000;
    for (let i = 0; i < 12; i++) probes.run();
    expect(measured.slice(0, 2)).to.deep.equal(['cheap', 'costly']);
    const [c, k] = ask([cheap, costly], false);
    expect(c?.count).to.equal(2);
    expect(k?.count).to.equal(2);
    expect(c?.at).to.equal(k?.at);
  });

  it('refines a first estimate made after its frame-mates\' batch began, though their refresh does not fit the budget', () => {
    const { probes, measured, place } = world();
    const a = place('A', 5), b = place('B', 5);
    probes.start();
    const frame = (places: Place[]) => {
      probes.firstMay(50);
      const got = places.map((p) => probes.estimate(PROBE_BOX, p as never, [p as never], true));
      probes.firstDone();
      probes.settle();
      return got;
    };
    // A is new in the first frame: measured there, then queued for the batch that refines it, which begins.
    frame([a]);
    probes.run();
    // B is new in the next frame (its change first seen there): measured there, and queued with A again.
    frame([a, b]);
    expect(probes.pending).to.equal(2);
    measured.length = 0;
    for (let i = 0; i < 12; i++) probes.run();
    // A's refinement (20 ms) and its refresh's expected 20 ms are past the 30 ms budget: B's rough first reading would
    // stand until the budget grew (0.3 % of the wall clock: seconds). The refinement has an allowance of its own: both
    // measured again, in one moment.
    expect(probes.pending).to.equal(0);
    expect(measured.slice(-4)).to.deep.equal(['A', 'B', 'A', 'B']);
    const [ea, eb] = frame([a, b]);
    expect(eb?.count).to.equal(1);
    expect(ea?.count).to.equal(2);
    expect(ea?.at).to.equal(eb?.at);
  });

  it('measures a new place in the frame that needs it again when its reading was preempted, far above its sample\'s', () => {
    const { clock, probes, place } = world();
    const key = place('row', 0);
    const leaves = [place('a', 0.1), place('b', 0.1), place('c', 0.1)];
    probes.start();
    // The frame's layout took 8 ms; the first probe's first layout is held off the core for 20 ms.
    probes.firstMay(8);
    clock.preempt = 20;
    const e = probes.estimate(PROBE_LEAF, key as never, leaves as never, true);
    probes.firstDone();
    // Read 10.1 ms first, 0.3 for the three together: measured again (what it likely costs fits the frame), 0.1 kept.
    expect(e?.one).to.be.closeTo(0.1, 1e-9);
    expect(e?.per).to.be.closeTo(0.1, 1e-9);
    expect(probes.made).to.equal(3);
  });

  it('adds nothing per site for a sample that reads what one site does but for preemption; a grid\'s cells add theirs', () => {
    const { clock, probes, place } = world();
    // A line box of 400 spans: one span's change relayouts it (1 ms), 128 together barely more.
    const box = place('box', 0);
    const spans = [place('s0', 1), ...Array.from({ length: 127 }, () => place('s', 0.0001))];
    // A grid: each cell's change is a relayout of its own.
    const grid = place('grid', 0);
    const cells = Array.from({ length: 100 }, () => place('c', 0.1));
    probes.start();
    // Beside a CPU hog: the sample's first three readings held 0.4 ms each (both their layouts), the one site's not.
    let held = 0;
    clock.hold = (places) => (places === 128 && held++ < 6 ? 0.4 : 0);
    probes.estimate(PROBE_LEAF, box as never, spans as never, true);
    probes.estimate(PROBE_LEAF, grid as never, cells as never, true);
    probes.settle();
    for (let i = 0; i < 40; i++) probes.run();
    const e = probes.estimate(PROBE_LEAF, box as never, spans as never, false);
    const g = probes.estimate(PROBE_LEAF, grid as never, cells as never, false);
    expect(held).to.be.at.least(6);
    // A lower median of the sample's readings kept 0.4 ms of preemption: 0.0032 ms a span, 1.3 ms over 400.
    expect(e?.one).to.be.closeTo(1, 1e-9);
    expect(e?.per).to.be.at.most(0.0001 + 1e-9);
    expect(g?.one).to.be.closeTo(0.1, 1e-9);
    expect(g?.per).to.be.closeTo(0.1, 1e-3);
  });

  it('queues nothing from a frame whose places are all fresh, or that asks without wanting', () => {
    const { probes, place } = world();
    const a = place('A', 1);
    probes.start();
    probes.estimate(PROBE_BOX, a as never, [a as never], false);
    probes.settle();
    expect(probes.pending).to.equal(0);
    probes.estimate(PROBE_BOX, a as never, [a as never], true);
    probes.settle();
    expect(probes.pending).to.equal(1);
  });

  it('weighs a place by its own recent frame, probing and queueing nothing for it; probes it once that is stale', () => {
    const { clock, probes, measured, place } = world();
    const grid = place('grid', 30), text = place('text', 1);
    probes.start();
    // A frame of the grid's 490 cells alone took 60 ms of layout.
    clock.now = 1_000;
    probes.seen(PROBE_TEXT, grid as never, 490, 60);
    const ask = (k: number) => {
      const got = [probes.estimate(PROBE_TEXT, grid as never, [grid as never], true, k), probes.estimate(PROBE_BOX, text as never, [text as never], true, 1)];
      probes.settle();
      return got;
    };
    const [g] = ask(490);
    // Its frame less a pass (weigh.ts adds one per parent), marked as no probe's.
    expect(g?.one).to.be.closeTo(60 - PASS_MS, 1e-9);
    expect(g?.per).to.equal(0);
    expect(g?.count).to.equal(-1);
    // Only the text is queued and measured.
    expect(probes.pending).to.equal(1);
    for (let i = 0; i < 8; i++) probes.run();
    expect(measured.every((m) => m === 'text')).to.equal(true);
    // Half again as many sites: still its frame; three times as many, with no probed shape to scale by: probed.
    expect(ask(700)[0]?.one).to.be.closeTo(60 - PASS_MS, 1e-9);
    expect(ask(1_500)[0]).to.equal(null);
    // Queued then, with its frame-mate (measured together).
    expect(probes.pending).to.equal(2);
    // A stale frame stands for nothing.
    clock.now = 1_000 + SEEN_FRESH_MS + 1;
    probes.seen(PROBE_TEXT, text as never, 1, 0.5);
    expect(ask(490)[0]).to.equal(null);
  });

  it('scales a place\'s own frame to another count of sites by its probed shape, and drops it from a queued batch', () => {
    const { clock, probes, measured, place } = world();
    const grid = place('grid', 10), text = place('text', 1);
    probes.start();
    // Probed first (no frame of its own yet): one site reads 10 ms, and the sample of two 10 ms too (nothing per site).
    const ask = (k: number) => {
      const got = probes.estimate(PROBE_TEXT, grid as never, [grid as never], true, k);
      probes.estimate(PROBE_BOX, text as never, [text as never], true, 1);
      probes.settle();
      return got;
    };
    expect(ask(490)).to.equal(null);
    for (let i = 0; i < 8; i++) probes.run();
    expect(ask(0)?.one).to.equal(10);
    // Then its frames: 40 ms for 490 sites. With nothing per site, 980 sites cost what 490 did.
    clock.now = 30_000;
    probes.seen(PROBE_TEXT, grid as never, 490, 40);
    expect(ask(980)?.one).to.be.closeTo(40 - PASS_MS, 1e-9);
    // Both were queued as stale before its frame came (the ask without a count): the batch measures the text alone.
    measured.length = 0;
    for (let i = 0; i < 8; i++) probes.run();
    expect(measured.length).to.be.greaterThan(0);
    expect(measured.every((m) => m === 'text')).to.equal(true);
  });

  it('spends at most what one bucket holds on all probes together, then a share of the time', () => {
    const { clock, probes, measured, place } = world();
    // Places of 1 ms each, two more every second (a chart's bars found one after another), all asked for in every
    // frame: first estimates, their refinements and the refreshes each had a budget of their own.
    const places: ReturnType<typeof place>[] = [];
    probes.start();
    let spent = 0;
    while (clock.now < 120_000) {
      if (places.length < 2 * Math.floor(clock.now / 1_000) + 2) places.push(place(`P${places.length}`, 1), place(`Q${places.length}`, 1));
      const before = clock.now;
      probes.firstMay(16);
      for (const p of places) probes.estimate(PROBE_BOX, p as never, [p as never], true);
      probes.firstDone();
      probes.settle();
      probes.run();
      spent += clock.now - before;
      clock.now += 16;
    }
    // The bucket (150 ms) and 0.2 % of two minutes (240 ms), a batch's last probes past it at most.
    expect(measured.length).to.be.greaterThan(100);
    expect(spent).to.be.within(150 + 0.002 * 120_000 - 60, 150 + 0.002 * 120_000 + 20);
  });

  it('lets every place\'s own figure go when a foreign writer is found: the frames before held its writes', () => {
    const { clock, probes, place } = world();
    const text = place('text', 1);
    probes.start();
    const ask = () => probes.estimate(PROBE_TEXT, text as never, [text as never], false, 1)?.one ?? null;
    clock.now = 100;
    probes.seen(PROBE_TEXT, text as never, 1, 2);
    expect(ask()).to.be.closeTo(2 - PASS_MS, 1e-9);
    probes.forgetSeen();
    expect(ask()).to.equal(null);
    probes.seen(PROBE_TEXT, text as never, 1, 0.5);
    expect(ask()).to.be.closeTo(0.5 - PASS_MS, 1e-9);
  });
});
