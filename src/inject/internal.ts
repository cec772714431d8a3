/**
 * State shared between the document_start script (index.ts: hook, rAF,
 * attachShadow), the document_end script (page.ts: channel and API) and the
 * agent (agent.ts), which is injected into the same MAIN world only when the
 * overlay is first enabled. They are separate bundles, so they meet through
 * one non-enumerable property on window; page code can see it, and nothing
 * in it is trusted by the content script (it validates every message).
 */
import type { Mode, OutsideMeasurement, PageStatus } from '../protocol';

export const INTERNAL_KEY = '__LAYOUT_COST_INTERNAL__';

/** The subset of a React renderer (`ReactDOM` internals) the hook keeps. */
export interface RendererLike {
  version?: string;
  bundleType?: number;
  rendererPackageName?: string;
  findFiberByHostInstance?: unknown;
  [k: string]: unknown;
}

/** A fiber root as the hook sees it; the agent's adapter knows the rest. */
export interface FiberRootLike {
  current: unknown;
  containerInfo?: unknown;
}

/** Callbacks the agent installs on the hook while the overlay is on. */
export interface CommitTap {
  commit(rendererId: number, root: FiberRootLike): void;
  unmount(rendererId: number, fiber: unknown): void;
  renderer(rendererId: number, renderer: RendererLike): void;
}

/**
 * The agent's per-frame hook. While set, requestAnimationFrame callbacks are
 * queued by the tap and run from one native callback (see raf.ts).
 */
export interface FrameTap {
  request(cb: FrameRequestCallback): number;
  cancel(handle: number): void;
}

export interface HookState {
  renderers: Map<number, RendererLike>;
  roots: Map<number, Set<FiberRootLike>>;
  tap: CommitTap | null;
  /** Called after a renderer registers (always, cheap). */
  onRenderer: (() => void) | null;
  /** Hooks found on window that are not ours and that we chained onto. */
  chained: number;
  /** Re-check window for a hook installed after ours (React DevTools) and chain onto it. */
  adopt(): void;
}

export interface RafState {
  nativeRaf: typeof requestAnimationFrame;
  nativeCaf: typeof cancelAnimationFrame;
  wrappedRaf: typeof requestAnimationFrame;
  wrappedCaf: typeof cancelAnimationFrame;
  tap: FrameTap | null;
  /** Times the tap failed and rAF fell back to the native (the page broke a built-in the frame loop uses). */
  broken: number;
  /** `Reflect.apply` as it was at document_start, before any page script. */
  apply: typeof Reflect.apply;
}

export interface ShadowState {
  /** Closed (and open) shadow roots seen by the attachShadow wrapper. */
  rootOf: WeakMap<Element, ShadowRoot>;
  hosts: WeakRef<Element>[];
  /** Called with each new shadow root while the agent is on. */
  onAttach: ((host: Element, root: ShadowRoot) => void) | null;
  nativeAttachShadow: typeof Element.prototype.attachShadow;
}

/** Content → page messages the agent handles (config, hitTest). */
export type AgentHandler = (type: string, payload: unknown) => void;

export interface Internal {
  version: string;
  hook: HookState;
  raf: RafState;
  shadow: ShadowState;
  /** Send a page → content message (records buffers are transferred). */
  post(type: string, payload: unknown, transfer?: Transferable[]): void;
  /** The agent's handler, set when the agent loads. */
  agent: AgentHandler | null;
  /** Sizes of the agent's internal tables, for leak tests. */
  agentStats: (() => Record<string, number>) | null;
  /** The first host node of a mounted component, set by the agent. */
  nodeOf: ((id: number) => Node | null) | null;
  /** Last config received from the content script, for an agent that loads later. */
  config: { mode: Mode; wantBounds: number[]; pinned: number | null };
  status(): PageStatus;
  /** Reasons measurement is degraded, filled by the agent (cleared when it starts). */
  degraded: string[];
  /** Reasons that hold for the whole document (found before the agent), shown before `degraded`. */
  notes: string[];
  /** Long Animation Frames cross-check, kept current by the agent's timing while on (timing/loaf.ts). */
  outside?: OutsideMeasurement;
  debug(...args: unknown[]): void;
  /** Set by page.js once it has taken over post/status and opened the channel (it runs once per window). */
  channel: boolean;
  /**
   * What page.js needs for the channel, kept at document_start: by document_end the page's own scripts may have
   * replaced them (a page that wraps postMessage or MessageChannel must not see or break the handshake).
   */
  natives: {
    MessageChannel: typeof MessageChannel;
    postMessage: (this: Window, message: unknown, targetOrigin: string, transfer: Transferable[]) => void;
    addEventListener: (this: Window, type: string, listener: (e: never) => void, options?: AddEventListenerOptions) => void;
    removeEventListener: (this: Window, type: string, listener: (e: never) => void) => void;
    setTimeout: (this: Window, fn: () => void, ms: number) => number;
    bind: typeof Function.prototype.bind;
  };
}

declare const __DEBUG__: boolean;
declare const __VERSION__: string;
export const DEBUG: boolean = typeof __DEBUG__ !== 'undefined' && __DEBUG__;
export const VERSION: string = typeof __VERSION__ !== 'undefined' ? __VERSION__ : '0.0.0-dev';

export function getInternal(): Internal | null {
  const v = (window as unknown as Record<string, unknown>)[INTERNAL_KEY];
  return typeof v === 'object' && v !== null ? (v as Internal) : null;
}
