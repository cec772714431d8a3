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
}

/**
 * `same`: nothing the choice depends on moved — the store took no record since (the components' numbers and their
 * decay only move with records), so the choice stands however old it is and nothing needs decaying: an idle page's
 * overlay ticks without walking its components. `recent`: only numbers moved, within `refreshMs` of the choice
 * (EMAs move slowly): keep the chosen, decayed to now. `new`: choose again.
 */
export function choiceReuse(made: (ChoiceKey & { at: number }) | null, now: ChoiceKey, at: number, refreshMs: number):
  'same' | 'recent' | 'new' {
  if (made === null || made.mode !== now.mode || made.settings !== now.settings || made.structure !== now.structure) {
    return 'new';
  }
  if (made.version === now.version && made.frameNo === now.frameNo) return 'same';
  return at - made.at < refreshMs ? 'recent' : 'new';
}
