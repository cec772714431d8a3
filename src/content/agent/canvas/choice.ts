/**
 * When the overlay may keep its last choice of meters (the O(all components)
 * half of a frame's plan, src/overlay/plan.ts chooseFrame) instead of making
 * a new one.
 */

/** What a choice was made from. */
export interface ChoiceKey {
  mode: string;
  /** The settings object (replaced, never changed in place, when the user changes one). */
  settings: object;
  /** The store's `structure`: components mounted or unmounted. */
  structure: number;
  /** The store's `version`: any record applied. */
  version: number;
  /** The store's frame number: the EMAs' decay. */
  frameNo: number;
  /** The sources' version: types placed, so whose code a component is (what `skip` reads) may have changed. */
  sources: number;
}

/**
 * `same`: nothing the choice depends on moved — the store took no record since (the components' numbers and their
 * decay only move with records), so the choice stands however old it is and nothing needs decaying: an idle page's
 * overlay ticks without walking its components. `recent`: only numbers moved, within `refreshMs` of the choice
 * (EMAs move slowly): keep the chosen, decayed to now. `new`: choose again.
 */
export function choiceReuse(made: (ChoiceKey & { at: number }) | null, now: ChoiceKey, at: number, refreshMs: number):
  'same' | 'recent' | 'new' {
  if (made === null || made.mode !== now.mode || made.settings !== now.settings || made.structure !== now.structure
    || made.sources !== now.sources) {
    return 'new';
  }
  if (made.version === now.version && made.frameNo === now.frameNo) return 'same';
  return at - made.at < refreshMs ? 'recent' : 'new';
}

/**
 * What a frame's placement (plan.ts `placeFrame`: anchors, collapsed chains, decluttering, outlines, captions) was
 * made from. A redraw whose key is the same keeps the last placement and only paints the meters again with their
 * numbers now: on a busy page most redraws change numbers alone (docs/ARCHITECTURE.md, cadence), and placing them
 * again found the same places. Which of a wrapper chain's members shows and which of two overlapping meters wins do
 * read the numbers; they stand as long as the choice does (`choiceReuse`: at most its refresh interval).
 */
export interface PlanKey {
  /** The choice placed: the same object while it stands. */
  choice: object;
  /** The store's `geometry`: mounts and unmounts, bounds, occluders, layers, surfaces. */
  geometry: number;
  width: number;
  height: number;
  dpr: number;
  rtl: boolean;
  pinned: number | null;
  /** Inspect's hovered component and the panel's hovered row. */
  hovered: number | null;
  highlighted: number | null;
  /** A flashed layout shift: the same object while it lasts. */
  flash: object | null;
}

export function samePlan(made: PlanKey | null, now: PlanKey): boolean {
  return made !== null && made.choice === now.choice && made.geometry === now.geometry && made.width === now.width
    && made.height === now.height && made.dpr === now.dpr && made.rtl === now.rtl && made.pinned === now.pinned
    && made.hovered === now.hovered && made.highlighted === now.highlighted && made.flash === now.flash;
}
