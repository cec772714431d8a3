/**
 * The toolbar button's popup on a site where Layout Cost does not run (issue 48, docs/SITES.md): the worker opens it
 * when the button or Ctrl+Shift+L is pressed there. "Run Layout Cost on example.com" asks the browser for that site
 * in the click's own handler (a permission request needs the user's gesture), the worker registers the scripts, and
 * the tab reloads (the hook must be in the page before React). "On all sites" asks for every site at once.
 *
 * Opened as a tab for tests and debugging: popup.html?tab=N names the tab it is about.
 */
import { ALL_SITES, SITE_SOURCE, siteView, type SiteView } from '../protocol/sites';

const root = document.getElementById('popup') as HTMLElement;
const covered: readonly string[] = chrome.runtime.getManifest().content_scripts?.[0]?.matches ?? [];

function node<K extends keyof HTMLElementTagNameMap>(tag: K, text = '', attrs: Record<string, string> = {}): HTMLElementTagNameMap[K] {
  const n = document.createElement(tag);
  n.textContent = text;
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  return n;
}

/**
 * The tab it is about: the worker names it (popup.html?tab=N&url=…, the URL it saw through the press's activeTab
 * grant, which the popup does not get), else the active tab.
 */
async function theTab(): Promise<{ id: number; url: string | undefined }> {
  const q = new URLSearchParams(location.search);
  const asked = Number(q.get('tab') ?? NaN);
  if (Number.isInteger(asked) && asked >= 0) {
    const t = await chrome.tabs.get(asked).catch(() => null);
    return { id: asked, url: t?.url ?? q.get('url') ?? undefined };
  }
  const [t] = await chrome.tabs.query({ active: true, currentWindow: true });
  return { id: t?.id ?? -1, url: t?.url };
}

/** Grants changed (in a click handler here): the worker follows them, then reloads the tab; the popup closes. */
async function changed(tabId: number): Promise<void> {
  document.body.dataset.state = 'reloading';
  await chrome.runtime.sendMessage({ source: SITE_SOURCE, type: 'siteChanged', tabId });
  // As the toolbar's popup it closes; opened in a tab (tests, debugging) it shows where things stand now.
  if (chrome.extension.getViews({ type: 'popup' }).includes(window)) window.close();
  else await render();
}

/** Asks for `origins` in the click's own handler: the request must be the gesture's first call. */
function ask(origins: string[], tabId: number): void {
  document.body.dataset.state = 'asking';
  chrome.permissions.request({ origins }).then((granted) => {
    document.body.dataset.state = granted ? 'granted' : 'declined';
    if (granted) return changed(tabId);
    return undefined;
  }, (e: unknown) => {
    document.body.dataset.state = 'failed';
    root.append(node('p', `The browser refused: ${String(e).slice(0, 200)}`, { class: 'note' }));
  });
}

function drop(origins: string[], tabId: number): void {
  chrome.permissions.remove({ origins }).then(() => changed(tabId), (e: unknown) => {
    root.append(node('p', `Could not remove: ${String(e).slice(0, 200)}`, { class: 'note' }));
  });
}

function show(v: SiteView, tabId: number): void {
  root.replaceChildren();
  document.body.dataset.access = v.access;
  const site = v.name ?? 'this page';
  if (v.access === 'off' && v.pattern !== null) {
    root.append(node('p', `Layout Cost does not run on ${site}: nothing of it is loaded there until you ask.`));
    const run = node('button', `Run Layout Cost on ${site}`, { class: 'primary', id: 'run' });
    const pattern = v.pattern;
    run.addEventListener('click', () => ask([pattern], tabId));
    root.append(run, node('p', 'The page reloads, so that Layout Cost is there before React starts.', { class: 'note' }));
  } else if (v.access === 'granted' && v.pattern !== null) {
    root.append(node('p', `Layout Cost runs on ${site}: you allowed it. Press Ctrl+Shift+L on the page.`));
    const stop = node('button', 'Stop on this site', { id: 'stop' });
    const pattern = v.pattern;
    stop.addEventListener('click', () => drop([pattern], tabId));
    root.append(stop);
  } else if (v.access === 'default') {
    root.append(node('p', `Layout Cost runs on ${site}: a development site (localhost, *.test, *.local, files). Press Ctrl+Shift+L on the page.`));
  } else if (v.access === 'all-sites') {
    root.append(node('p', 'Layout Cost runs on every site. Press Ctrl+Shift+L on the page.'));
  } else {
    root.append(node('p', 'Layout Cost cannot run on this page (a browser page, the web store, or a file without file access).'));
  }
  if (covered.includes('<all_urls>')) return; // the automation build runs everywhere already
  const label = node('label');
  const box = node('input', '', { type: 'checkbox', id: 'all-sites' });
  box.checked = v.allSites;
  box.addEventListener('change', () => (box.checked ? ask([ALL_SITES], tabId) : drop([ALL_SITES], tabId)));
  label.append(box, node('span', 'On all sites'));
  root.append(label);
}

async function render(): Promise<void> {
  const tab = await theTab();
  const origins = (await chrome.permissions.getAll()).origins;
  show(siteView(tab.url, covered, origins), tab.id);
  document.body.dataset.ready = 'true';
}

render().catch((e: unknown) => {
  root.replaceChildren(node('p', `Layout Cost could not read this tab: ${String(e).slice(0, 200)}`, { class: 'note' }));
});
