/**
 * Where it runs (issue 48, docs/SITES.md), from Chrome's own trace: on a site not enabled (a host mapped to the
 * fixture server with --host-resolver-rules) no script of ours is evaluated and the page has no `__LAYOUT_COST__`;
 * on a default site all is as before. The toolbar press there offers the popup, whose button raises the browser's
 * permission prompt in the click's own gesture.
 *
 * The prompt itself cannot be answered over CDP (Chrome plumbs no extension dialog to the protocol). The grant's
 * other half is driven the way chrome://extensions drives it: a copy of the extension whose manifest names the site
 * as a host permission (what "Allow" leaves the browser holding), withdrawn and given back with the extensions page's
 * own site-access calls — each fires the same permissions.onRemoved / onAdded the prompt's answer fires. After each,
 * the worker's registrations follow, the page works or is clean after a reload, and all of it survives a restart.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Page } from 'puppeteer-core';
import { DIST, launch, lc, openPanel, waitFor, type Harness } from './harness';

const SITE = 'example.com';
const RULES = `--host-resolver-rules=MAP ${SITE} 127.0.0.1`;

interface TraceEvent { name: string; args?: { data?: { url?: string } } }

/** Our files Chrome evaluated while `during` ran (EvaluateScript events under the extension's URL). */
async function ourScripts(page: Page, extensionId: string, during: () => Promise<unknown>): Promise<string[]> {
  await page.tracing.start({ categories: ['devtools.timeline', 'v8'] });
  await during();
  // A page in a new renderer process: give its events a moment to reach the trace before it stops.
  await new Promise((r) => setTimeout(r, 300));
  const raw = await page.tracing.stop();
  const { traceEvents } = JSON.parse(Buffer.from(raw ?? new Uint8Array()).toString('utf8')) as { traceEvents: TraceEvent[] };
  const prefix = `chrome-extension://${extensionId}/`;
  // EvaluateScript, or the compile of a script (v8.compile) when the evaluation's event went missing: a file counts once.
  const files = traceEvents.filter((e) => (e.name === 'EvaluateScript' || e.name === 'v8.compile') && (e.args?.data?.url ?? '').startsWith(prefix))
    .map((e) => (e.args?.data?.url ?? '').slice(prefix.length));
  return [...new Set(files)].sort();
}

const at = (h: Harness, host: string, p: string): string => h.url(p).replace('127.0.0.1', host);
const hasGlobal = (page: Page): Promise<boolean> => page.evaluate(() => typeof (window as any).__LAYOUT_COST__ === 'object');
const ready = (page: Page): Promise<unknown> => waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true), { what: 'the fixture' });

