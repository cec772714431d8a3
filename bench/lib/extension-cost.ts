/**
 * An extension's main-thread cost in one page load, from Chrome's trace
 * (`devtools.timeline`): its EvaluateScript and FunctionCall events, outermost
 * only, thread time. Shared by bench/always-on.ts and bench/channel-floor.ts.
 */
export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { data?: { url?: string; scriptName?: string } };
}

export interface Load {
  totalMs: number;
  /** The one-line extension's two scripts on the same load. */
  extFloorMs: number;
  /** The page's own first inline script's EvaluateScript (plain.html's one line): this machine's floor. */
  floorMs: number;
  byFile: Map<string, number>;
  /** Frames in which inject.js and content.js were both evaluated. */
  framesSeen: number;
}

function urlOf(e: TraceEvent): string {
  return e.args?.data?.url ?? e.args?.data?.scriptName ?? '';
}

/** Our events, outermost only, per file; thread ms. */
export function ourCost(events: readonly TraceEvent[], prefix: string, pageUrl: string): Load {
  const ours = events.filter((e) => e.ph === 'X' && (e.name === 'EvaluateScript' || e.name === 'FunctionCall') && urlOf(e).startsWith(prefix))
    .sort((a, b) => a.pid - b.pid || a.tid - b.tid || a.ts - b.ts);
  const byFile = new Map<string, number>();
  let total = 0;
  let endOf = -1;
  let thread = '';
  for (const e of ours) {
    const key = `${e.pid}:${e.tid}`;
    if (key === thread && e.ts < endOf) continue;
    thread = key;
    endOf = e.ts + (e.dur ?? 0);
    const ms = (e.tdur ?? e.dur ?? 0) / 1000;
    const file = urlOf(e).slice(prefix.length).split('?')[0];
    byFile.set(file, (byFile.get(file) ?? 0) + ms);
    total += ms;
  }
  // Frames: a (pid, frame) is not in the event; count evaluations of inject.js and content.js instead.
  const evals = (f: string): number => ours.filter((e) => e.name === 'EvaluateScript' && urlOf(e) === prefix + f).length;
  const inline = events.find((e) => e.ph === 'X' && e.name === 'EvaluateScript' && urlOf(e).split('?')[0] === pageUrl);
  return {
    totalMs: total, byFile, extFloorMs: NaN, framesSeen: Math.min(evals('inject.js'), evals('content.js')),
    floorMs: inline ? (inline.tdur ?? inline.dur ?? 0) / 1000 : NaN,
  };
}

