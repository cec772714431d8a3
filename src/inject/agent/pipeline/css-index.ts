/**
 * Which class names, ids and attributes the page's selectors read, and what the rules that read them can do
 * (issue 43): a class toggled that no selector mentions restyles nothing; one whose rules only set colours restyles
 * but moves no box; one that appears left of a combinator (`.dark .item`) restyles the subtree. The engine keeps the
 * same kind of index (Blink's invalidation sets); this is its coarse copy, built from `document.styleSheets`, the
 * adopted sheets and those of the shadow roots we know.
 *
 * Built on first use; rebuilt when the sheets' rule counts change (CSS-in-JS inserts rules as it meets new class
 * names), at most every REBUILD_MS. A sheet whose rules cannot be read (cross-origin) makes the index incomplete:
 * then a token it does not know counts as style and layout, the safe side.
 */
import { K_LAYOUT, K_STYLE, K_TREE, propertyKind } from './css-kinds';

/** Rules read in one build at most (a page with more is indexed in part, and incomplete). */
const MAX_RULES = 60_000;
const MAX_SELECTOR = 2_000;
/** Between two checks of the sheets' rule counts, and between two rebuilds. */
const CHECK_MS = 1_000;
const REBUILD_MS = 1_000;
/** A build that took longer than this waits this many times longer before the next one. */
const SLOW_BUILD_MS = 15;
const MAX_PAIRS = 4_096;
/** Lookups between two readings of the clock. */
const CHECK_CALLS = 64;

/** Pseudo-classes that read an attribute or a state an attribute sets: indexed under that attribute. */
const PSEUDO_ATTRIBUTES: Record<string, string> = {
  checked: 'checked', disabled: 'disabled', enabled: 'disabled', required: 'required', optional: 'required',
  'read-only': 'readonly', 'read-write': 'readonly', 'placeholder-shown': 'placeholder', default: 'checked',
  indeterminate: 'indeterminate', open: 'open', popover: 'popover', link: 'href', 'any-link': 'href', target: 'id',
  dir: 'dir', lang: 'lang',
};

export class CssIndex {
  private tokens = new Map<string, number>();
  private incomplete = false;
  private built = false;
  private signature = -1;
  private checkedAt = -Infinity;
  private builtAt = -Infinity;
  private waitMs = REBUILD_MS;
  private pairs = new Map<string, Map<string, number>>();
  private calls = 0;
  /** How many builds ran (internals, tests). */
  builds = 0;

  constructor(
    private readonly sheets: () => Iterable<CSSStyleSheet>,
    private readonly now: () => number,
  ) {}

  /** K_* bits of a class attribute going from `before` to `after` (the classes added or removed). */
  classChange(before: string, after: string): number {
    // A pair seen before (a busy commit asks hundreds of times): the sheets are checked every CHECK_CALLS calls only.
    if (++this.calls % CHECK_CALLS !== 0) {
      const known = this.pairs.get(before)?.get(after);
      if (known !== undefined) return known;
    }
    this.fresh();
    let byAfter = this.pairs.get(before);
    const known = byAfter?.get(after);
    if (known !== undefined) return known;
    const a = split(before), b = split(after);
    let kind = 0;
    for (const t of a) if (!b.includes(t)) kind |= this.token(`.${t}`);
    for (const t of b) if (!a.includes(t)) kind |= this.token(`.${t}`);
    if (this.pairs.size >= MAX_PAIRS) this.pairs.clear();
    if (!byAfter) this.pairs.set(before, (byAfter = new Map()));
    byAfter.set(after, kind);
    return kind;
  }

  /** K_* bits of an attribute `name` changing (an id: both ids, as `#id`). */
  attributeChange(name: string, before: string | null, after: string | null): number {
    this.fresh();
    if (name === 'id') return (before ? this.token(`#${before}`) : 0) | (after ? this.token(`#${after}`) : 0) | this.token('[id');
    return this.token(`[${name}`);
  }

  /** Tokens indexed (tests and internals). */
  get size(): number {
    return this.tokens.size;
  }

  private token(t: string): number {
    const k = this.tokens.get(t);
    if (k !== undefined) return k;
    return this.incomplete ? K_STYLE | K_LAYOUT : 0;
  }

  /** Builds the index on first use; rebuilds when the rule counts changed since (checked at most every CHECK_MS). */
  private fresh(): void {
    const now = this.now();
    if (this.built && now - this.checkedAt < CHECK_MS) return;
    this.checkedAt = now;
    const sig = this.countRules();
    if (this.built && sig === this.signature) return;
    if (this.built && now - this.builtAt < this.waitMs) return;
    this.build();
    this.signature = sig;
    const took = this.now() - now;
    this.builtAt = this.now();
    this.waitMs = took > SLOW_BUILD_MS ? REBUILD_MS * Math.min(30, took / SLOW_BUILD_MS * 4) : REBUILD_MS;
  }

  private countRules(): number {
    let n = 0;
    try {
      for (const s of this.sheets()) {
        n += 1_000_003;
        try {
          n += s.cssRules.length;
        } catch {
          // Cross-origin: its count is unknowable; the sheet itself still counts.
        }
      }
    } catch {
      return -2;
    }
    return n;
  }

  private build(): void {
    this.builds++;
    this.built = true;
    this.tokens = new Map();
    this.pairs.clear();
    this.incomplete = false;
    const budget = { rules: MAX_RULES };
    try {
      for (const s of this.sheets()) {
        let rules: CSSRuleList;
        try {
          rules = s.cssRules;
        } catch {
          this.incomplete = true;
          continue;
        }
        this.rules(rules, budget, 0);
      }
    } catch {
      this.incomplete = true;
    }
    if (budget.rules <= 0) this.incomplete = true;
  }

