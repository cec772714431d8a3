/**
 * `layout-cost audit --calibrate` (issue 43, item 3; docs/CI.md, "Calibration"): the calibration pass's shares applied
 * to the judged runs. Pure (unit-tested); the pass itself is calibrate.ts, the browser side run.ts.
 *
 * Per component type, over the pass: its share of the calibrated layout (style) ms — Chrome's ms for each change
 * replayed alone — against its share of the overlay's own (self) layout (style) ms over the judged recording. The
 * ratio scales every frame's own figures of the type's instances; the difference is added to each of their ancestors'
 * inclusive figures in that frame, so a parent's subtree figures follow its children's. Types the pass did not see
 * change, and a type the overlay charged nothing, keep their figures (an overlay share of 0 cannot be scaled: the
 * report says so). The frames' totals are the page's and do not change.
 */
import type { RecordedComponent, Recording } from '../protocol/recording';
import type { Snapshot } from '../protocol/snapshot';
import type { Calibration, CalibrationReport, TypeCalibration } from './calibrate';
import { pct } from './html';
import type { AuditInput } from './report';

export type { CalibrationReport, TypeCalibration } from './calibrate';

/** A factor is kept within this (a share of almost nothing against a real one is not a measurement to scale by). */
const MAX_FACTOR = 20;
/** Below this share on either side, a type is reported but not scaled. */
const MIN_SHARE = 0.001;

type NameOf = (id: number) => string | null;

/** The per-type shares and factors: `calName` names the pass's ids (its own page), `recName` the recording's. */
export function calibrationFactors(rec: Recording, recName: NameOf, cal: Calibration, calName: NameOf): CalibrationReport {
  const calBy = new Map<string, { layout: number; style: number }>();
  for (const [id, c] of cal.components) {
    const name = id === 0 ? null : calName(id);
    if (name === null) continue;
    const t = calBy.get(name) ?? { layout: 0, style: 0 };
    t.layout += c.layoutMs;
    t.style += c.styleMs;
    calBy.set(name, t);
  }
  const ownBy = new Map<string, { layout: number; style: number }>();
  for (const f of rec.frames) {
    for (const c of f.components) {
      if (c.id === 0) continue;
      const name = recName(c.id);
      if (name === null) continue;
      const t = ownBy.get(name) ?? { layout: 0, style: 0 };
      t.layout += c.selfLayoutMs;
      t.style += c.selfStyleMs;
      ownBy.set(name, t);
    }
  }
  // Shares over the types both sides saw: a type only one side has cannot be compared.
  const both = [...calBy.keys()].filter((n) => ownBy.has(n));
  const sum = (m: Map<string, { layout: number; style: number }>, k: 'layout' | 'style') => both.reduce((t, n) => t + m.get(n)![k], 0);
  const calL = sum(calBy, 'layout'), calS = sum(calBy, 'style'), ownL = sum(ownBy, 'layout'), ownS = sum(ownBy, 'style');
  const factor = (cal: number, own: number): number | null =>
    cal < MIN_SHARE || own < MIN_SHARE ? (cal < MIN_SHARE && own >= MIN_SHARE ? 0 : null) : Math.min(MAX_FACTOR, cal / own);
  const types: TypeCalibration[] = both.map((name) => {
    const layoutShare = calL > 0 ? calBy.get(name)!.layout / calL : 0;
    const styleShare = calS > 0 ? calBy.get(name)!.style / calS : 0;
    const overlayLayoutShare = ownL > 0 ? ownBy.get(name)!.layout / ownL : 0;
    const overlayStyleShare = ownS > 0 ? ownBy.get(name)!.style / ownS : 0;
    return {
      name, layoutShare, styleShare, overlayLayoutShare, overlayStyleShare,
      layoutFactor: calL > 0 && ownL > 0 ? factor(layoutShare, overlayLayoutShare) : null,
      styleFactor: calS > 0 && ownS > 0 ? factor(styleShare, overlayStyleShare) : null,
    };
  });
  types.sort((a, b) => b.layoutShare + b.styleShare - (a.layoutShare + a.styleShare) || a.name.localeCompare(b.name));
  return {
    batches: cal.batches, measured: cal.measured, skipped: cal.skipped, lostWindows: cal.lostWindows, broken: cal.broken,
    unexplainedMs: cal.unexplainedMs, passMs: cal.passMs, passRounds: cal.passRounds, types,
  };
}

