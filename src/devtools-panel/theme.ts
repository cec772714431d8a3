/**
 * Follows the DevTools theme. `chrome.devtools.panels.themeName` is
 * "default" (light) or "dark"; DevTools reports later changes through
 * `setThemeChangeHandler` where the browser has it. A `?theme=light|dark`
 * query overrides both, for loading panel.html outside DevTools (the
 * fallback test page and screenshots of a theme the browser is not in).
 */
export type Theme = 'light' | 'dark';

interface PanelsWithTheme {
  themeName?: string;
  setThemeChangeHandler?: (cb: (name: string) => void) => void;
}

function panels(): PanelsWithTheme | undefined {
  return (globalThis as { chrome?: { devtools?: { panels?: PanelsWithTheme } } }).chrome?.devtools?.panels;
}

export function themeFromName(name: string | undefined): Theme {
  return name === 'dark' ? 'dark' : 'light';
}

export function overrideTheme(search: string): Theme | null {
  const q = new URLSearchParams(search).get('theme');
  return q === 'dark' || q === 'light' ? q : null;
}

export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
}

/** Applies the current theme now and on every DevTools theme change. */
export function followTheme(): Theme {
  const forced = overrideTheme(location.search);
  const theme = forced ?? themeFromName(panels()?.themeName);
  applyTheme(theme);
  if (forced === null) {
    try {
      panels()?.setThemeChangeHandler?.((name) => applyTheme(themeFromName(name)));
    } catch (e) {
      // Older DevTools without live theme changes: the theme is read again when DevTools reopens.
      console.debug('[layout-cost] no theme change handler', e);
    }
  }
  return theme;
}
