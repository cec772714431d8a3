/**
 * Sampled stacks of forced reflows, for the panel: who read layout while it
 * was dirty. A stack costs an Error and a string (tens of µs), so only a
 * few calls are sampled (at most one per STACK_INTERVAL_MS) and each stack
 * is capped in lines and characters. Our own frames (the wrapper) are cut.
 */
export const STACK_INTERVAL_MS = 250;
export const MAX_STACK_LINES = 12;
/** Well under the protocol's 4096-character cap on a stack. */
export const MAX_STACK_CHARS = 2048;

const URL_RE = /((?:chrome-extension|moz-extension|https?|file):\/\/[^\s()]+?):\d+:\d+/;

/** The script URL of the first frame of a V8 stack ("    at f (URL:1:2)"), or null. */
export function firstFrameUrl(stack: string): string | null {
  for (const line of stack.split('\n')) {
    if (!/^\s*at\s/.test(line)) continue;
    const m = URL_RE.exec(line);
    return m ? m[1] : null;
  }
  return null;
}

/**
 * The page's part of a stack: without the "Error" line and without frames
 * from `ourUrl` (the agent bundle), at most `maxLines` frames and `maxChars`
 * characters.
 */
export function trimStack(raw: string, ourUrl: string | null, maxLines = MAX_STACK_LINES, maxChars = MAX_STACK_CHARS): string {
  const out: string[] = [];
  for (const line of raw.split('\n')) {
    if (out.length >= maxLines) break;
    if (!/^\s*at\s/.test(line)) continue; // the message line, or a hostile prepareStackTrace's output
    if (ourUrl !== null && line.includes(ourUrl)) continue;
    out.push(line.trim());
  }
  const s = out.join('\n');
  return s.length > maxChars ? s.slice(0, maxChars) : s;
}

export class StackSampler {
  private last = -Infinity;
  /** The agent bundle's URL, from a stack taken at construction (null: unknown, nothing cut). */
  readonly ourUrl: string | null;

  constructor(private readonly intervalMs = STACK_INTERVAL_MS) {
    let url: string | null = null;
    try {
      url = firstFrameUrl(rawStack(4));
    } catch {
      url = null; // a hostile Error.prepareStackTrace: keep every frame rather than fail
    }
    this.ourUrl = url;
  }

  /** True (and the slot is used) when a stack may be taken for a reflow at `nowMs`. */
  want(nowMs: number): boolean {
    if (nowMs - this.last < this.intervalMs) return false;
    this.last = nowMs;
    return true;
  }

  capture(): string {
    return trimStack(rawStack(MAX_STACK_LINES + 4), this.ourUrl);
  }

  reset(): void {
    this.last = -Infinity;
  }
}

/** A V8 stack with room for our own frames; the page's stackTraceLimit is restored at once. */
function rawStack(frames: number): string {
  const E = Error as ErrorConstructor & { stackTraceLimit?: number };
  const limit = E.stackTraceLimit;
  try {
    E.stackTraceLimit = frames;
    const s: unknown = new Error().stack;
    return typeof s === 'string' ? s : '';
  } finally {
    E.stackTraceLimit = limit;
  }
}
