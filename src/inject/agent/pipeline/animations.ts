/**
 * What an animation or transition animates, as css-kinds.ts bits (issue 43: a CSS animation on a component's element
 * belongs to that component, not to `<page>`). Read once per animation (its keyframes do not change while it runs).
 */
import { propertyKind } from './css-kinds';

const NOT_PROPERTIES = new Set(['offset', 'computedOffset', 'easing', 'composite']);

export function animationKind(a: Animation): number {
  try {
    const t = (a as Animation & { transitionProperty?: unknown }).transitionProperty;
    if (typeof t === 'string') return propertyKind(t);
    const effect = a.effect as KeyframeEffect | null;
    if (!effect || typeof effect.getKeyframes !== 'function') return 0;
    let kind = 0;
    const frames = effect.getKeyframes();
    for (let i = 0; i < frames.length && i < 64; i++) {
      for (const k of Object.keys(frames[i])) if (!NOT_PROPERTIES.has(k)) kind |= propertyKind(k);
    }
    return kind;
  } catch {
    // A page's own Animation subclass with hostile getters: not a cause we can read.
    return 0;
  }
}
