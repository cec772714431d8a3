/**
 * The agent bundle's entry (webpack `agent`): as little as can be evaluated before the agent is wanted. Everything
 * else of the agent — its modules' top-level constants too (`new Set([...])` calls the page's `Set.prototype.add`) —
 * is evaluated inside `start`, on the browser's own built-ins wherever the page wrapped them since load (pristine.ts,
 * issue 45): webpack evaluates a module reached through `require` when it is first required, not with the bundle.
 */
import type { AgentHandle, BootLink } from '../boot/link';
import { Pristine } from './pristine';

/** The agent's modules, evaluated on the first call (agent.js holds them in a function: webpack.config.js). */
declare const __lcLoadAgentCore: () => typeof import('./index');

export default function start(boot: BootLink, offer: Event): AgentHandle | null {
  const pristine = new Pristine(boot.natives, () => performance.now(), {
    win: window, add: boot.events.add, remove: boot.events.remove, protoOf: boot.events.protoOf,
  });
  return pristine.run(() => __lcLoadAgentCore().startAgent(boot, offer, pristine));
}
