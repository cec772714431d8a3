/**
 * Where the extension runs (issue 48; docs/SITES.md). On the sites developers work on — the default sites below — the
 * manifest's own content scripts run at every page load, as they always did. Everywhere else nothing of ours runs
 * until the user grants that site (the toolbar popup's or the panel's "Run Layout Cost on example.com": an optional
 * host permission); then the worker registers the same two scripts for the granted sites (`registerContentScripts`,
 * kept across browser restarts). The browser's grants are the only record: a site revoked in chrome://extensions is
 * gone here too.
 *
 * Pure: the worker, the popup, the panel and the unit tests use it.
 */

/**
 * The default sites, as match patterns: local hosts and the reserved development domains. A pattern without a port
 * matches every port; `*.localhost` matches `localhost` itself. Chrome's match patterns accept `[::1]`.
 */
export const DEFAULT_SITES: readonly string[] = [
  '*://*.localhost/*', '*://127.0.0.1/*', '*://[::1]/*', '*://*.test/*', '*://*.local/*', 'file:///*',
];

/**
 * What "On all sites" grants (the one optional host permission). `<all_urls>` rather than every http(s) host: Chrome lets an
 * extension capture a tab (an experiment's pixel comparison) only with `<all_urls>` or a fresh activeTab grant.
 */
export const ALL_SITES = '<all_urls>';

/** The ids of the worker's registrations for granted sites: the boot in the isolated world, and in the page's. */
export const SITE_SCRIPT_IDS = { content: 'layout-cost-sites', main: 'layout-cost-sites-main' } as const;

function parse(url: string | undefined | null): URL | null {
  if (typeof url !== 'string' || url.length > 8192) return null;
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

/** The grant asked for on a page: its host, both schemes, every port and path (null: a page no grant can reach). */
export function sitePattern(url: string | undefined | null): string | null {
  const u = parse(url);
  return u && (u.protocol === 'http:' || u.protocol === 'https:') && u.hostname ? `*://${u.hostname}/*` : null;
}

/** The site as the popup and the panel name it ("example.com"), or null. */
export function siteName(url: string | undefined | null): string | null {
  const u = parse(url);
  if (!u) return null;
  if (u.protocol === 'http:' || u.protocol === 'https:') return u.hostname || null;
  return u.protocol === 'file:' ? 'local files' : null;
}

/** A match pattern's scheme and host parts, for the few shapes grants take. */
function matches(pattern: string, u: URL): boolean {
  if (pattern === '<all_urls>') return /^(https?|file):$/.test(u.protocol);
  if (pattern === 'file:///*') return u.protocol === 'file:';
  const m = /^(\*|https?):\/\/(\*|(?:\*\.)?(?:\[[0-9a-fA-F:.]+\]|[^/:*[\]]+))(?::\d+)?\/.*$/.exec(pattern);
  if (!m || (u.protocol !== 'http:' && u.protocol !== 'https:')) return false;
  if (m[1] !== '*' && `${m[1]}:` !== u.protocol) return false;
  const host = m[2];
  if (host === '*') return true;
  if (host.startsWith('*.')) return u.hostname === host.slice(2) || u.hostname.endsWith(host.slice(1));
  return u.hostname === host;
}

/** Whether any of these patterns holds the URL. */
export function anyMatches(patterns: readonly string[], url: string | undefined | null): boolean {
  const u = parse(url);
  return u !== null && patterns.some((p) => matches(p, u));
}

/**
 * The granted sites the manifest's own scripts do not already cover (`covered`: their matches — the default sites, or
 * every site in the automation build), "On all sites" standing for every one.
 */
export function grantedSites(origins: readonly string[] | undefined, covered: readonly string[]): string[] {
  if (covered.includes('<all_urls>') || covered.includes('*://*/*')) return [];
  const out: string[] = [];
  for (const o of origins ?? []) {
    if (typeof o !== 'string' || covered.includes(o)) continue;
    if (o === '<all_urls>' || o === '*://*/*') return [ALL_SITES];
    if (!out.includes(o)) out.push(o);
  }
  return out;
}

/** How the extension stands on a page: the manifest's scripts run there, a grant's do, or nothing of ours does. */
export type SiteAccess = 'default' | 'granted' | 'all-sites' | 'off' | 'never';

export function siteAccess(url: string | undefined | null, covered: readonly string[], granted: readonly string[]): SiteAccess {
  const u = parse(url);
  if (!u || !/^(https?|file):$/.test(u.protocol)) return 'never';
  if (anyMatches(covered, url)) return 'default';
  if (u.protocol === 'file:') return 'never';
  if (granted.includes(ALL_SITES)) return 'all-sites';
  return anyMatches(granted, url) ? 'granted' : 'off';
}

/** The content-script registrations for the granted sites (none when nothing is granted). */
export function siteScripts(granted: readonly string[], covered: readonly string[]): chrome.scripting.RegisteredContentScript[] {
  if (granted.length === 0) return [];
  const common = {
    matches: [...granted], excludeMatches: covered.filter((c) => c !== 'file:///*'), allFrames: true, matchOriginAsFallback: true,
    runAt: 'document_start' as const, persistAcrossSessions: true,
  };
  return [
    { id: SITE_SCRIPT_IDS.content, js: ['content.js'], ...common },
    { id: SITE_SCRIPT_IDS.main, js: ['inject.js'], world: 'MAIN' as chrome.scripting.ExecutionWorld, ...common },
  ];
}

/** An extension page (the popup, the panel) telling the worker that the user granted or revoked a site. */
export interface SiteChanged {
  source: typeof SITE_SOURCE;
  type: 'siteChanged';
  /** The tab to reload once the worker's registrations follow the grants (-1: none). */
  tabId: number;
}

export const SITE_SOURCE = 'layout-cost-site';

export function parseSiteChanged(raw: unknown): SiteChanged | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const m = raw as Record<string, unknown>;
  if (m.source !== SITE_SOURCE || m.type !== 'siteChanged') return null;
  const tabId = m.tabId;
  if (typeof tabId !== 'number' || !Number.isInteger(tabId) || tabId < -1 || tabId > 2 ** 31) return null;
  return { source: SITE_SOURCE, type: 'siteChanged', tabId };
}

/** What a page of ours shows about a site: where it stands and the grant a click would ask for. */
export interface SiteView {
  access: SiteAccess;
  /** "example.com", "local files", or null (a page no grant reaches). */
  name: string | null;
  /** The host permission "Run Layout Cost on …" asks for (null: none can be asked for here). */
  pattern: string | null;
  /** "On all sites" is granted. */
  allSites: boolean;
}

/** The view of a URL given the manifest's matches and the browser's granted origins. */
export function siteView(url: string | undefined | null, covered: readonly string[], origins: readonly string[] | undefined): SiteView {
  const granted = grantedSites(origins, covered);
  return {
    access: siteAccess(url, covered, granted), name: siteName(url), pattern: sitePattern(url),
    allSites: granted.includes(ALL_SITES) || covered.includes('<all_urls>'),
  };
}
