/**
 * Several runs of one route as one report's input (issue 47): each run's frames, components, interactions and shifts
 * together, every run's component ids moved apart (a run's ids are its page's own: the same number names another
 * component in the next run). Pure; unit-tested.
 */
import type { Recording } from '../protocol/recording';
import type { Snapshot } from '../protocol/snapshot';
import type { AuditInput, AuditReport } from './report';

/** Run k's ids move up by k × this (ids stay under 2^31; k × 2^32 stays a safe integer for 2^21 runs). */
const SPAN = 2 ** 32;

const move = (id: number, k: number): number => (id === 0 ? 0 : id + k * SPAN);
const moveOrNull = (id: number | null, k: number): number | null => (id === null ? null : move(id, k));

function moveRecording(r: Recording, k: number): Recording {
  const components: Recording['components'] = {};
  for (const [id, c] of Object.entries(r.components)) components[String(move(Number(id), k))] = { ...c, parentId: moveOrNull(c.parentId, k) };
  return {
    ...r, components,
    frames: r.frames.map((f) => ({
      ...f, components: f.components.map((c) => ({ ...c, id: move(c.id, k) })), mounts: f.mounts.map((id) => move(id, k)),
      unmounts: f.unmounts.map((id) => move(id, k)), commits: f.commits.map(([id, n]) => [move(id, k), n] as [number, number]),
      stacks: f.stacks.map((s) => ({ ...s, id: move(s.id, k) })),
    })),
  };
}

function moveSnapshot(s: Snapshot, k: number): Snapshot {
  return {
    ...s,
    components: s.components.map((c) => ({ ...c, id: move(c.id, k), parentId: moveOrNull(c.parentId, k) })),
    interactions: (s.interactions ?? []).map((it) => ({ ...it, components: it.components.map((c) => ({ ...c, id: move(c.id, k) })) })),
    shifts: (s.shifts ?? []).map((sh) => ({ ...sh, cause: sh.cause ? { ...sh.cause, id: move(sh.cause.id, k) } : sh.cause })),
  };
}

/**
 * The runs as one input: frames in run order, components and vitals of every run. The page's scalars (URL, browser,
 * DOM size, INP, CLS, our own cost) are the last run's, seconds are summed.
 */
export function poolRuns(runs: readonly AuditInput[]): AuditInput {
  if (runs.length === 0) throw new Error('poolRuns: no runs');
  if (runs.length === 1) return runs[0];
  const recs = runs.map((r, k) => moveRecording(r.recording, k));
  const snaps = runs.map((r, k) => moveSnapshot(r.snapshot, k));
  const last = runs[runs.length - 1];
  const lastSnap = snaps[snaps.length - 1];
  const recording: Recording = {
    ...recs[recs.length - 1],
    frames: recs.flatMap((r) => r.frames),
    components: Object.assign({}, ...recs.map((r) => r.components)) as Recording['components'],
    droppedFrames: recs.reduce((t, r) => t + r.droppedFrames, 0),
    interactions: recs.flatMap((r) => r.interactions ?? []),
    shifts: recs.flatMap((r) => r.shifts ?? []),
  };
  const snapshot: Snapshot = {
    ...lastSnap,
    components: snaps.flatMap((s) => s.components),
    interactions: snaps.flatMap((s) => s.interactions ?? []),
    shifts: snaps.flatMap((s) => s.shifts ?? []),
  };
  return { ...last, recording, snapshot, seconds: runs.reduce((t, r) => t + r.seconds, 0) };
}

/**
 * The pooled report's counts of a run's end: a type's instances and the page's components are one run's, not the sum
 * of the runs' (the largest run's).
 */
export function fixPooledCounts(pooled: AuditReport, perRun: readonly AuditReport[]): AuditReport {
  const most = new Map<string, number>();
  for (const r of perRun) for (const t of r.types) most.set(t.name, Math.max(most.get(t.name) ?? 0, t.instances));
  return {
    ...pooled,
    page: { ...pooled.page, components: Math.max(...perRun.map((r) => r.page.components)) },
    types: pooled.types.map((t) => ({ ...t, instances: most.get(t.name) ?? t.instances })),
  };
}

/**
 * Segments of one run (one page's document, its recording cut where a report was asked for) as one input: the same
 * page, so the same ids; frames in order, the last segment's snapshot and scalars, seconds summed.
 */
export function joinSegments(segments: readonly AuditInput[]): AuditInput {
  if (segments.length === 0) throw new Error('joinSegments: no segments');
  if (segments.length === 1) return segments[0];
  const last = segments[segments.length - 1];
  const recs = segments.map((s) => s.recording);
  const recording: Recording = {
    ...last.recording,
    startedAt: recs[0].startedAt,
    frames: recs.flatMap((r) => r.frames),
    components: Object.assign({}, ...recs.map((r) => r.components)) as Recording['components'],
    droppedFrames: recs.reduce((t, r) => t + r.droppedFrames, 0),
    interactions: recs.flatMap((r) => r.interactions ?? []),
    shifts: recs.flatMap((r) => r.shifts ?? []),
  };
  return { ...last, recording, seconds: segments.reduce((t, s) => t + s.seconds, 0) };
}
