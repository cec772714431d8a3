/** Ctrl+Shift+L (⌘⇧L on macOS), whatever the keyboard layout prints for L. */
export function isToggleShortcut(e: KeyboardEvent): boolean {
  if (!e.shiftKey || e.altKey || e.repeat) return false;
  const mac = /Mac|iPhone|iPad/.test(navigator.platform);
  const mod = mac ? e.metaKey : e.ctrlKey;
  return mod && (e.code === 'KeyL' || e.key === 'L' || e.key === 'l');
}
