/**
 * The toggle shortcut, as the content script's boot and the panel both check
 * it (the one definition): Ctrl+Shift+L (⌘⇧L on macOS), whatever the keyboard
 * layout prints for L. Its own module, so the boot imports nothing else.
 */
export type ShortcutKeyEvent = Pick<KeyboardEvent, 'shiftKey' | 'altKey' | 'repeat' | 'metaKey' | 'ctrlKey' | 'code' | 'key'>;

export function isToggleShortcut(e: ShortcutKeyEvent, mac: boolean): boolean {
  if (!e.shiftKey || e.altKey || e.repeat) return false;
  const mod = mac ? e.metaKey : e.ctrlKey;
  return mod && (e.code === 'KeyL' || e.key === 'L' || e.key === 'l');
}
