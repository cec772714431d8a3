/**
 * The frame loop (src/inject/agent/pipeline/frame-loop.ts) against a model of the
 * native requestAnimationFrame (HTML "run the animation frame callbacks":
 * the handles are taken when the frame starts, a cancelled callback does not
 * run, a callback requested during the frame waits for the next one), with
 * the real document_start pass-through (src/inject/raf.ts) in front.
 */
import { expect } from 'chai';
import { FrameLoop } from '../../src/inject/agent/pipeline/frame-loop';
import { installRaf } from '../../src/inject/boot/raf';

class NativeRaf {
  private next = 1;
  readonly pending = new Map<number, FrameRequestCallback>();
  readonly raf = (cb: FrameRequestCallback): number => {
    if (typeof cb !== 'function') throw new TypeError("Failed to execute 'requestAnimationFrame' on 'Window': parameter 1 is not of type 'Function'.");
    const h = this.next++;
    this.pending.set(h, cb);
    return h;
  };
  readonly caf = (h: number): void => {
    this.pending.delete(h);
  };
  frame(ts: number): void {
    for (const h of [...this.pending.keys()]) {
      const cb = this.pending.get(h);
      if (!cb) continue;
      this.pending.delete(h);
      cb(ts);
    }
  }
}

function setup() {
  const native = new NativeRaf();
  const reported: unknown[] = [];
  const win = {
    requestAnimationFrame: native.raf,
    cancelAnimationFrame: native.caf,
    performance: { now: () => 0 },
    reportError: (e: unknown) => reported.push(e),
    setTimeout: () => 0,
  } as unknown as Window & typeof globalThis;
  const state = installRaf(win);
  const frames: number[] = [];
  const loop = new FrameLoop(state, win, (ts) => frames.push(ts));
  // The page's view: window.requestAnimationFrame is the document_start wrapper.
  const page = { raf: win.requestAnimationFrame, caf: win.cancelAnimationFrame };
  let ts = 0;
  const frame = (): void => native.frame((ts += 16));
  return { native, reported, state, loop, frames, page, frame };
}

