/**
 * Where Layout Cost runs, in the panel (issue 48, docs/SITES.md). On a site it does not run on, a bar under the status
 * line says why the panel shows nothing and offers "Run Layout Cost on example.com" (the browser's permission prompt,
 * asked in the click's own handler; then the worker registers the scripts and reloads the page). The Settings tab's
 * "Where it runs" section has "Stop on this site" for a granted site and the "On all sites" switch.
 */
import { ALL_SITES, SITE_SOURCE, siteView, type SiteView as Site } from '../protocol/sites';
import { el, setText } from './dom';

export interface SiteCallbacks {
  /** The inspected page's URL (null: unknown). */
  url(): Promise<string | null>;
  /** The inspected tab (-1 outside DevTools). */
  tabId: number;
  flash(ok: boolean, message: string): void;
  /** Where it stands changed (the panel's status line follows). */
  changed(): void;
}

export class SiteBar {
  /** Under the status line: shown only where Layout Cost does not run. */
  readonly root = el('div', { class: 'site-bar', id: 'site-bar', attrs: { hidden: '' } });
  /** In the Settings tab. */
  readonly settings: HTMLElement;
  private readonly text = el('span', { class: 'site-text' });
  private readonly run = el('button', { id: 'site-run', class: 'primary' });
  private readonly here = el('p', { id: 'site-here' });
  private readonly stop = el('button', { id: 'site-stop', attrs: { hidden: '' } }, 'Stop on this site');
  private readonly all: HTMLInputElement;
  private site: Site | null = null;
  private readonly covered: readonly string[] = chrome.runtime.getManifest().content_scripts?.[0]?.matches ?? [];

  constructor(private readonly cb: SiteCallbacks) {
    this.run.addEventListener('click', () => {
      if (this.site?.pattern) this.ask([this.site.pattern]);
    });
    this.stop.addEventListener('click', () => {
      if (this.site?.pattern) this.drop([this.site.pattern]);
    });
    this.all = el('input', { id: 'site-all', attrs: { type: 'checkbox' } });
    this.all.addEventListener('change', () => (this.all.checked ? this.ask([ALL_SITES]) : this.drop([ALL_SITES])));
    this.root.append(this.text, this.run);
    this.settings = el('fieldset', { id: 'site-settings' }, el('legend', {}, 'Where it runs'), this.here, this.stop,
      el('label', {}, this.all, ' On all sites (otherwise: localhost, 127.0.0.1, *.test, *.local, files, and the sites you allow)'));
    if (this.covered.includes('<all_urls>')) this.all.disabled = true;
    // Firefox gives a DevTools panel no permissions API: it says where it runs from the manifest alone there, and
    // the toolbar popup grants sites.
    this.permissions = typeof chrome.permissions?.getAll === 'function' ? chrome.permissions : null;
    this.permissions?.onAdded.addListener(() => void this.refresh());
    this.permissions?.onRemoved.addListener(() => void this.refresh());
    if (this.permissions === null) this.all.disabled = true;
  }

  private readonly permissions: typeof chrome.permissions | null;

  /** Reads the page's URL and the browser's grants again (on open, on navigation, on a grant's change). */
  private lastUrl: string | null = null;

  /** The top frame's status named its URL: read again when the page is another. */
  seen(url: string): void {
    if (url !== this.lastUrl) void this.refresh(url);
  }

  async refresh(known?: string): Promise<void> {
    const url = known ?? await this.cb.url().catch(() => null);
    this.lastUrl = url;
    const origins = this.permissions ? (await this.permissions.getAll()).origins : [];
    this.show(siteView(url, this.covered, origins));
  }

  /** Layout Cost does not run on the inspected page. */
  get off(): boolean {
    return this.site !== null && (this.site.access === 'off' || this.site.access === 'never');
  }

  private show(v: Site): void {
    const was = this.off;
    this.site = v;
    if (this.off !== was) this.cb.changed();
    const name = v.name ?? 'this page';
    const off = v.access === 'off' || v.access === 'never';
    this.root.hidden = !off;
    this.root.dataset.access = v.access;
    if (v.access === 'off') {
      setText(this.text, `Layout Cost does not run on ${name}: nothing of it is loaded there until you ask. `);
      setText(this.run, `Run Layout Cost on ${name}`);
      this.run.hidden = v.pattern === null;
    } else if (v.access === 'never') {
      setText(this.text, 'Layout Cost cannot run on this page (a browser page, the web store, or a file without file access).');
      this.run.hidden = true;
    }
    setText(this.here, v.access === 'default' ? `It runs on ${name}: a development site.`
      : v.access === 'granted' ? `It runs on ${name}: you allowed it.`
        : v.access === 'all-sites' ? 'It runs on every site.'
          : v.access === 'off' ? `It does not run on ${name}.` : 'It cannot run on this page.');
    this.stop.hidden = v.access !== 'granted';
    this.all.checked = v.allSites;
  }

  /** In the click's own handler: the permission request must be the gesture's first call. */
  private ask(origins: string[]): void {
    this.root.dataset.state = 'asking';
    if (this.permissions === null) return this.cb.flash(false, 'Allow the site from the toolbar button\'s popup');
    this.permissions.request({ origins }).then((ok) => {
      this.root.dataset.state = ok ? 'granted' : 'declined';
      if (ok) return this.changed();
      this.all.checked = false;
      return undefined;
    }, (e: unknown) => {
      this.root.dataset.state = 'failed';
      this.cb.flash(false, `The browser refused: ${String(e).slice(0, 160)}`);
    });
  }

  private drop(origins: string[]): void {
    if (this.permissions === null) return this.cb.flash(false, 'Stop it from the toolbar button\'s popup');
    this.permissions.remove({ origins }).then(() => this.changed(), (e: unknown) => this.cb.flash(false, `Could not remove: ${String(e).slice(0, 160)}`));
  }

  /** The worker follows the grants, then reloads the page (the hook must load before React). */
  private async changed(): Promise<void> {
    await chrome.runtime.sendMessage({ source: SITE_SOURCE, type: 'siteChanged', tabId: this.cb.tabId });
    await this.refresh();
  }
}
