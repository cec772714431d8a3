/**
 * The forced-reflow timer (src/inject/agent/timing/forced-reflow.ts) on a fake
 * window whose layout reads cost what each test says, on a fake clock.
 */
import { expect } from 'chai';
import { ForcedReflowTimer } from '../../src/inject/agent/timing/forced-reflow';

function world() {
  const clock = { t: 1000 };
  class FNode {}
  class FElement extends FNode {
    cost = 0.001;
    owner = 0;
    getBoundingClientRect(): object {
      clock.t += this.cost;
      return {};
    }
  }
  Object.defineProperty(FElement.prototype, 'clientWidth', {
    get(this: FElement) { clock.t += this.cost; return 10; }, enumerable: true, configurable: true,
  });
  class FHTMLElement extends FElement {
    declare readonly offsetHeight: number;
    onfocus: (() => void) | null = null;
    focus(): void {
      this.onfocus?.();
    }
  }
  Object.defineProperty(FHTMLElement.prototype, 'offsetHeight', {
    get(this: FElement) { clock.t += this.cost; return 20; }, enumerable: true, configurable: true,
  });
  const win = {
    Node: FNode, Element: FElement, HTMLElement: FHTMLElement, crossOriginIsolated: false,
    performance: { now: () => clock.t },
  } as unknown as Window & typeof globalThis;
  const posts: { type: string; payload: unknown }[] = [];
  const internal = { degraded: [] as string[] };
  let forcedCalls = 0;
  const timer = new ForcedReflowTimer({
    win,
    degrade: (reason) => internal.degraded.push(reason),
    announce: () => posts.push({ type: 'status', payload: {} }),
    post: (type, payload) => posts.push({ type, payload }),
    debug: () => undefined,
    ownerOf: (n) => (n as unknown as FElement).owner, onForced: () => forcedCalls++,
    sourceOf: (fn) => Function.prototype.toString.call(fn),
  });
  const el = (owner: number, cost: number): FHTMLElement => Object.assign(new FHTMLElement(), { owner, cost });
  return { clock, win, internal, posts, timer, el, forced: () => forcedCalls, FElement, FHTMLElement };
}

describe('timing: forced-reflow timer', () => {
  it('counts a read that flushed, for the owner of the node read; clean reads cost nothing', () => {
    const w = world();
    w.timer.install();
    const slow = w.el(7, 1.2);
    const clean = w.el(8, 0.002);
    expect(slow.offsetHeight).to.equal(20);
    expect(clean.offsetHeight).to.equal(20);
    expect((slow as unknown as { clientWidth: number }).clientWidth).to.equal(10);
    const by = new Map<number, number>();
    const total = w.timer.take(by);
    expect(total).to.be.closeTo(2.4, 1e-9);
    expect([...by]).to.deep.equal([[7, total]]);
    expect(w.forced()).to.equal(1); // one frame asked for, however many reflows
    expect(w.timer.take(new Map())).to.equal(0);
  });

  it('does not count the agent\'s own reads (between pause and resume)', () => {
    const w = world();
    w.timer.install();
    w.timer.pause();
    void w.el(3, 5).offsetHeight;
    w.timer.resume();
    expect(w.timer.take(new Map())).to.equal(0);
  });

  it('focus: its flush is timed before it; a handler\'s read inside it is timed on its own', () => {
    const w = world();
    w.timer.install();
    const input = w.el(4, 0.5);
    const other = w.el(9, 2);
    input.onfocus = () => void other.offsetHeight;
    input.focus();
    const by = new Map<number, number>();
    w.timer.take(by);
    expect(by.get(4)).to.be.closeTo(0.5, 1e-9);
    expect(by.get(9)).to.be.closeTo(2, 1e-9);
  });

  it('samples a stack for the panel, at most one per interval', () => {
    const w = world();
    w.timer.install();
    void w.el(5, 1).offsetHeight;
    void w.el(5, 1).offsetHeight;
    const stacks = w.posts.filter((p) => p.type === 'stack');
    expect(stacks).to.have.length(1);
    expect(stacks[0].payload).to.include({ id: 5, ms: 1 });
    expect(typeof (stacks[0].payload as { stack: string }).stack).to.equal('string');
  });

  it('says what it cannot do, and leaves nothing behind on uninstall', () => {
    const w = world();
    const before = Object.getOwnPropertyDescriptor(w.FHTMLElement.prototype, 'offsetHeight');
    w.timer.install();
    expect(Object.getOwnPropertyDescriptor(w.FHTMLElement.prototype, 'offsetHeight')!.get).to.not.equal(before!.get);
    expect(w.internal.degraded.join('\n')).to.match(/replaced performance.now/).and.match(/no Long Animation Frames/);
    void w.el(1, 1).offsetHeight;
    w.timer.uninstall();
    expect(Object.getOwnPropertyDescriptor(w.FHTMLElement.prototype, 'offsetHeight')).to.deep.equal(before);
    expect(w.timer.take(new Map())).to.equal(0);
    expect(w.timer.outside).to.equal(undefined);
  });
});
