/**
 * Budgets for `layout-cost audit` and the puppeteer helper's `expectWithin`
 * (issue 14; format in docs/CI.md, JSON schema in budget.schema.json). A
 * budget file is the user's, not the page's, but it is still checked field by
 * field: a typo must fail the run with the field and the value, not pass it
 * by checking nothing.
 */

/** Per-frame ms figures are compared at this statistic of the run's frames. */
export type Stat = 'p95' | 'max';

/** Limits for one component type (or, under `defaults`, for every type). */
export interface ComponentBudget {
  /** Inclusive ms per frame (at `stat`). */
  layoutMs?: number;
  styleMs?: number;
  forcedMs?: number;
  /** Forced reflows in it and below over the whole run. */
  forcedCount?: number;
  /** DOM elements really under it at the end of the run. */
  rendered?: number;
  /** Rendered ÷ authored at the end of the run (portaled-in elements left out). */
  inflation?: number;
  /** Its own layout + forced-reflow ms in an interaction, at p95 over the run's interactions (issue 46). */
  interactionLayoutMs?: number;
  /** The layout shift it caused over the run: the sum of the shifts whose cause it was (issue 46). */
  cls?: number;
  stat?: Stat;
}

export interface DomElementsBudget {
  /** Above this: a warning (reported, does not fail). */
  warn: number | null;
  /** Above this: a failure. */
  error: number | null;
}

export interface PageBudget {
  /** Layout ms per frame of the whole page (at `stat`). */
  layoutMsPerFrame?: number;
  /** INP over the run's interactions, ms, as web-vitals computes it (issue 46). */
  inp?: number;
  /** CLS over the run, in session windows as web-vitals computes it (issue 46). */
  cls?: number;
  domElements: DomElementsBudget | null;
  stat?: Stat;
}

export interface Budget {
  defaults: ComponentBudget;
  /** In file order: exact names and /regex/ keys. */
  components: { key: string; match: (name: string) => boolean; exact: boolean; budget: ComponentBudget }[];
  page: PageBudget;
}

/** Lighthouse's DOM-size audit: a warning above 818 elements, an error above 1 400 — the default page budget. */
export const LIGHTHOUSE_DOM = { warn: 818, error: 1400 } as const;

export const METRICS = ['layoutMs', 'styleMs', 'forcedMs', 'forcedCount', 'rendered', 'inflation', 'interactionLayoutMs', 'cls'] as const;
export type Metric = (typeof METRICS)[number];

/** A budget file that cannot be used: `message` names the field and the value. */
export class BudgetError extends Error {}

const show = (v: unknown): string => {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? `${s.slice(0, 57)}...` : s;
};

function limit(where: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
    throw new BudgetError(`${where} must be a number ≥ 0, not ${show(v)}`);
  }
  return v;
}

function stat(where: string, v: unknown): Stat {
  if (v !== 'p95' && v !== 'max') throw new BudgetError(`${where} must be "p95" or "max", not ${show(v)}`);
  return v;
}

function object(where: string, v: unknown): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new BudgetError(`${where} must be an object, not ${show(v)}`);
  return v as Record<string, unknown>;
}

function componentBudget(where: string, v: unknown): ComponentBudget {
  const o = object(where, v);
  const out: ComponentBudget = {};
  for (const [k, x] of Object.entries(o)) {
    if (k === 'stat') out.stat = stat(`${where}.stat`, x);
    else if ((METRICS as readonly string[]).includes(k)) out[k as Metric] = limit(`${where}.${k}`, x);
    else throw new BudgetError(`${where}.${k} is not a budget field (one of ${METRICS.join(', ')}, stat)`);
  }
  return out;
}

/** "/^Cell/i" → a RegExp; anything else is an exact name. */
function matcher(where: string, key: string): { match: (name: string) => boolean; exact: boolean } {
  const m = /^\/(.*)\/([a-z]*)$/s.exec(key);
  if (!m) return { match: (name) => name === key, exact: true };
  if (!/^[imsu]*$/.test(m[2])) throw new BudgetError(`${where}: the flags of ${show(key)} may only be i, m, s, u`);
  try {
    const re = new RegExp(m[1], m[2]);
    return { match: (name) => re.test(name), exact: false };
  } catch (e) {
    throw new BudgetError(`${where}: ${show(key)} is not a valid regular expression (${(e as Error).message})`);
  }
}

function domElements(where: string, v: unknown): DomElementsBudget | null {
  if (v === false || v === null) return null;
  if (v === true) return { ...LIGHTHOUSE_DOM };
  if (typeof v === 'number') return { warn: null, error: limit(where, v) };
  const o = object(where, v);
  for (const k of Object.keys(o)) if (k !== 'warn' && k !== 'error') throw new BudgetError(`${where}.${k} is not a field (warn, error)`);
  return {
    warn: o.warn === undefined ? LIGHTHOUSE_DOM.warn : o.warn === null ? null : limit(`${where}.warn`, o.warn),
    error: o.error === undefined ? LIGHTHOUSE_DOM.error : o.error === null ? null : limit(`${where}.error`, o.error),
  };
}

/** The budget when none is given: Lighthouse's DOM-size thresholds only. */
export function defaultBudget(): Budget {
  return { defaults: {}, components: [], page: { domElements: { ...LIGHTHOUSE_DOM } } };
}

/** Checks a parsed budget file; throws BudgetError naming the field and the value. */
export function parseBudget(v: unknown): Budget {
  const o = object('the budget', v);
  const out = defaultBudget();
  for (const [k, x] of Object.entries(o)) {
    if (k === '$schema' || k === 'description') continue;
    if (k === 'defaults') out.defaults = componentBudget('defaults', x);
    else if (k === 'components') {
      for (const [name, b] of Object.entries(object('components', x))) {
        const where = `components[${show(name)}]`;
        out.components.push({ key: name, ...matcher(where, name), budget: componentBudget(where, b) });
      }
    } else if (k === 'page') {
      const p = object('page', x);
      for (const [pk, px] of Object.entries(p)) {
        if (pk === 'layoutMsPerFrame') out.page.layoutMsPerFrame = limit('page.layoutMsPerFrame', px);
        else if (pk === 'inp') out.page.inp = limit('page.inp', px);
        else if (pk === 'cls') out.page.cls = limit('page.cls', px);
        else if (pk === 'domElements') out.page.domElements = domElements('page.domElements', px);
        else if (pk === 'stat') out.page.stat = stat('page.stat', px);
        else throw new BudgetError(`page.${pk} is not a budget field (layoutMsPerFrame, inp, cls, domElements, stat)`);
      }
    } else throw new BudgetError(`${show(k)} is not a budget section (defaults, components, page)`);
  }
  return out;
}

/** Parses a budget file's text: JSON errors and field errors alike become BudgetError. */
export function parseBudgetText(text: string): Budget {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new BudgetError(`not JSON: ${(e as Error).message}`);
  }
  return parseBudget(v);
}

/**
 * The limits for one component type: `defaults`, overridden by its entry — the exact name's if there is one, else
 * the first /regex/ in file order that matches. `entry` names it (null: defaults only).
 */
export function budgetFor(b: Budget, name: string): { budget: ComponentBudget; entry: string | null } {
  const hit = b.components.find((c) => c.exact && c.match(name)) ?? b.components.find((c) => !c.exact && c.match(name));
  return hit ? { budget: { ...b.defaults, ...hit.budget }, entry: hit.key } : { budget: { ...b.defaults }, entry: null };
}
