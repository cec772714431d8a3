/**
 * What the content script's boot (content.js, document_start, every frame)
 * leaves for the parts injected later into the same isolated world:
 * content-hello.js (while some tab is being inspected) and the content agent
 * (content-agent.js, when the frame first needs it). The isolated world's
 * globals are invisible to the page, so properties there are the handoff.
 * agent/ imports this module for its types; boot/ imports nothing of agent/.
 */
export const HANDOFF_KEY = '__layoutCostContent';
/** Set once the content agent was asked for, by the boot or by content-hello.js (whichever asks first). */
export const REQUESTED_KEY = '__layoutCostRequested';
/** Set by content-hello.js once it said the hello (./hello.ts). */
export const HELLO_KEY = '__layoutCostHello';
/** Set by content-agent.js when it starts. */
export const AGENT_STARTED = Symbol.for('layout-cost.content-agent');

/**
 * [the private channel's secret, messages the boot dropped (no worker to answer), the agent's offer number]. The secret
 * was handed to the MAIN world's boot at load (boot/index.ts). The worker injects the agent into the MAIN world just
 * before the content agent and writes the number its injection returned here (src/background/index.ts, injectAgent); the content agent makes the
 * channel and offers it with both (agent/page-channel.ts). A plain array, assigned: an object with a getter defined
 * with `Object.defineProperty` cost the boot ≈ 0.08 ms more a page load (docs/PERFORMANCE.md, always on). The count is
 * live: the boot adds to it after the content agent started.
 */
export type Handoff = [secret: string, dropped: number, agent?: number];