  private rules(list: CSSRuleList, budget: { rules: number }, depth: number): void {
    if (depth > 16) return;
    for (let i = 0; i < list.length && budget.rules > 0; i++) {
      budget.rules--;
      const r = list[i] as CSSRule & { selectorText?: unknown; style?: CSSStyleDeclaration; cssRules?: CSSRuleList; styleSheet?: CSSStyleSheet };
      try {
        if (typeof r.selectorText === 'string' && r.style) this.styleRule(r.selectorText, r.style);
        if (r.cssRules) this.rules(r.cssRules, budget, depth + 1);
        else if (r.styleSheet) this.rules(r.styleSheet.cssRules, budget, depth + 1);
      } catch {
        this.incomplete = true;
      }
    }
  }

  private styleRule(selector: string, style: CSSStyleDeclaration): void {
    let kind = K_STYLE;
    for (let i = 0; i < style.length && (kind & K_LAYOUT) === 0; i++) kind |= propertyKind(style[i]) & K_LAYOUT;
    if (selector.length > MAX_SELECTOR) {
      this.incomplete = true;
      return;
    }
    selectorTokens(selector, (token, tree) => {
      this.tokens.set(token, (this.tokens.get(token) ?? 0) | kind | (tree ? K_TREE : 0));
    });
  }
}

function split(classes: string): string[] {
  return classes.split(/\s+/).filter((c) => c.length > 0);
}

/**
 * Calls `visit(token, tree)` for every class (`.name`), id (`#name`) and attribute (`[name`) a selector list reads;
 * `tree` when it sits left of a combinator (its change restyles descendants or later siblings) or inside `:has()`.
 */
export function selectorTokens(selector: string, visit: (token: string, tree: boolean) => void): void {
  // Each compound's tokens wait until we know whether a combinator follows it; those inside :has() are tree anyway.
  const pending: string[] = [];
  const hasTree: boolean[] = [];
  let inHas = 0;
  const push = (t: string): void => {
    pending.push(t);
    hasTree.push(inHas > 0);
  };
  const flush = (tree: boolean): void => {
    for (let k = 0; k < pending.length; k++) visit(pending[k], tree || hasTree[k]);
    pending.length = hasTree.length = 0;
  };
  const stack: boolean[] = [];
  let i = 0;
  const n = selector.length;
  const ident = (from: number): number => {
    let j = from;
    while (j < n) {
      const c = selector.charCodeAt(j);
      if (c === 92 /* \ */) {
        j += 2;
        continue;
      }
      if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 45 || c === 95 || c > 127) j++;
      else break;
    }
    return j;
  };
  const name = (from: number, to: number): string => selector.slice(from, to).replace(/\\(.)/g, '$1');
  while (i < n) {
    const c = selector[i];
    if (c === '.' || c === '#') {
      const end = ident(i + 1);
      if (end > i + 1) push(`${c}${name(i + 1, end)}`);
      i = Math.max(end, i + 1);
    } else if (c === '[') {
      const end = ident(i + 1);
      let attr = name(i + 1, end).toLowerCase();
      // [ns|attr]: the name after the bar.
      if (selector[end] === '|' && selector[end + 1] !== '=') {
        const e2 = ident(end + 1);
        attr = name(end + 1, e2).toLowerCase();
      }
      if (attr) push(`[${attr}`);
      // Skip to the closing bracket (quotes may hold anything).
      let j = end;
      let quote = '';
      for (; j < n; j++) {
        const d = selector[j];
        if (quote) {
          if (d === '\\') j++;
          else if (d === quote) quote = '';
        } else if (d === '"' || d === '\'') quote = d;
        else if (d === ']') break;
      }
      i = j + 1;
    } else if (c === ':') {
      let j = i + 1;
      if (selector[j] === ':') j++;
      const end = ident(j);
      const pseudo = selector.slice(j, end).toLowerCase();
      const attr = PSEUDO_ATTRIBUTES[pseudo];
      if (attr) push(`[${attr}`);
      i = Math.max(end, i + 1);
      if (selector[i] === '(') {
        const has = pseudo === 'has';
        stack.push(has);
        if (has) inHas++;
        i++;
      }
    } else if (c === '(') {
      stack.push(false);
      i++;
    } else if (c === ')') {
      if (stack.pop()) inHas--;
      i++;
    } else if (c === ',') {
      // A new complex selector (top level or inside :is()): what waits is a subject unless inside :has().
      flush(inHas > 0);
      i++;
    } else if (c === '>' || c === '+' || c === '~' || c === ' ' || c === '\n' || c === '\t') {
      // Whitespace before a combinator or the end is not a descendant combinator.
      let j = i;
      while (j < n && (selector[j] === ' ' || selector[j] === '\n' || selector[j] === '\t')) j++;
      const next = selector[j];
      const combinator = c !== ' ' && c !== '\n' && c !== '\t' ? c : next === '>' || next === '+' || next === '~' ? next : ' ';
      const atEnd = j >= n || next === ',' || next === ')';
      if (!atEnd && pending.length > 0) flush(true);
      i = combinator === ' ' ? j : Math.max(i + 1, j === i ? i + 1 : j);
      if (combinator !== ' ' && selector[i] === combinator) i++;
    } else if (c === '"' || c === '\'') {
      // A string outside brackets (in :is() arguments of some pseudo): skip it.
      let j = i + 1;
      for (; j < n && selector[j] !== c; j++) if (selector[j] === '\\') j++;
      i = j + 1;
    } else {
      i++;
    }
  }
  flush(inHas > 0);
}
