/**
 * What a layout pass costs the page in a frame beyond what a replay of the same change measures, ms: each change alone
 * would pay it (the pass's fixed work, run with caches the frame's scripts left cold), so each place a change is
 * measured at weighs it once. The agent's probes use it (src/inject/agent/pipeline/weigh.ts); the CI audit's
 * calibration pass measures its own on the page and falls back to it (src/cli/calibrate.ts `measurePass`). Measured here
 * (Chromium 156, 2 shared cores) as a one-line text change's cost alone in Chrome's trace less its probe: 0.13–0.20 ms
 * in five of bench/attribution.ts's scenarios; less its calibration replay, 0.09–0.16 ms (heavy-light's three light
 * cells, 2026-12-02). A fixed figure: on a machine twice as fast it is half that, and the smallest causes weigh a little
 * more than they should (docs/TIMING.md §2).
 */
export const PASS_MS = 0.15;