describe('where it runs: a site not enabled (e2e)', function () {
  this.timeout(120_000);
  let h: Harness;
  before(async () => {
    h = await launch({ args: [RULES] });
  });
  after(async () => h?.close());

  it('nothing of ours on a site not enabled (the trace evaluates none of our files, no global), as before on a default site', async () => {
    // Each from a fresh page, the same way: the default site's two files are what shows the trace would see ours.
    const load = async (url: string): Promise<{ files: string[]; global: boolean; page: Page }> => {
      const p = await h.browser.newPage();
      const files = await ourScripts(p, h.extensionId, async () => {
        await p.goto(url, { waitUntil: 'load' });
        await ready(p);
      });
      return { files, global: await hasGlobal(p), page: p };
    };
    const on = await load(h.url('basic-r19.html'));
    await on.page.close();
    expect(on.files, 'our scripts on a default site').to.deep.equal(['content.js', 'inject.js']);
    expect(on.global).to.equal(true);
    const { files: off, global, page } = await load(at(h, SITE, 'basic-r19.html'));
    try {
      expect(off, `our scripts on ${SITE}`).to.deep.equal([]);
      expect(global, 'window.__LAYOUT_COST__').to.equal(false);
      await page.goto(h.url('basic-r19.html'), { waitUntil: 'load' });
      await ready(page);
      // A frame follows its own site's grant: example.com inside a default site's page stays clean.
      await page.evaluate((src) => new Promise((r) => {
        const f = document.createElement('iframe');
        f.src = src;
        f.onload = r;
        document.body.append(f);
      }), at(h, SITE, 'plain.html?frame=1'));
      const frame = await waitFor(() => page.frames().find((f) => f.url().includes(`${SITE}:`)) ?? null, { what: 'the frame' });
      expect(await frame.evaluate(() => typeof (window as any).__LAYOUT_COST__)).to.equal('undefined');
    } finally {
      await page.close();
    }
  });

  it('the toolbar press there offers the popup; its button raises the permission prompt in the click\'s gesture', async () => {
    const page = await h.browser.newPage();
    const w = await h.worker();
    try {
      // The tab's id, found by its address on a default site (the worker sees those), before it goes to the other.
      await page.goto(h.url('plain.html?find-me'), { waitUntil: 'load' });
      const tabId = await w.evaluate(async () => (await chrome.tabs.query({})).find((t) => t.url?.endsWith('find-me'))?.id ?? -1);
      expect(tabId).to.be.at.least(0);
      await page.goto(at(h, SITE, 'basic-r19.html'), { waitUntil: 'load' });
      // A press (the button or Ctrl+Shift+L) with the URL the press's activeTab grant shows the worker.
      const url = at(h, SITE, 'basic-r19.html');
      const before = await w.evaluate(() => (globalThis as any).__layoutCostBackground.counters.offers as number);
      await w.evaluate((id, u) => (globalThis as any).__layoutCostBackground.pressed({ id, url: u, windowId: undefined }), tabId, url);
      await waitFor(() => w.evaluate(() => (globalThis as any).__layoutCostBackground.counters.offers as number).then((n) => n > before), { what: 'the offer' });
      const popup = await w.evaluate((id) => chrome.action.getPopup({ tabId: id }), tabId);
      expect(popup).to.match(new RegExp(`/popup\\.html\\?tab=${tabId}&url=`));
      expect(await w.evaluate((id) => (globalThis as any).__layoutCostBackground.modes.get(id) ?? 'off', tabId), 'no mode on a site not enabled').to.equal('off');
      // The popup, opened as a tab at the address the worker gave it.
      const pop = await h.browser.newPage();
      await pop.goto(popup, { waitUntil: 'load' });
      await waitFor(() => pop.evaluate(() => document.body.dataset.ready === 'true'), { what: 'the popup' });
      expect(await pop.evaluate(() => document.body.dataset.access)).to.equal('off');
      expect(await pop.$eval('#run', (b) => b.textContent)).to.equal(`Run Layout Cost on ${SITE}`);
      // The button's click raises the browser's prompt: the request stays pending (nothing over CDP can answer it),
      // neither refused (no gesture, a wrong origin) nor answered.
      await pop.click('#run');
      await new Promise((r) => setTimeout(r, 1000));
      expect(await pop.evaluate(() => document.body.dataset.state), 'a prompt raised and waiting').to.equal('asking');
      await pop.close();
      // On a default site the same press cycles the overlay, as before.
      await page.goto(h.url('basic-r19.html'), { waitUntil: 'load' });
      await w.evaluate((id, u) => (globalThis as any).__layoutCostBackground.pressed({ id, url: u }), tabId, h.url('basic-r19.html'));
      await waitFor(() => w.evaluate((id) => (globalThis as any).__layoutCostBackground.modes.get(id) === 'components', tabId), { what: 'Components mode' });
      expect(await w.evaluate((id) => chrome.action.getPopup({ tabId: id }), tabId)).to.equal('');
    } finally {
      await page.close();
    }
  });

  it('the panel says why it shows nothing and offers the site; on a default site no bar, and Settings says where it runs', async () => {
    const page = await h.browser.newPage();
    await page.goto(at(h, SITE, 'basic-r19.html'), { waitUntil: 'load' });
    const { panel, devtools } = await openPanel(h, page);
    try {
      const bar = () => panel.evaluate(() => {
        const b = document.getElementById('site-bar')!;
        return { hidden: b.hidden, access: b.dataset.access, text: b.textContent, here: document.getElementById('site-here')!.textContent };
      });
      const off = await waitFor(async () => ((await bar()).access === 'off' ? bar() : null), { what: 'the site bar' });
      expect(off.hidden).to.equal(false);
      expect(off.text).to.include(`Layout Cost does not run on ${SITE}`);
      expect(off.text).to.include(`Run Layout Cost on ${SITE}`);
      expect(off.here).to.equal(`It does not run on ${SITE}.`);
      // Not "waiting for the page": the bar says why nothing comes.
      await waitFor(async () => (await panel.$('[data-notice="waiting"]')) === null, { what: 'no "waiting for the page"' });
      // The same tab on a default site: the panel reads the page again on navigation.
      await page.goto(h.url('basic-r19.html'), { waitUntil: 'load' });
      const on = await waitFor(async () => ((await bar()).access === 'default' ? bar() : null), { what: 'the bar gone' });
      expect(on.hidden).to.equal(true);
      expect(on.here).to.equal('It runs on 127.0.0.1: a development site.');
    } finally {
      await devtools.close();
      await page.close();
    }
  });
});

