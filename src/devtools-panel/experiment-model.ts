/**
 * What the panel suggests trying on the pinned component, and what it makes
 * of the answers (docs/DIAGNOSE.md). Pure, so it is unit-tested.
 *
 * Candidates come in order of safety: layout containment changes least of
 * what the page shows, strict containment most. Nothing is applied until the
 * developer clicks Try; then the measured speedup ranks them, and a
 * candidate that changed rendering is marked and sinks to the bottom.
 */
import { DEFAULT_EXPERIMENT_FRAMES, MAX_EXPERIMENT_FRAMES, type Candidate, type ExperimentOutcome, type ExperimentResult } from '../protocol/experiment';
import { capText } from './text';

export { CANDIDATES, type Candidate } from '../protocol/experiment';

export type CandidateState =
  | { kind: 'idle' }
  | { kind: 'running' }
  | { kind: 'done'; result: ExperimentResult }
  | { kind: 'failed'; error: string };

/** Results per component and declaration, kept while the panel is open (a re-pin shows them again). */
export class ExperimentBook {
  private readonly states = new Map<string, CandidateState>();
  /** Requests in flight: reqId → [component, declaration]. */
  private readonly inflight = new Map<number, [number, string]>();
  private nextReq = 1;

  state(id: number, css: string): CandidateState {
    return this.states.get(`${id}|${css}`) ?? { kind: 'idle' };
  }

  get running(): boolean {
    return this.inflight.size > 0;
  }

  /**
   * Frames to ask for: the default, or twice the last run's when it was inconclusive (a noisy page needs more),
   * up to the maximum.
   */
  framesFor(id: number, css: string): number {
    const s = this.state(id, css);
    if (s.kind !== 'done' || s.result.verdict !== 'inconclusive') return DEFAULT_EXPERIMENT_FRAMES;
    const last = s.result.before.frames + s.result.after.frames;
    return Math.min(MAX_EXPERIMENT_FRAMES, Math.max(DEFAULT_EXPERIMENT_FRAMES, 2 * last));
  }

  /** Starts one; returns its request id. */
  begin(id: number, css: string): number {
    const reqId = this.nextReq++;
    this.inflight.set(reqId, [id, css]);
    this.states.set(`${id}|${css}`, { kind: 'running' });
    return reqId;
  }

  /** An answer arrived; false when it answers nothing we asked. */
  settle(reqId: number, outcome: ExperimentOutcome): boolean {
    const asked = this.inflight.get(reqId);
    if (!asked) return false;
    this.inflight.delete(reqId);
    const [id, css] = asked;
    this.states.set(`${id}|${css}`, outcome.ok ? { kind: 'done', result: outcome.result } : { kind: 'failed', error: outcome.error });
    return true;
  }

  /** The frame went away or the connection dropped: nothing in flight will answer. */
  abandon(error: string): void {
    for (const [reqId, [id, css]] of this.inflight) {
      this.states.set(`${id}|${css}`, { kind: 'failed', error });
      this.inflight.delete(reqId);
    }
  }
}

/**
 * The candidates in display order: untried ones in order of safety until any result is in; measured ones
 * by speedup (faster first), then no-gain, inconclusive, failed, and those that change rendering last.
 */
export function ranked(states: readonly [Candidate, CandidateState][]): [Candidate, CandidateState][] {
  const rank = (s: CandidateState): number => {
    if (s.kind !== 'done') return s.kind === 'failed' ? 4 : 3;
    switch (s.result.verdict) {
      case 'faster': return 0;
      case 'no-gain': return 1;
      case 'inconclusive': return 2;
      default: return 5;
    }
  };
  const anyDone = states.some(([, s]) => s.kind === 'done');
  if (!anyDone) return [...states];
  return states.map((x, i) => [x, i] as const).sort(([a, i], [b, j]) => {
    const d = rank(a[1]) - rank(b[1]);
    if (d !== 0) return d;
    const sa = a[1].kind === 'done' ? a[1].result.speedup ?? 0 : 0;
    const sb = b[1].kind === 'done' ? b[1].result.speedup ?? 0 : 0;
    return sb - sa || i - j;
  }).map(([x]) => x);
}

/** One line for a result: the verdict and the figures. */
export function describe(r: ExperimentResult): string {
  const before = r.before.styleMs + r.before.layoutMs + r.before.forcedMs;
  const after = r.after.styleMs + r.after.layoutMs + r.after.forcedMs;
  const figures = `${before.toFixed(2)} → ${after.toFixed(2)} ms/frame`;
  switch (r.verdict) {
    case 'faster': return `Faster ×${(r.speedup ?? 0).toFixed(1)}: ${figures}`;
    case 'no-gain': return `No gain: ${figures}`;
    case 'changes-rendering': return `Changes rendering: ${capText(r.reason, 160)}`;
    default: return `Inconclusive: ${capText(r.reason, 160)}`;
  }
}

/** Text from the page going into a CSS comment or rule: no comment ends, braces, angle brackets or controls. */
function inert(s: string, max: number): string {
  return capText(s, max).replace(/\*\//g, '* /').replace(/[{}<>]/g, '');
}

/**
 * "Copy CSS": a rule with a selector the developer can find in their code and the measurement as a comment.
 * The selector comes from the page (the agent reads it from the element); one that could break out of the
 * rule is replaced by a placeholder to fill in.
 */
export function cssRule(r: ExperimentResult): string {
  const before = r.before.styleMs + r.before.layoutMs + r.before.forcedMs;
  const after = r.after.styleMs + r.after.layoutMs + r.after.forcedMs;
  const selector = /^[^{}<>;]*$/.test(r.selector) && !r.selector.includes('/*') && r.selector.trim() !== ''
    ? capText(r.selector, 200) : '/* the element of <' + inert(r.name, 60) + '> */';
  const decls = r.css.split(';').map((d) => d.trim()).filter(Boolean).map((d) => `  ${d};`).join('\n');
  const speed = r.speedup === null ? '' : ` (×${r.speedup.toFixed(1)})`;
  return `/* Layout Cost: on <${inert(r.name, 60)}>, style + layout ${before.toFixed(2)} → ${after.toFixed(2)} ms per frame${speed},\n`
    + `   measured over ${r.before.frames + r.after.frames} frames of the live page: ${r.verdict}. */\n${selector} {\n${decls}\n}\n`;
}
