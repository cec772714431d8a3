/**
 * Containment experiments (docs/DIAGNOSE.md): a CSS declaration applied to a
 * component's top host elements, measured with and without in interleaved
 * blocks of the page's own frames, and judged. The request and the result as
 * they cross every boundary (API, page → content → worker → panel), with
 * their validators: the result comes from the page, so it is data, checked
 * and size-capped like the rest.
 */
import { MAX_CSS_LENGTH } from './experiment-request';
import { INVALID, arrayOf, bool, isRecord, nullable, num, oneOf, str, type Validator } from './validate';

export {
  DEFAULT_EXPERIMENT_FRAMES, experimentRequest, MAX_CSS_LENGTH, MAX_EXPERIMENT_FRAMES, MIN_EXPERIMENT_FRAMES, safeDeclarations,
  type ExperimentRequest,
} from './experiment-request';

export const VERDICTS = ['faster', 'no-gain', 'changes-rendering', 'inconclusive'] as const;
export type Verdict = (typeof VERDICTS)[number];

export interface ConditionFigures {
  /** Frames measured in this condition. */
  frames: number;
  /** Mean per frame: the frame-end style recalculation. */
  styleMs: number;
  /** Mean per frame: the frame-end layout. */
  layoutMs: number;
  /** Mean per frame: forced style and layout in page scripts (between frames). */
  forcedMs: number;
  /** Median per frame of the three together. */
  medianMs: number;
}

export interface ExperimentBlock {
  applied: boolean;
  /** performance.now() ms: from the end of the frame before the block's first measured frame … */
  start: number;
  /** … to the end of its last measured frame. */
  end: number;
  frames: number;
}

export interface ExperimentResult {
  id: number;
  name: string;
  css: string;
  /** A CSS selector for the component's first top host, to find it in the page's own code ("Copy CSS"). */
  selector: string;
  before: ConditionFigures;
  after: ConditionFigures;
  /** before / after, of the means of style + layout + forced per frame; null when not measured. */
  speedup: number | null;
  /** Style + layout per frame the declaration kept from spreading beyond the component (before − after, ≥ 0). */
  spread: number;
  /** Whether the top hosts were already layout boundaries before the experiment (computed style), and why. */
  boundary: string | null;
  boxesCompared: number;
  boxesChanged: number;
  /** Device pixels of the component's area that changed with the declaration; null where not compared. */
  pixelsCompared: number;
  pixelsChanged: number | null;
  verdict: Verdict;
  /** One sentence: why this verdict. */
  reason: string;
  blocks: ExperimentBlock[];
}

const ms = num(0, 1e7);
const condition: Validator<ConditionFigures> = isRecord({ frames: num(0, 1e6), styleMs: ms, layoutMs: ms, forcedMs: ms, medianMs: ms });
const block: Validator<ExperimentBlock> = isRecord({
  applied: bool, start: num(0, 1e12), end: num(0, 1e12), frames: num(0, 1e6),
});

export const experimentResult: Validator<ExperimentResult> = isRecord({
  id: num(0, 2 ** 31), name: str(200), css: str(MAX_CSS_LENGTH), selector: str(500),
  before: condition, after: condition, speedup: nullable(num(0, 1e6)), spread: ms, boundary: nullable(str(200)),
  boxesCompared: num(0, 1e7), boxesChanged: num(0, 1e7), pixelsCompared: num(0, 1e9), pixelsChanged: nullable(num(0, 1e9)),
  verdict: oneOf(VERDICTS), reason: str(300), blocks: arrayOf(block, 200),
});

/** What an experiment answers: a result, or why it could not run. */
export type ExperimentOutcome = { ok: true; result: ExperimentResult } | { ok: false; error: string };

export const experimentOutcome: Validator<ExperimentOutcome> = (v) => {
  if (typeof v !== 'object' || v === null) return INVALID;
  const o = v as { ok?: unknown; result?: unknown; error?: unknown };
  if (o.ok === true) {
    const r = experimentResult(o.result);
    return r === INVALID ? INVALID : { ok: true, result: r };
  }
  if (o.ok === false && typeof o.error === 'string') return { ok: false, error: o.error.slice(0, 300) };
  return INVALID;
};

export interface Candidate {
  css: string;
  /** When it helps, in a few words. */
  note: string;
}

/**
 * What the panel's "Try" (and `layout-cost mcp`'s diagnose) tries on a component, in order of safety: layout
 * containment changes least of what the page shows, strict containment most (docs/DIAGNOSE.md).
 */
export const CANDIDATES: readonly Candidate[] = [
  { css: 'contain: layout', note: 'its layout cannot spread out; rendering unchanged unless it positions fixed/absolute children' },
  { css: 'contain: layout paint', note: 'also clips what it paints to its box' },
  { css: 'contain: content', note: 'layout, paint and style containment' },
  { css: 'contain: strict', note: 'also size: only for a box whose size does not come from its content' },
  { css: 'content-visibility: auto', note: 'skips its rendering while off-screen (a placeholder of its current size)' },
];
