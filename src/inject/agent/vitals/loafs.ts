/**
 * Long Animation Frames (Chrome) kept for a few seconds, so that a slow interaction can name the scripts that ran in
 * its frames (issue 46, docs/VITALS.md "Scripts"): LoAF reports every frame over 50 ms with the scripts in it, what
 * invoked each, and how much of each was forced style and layout.
 */
import { MAX_INTERACTION_SCRIPTS, type InteractionScript } from '../../../protocol/vitals';

/** Frames kept: the last few seconds of a page that is slow all the time. */
const KEPT = 32;
const MAX_TEXT = 280;

/** The fields of a `PerformanceScriptTiming` read here. */
export interface ScriptEntry {
  invoker?: string;
  sourceURL?: string;
  sourceFunctionName?: string;
  sourceCharPosition?: number;
  duration: number;
  forcedStyleAndLayoutDuration?: number;
}

export interface LoafEntry {
  startTime: number;
  duration: number;
  scripts?: readonly ScriptEntry[];
}

interface Kept {
  start: number;
  end: number;
  /** The browser's entry as it came: its scripts are read only when an interaction asks (`scriptsIn`). */
  entry: LoafEntry;
}

const text = (v: unknown): string => (typeof v === 'string' ? v.slice(0, MAX_TEXT) : '');
const ms = (v: unknown): number => (typeof v === 'number' && v >= 0 && v < 1e7 ? v : 0);

/** A script of a long frame as data (capped text, bounded numbers), or null for one of ours (the agent's wrappers). */
function scriptOf(s: ScriptEntry): InteractionScript | null {
  // Ours: Layout Cost's own time is reported apart (state().self).
  if (typeof s.sourceURL === 'string' && /^(chrome|moz)-extension:/.test(s.sourceURL)) return null;
  const at = typeof s.sourceCharPosition === 'number' ? s.sourceCharPosition : -1;
  return {
    invoker: text(s.invoker), fn: text(s.sourceFunctionName), source: `${text(s.sourceURL)}:${at}`,
    durationMs: ms(s.duration), forcedMs: ms(s.forcedStyleAndLayoutDuration),
  };
}

/** The scripts of these long frames, longest first (at most MAX_INTERACTION_SCRIPTS, none of ours). */
export function scriptsOf(frames: readonly LoafEntry[]): InteractionScript[] {
  const out: InteractionScript[] = [];
  for (const f of frames) {
    let k = 0;
    for (const s of f.scripts ?? []) {
      if (k++ === 16) break;
      const x = scriptOf(s);
      if (x !== null) out.push(x);
    }
  }
  return out.sort((a, b) => b.durationMs - a.durationMs).slice(0, MAX_INTERACTION_SCRIPTS);
}

export class LoafLog {
  private readonly frames: Kept[] = [];

  /** Keeps the entries (a page slow in every frame calls this every frame: nothing is read from them here). */
  note(entries: readonly LoafEntry[]): void {
    for (const e of entries) {
      this.frames.push({ start: e.startTime, end: e.startTime + e.duration, entry: e });
      if (this.frames.length > KEPT) this.frames.shift();
    }
  }

  /** The long frames that overlap [from, to], as the browser gave them (nothing read from them yet). */
  overlapping(from: number, to: number): LoafEntry[] {
    const out: LoafEntry[] = [];
    for (const f of this.frames) if (f.end >= from && f.start <= to) out.push(f.entry);
    return out;
  }

  /** The scripts of the long frames that overlap [from, to] (`scriptsOf`). */
  scriptsIn(from: number, to: number): InteractionScript[] {
    return scriptsOf(this.overlapping(from, to));
  }

  clear(): void {
    this.frames.length = 0;
  }
}
