/**
 * Validators for what the content script sends the MAIN world. Its own
 * module: the agent (injected when the frame is first wanted) checks its
 * messages with these without pulling in the rest of the protocol; the boot
 * script, compiled on every page load, carries none of them.
 */
import { MODES } from './constants';
import { anyValue, bool, INVALID, isRecord, nullable, num, numArray, oneOf } from './validate';

/** Built on first use: building it creates some forty closures. */
function build() {
  const id = num(0, 2 ** 31);
  /** Our own cost (protocol/snapshot.ts `SelfCost`). */
  const selfCost = isRecord({ msPerFrame: num(0, 1e6), mainThreadShare: num(0, 1) });
  const table = {
    config: isRecord({ mode: oneOf(MODES), wantBounds: numArray(100_000, 0, 2 ** 31), pinned: nullable(id), track: bool, commits: bool, flash: bool }),
    apiResult: isRecord({ reqId: num(0, 2 ** 53), result: anyValue }),
    hitTest: isRecord({ seq: num(0, 2 ** 53), x: num(-1e6, 1e6), y: num(-1e6, 1e6) }),
    /** A records batch went missing: send everything again (a Reset and a back-fill). */
    resync: (v: unknown): Record<string, never> | typeof INVALID => (typeof v === 'object' && v !== null ? {} : INVALID),
    /**
     * Run a containment experiment (the answer is the page's `experimentResult` with the same seq). The request
     * was checked whole by the content script (`experimentRequest`), the only party on this private port; here
     * only its shape, so that the document_start script carries no CSS checker.
     */
    experiment: isRecord({
      seq: num(0, 2 ** 53), pixels: bool, request: isRecord({ id, css: (v: unknown) => (typeof v === 'string' && v.length <= 300 ? v : INVALID), frames: num(1, 1e4) }),
    }),
    /** The answer to the agent's `capture` (messages.ts PixelAnswer). */
    captured: isRecord({
      seq: num(0, 2 ** 53), ok: bool, error: nullable((v: unknown) => (typeof v === 'string' && v.length <= 300 ? v : INVALID)),
      pixelsCompared: num(0, 1e9), pixelsChanged: num(0, 1e9),
    }),
    state: isRecord({
      mode: oneOf(MODES), pinned: nullable(id), capped: bool, dropped: num(0, 2 ** 53), self: nullable(selfCost),
      minified: (v: unknown) => (v === undefined || v === null ? null : bool(v)),
    }),
  };
  return { table, selfCost };
}

let built: ReturnType<typeof build> | null = null;

/** The validators for what the content script sends the MAIN world, with two shapes other tables reuse. */
export function contentToPage(): ReturnType<typeof build> {
  return (built ??= build());
}
