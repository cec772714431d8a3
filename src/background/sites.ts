/**
 * Where the extension runs (issue 48; docs/SITES.md). On the sites developers work on — the default sites below — the
 * manifest's own content scripts run at every page load, as they always did. Everywhere else nothing of ours runs
 * until the user grants that site (the popup's "Run Layout Cost on example.com", an optional host permission); then
 * the worker registers the same two scripts for the granted origins (`registerContentScripts`, kept across browser
 * restarts). The browser's grants are the only record: a site revoked in chrome://extensions is gone here too.
 *
 * Pure: the worker (index.ts) and the unit tests use it.
 */

/**
 * The default sites, as match patterns: local hosts and the reserved development domains. A pattern without a port
 * matches every port; `*.localhost` matches `localhost` itself. Chrome's match patterns accept `[::1]`.
 */
export const DEFAULT_SITES: readonly string[] = [
  '*://*.localhost/*', '*://127.0.0.1/*', '*://[::1]/*', '*://*.test/*', '*://*.local/*', 'file:///*',
];

/** What "On all sites" grants (one optional host permission). */
export const ALL_SITES = '*://*/*';

/** The ids of the worker's registrations for granted sites: the boot in the isolated world, and in the page's. */
export const SITE_SCRIPT_IDS = { content: 'layout-cost-sites', main: 'layout-cost-sites-main' } as const;

/** The grant the popup asks for on a page: its origin, any path (null: not a page the extension may ever run on). */
export function originPattern(url: string | undefined | null): string | null {
  if (typeof url !== 'string') return null;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return null;
  // A grant is for the host on every port (match patterns take no port range), as the default sites are.
  return `${u.protocol}//${u.hostname}/*`;
}

/** The host as the popup names it ("example.com"), or null. */
export function siteName(url: string | undefined | null): string | null {
  try {
    const u = new URL(url ?? '');
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.hostname : u.protocol === 'file:' ? 'local files' : null;
  } catch {
    return null;
  }
}

/** Whether a default site's pattern holds this URL (the manifest's scripts run there whatever was granted). */
export function isDefaultSite(url: string | undefined | null): boolean {
  let u: URL;
  try {
    u = new URL(url ?? '');
  } catch {
    return false;
  }
  if (u.protocol === 'file:') return true;
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return false;
  const h = u.hostname;
  return h === 'localhost' || h.endsWith('.localhost') || h === '127.0.0.1' || h === '[::1]' || h.endsWith('.test') || h.endsWith('.local');
}

/** The granted origins that are not default sites (the browser's list also holds the manifest's own). */
export function grantedSites(origins: readonly string[] | undefined): string[] {
  const defaults = new Set(DEFAULT_SITES);
  const out: string[] = [];
  for (const o of origins ?? []) {
    if (typeof o !== 'string' || defaults.has(o) || out.includes(o)) continue;
    out.push(o === '<all_urls>' ? ALL_SITES : o);
  }
  return out.includes(ALL_SITES) ? [ALL_SITES] : out;
}

/** Whether the granted sites (grantedSites) hold this URL. */
export function siteGranted(url: string | undefined | null, granted: readonly string[]): boolean {
  if (granted.includes(ALL_SITES)) return originPattern(url) !== null;
  const want = originPattern(url);
  if (want === null) return false;
  // Grants are whole hosts (originPattern) or patterns with a leading wildcard the user gave in chrome://extensions.
  const host = new URL(url as string).hostname;
  return granted.some((g) => {
    if (g === want) return true;
    const m = /^(\*|https?):\/\/(\*\.)?([^/:]+)(?::\d+)?\/\*?$/.exec(g);
    if (!m) return false;
    const scheme = want.slice(0, want.indexOf(':'));
    if (m[1] !== '*' && m[1] !== scheme) return false;
    return m[2] ? host === m[3] || host.endsWith(`.${m[3]}`) : host === m[3];
  });
}

/** Whether the extension runs on this page at its next load: a default site, or a granted one. */
export function runsOn(url: string | undefined | null, granted: readonly string[]): boolean {
  return isDefaultSite(url) || siteGranted(url, granted);
}

/** The content-script registrations for the granted sites (none when nothing is granted). */
export function siteScripts(granted: readonly string[]): chrome.scripting.RegisteredContentScript[] {
  if (granted.length === 0) return [];
  const common = {
    matches: [...granted], excludeMatches: [...DEFAULT_SITES], allFrames: true, matchOriginAsFallback: true,
    runAt: 'document_start' as const, persistAcrossSessions: true,
  };
  return [
    { id: SITE_SCRIPT_IDS.content, js: ['content.js'], ...common },
    { id: SITE_SCRIPT_IDS.main, js: ['inject.js'], world: 'MAIN' as chrome.scripting.ExecutionWorld, ...common },
  ];
}
