/**
 * The overlay's one element in the page (src/content/agent/canvas/host.ts), appended to `<html>`. Not the page's DOM: the
 * agent leaves it out of rendered counts (a component whose top host is `<html>`, as on a root hydrated on the whole
 * document, holds it), and the CI audit's own count skips it. A module of its own: the boot scripts bundle every
 * constant of constants.ts they import from, and none of them needs this one.
 */
export const OVERLAY_TAG = 'layout-cost-overlay';