/**
 * The recording with each type's own figures scaled by its factors, and each frame's ancestors' inclusive figures moved
 * by the same amounts. A new recording; the one given is not changed.
 */
export function applyCalibration(rec: Recording, report: CalibrationReport, recName: NameOf, parentOf: (id: number) => number | null): Recording {
  const factors = new Map(report.types.map((t) => [t.name, t]));
  const frames = rec.frames.map((f) => {
    const byId = new Map<number, RecordedComponent>(f.components.map((c) => [c.id, { ...c }]));
    for (const c of f.components) {
      if (c.id === 0) continue;
      const name = recName(c.id);
      const t = name === null ? undefined : factors.get(name);
      if (!t) continue;
      const dl = t.layoutFactor === null ? 0 : c.selfLayoutMs * (t.layoutFactor - 1);
      const ds = t.styleFactor === null ? 0 : c.selfStyleMs * (t.styleFactor - 1);
      if (dl === 0 && ds === 0) continue;
      const me = byId.get(c.id)!;
      me.selfLayoutMs = c.selfLayoutMs + dl;
      me.selfStyleMs = c.selfStyleMs + ds;
      // Itself and every ancestor: their inclusive figures hold this one's own.
      for (let id: number | null = c.id, hops = 0; id !== null && id !== 0 && hops < 10_000; id = parentOf(id), hops++) {
        let a = byId.get(id);
        if (!a) {
          a = { id, selfStyleMs: 0, selfLayoutMs: 0, selfForcedMs: 0, styleMs: 0, layoutMs: 0, forcedMs: 0, forcedCount: 0 };
          byId.set(id, a);
        }
        a.layoutMs = Math.max(0, a.layoutMs + dl);
        a.styleMs = Math.max(0, a.styleMs + ds);
      }
    }
    return { ...f, components: [...byId.values()] };
  });
  return { ...rec, frames };
}

/**
 * One run's input with its figures calibrated: the pass (its own page's ids, named by its snapshot) against the run's
 * recording (named by the run's snapshot, then the recording for what unmounted).
 */
export function calibrateInput(input: AuditInput, pass: { calibration: Calibration; snapshot: Snapshot }): AuditInput {
  const live = new Map(input.snapshot.components.map((c) => [c.id, c]));
  const info = (id: number) => live.get(id) ?? input.recording.components[String(id)] ?? null;
  const calNames = new Map(pass.snapshot.components.map((c) => [c.id, c.name]));
  const name = (id: number): string | null => info(id)?.name ?? null;
  const calibration = calibrationFactors(input.recording, name, pass.calibration, (id) => calNames.get(id) ?? null);
  const recording = applyCalibration(input.recording, calibration, name, (id) => info(id)?.parentId ?? null);
  return { ...input, recording, calibration };
}

/** What the CLI prints of a calibration: how much of the pass was replayed and which types' shares it moved. */
export function calibrationLine(c: CalibrationReport): string {
  if (c.measured === 0) return 'calibrated: the DOM did not change during the pass; the figures are the overlay\'s';
  const moved = c.types.filter((t) => Math.abs(t.layoutShare - t.overlayLayoutShare) > 0.05 || Math.abs(t.styleShare - t.overlayStyleShare) > 0.05);
  const what = moved.length === 0 ? 'every type within 5 points of the overlay\'s share' : `moved by more than 5 points: ${moved.slice(0, 5).map((t) => [
    Math.abs(t.layoutShare - t.overlayLayoutShare) > 0.05 ? `${t.name} layout ${pct(t.overlayLayoutShare)} → ${pct(t.layoutShare)}` : '',
    Math.abs(t.styleShare - t.overlayStyleShare) > 0.05 ? `${t.name} style ${pct(t.overlayStyleShare)} → ${pct(t.styleShare)}` : '',
  ].filter(Boolean).join(', ')).join(', ')}`;
  return `calibrated: ${c.measured} of ${c.batches} batches replayed${c.broken ? ` (stopped: ${c.broken})` : ''}; ${what}`;
}
