import { expect } from 'chai';
import { RecordKind } from '../../src/protocol';
import { MAX_INTERACTIONS, mergeVitals, NO_VITALS, renameVitals, vitalsValidator, type Interaction } from '../../src/protocol/vitals';
import { INVALID } from '../../src/protocol/validate';
import { FrameLog, MAX_MOUNTS, MAX_SHARES, MAX_SHARES_INPUT } from '../../src/inject/agent/vitals/frame-log';
import { InteractionBook, interactionType, type EventEntry } from '../../src/inject/agent/vitals/interactions';
import { causeOf, IMAGE_WINDOW_MS, imageLoadedAt, ShiftBook, type ShiftLookup } from '../../src/inject/agent/vitals/shifts';
import { LoafLog } from '../../src/inject/agent/vitals/loafs';

const lookup = { ownerOf: () => 0, nameOf: (id: number) => `C${id}` };

function ev(interactionId: number, name: string, startTime: number, duration: number, processingStart: number, processingEnd: number): EventEntry {
  return { name, entryType: 'event', interactionId, startTime, duration, processingStart, processingEnd, target: null };
}

/** A frame logged with `shares` ([id, style, layout, forced] …), renders and changed ids. */
function frame(log: FrameLog, ts: number, end: number, shares: number[][], renders: number[] = [], mounts: number[] = [], changed: number[] = []): void {
  log.on = true;
  log.inputRecent = true;
  for (const id of mounts) log.mounted(id);
  for (const id of renders) log.rendered(id);
  for (const [id, s, l, f] of shares) log.write(RecordKind.Cost, id, s, l, f);
  const style = shares.reduce((t, x) => t + x[1], 0), layout = shares.reduce((t, x) => t + x[2], 0), forced = shares.reduce((t, x) => t + x[3], 0);
  log.close(ts, end, style, layout, forced, changed.map((id) => ({ id })), (e) => renders.includes(e.id));
}