describe('where it runs: a granted site (e2e)', function () {
  this.timeout(180_000);
  let copy: string;
  let profile: string;
  let h: Harness | null = null;
  before(() => {
    // What "Allow" leaves the browser holding: the site among the extension's host permissions (not its manifest's
    // content scripts: those stay on the default sites, so the worker's registration is what runs there).
    copy = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-granted-'));
    fs.cpSync(DIST, copy, { recursive: true });
    const m = JSON.parse(fs.readFileSync(path.join(copy, 'manifest.json'), 'utf8'));
    m.host_permissions.push(`*://${SITE}/*`);
    fs.writeFileSync(path.join(copy, 'manifest.json'), JSON.stringify(m));
    profile = fs.mkdtempSync(path.join(os.tmpdir(), 'lc-profile-'));
  });
  after(async () => {
    await h?.close();
    fs.rmSync(copy, { recursive: true, force: true });
    fs.rmSync(profile, { recursive: true, force: true });
  });

  const registered = async (x: Harness): Promise<string[]> => (await x.worker()).evaluate(async () =>
    (await chrome.scripting.getRegisteredContentScripts()).filter((s) => s.id.startsWith('layout-cost-sites')).map((s) => `${s.id} ${s.matches?.join(',')}`).sort());
  const works = async (page: Page): Promise<number> => {
    await ready(page);
    await lc.enable(page);
    const n = await waitFor(async () => {
      const s = await lc.snapshot(page) as { components: unknown[] };
      return s.components.length > 0 ? s.components.length : null;
    }, { what: 'components measured' });
    await lc.disable(page);
    return n;
  };
  /** chrome://extensions' own site-access calls (what its "Site access" settings do). */
  const siteAccess = async (x: Harness, call: 'addHostPermission' | 'removeHostPermission'): Promise<void> => {
    const ext = await x.browser.newPage();
    try {
      await ext.goto(`chrome://extensions/?id=${x.extensionId}`);
      await ext.evaluate((c, id, host) => (chrome as any).developerPrivate[c](id, host), call, x.extensionId, `*://${SITE}/*`);
    } finally {
      await ext.close();
    }
  };

  it('registered for the site, works after a reload; revoked: gone after a reload; granted again: back; and after a restart', async () => {
    h = await launch({ args: [RULES], extension: copy, userDataDir: profile });
    const want = [`layout-cost-sites *://${SITE}/*`, `layout-cost-sites-main *://${SITE}/*`];
    await waitFor(async () => JSON.stringify(await registered(h!)) === JSON.stringify(want), { what: 'the site\'s registrations' });
    const page = await h.browser.newPage();
    await page.goto(at(h, SITE, 'basic-r19.html'), { waitUntil: 'load' });
    expect(await works(page)).to.be.greaterThan(0);

    // Revoked (chrome://extensions, or "Stop on this site"): the registrations go; the page is clean once reloaded.
    await siteAccess(h, 'removeHostPermission');
    await waitFor(async () => (await registered(h!)).length === 0, { what: 'the registrations gone' });
    const gone = await ourScripts(page, h.extensionId, () => page.reload({ waitUntil: 'load' }));
    expect(gone).to.deep.equal([]);
    expect(await hasGlobal(page)).to.equal(false);

    // Granted again: back, and the reload brings it.
    await siteAccess(h, 'addHostPermission');
    await waitFor(async () => JSON.stringify(await registered(h!)) === JSON.stringify(want), { what: 'the registrations back' });
    const back = await ourScripts(page, h.extensionId, () => page.reload({ waitUntil: 'load' }));
    expect(back).to.deep.equal(['content.js', 'inject.js']);
    expect(await works(page)).to.be.greaterThan(0);

    // A restart: the grant and the registrations are the browser's, kept in the profile.
    await h.close();
    h = await launch({ args: [RULES], extension: copy, userDataDir: profile });
    await waitFor(async () => JSON.stringify(await registered(h!)) === JSON.stringify(want), { what: 'the registrations after a restart' });
    const again = await h.browser.newPage();
    await again.goto(at(h, SITE, 'basic-r19.html'), { waitUntil: 'load' });
    expect(await works(again)).to.be.greaterThan(0);
  });
});
