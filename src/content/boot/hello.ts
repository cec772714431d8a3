/**
 * content-hello.js: registered by the service worker for every frame at
 * document_start only while some tab is being inspected (the overlay on or a
 * panel open: src/background/index.ts). It asks the boot to say its hello, so
 * that a new document in an inspected tab turns on; in every other page load
 * nothing of ours touches the extension APIs.
 */
import { HANDOFF_KEY, HELLO_FLAG, type Handoff } from './handoff';

const g = globalThis as unknown as Record<string, unknown>;
const boot = g[HANDOFF_KEY] as Handoff | undefined;
if (boot !== undefined) boot.hello();
else g[HELLO_FLAG] = true;