describe('interactions (issue 46)', () => {
  it('phases as web-vitals\' attribution defines them: the latency\'s longest entry, its paint group\'s processing end', () => {
    const book = new InteractionBook();
    const log = new FrameLog();
    // pointerdown 100 → paint 148; click's handlers run later in the same paint group and end at 130.
    book.add([ev(7, 'pointerdown', 100, 48, 104, 110), ev(7, 'click', 101, 40, 115, 130)], log, lookup);
    const [i] = book.list;
    expect(i).to.include({ id: 7, type: 'pointer', duration: 48, start: 100 });
    expect(i.inputDelay).to.equal(4);
    expect(i.processing).to.equal(26); // 104 → 130 (the group's end)
    expect(i.presentationDelay).to.equal(18); // 130 → 148
    expect(i.inputDelay + i.processing + i.presentationDelay).to.equal(i.duration);
    expect(interactionType('keydown')).to.equal('keyboard');
    expect(interactionType('pointerup')).to.equal('pointer');
  });

  it('splits the frames between the input and the paint per component, renders counted', () => {
    const book = new InteractionBook();
    const log = new FrameLog();
    frame(log, 80, 90, [[1, 1, 1, 0]]); // before the input: not counted
    frame(log, 120, 125, [[2, 0.5, 6, 20], [3, 0.2, 0.4, 0]], [2, 3, 3]);
    frame(log, 200, 210, [[2, 1, 1, 0]]); // after the paint: not counted
    book.add([ev(9, 'click', 100, 40, 102, 118)], log, lookup);
    const [i] = book.list;
    expect(i.layoutMs).to.be.closeTo(6.4, 1e-9);
    expect(i.forcedMs).to.equal(20);
    expect(i.components.map((c) => [c.name, c.renders])).to.deep.equal([['C2', 1], ['C3', 2]]);
  });

  it('settles without building: built only when asked, from the frames kept when it settled (the log forgets them)', () => {
    const book = new InteractionBook();
    const log = new FrameLog();
    frame(log, 120, 125, [[2, 0.5, 6, 20]], [2]);
    const touched = new Set<number>();
    book.note([ev(9, 'click', 100, 40, 102, 118)], touched);
    expect(book.settle(touched, log, null)).to.equal(1);
    expect(book.list).to.deep.equal([]);
    expect(book.stale).to.equal(true);
    expect(book.inp(1)).to.deep.equal({ value: 40, interactionId: 9 });
    log.clear();
    const [i] = book.build(lookup);
    expect(i).to.include({ id: 9, layoutMs: 6, forcedMs: 20 });
    expect(i.components.map((c) => c.name)).to.deep.equal(['C2']);
    expect(book.stale).to.equal(false);
    expect(book.build(lookup)).to.deep.equal([]);
    // A later entry settles it again: rebuilt, the same record, not a second one.
    book.note([ev(9, 'pointerup', 100, 56, 102, 118)], touched);
    expect(book.settle(touched, log, null)).to.equal(0);
    expect(book.build(lookup)[0]).to.equal(i);
    expect(book.list.length).to.equal(1);
    expect(i.duration).to.equal(56);
  });

  it('INP: the worst interaction, and past 50 interactions the one at floor(count / 50) of the ten longest', () => {
    const book = new InteractionBook();
    const log = new FrameLog();
    for (let k = 1; k <= 12; k++) book.add([ev(k, 'click', k * 1000, 16 + k * 8, k * 1000 + 1, k * 1000 + 5)], log, lookup);
    expect(book.inp(12)).to.deep.equal({ value: 16 + 12 * 8, interactionId: 12 });
    expect(book.inp(120)).to.deep.equal({ value: 16 + 10 * 8, interactionId: 10 });
    // A later, longer entry of the same interaction raises its latency.
    book.add([ev(3, 'pointerup', 3000, 400, 3001, 3005)], log, lookup);
    expect(book.inp(12)).to.deep.equal({ value: 400, interactionId: 3 });
  });

  it('keeps at most 50, always the INP candidates; the content agent\'s merge keeps the one INP names', () => {
    const book = new InteractionBook();
    const log = new FrameLog();
    book.add([ev(1, 'click', 0, 900, 1, 5)], log, lookup);
    for (let k = 2; k <= 80; k++) book.add([ev(k, 'click', k * 1000, 24, k * 1000 + 1, k * 1000 + 5)], log, lookup);
    expect(book.list.length).to.equal(MAX_INTERACTIONS);
    expect(book.list.some((i) => i.id === 1)).to.equal(true);
    let v = NO_VITALS;
    for (const i of book.list) v = mergeVitals(v, { interactions: [i], inp: { value: 900, interactionId: 1 }, shifts: [], cls: null });
    const more: Interaction = { ...book.list[book.list.length - 1], id: 999, start: 1e6 };
    v = mergeVitals(v, { interactions: [more], inp: { value: 900, interactionId: 1 }, shifts: [], cls: null });
    expect(v.interactions.length).to.equal(MAX_INTERACTIONS);
    expect(v.interactions.map((i) => i.id)).to.include.members([1, 999]);
    expect(vitalsValidator(v)).to.not.equal(INVALID);
  });
});

/** Nodes enough for the shift logic: a flat document order, containment by parent. */
class FakeNode {
  constructor(readonly order: number, readonly parent: FakeNode | null = null, public isConnected = true) {}
  contains(o: FakeNode): boolean {
    for (let p: FakeNode | null = o; p !== null; p = p.parent) if (p === this) return true;
    return false;
  }
  compareDocumentPosition(o: FakeNode): number {
    return o.order > this.order ? 4 : 2;
  }
}

