/**
 * Whose code a component is (issue 44): the app's own, a library's, or the framework's — told from where its type is
 * defined: the original file a source map gave, else the script's URL. Pure; shared by the content script (meters and
 * snapshot), the panel (rows and filters) and the unit tests.
 *
 * - framework: React itself and what runs the app around it — react, react-dom, scheduler, react-refresh, Next.js
 *   (`next/dist`, its dev overlay), Vite's client (`/@vite/`, `/@react-refresh`); Vue itself (vue, @vue/*: its
 *   `<KeepAlive>`, `<Transition>`, `<Suspense>`'s async wrappers; issue 63); Preact itself (preact, preact/compat,
 *   @preact/*; issue 64);
 * - library: any other package (`node_modules/`, Vite's prebundled `/.vite/deps/`, a package CDN);
 * - own: everything else, and whatever cannot be placed (a component we cannot place is shown, never hidden).
 */
export type ComponentKind = 'own' | 'library' | 'framework';

export const COMPONENT_KINDS: readonly ComponentKind[] = ['own', 'library', 'framework'];

const FRAMEWORK_PACKAGES = /(?:^|[/\\])node_modules[/\\](?:\.pnpm[/\\][^/\\]+[/\\]node_modules[/\\])?(?:react|react-dom|scheduler|react-refresh|next|react-server-dom-[\w-]+|@vitejs[/\\][\w-]+|vite|vue|@vue[/\\][\w-]+|preact|@preact[/\\][\w-]+)(?:[/\\]|$)/;
/**
 * Framework URLs and map sources: Vite's client, Next's own code and chunks, and a package's own precompiled map named
 * by its webpack namespace (Next's dev overlay ships `webpack://next/./src/next-devtools/…`, which a Turbopack dev
 * chunk's map passes on).
 */
const FRAMEWORK_URLS = /\/@vite\/client|\/@react-refresh|\/next\/dist\/|\[project\]\/node_modules\/next\/|\/_next\/static\/chunks\/(?:framework|main|webpack|polyfills|react-refresh)[-.]|^webpack:\/\/(?:next|react|react-dom|scheduler|react-refresh)\//;
const PACKAGE = /(?:^|[/\\])node_modules[/\\]|\/\.vite\/deps\/|^https?:\/\/(?:unpkg\.com|cdn\.jsdelivr\.net|esm\.sh|cdnjs\.cloudflare\.com|cdn\.skypack\.dev|ga\.jspm\.io)\//;

/** The kind a location says, or null when it says nothing (no location). */
export function kindOfLocation(location: string | null | undefined): ComponentKind | null {
  if (typeof location !== 'string' || location.length === 0) return null;
  const at = location.length > 2000 ? location.slice(0, 2000) : location;
  if (FRAMEWORK_PACKAGES.test(at) || FRAMEWORK_URLS.test(at)) return 'framework';
  if (PACKAGE.test(at)) return 'library';
  return 'own';
}

/**
 * A located type's kind: the mapped original file decides when there is one (a bundle holds the app and its packages
 * alike), else the script's URL; a type not placed is the app's own.
 */
export function kindOfType(original: string | null | undefined, script: string | null | undefined): ComponentKind {
  return kindOfLocation(original) ?? kindOfLocation(script) ?? 'own';
}
