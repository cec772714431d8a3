import { expect } from 'chai';
import { faultText, Healer, HEAL_FIRST_MS, HEAL_MAX_MS, QUIET_MS } from '../../src/inject/agent/pipeline/heal';

/** A healer on a clock of our own: timers run when `advance` passes them. */
function rig(rebuild: () => void = () => {}) {
  let t = 0;
  let timers: { at: number; fn: () => void; id: number }[] = [];
  let nextId = 1;
  const log = { rebuilds: [] as number[], rechecks: 0, changes: 0 };
  const healer = new Healer({
    now: () => t,
    later: (fn, ms) => {
      const id = nextId++;
      timers.push({ at: t + ms, fn, id });
      return id;
    },
    cancel: (id) => {
      timers = timers.filter((x) => x.id !== id);
    },
    rebuild: () => {
      log.rebuilds.push(t);
      rebuild();
    },
    recheck: () => log.rechecks++,
    changed: () => log.changes++,
  });
  const advance = (ms: number): void => {
    const end = t + ms;
    for (;;) {
      timers.sort((a, b) => a.at - b.at);
      const next = timers[0];
      if (!next || next.at > end) break;
      timers.shift();
      t = next.at;
      next.fn();
    }
    t = end;
  };
  return { healer, log, advance };
}

describe('self-healing (heal.ts)', () => {
  it('rebuilds once after a burst of faults, says why until it converged, then goes quiet', () => {
    const { healer, log, advance } = rig();
    healer.fault(new Error('Array.prototype.push refused\n    at ours'));
    healer.fault(new TypeError('x is not a function'));
    expect(healer.reason).to.equal('TypeError: x is not a function');
    expect(log.rechecks).to.equal(2);
    expect(log.changes).to.equal(1);
    advance(HEAL_FIRST_MS - 1);
    expect(log.rebuilds).to.have.length(0);
    advance(1);
    expect(log.rebuilds).to.deep.equal([HEAL_FIRST_MS]);
    // Clean, but converged only once QUIET_MS pass without a fault.
    expect(healer.reason).to.not.equal(null);
    advance(QUIET_MS);
    expect(healer.reason).to.equal(null);
    expect(log.changes).to.equal(2);
    advance(10_000);
    expect(log.rebuilds).to.have.length(1);
  });

  it('backs off while faults recur (to at most one rebuild a second), and starts afresh after a long quiet', () => {
    let failing = true;
    const { healer, log, advance } = rig(() => {
      if (failing) throw new Error('Map.prototype.set refused');
    });
    healer.fault(new Error('Map.prototype.set refused'));
    advance(10_000);
    const gaps = log.rebuilds.slice(1).map((t, i) => t - log.rebuilds[i]);
    expect(gaps[0]).to.equal(HEAL_FIRST_MS * 2);
    expect(gaps[1]).to.equal(HEAL_FIRST_MS * 4);
    expect(Math.max(...gaps)).to.equal(HEAL_MAX_MS);
    expect(gaps.slice(-3)).to.deep.equal([HEAL_MAX_MS, HEAL_MAX_MS, HEAL_MAX_MS]);
    expect(healer.reason).to.equal('Error: Map.prototype.set refused');
    // The page puts it back: the next rebuild is clean, and the view converges.
    failing = false;
    advance(HEAL_MAX_MS + QUIET_MS);
    expect(healer.reason).to.equal(null);
    const n = log.rebuilds.length;
    advance(60_000);
    healer.fault('again');
    advance(HEAL_FIRST_MS);
    expect(log.rebuilds).to.have.length(n + 1);
  });

  it('a fault during the quiet time after a clean rebuild rebuilds again; off forgets it all', () => {
    const { healer, log, advance } = rig();
    healer.fault(new Error('one'));
    advance(HEAL_FIRST_MS);
    advance(QUIET_MS / 2);
    healer.fault(new Error('two'));
    advance(QUIET_MS);
    expect(healer.reason).to.equal('Error: two');
    advance(HEAL_MAX_MS);
    expect(log.rebuilds.length).to.equal(2);
    healer.fault(new Error('three'));
    healer.reset();
    expect(healer.reason).to.equal(null);
    advance(10_000);
    expect(log.rebuilds.length).to.equal(2);
  });

  it('says what was thrown in one bounded line, whatever it is', () => {
    expect(faultText(new Error('a\nb'))).to.equal('Error: a');
    expect(faultText('x'.repeat(500))).to.have.length(120);
    const hostile = { toString() { throw new Error('no'); } };
    expect(faultText(hostile)).to.equal('an error');
  });
});