describe('names of a production build (renameVitals)', () => {
  it('renames every component an interaction or a shift names, and the moved one its reason names; unknown ones kept', () => {
    const names = new Map([[2, 'Ticker'], [3, 'Heavy']]);
    const x = { id: 9, type: 'pointer', target: { id: 2, name: 'p' }, components: [{ id: 3, name: 'f', styleMs: 0, layoutMs: 1, forcedMs: 2, renders: 0 },
      { id: 7, name: 'gone', styleMs: 0, layoutMs: 0, forcedMs: 0, renders: 0 }] } as unknown as Interaction;
    const shift = { value: 0.03, time: 5, shifted: [{ id: 3, name: 'f' }, { id: 7, name: 'gone' }], cause: { id: 2, name: 'p', reason: 'its DOM changed (by Preact or by page code) and changed size above f' } };
    const v = { interactions: [x], inp: null, shifts: [shift], cls: 0.03 };
    const out = renameVitals(v as never, (id) => names.get(id) ?? null);
    expect(out.interactions[0].target).to.deep.equal({ id: 2, name: 'Ticker' });
    expect(out.interactions[0].components.map((c) => c.name)).to.deep.equal(['Heavy', 'gone']);
    expect(out.shifts[0].shifted.map((c) => c.name)).to.deep.equal(['Heavy', 'gone']);
    expect(out.shifts[0].cause).to.deep.equal({ id: 2, name: 'Ticker', reason: 'its DOM changed (by Preact or by page code) and changed size above Heavy' });
    // The input is left as it was.
    expect(x.target!.name).to.equal('p');
    expect(shift.cause.reason).to.match(/above f$/);
    expect(renameVitals(NO_VITALS, () => 'x')).to.equal(NO_VITALS);
  });
});

describe('the frame log (issue 46)', () => {
  it('keeps the costliest shares of a frame: MAX_SHARES, or MAX_SHARES_INPUT while an input is recent', () => {
    const log = new FrameLog();
    log.on = true;
    // 5 000 components in a shuffled order (a multiplicative step through the ids), each costing its id's µs.
    const ids = Array.from({ length: 5000 }, (_, i) => ((i * 2999) % 5000) + 1);
    expect(new Set(ids).size).to.equal(5000);
    const kept = (input: boolean): number[] => {
      log.inputRecent = input;
      if (input) log.input(0);
      for (const id of ids) log.write(RecordKind.Cost, id, id / 2000, id / 2000, 0);
      log.close(1, 2, 0, 0, 0, []);
      const f = log.between(0, 10).at(-1)!;
      const out: number[] = [];
      for (let i = 0; i < f.shares.length; i += 4) {
        expect(f.shares[i + 1]).to.equal(f.shares[i] / 2000, 'a share keeps its own figures');
        out.push(f.shares[i]);
      }
      return out.sort((a, b) => b - a);
    };
    const quiet = kept(false);
    expect(quiet).to.deep.equal(Array.from({ length: MAX_SHARES }, (_, i) => 5000 - i));
    const input = kept(true);
    expect(input).to.deep.equal(Array.from({ length: MAX_SHARES_INPUT }, (_, i) => 5000 - i));
  });
});

