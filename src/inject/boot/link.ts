/**
 * The link between the boot script (document_start, every frame: hook, rAF,
 * attachShadow, the channel's secret and the API's forwarders) and the agent
 * (injected with the content script's agent, when the frame is first
 * wanted: the overlay on, a panel open, a call of the API). They are separate
 * bundles in one MAIN world; they meet through one frozen function on window
 * (OFFER_KEY) and an event only the extension can dispatch, so page code can
 * neither take the agent's place nor reach the channel (docs/ARCHITECTURE.md,
 * security model). The agent imports this module for its types only; boot/
 * may import nothing of agent/ (the build enforces both).
 */
import type { ApiCall, ContentToPage, LayoutCostState, PageToContent } from '../../protocol';

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
  /** Renderers and roots seen, after `adopt()`. */
  counts(): { renderers: number; roots: number };
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
  /** Whether the attachShadow wrapper is in place (installed on first need: shadow.ts). */
  tapped: boolean;
  /** Installs the wrapper, once; roots attached before it are not in `hosts` (the agent finds the open ones). */
  tap(): void;
  /** Remembers a root (the wrapper's, and the agent's walk for roots attached before it). */
  note(host: Element, root: ShadowRoot): void;
}

/** Whether Vue 3 made a renderer on this page (boot/vue.ts), and who hears of it when it does. */
export interface VueState {
  seen: boolean;
  onSeen: (() => void) | null;
}

/** The last config the content script sent (the agent starts from it). */
export type AgentConfig = ContentToPage['config'];

/**
 * What the boot script hands the agent when the content script names its offer: the document_start state. It exists
 * only in the two closures; nothing of it is on window.
 */
export interface BootLink {
  readonly version: string;
  readonly hook: HookState;
  readonly raf: RafState;
  readonly shadow: ShadowState;
  readonly vue: VueState;
  /** Reasons found before the agent (the API name taken, …): they head `state().degraded`; the agent adds its own. */
  readonly notes: string[];
  debug(...args: unknown[]): void;
  /** Built-ins as they were before the page's first script: the agent reads source text and stacks with these only. */
  readonly natives: BootNatives;
  /**
   * window's own `addEventListener` (EventTarget's, which comes with the window) and `Object.getPrototypeOf`, kept at
   * load: the channel takes its port with these (agent/channel.ts).
   */
  readonly events: { add: typeof addEventListener; remove: typeof removeEventListener; protoOf: typeof Object.getPrototypeOf };
}

/**
 * The agent's side of the link, inside the agent (agent/index.ts makes it from the boot's link and its channel): what
 * its pipeline needs.
 */
export interface AgentLink {
  readonly version: string;
  readonly hook: HookState;
  readonly raf: RafState;
  readonly shadow: ShadowState;
  readonly vue: VueState;
  /** Reasons found before the pipeline: they head `state().degraded`. */
  readonly notes: readonly string[];
  /** Sends a page → content message over the private port (a records buffer is transferred). */
  post<T extends keyof PageToContent>(type: T, payload: PageToContent[T], transfer?: Transferable[]): void;
  /** Sends the current status now (after the agent's degraded reasons or outside measurement changed). */
  announce(): void;
  debug(...args: unknown[]): void;
  readonly natives: BootNatives;
}

/** A call of the page's API (boot/api.ts), as the boot forwards it: its arguments copied, and who hears the answer. */
export interface ApiRequest {
  call: ApiCall;
  args: unknown[];
  /** The content script's answer, `{ ok, result }` or `{ ok: false, error }` (null: a call without an answer). */
  settle: ((answer: unknown) => void) | null;
}

/**
 * Taken at document_start, before any page script (a page's later replacement never runs through them). The agent
 * builds its readers from them (agent/natives.ts): the readers' code is not compiled on every page load.
 */
export interface BootNatives {
  readonly fnToString: (this: unknown) => string;
  readonly reflectApply: typeof Reflect.apply;
  readonly NativeError: ErrorConstructor;
  readonly ownDescriptor: typeof Object.getOwnPropertyDescriptor;
  /** SpiderMonkey's `stack` getter on Error.prototype (null in V8, whose errors own their `stack`). */
  readonly protoStack: ((this: unknown) => unknown) | null;
  /**
   * The built-ins the agent calls on its paths, as they were at load (issue 45): in fours, a holder, a key, the value
   * there and the holder's path from window ("Map.prototype"; "" for window's own). A page that wraps one later
   * (zone.js, Sentry, a polyfill) never runs under the agent: agent/pristine.ts puts these back around the agent's own
   * entries and the page's after.
   */
  readonly kept: readonly unknown[];
  readonly define: typeof Object.defineProperty;
}

/** What the agent gives back: the boot script's API goes to it. */
export interface AgentHandle {
  /** A call of the page's API: sent to the content script (after the commit counts it holds back). Never throws. */
  call(c: ApiRequest): void;
  /** `__LAYOUT_COST__.state()`. */
  state(): LayoutCostState;
  /** The first host node of a mounted component. */
  nodeOf(id: number): Node | null;
  /** The component that rendered a node (0: none); anything the page passes is checked there. */
  ownerOf(node: unknown): number;
  /** Whether the channel is made, and the sizes of the agent's tables (`__LAYOUT_COST__.internals()`). */
  stats(): Record<string, number | boolean>;
}

/**
 * The agent bundle's one export: called once, when the content script dispatches the event that names its offer (the
 * channel's offer: its port is on the event). Null: the channel was refused (the agent said why in `notes`).
 */
export type AgentStart = (link: BootLink, offer: Event) => AgentHandle | null;

/**
 * The one name the boot script puts on window besides the public API: a frozen
 * function the agent bundle calls with its `AgentStart` (webpack's `jsonp`
 * library output: `__LAYOUT_COST_OFFER__(start)` is the bundle's last
 * statement). It returns the offer's number, which is thereby the script's
 * completion value: `chrome.scripting.executeScript` hands it to the service
 * worker, the worker to the content script's agent (src/content/boot/
 * handoff.ts), which dispatches the channel's offer as an event whose type
 * carries the secret and that number (OFFER_EVENT + secret + ':' + number).
 * Page code may offer too; it cannot name the event's type.
 */
export const OFFER_KEY = '__LAYOUT_COST_OFFER__';

declare const __DEBUG__: boolean;
declare const __VERSION__: string;
export const DEBUG: boolean = typeof __DEBUG__ !== 'undefined' && __DEBUG__;
export const VERSION: string = typeof __VERSION__ !== 'undefined' ? __VERSION__ : '0.0.0-dev';
