/**
 * The content script's `state` message, as the agent keeps it for `__LAYOUT_COST__.state()`: its fields checked
 * here, each at its default when malformed, nothing else kept.
 */
import type { Mode, SelfCost } from '../../protocol';
import { MODES } from '../../protocol/constants';

export interface ContentState {
  mode: Mode;
  pinned: number | null;
  capped: boolean;
  dropped: number;
  self: SelfCost | null;
  /** The app's own names judged (issue 44); null: none placed yet, the agent's judgement over every name stands. */
  minified: boolean | null;
}

export const NO_STATE: ContentState = { mode: 'off', pinned: null, capped: false, dropped: 0, self: null, minified: null };

export function contentState(payload: unknown): ContentState {
  const p = (typeof payload === 'object' && payload !== null ? payload : {}) as Record<string, unknown>;
  const m = p.mode;
  const sc = p.self as Partial<SelfCost> | null | undefined;
  return {
    mode: typeof m === 'string' && (MODES as readonly string[]).includes(m) ? (m as Mode) : 'off',
    pinned: typeof p.pinned === 'number' ? p.pinned : null,
    capped: p.capped === true,
    dropped: typeof p.dropped === 'number' ? p.dropped : 0,
    self: sc && typeof sc.msPerFrame === 'number' && typeof sc.mainThreadShare === 'number'
      ? { msPerFrame: sc.msPerFrame, mainThreadShare: sc.mainThreadShare } : null,
    minified: typeof p.minified === 'boolean' ? p.minified : null,
  };
}