describe('layout shifts (issue 46)', () => {
  const root = new FakeNode(0);
  const banner = new FakeNode(10, root);
  const feed = new FakeNode(20, root);
  const gallery = new FakeNode(15, root);
  const hosts = new Map<number, FakeNode>([[1, root], [2, banner], [3, feed], [4, gallery]]);
  const look: ShiftLookup = {
    ownerOf: (n) => [...hosts].find(([, h]) => h === (n as unknown as FakeNode))?.[0] ?? 0,
    nameOf: (id) => ['', 'App', 'Banner', 'Feed', 'Gallery'][id] ?? `C${id}`,
    hostOf: (id) => (hosts.get(id) as unknown as Element) ?? null,
    imageLoadedAt: () => null,
  };

  it('CLS in session windows: a gap over 1 s or a window over 5 s starts a new one; input-led shifts are left out', () => {
    const b = new ShiftBook();
    const log = new FrameLog();
    const s = (value: number, startTime: number, hadRecentInput = false) => ({ value, startTime, hadRecentInput, sources: [] });
    b.add([s(0.1, 0), s(0.1, 900), s(0.5, 1000, true)], log, look);
    expect(b.cls).to.be.closeTo(0.2, 1e-12);
    b.add([s(0.05, 2500), s(0.05, 3000)], log, look); // new window (1.6 s gap): 0.1 < 0.2
    expect(b.cls).to.be.closeTo(0.2, 1e-12);
    // 2 500 … 7 000 is one window (under 5 s); 7 500 starts the next.
    for (let t = 3500; t <= 9000; t += 500) b.add([s(0.03, t)], log, look);
    expect(b.cls).to.be.closeTo(0.1 + 0.03 * 8, 1e-9);
    expect(b.list.length).to.equal(4 + 12);
  });

  it('the cause: a mount above the moved nodes first, then a change above them, then around; a page-code change says so', () => {
    const log = new FrameLog();
    frame(log, 0, 100, [[1, 0.1, 2, 0]], [1], [2], [1]);
    const moved = [feed as unknown as Node];
    expect(causeOf(log.at(101, 20), moved, new Set([3]), look, 101)).to.deep.equal(
      { id: 2, name: 'Banner', reason: 'mounted above Feed without space reserved for it' });
    frame(log, 200, 300, [[1, 0, 1, 0], [2, 0, 0.5, 0]], [1, 2], [], [1, 2]);
    expect(causeOf(log.at(300, 20), moved, new Set([3]), look, 300)?.name, 'above before around').to.equal('Banner');
    frame(log, 400, 500, [[2, 0, 0.5, 0]], [], [], [2]);
    expect(causeOf(log.at(500, 20), moved, new Set([3]), look, 500)?.reason).to.match(/outside React \(page code\)/);
    // On Vue (or Preact) the browser's records are the change, the framework's and page code's alike: said so, by name.
    const onVue = { ...look, frameworkOf: () => 'vue' };
    expect(causeOf(log.at(500, 20), moved, new Set([3]), onVue, 500)?.reason).to.equal('its DOM changed (by Vue or by page code) and changed size above Feed');
    expect(causeOf(log.at(300, 20), moved, new Set([3]), { ...look, frameworkOf: () => 'preact' }, 300)?.reason)
      .to.equal('its DOM changed (by Preact or by page code) and changed size above Feed');
    expect(causeOf(log.at(700, 20), moved, new Set([3]), look, 700), 'no frame, no image: unknown').to.equal(null);
    // Nothing above changed, but a moved component's own DOM did (a padding, a taller line): it moved its own content
    // and what follows it; the first such in the document when several did.
    frame(log, 800, 900, [[3, 0, 0.5, 0], [4, 0, 0.2, 0]], [], [], [4, 3]);
    const both = [feed as unknown as Node, gallery as unknown as Node];
    expect(causeOf(log.at(900, 20), both, new Set([3, 4]), look, 900)).to.deep.equal({ id: 4, name: 'Gallery',
      reason: 'its DOM was changed outside React (page code) and changed size, moving its own content and what follows it' });
    frame(log, 1000, 1100, [[4, 0, 0.2, 0]], [4], [], [4]);
    expect(causeOf(log.at(1100, 20), both, new Set([3, 4]), look, 1100)?.reason).to.equal('re-rendered and changed size, moving its own content and what follows it');
    // Moved and laid out again, its DOM unchanged: no cause from it.
    frame(log, 1200, 1300, [[4, 0, 0.2, 0]], [], [], []);
    expect(causeOf(log.at(1300, 20), both, new Set([3, 4]), look, 1300)).to.equal(null);
  });

  it('a font swap: the text set in the font that loaded, above the moved nodes, else the moved text itself', () => {
    const log = new FrameLog();
    log.on = true;
    log.fontSwapped(['LateFont']);
    log.close(0, 100, 0, 1, 0, []);
    const moved = [feed as unknown as Node];
    const asked: string[][] = [];
    const withFont = { ...look, fontUserAbove: (f: readonly string[]) => (asked.push([...f]), banner as unknown as Element) };
    expect(causeOf(log.at(100, 20), moved, new Set([3]), withFont, 100)).to.deep.equal(
      { id: 2, name: 'Banner', reason: 'a web font loaded (LateFont) and its text, laid out again in it, changed size above Feed' });
    expect(asked).to.deep.equal([['LateFont']]);
    expect(causeOf(log.at(100, 20), moved, new Set([3]), look, 100)).to.deep.include({ id: 3, reason: 'a web font loaded and its text was laid out again in the new font' });
  });

  it('a font swap whose event came after both frames (a CPU hog): still the font, when the shift is built', () => {
    // A shift at 101 ms right after a frame that ended at 100, its frames looked for before the font's event came.
    const settled = (): { log: FrameLog; book: ShiftBook } => {
      const log = new FrameLog();
      log.on = true;
      log.close(0, 100, 0, 1, 0, []);
      const book = new ShiftBook();
      book.note([{ value: 0.01, startTime: 101, hadRecentInput: false, sources: [{ node: feed as unknown as Node }] }]);
      book.settle(log);
      return { log, book };
    };
    const withFont = { ...look, fontUserAbove: () => banner as unknown as Element };
    // The next frame measured 900 ms on, the font's event just before it.
    const { log, book } = settled();
    log.fontSwapped(['LateFont'], 850);
    log.close(880, 1000, 0, 1, 0, []);
    const [built] = book.build(withFont);
    expect(built.cause).to.deep.equal(
      { id: 2, name: 'Banner', reason: 'a web font loaded (LateFont) and its text, laid out again in it, changed size above Feed' });
    // Two seconds after: not this shift's.
    const late = settled();
    late.log.fontSwapped(['LateFont'], 2101);
    expect(late.book.build(withFont)[0].cause).to.equal(null);
  });

  it('renders are logged only while an input is recent; mounts always', () => {
    const log = new FrameLog();
    log.on = true;
    log.rendered(1);
    log.mounted(2);
    log.input(5);
    log.rendered(3);
    log.close(0, 10, 0, 0, 0, []);
    const f = log.at(10, 1)!;
    expect(f.renders).to.deep.equal([3]);
    expect(f.mounts).to.deep.equal([2]);
    // A frame closing more than a second after the input ends the window: the next frame's renders are not logged.
    log.rendered(4);
    log.close(1000, 1006, 0, 0, 0, []);
    log.rendered(5);
    log.close(1010, 1020, 0, 0, 0, []);
    expect(log.at(1006, 1)!.renders).to.deep.equal([4]);
    expect(log.at(1020, 1)!.renders).to.deep.equal([]);
    // A frame that mounted a thousand rows keeps the first MAX_MOUNTS (the outermost: a subtree mounts parent first).
    for (let id = 100; id < 1100; id++) log.mounted(id);
    log.close(1030, 1040, 0, 0, 0, []);
    const m = log.at(1040, 1)!.mounts;
    expect(m.length).to.equal(MAX_MOUNTS);
    expect(m[0]).to.equal(100);
  });

  it('a shift noted before its frame is logged finds its cause once the frame closes (a layout forced before the frame-end one)', () => {
    const b = new ShiftBook();
    const log = new FrameLog();
    b.note([{ value: 0.05, startTime: 1000, hadRecentInput: false, sources: [{ node: feed as unknown as Node }] }]);
    // The mount came before the shift; the frame that holds it closes 30 ms after the shift's layout.
    frame(log, 990, 1030, [], [], [2], []);
    const [r] = b.resolve(log, look);
    expect(r.cause?.name).to.equal('Banner');
    expect(r.shifted.map((c) => c.name)).to.deep.equal(['Feed']);
    expect(b.resolve(log, look)).to.deep.equal([]);
  });

  it('a shift stamped long after its frame\'s measurement (a callback behind ours, a preempted thread) is that frame\'s until our loop runs again', () => {
    const late = (startTime: number, tick: number | null): string | undefined => {
      const b = new ShiftBook();
      const log = new FrameLog();
      frame(log, 990, 1000, [], [], [2], []);
      if (tick !== null) log.tick(tick);
      b.note([{ value: 0.05, startTime, hadRecentInput: false, sources: [{ node: feed as unknown as Node }] }]);
      return b.resolve(log, look)[0].cause?.name;
    };
    // Chrome stamps the entry at the frame's pre-paint: 60 ms after our measurement, nothing of ours ran between.
    expect(late(1060, null)).to.equal('Banner');
    expect(late(1060, 1070), 'our loop ran after it').to.equal('Banner');
    // Our loop ran in a later frame first: the shift is that frame's, which held nothing we logged.
    expect(late(1060, 1030)).to.equal(undefined);
    // Nothing of ours for 300 ms: a frame we never saw.
    expect(late(1300, null)).to.equal(undefined);
  });

  it('a frame measured well before the shift against the one after it: the stronger cause wins (its own frame was not measured in time)', () => {
    /** The cause of a shift at `startTime`, after a frame by `before` ending at 1000 and Gallery's commit ending at 1080. */
    const causeAt = (startTime: number, before: (log: FrameLog) => void): string | undefined => {
      const b = new ShiftBook();
      const log = new FrameLog();
      before(log);
      frame(log, 1070, 1080, [[4, 0, 1, 0]], [4], [], [4]);
      b.note([{ value: 0.05, startTime, hadRecentInput: false, sources: [{ node: feed as unknown as Node }] }]);
      return b.resolve(log, look)[0].cause?.name;
    };
    const laidOut = (log: FrameLog): void => frame(log, 900, 1000, [[2, 0, 3, 0]]);
    const mounted = (log: FrameLog): void => frame(log, 900, 1000, [], [], [2], []);
    // 60 ms before: Banner only laid out again (layout alone); after: Gallery re-rendered (a commit) — Gallery.
    expect(causeAt(1060, laidOut)).to.equal('Gallery');
    // The same 60 ms before, Banner mounted: the mount wins (a late stamp of its own frame).
    expect(causeAt(1060, mounted)).to.equal('Banner');
    // Measured 5 ms before: that frame's cause, whatever comes after.
    expect(causeAt(1005, laidOut)).to.equal('Banner');
  });
});