describe('timing: the frame loop keeps requestAnimationFrame semantics', () => {
  it('order, one timestamp per frame, next-frame registration, cancel (also later in the same frame), errors', () => {
    const { loop, page, frame, reported, frames } = setup();
    loop.install();
    frame(); // the arming frame (see the handover test)
    const log: string[] = [];
    let hC = 0;
    page.raf(function (this: unknown, t) {
      log.push(`A ${t} this=${this}`);
      page.caf(hC);
      page.raf((t2) => log.push(`D ${t2}`));
    });
    page.raf((t) => {
      log.push(`B ${t}`);
      throw new Error('boom');
    });
    hC = page.raf(() => log.push('C'));
    const hX = page.raf(() => log.push('X'));
    page.caf(hX);
    page.raf((t) => log.push(`E ${t}`));
    expect(() => page.raf(42 as unknown as FrameRequestCallback)).to.throw(TypeError, 'not of type \'Function\'');
    frame();
    expect(log).to.deep.equal(['A 32 this=undefined', 'B 32', 'E 32']);
    expect((reported[0] as Error).message).to.equal('boom');
    expect(frames).to.deep.equal([32]);
    frame();
    expect(log.slice(3)).to.deep.equal(['D 48']);
  });

  it('asks for a native frame only while something is queued or dirty: an idle page stays idle', () => {
    const { loop, native, frame, page, frames } = setup();
    loop.install();
    expect(native.pending.size).to.equal(1); // the arming callback
    frame();
    expect(native.pending.size).to.equal(0);
    page.raf(() => undefined);
    expect(native.pending.size).to.equal(2); // tick (the page's callbacks), then measure behind it
    frame();
    expect(frames).to.have.length(1);
    expect(native.pending.size).to.equal(0);
    loop.ensureFrame(); // the pipeline marks something dirty
    frame();
    expect(frames).to.have.length(2);
    expect(native.pending.size).to.equal(0);
  });

  it('measures in a second native callback, after what the page queued behind its callbacks', () => {
    const { loop, native, frame, page, frames } = setup();
    loop.install();
    frame();
    const log: string[] = [];
    page.raf(() => {
      log.push('page');
      // Stands in for the microtask checkpoint between native callbacks: work the page's callback left behind.
      native.raf(() => log.push('left behind'));
      page.raf(() => log.push('next frame'));
    });
    const measured = frames.length;
    frame();
    expect(log).to.deep.equal(['page']);
    expect(frames.length).to.equal(measured + 1);
    // The next frame: its tick and a measure behind it; what was queued natively in between ran first.
    frame();
    expect(log).to.deep.equal(['page', 'left behind', 'next frame']);
    expect(frames.length).to.equal(measured + 2);
    frame();
    expect(native.pending.size).to.equal(0);
  });

  it('hands over at enable without running a callback twice in one frame', () => {
    const { loop, page, frame } = setup();
    const stamps: number[] = [];
    const step = (t: number): void => {
      stamps.push(t);
      page.raf(step);
    };
    page.raf(step); // registered natively while off
    frame();
    loop.install(); // enable between frames
    loop.ensureFrame(); // the pipeline wants a frame at once
    for (let i = 0; i < 5; i++) frame();
    expect(stamps).to.deep.equal([16, 32, 48, 64, 80, 96]);
  });

  it('drains at disable: queued callbacks run once, later ones go native, the tap goes away', () => {
    const { loop, page, frame, state, native } = setup();
    const stamps: number[] = [];
    const step = (t: number): void => {
      stamps.push(t);
      page.raf(step);
    };
    loop.install();
    page.raf(step);
    frame();
    frame();
    loop.uninstall();
    expect(state.tap).to.equal(loop); // still draining
    frame();
    expect(state.tap).to.equal(null);
    frame();
    frame();
    expect(stamps).to.deep.equal([32, 48, 64, 80]);
    expect(native.pending.size).to.equal(1); // just the page's own next step, natively
  });

  it('survives rapid switching: enable, disable, enable within one frame and across frames', () => {
    const { loop, page, frame } = setup();
    const stamps: number[] = [];
    const step = (t: number): void => {
      stamps.push(t);
      page.raf(step);
    };
    page.raf(step);
    const plan = ['on', 'off', 'on', 'on+off', 'off+on', 'off', 'on', 'off'];
    for (const p of plan) {
      for (const s of p.split('+')) {
        if (s === 'on') {
          loop.install();
          loop.ensureFrame();
        } else loop.uninstall();
      }
      frame();
    }
    for (let i = 0; i < 3; i++) frame();
    // One call per frame, never two with one timestamp; at most a frame late across a switch.
    expect(new Set(stamps).size).to.equal(stamps.length);
    expect(stamps.every((t, i) => i === 0 || t > stamps[i - 1])).to.equal(true);
    // Alive to the end: the last frame ran it.
    expect(stamps[stamps.length - 1]).to.equal((plan.length + 3) * 16);
    expect(stamps.length).to.be.at.least(plan.length);
  });

  it('passes handles of natively queued callbacks through to the native cancel', () => {
    const { loop, page, frame } = setup();
    let ran = false;
    const h = page.raf(() => (ran = true)); // native handle, queued while off
    loop.install();
    page.caf(h);
    frame();
    frame();
    expect(ran).to.equal(false);
  });

  it('says whether another frame is coming: the page asked for one during this frame, or something dirty did', () => {
    const { loop, page, frame, frames } = setup();
    loop.install();
    expect(loop.frameComing).to.equal(true); // the arming callback
    frame();
    expect(loop.frameComing).to.equal(false);
    // A callback that asks for the next frame inside this one: after this frame's end, another is coming.
    page.raf(() => page.raf(() => undefined));
    expect(loop.frameComing).to.equal(true);
    frame();
    expect(frames).to.have.length(1);
    expect(loop.frameComing).to.equal(true);
    // The last one asked for nothing: none is coming, until something dirty asks.
    frame();
    expect(frames).to.have.length(2);
    expect(loop.frameComing).to.equal(false);
    loop.ensureFrame();
    expect(loop.frameComing).to.equal(true);
    frame();
    expect(loop.frameComing).to.equal(false);
    // Going away: queued callbacks still run once, but no frame of ours is coming.
    page.raf(() => undefined);
    loop.uninstall();
    expect(loop.frameComing).to.equal(false);
  });
});
