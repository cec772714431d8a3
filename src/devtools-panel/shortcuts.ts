/**
 * Keyboard shortcuts while the panel has focus, and the browser-level
 * binding. DevTools swallows the browser's command shortcut when its own
 * window is focused, and Chromium may leave the command unbound anyway, so
 * the panel listens itself and sends 'toggle' {via: 'panel'} — the worker
 * de-duplicates with the other paths.
 */
export const IS_MAC = typeof navigator !== 'undefined' && /Mac/.test(navigator.platform);
export const DEFAULT_SHORTCUT = IS_MAC ? '⌘⇧L' : 'Ctrl+Shift+L';
export const COMMAND_NAME = 'cycle-mode';

/**
 * The shortcut Chrome assigned to the cycle command: '' when unassigned
 * (Chromium 156 leaves the suggested Ctrl+Shift+L so), null when
 * chrome.commands is not available in this context.
 */
export async function commandBinding(): Promise<string | null> {
  try {
    // chrome.* directly: this module is also loaded by unit tests, where the polyfill refuses to load.
    const cmds = await chrome.commands.getAll();
    return cmds.find((c) => c.name === COMMAND_NAME)?.shortcut ?? '';
  } catch (e) {
    console.debug('[layout-cost] chrome.commands unavailable', e);
    return null;
  }
}

/** "/" focuses the filter unless the user is typing somewhere already. */
export function isFilterShortcut(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>, target: EventTarget | null): boolean {
  if (e.key !== '/' || e.ctrlKey || e.metaKey || e.altKey) return false;
  const t = target as { tagName?: string; isContentEditable?: boolean } | null;
  return !(t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA' || t.isContentEditable));
}