describe('an image as a shift\'s cause (imageLoadedAt)', () => {
  it('the image above the moved nodes whose bytes came last within IMAGE_WINDOW_MS before the shift: 700 ms found', () => {
    const first = {} as Node;
    const img = (src: string) => ({ complete: true, currentSrc: src, contains: () => false, compareDocumentPosition: () => 4 });
    const a = img('a.svg'), b = img('b.svg');
    const doc = { images: [a, b] } as unknown as Document;
    const ends: Record<string, number> = { 'a.svg': 300, 'b.svg': 100 };
    const perf = { getEntriesByName: (n: string) => [{ responseEnd: ends[n] }] } as unknown as Performance;
    // Decoded, loaded and laid out 700 ms after its bytes (beside a CPU hog): still its shift.
    expect(imageLoadedAt(doc, perf, 1000, first)).to.equal(a);
    expect(imageLoadedAt(doc, perf, 300 + IMAGE_WINDOW_MS + 1, first)).to.equal(null);
    // Bytes after the shift cannot have caused it; the one before within the window can.
    expect(imageLoadedAt(doc, perf, 200, first)).to.equal(b);
  });
});

describe('Long Animation Frames: the scripts of an interaction', () => {
  const script = (invoker: string, duration: number, url = 'http://h/app.js', forced = 0) => ({
    invoker, sourceURL: url, sourceFunctionName: 'onClick', sourceCharPosition: 120, duration, forcedStyleAndLayoutDuration: forced,
  });

  it('names the scripts of the long frames overlapping it, longest first, at most five, none of ours', () => {
    const l = new LoafLog();
    l.note([
      { startTime: 0, duration: 60, scripts: [script('early', 40)] },
      { startTime: 100, duration: 80, scripts: [script('BUTTON#filter.onclick', 30, 'http://h/app.js', 12), script('ours', 50, 'chrome-extension://x/agent.js')] },
      { startTime: 190, duration: 70, scripts: [1, 2, 3, 4, 5].map((k) => script(`raf${k}`, k)) },
    ]);
    const s = l.scriptsIn(120, 200);
    expect(s.map((x) => x.invoker)).to.deep.equal(['BUTTON#filter.onclick', 'raf5', 'raf4', 'raf3', 'raf2']);
    expect(s[0]).to.deep.equal({ invoker: 'BUTTON#filter.onclick', fn: 'onClick', source: 'http://h/app.js:120', durationMs: 30, forcedMs: 12 });
    expect(l.scriptsIn(300, 400)).to.deep.equal([]);
  });

  it('takes hostile entries as data: text capped, numbers bounded, no throw', () => {
    const l = new LoafLog();
    l.note([{ startTime: 0, duration: 60, scripts: [{ invoker: 'x'.repeat(5000), sourceURL: {} as unknown as string, duration: -5, forcedStyleAndLayoutDuration: NaN }] }]);
    const [s] = l.scriptsIn(0, 60);
    expect(s.invoker.length).to.be.at.most(300);
    expect(s).to.deep.include({ fn: '', source: ':-1', durationMs: 0, forcedMs: 0 });
    expect(vitalsValidator({ ...NO_VITALS, interactions: [] })).to.not.equal(INVALID);
  });
});
