/**
 * What the forced-reflow timer wraps: the DOM APIs that make the browser
 * bring style and layout up to date synchronously when page code calls them
 * with something dirty (the usual "what forces layout" list), each with the
 * rule that names the node it reads, for attribution.
 *
 * Computed style: `getComputedStyle()` itself flushes nothing — reading a
 * property of the returned declaration does. `getPropertyValue()` is a
 * prototype method and is timed; named reads (`cs.width`) are own properties
 * served by an interceptor on each declaration and cannot be wrapped without
 * a Proxy (which would break identity and native `this` checks), so they are
 * not timed. See docs/TIMING.md.
 */
import { OwnerKind, type WrapKind, type WrapSpec } from './wrap';


type Group = [proto: object | undefined, kind: WrapKind, owner: OwnerKind, names: string[]];

/** The wrap list for one window; prototypes missing in this browser are skipped. */
export function layoutReadTargets(win: Window & typeof globalThis): WrapSpec[] {
  const p = (ctor: { prototype: object } | undefined): object | undefined => ctor?.prototype;
  const w = win as unknown as Record<string, { prototype: object } | undefined>;
  const groups: Group[] = [
    [p(win.Element), 'get', OwnerKind.Self, ['clientTop', 'clientLeft', 'clientWidth', 'clientHeight', 'scrollWidth', 'scrollHeight']],
    // Writing scrollTop/scrollLeft clamps against the laid-out size: it forces layout too.
    [p(win.Element), 'getset', OwnerKind.Self, ['scrollTop', 'scrollLeft']],
    [p(win.Element), 'method', OwnerKind.Self, ['getBoundingClientRect', 'getClientRects', 'scrollIntoView',
      'scrollIntoViewIfNeeded', 'scrollTo', 'scrollBy', 'scroll', 'computedStyleMap', 'checkVisibility']],
    [p(win.HTMLElement), 'get', OwnerKind.Self, ['offsetTop', 'offsetLeft', 'offsetWidth', 'offsetHeight', 'offsetParent',
      'innerText', 'outerText']],
    // focus() runs focus/blur handlers inside itself: its flush is timed just before it (wrap.ts 'preflush').
    [p(win.HTMLElement), 'preflush', OwnerKind.Self, ['focus']],
    [p(w.SVGElement), 'preflush', OwnerKind.Self, ['focus']],
    [p(w.SVGGraphicsElement), 'method', OwnerKind.Self, ['getBBox', 'getScreenCTM']],
    [p(win.Range), 'method', OwnerKind.RangeStart, ['getBoundingClientRect', 'getClientRects']],
    [p(win.Document), 'method', OwnerKind.Page, ['elementFromPoint', 'elementsFromPoint', 'caretPositionFromPoint',
      'caretRangeFromPoint']],
    [p(win.ShadowRoot), 'method', OwnerKind.ShadowHost, ['elementFromPoint', 'elementsFromPoint']],
    [p(win.MouseEvent), 'get', OwnerKind.EventTarget, ['offsetX', 'offsetY', 'layerX', 'layerY']],
    [p(win.CSSStyleDeclaration), 'method', OwnerKind.Declaration, ['getPropertyValue']],
    // Members of the global object are own properties of window itself.
    [win, 'get', OwnerKind.Page, ['scrollX', 'scrollY', 'pageXOffset', 'pageYOffset', 'innerWidth', 'innerHeight']],
    [win, 'method', OwnerKind.Page, ['scrollTo', 'scrollBy', 'scroll']],
    [win, 'remember', OwnerKind.Declaration, ['getComputedStyle']],
  ];
  const specs: WrapSpec[] = [];
  for (const [target, kind, owner, names] of groups) {
    if (!target) continue;
    for (const name of names) specs.push({ target, name, kind, owner });
  }
  return specs;
}
