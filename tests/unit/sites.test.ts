import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import {
  ALL_SITES, anyMatches, DEFAULT_SITES, grantedSites, parseSiteChanged, SITE_SOURCE, siteAccess, siteName, sitePattern, siteScripts, siteView,
} from '../../src/protocol/sites';
import { ROOT } from '../../scripts/chrome';

const read = (file: string): Record<string, any> => JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8'));
const manifest = read('manifest.json');

describe('where it runs (issue 48)', () => {
  it('the manifest runs its scripts and holds host permissions on the default sites only; every other site is optional', () => {
    expect(manifest.host_permissions).to.deep.equal(DEFAULT_SITES);
    expect(manifest.optional_host_permissions).to.deep.equal([ALL_SITES]);
    for (const cs of manifest.content_scripts) expect(cs.matches).to.deep.equal(DEFAULT_SITES);
    expect(manifest.permissions).to.include('activeTab');
  });

  it('the automation build (dist-all-sites/) runs on every site from the first load; Firefox\'s keeps the narrowing', function () {
    if (!fs.existsSync(path.join(ROOT, 'dist-all-sites', 'manifest.json'))) this.skip(); // npm test builds first
    const all = read('dist-all-sites/manifest.json');
    expect(all.host_permissions).to.deep.equal(['<all_urls>']);
    expect(all.optional_host_permissions).to.equal(undefined);
    for (const cs of all.content_scripts) expect(cs.matches).to.deep.equal(['<all_urls>']);
    const { host_permissions: h, optional_host_permissions: o, content_scripts: c, description: d, ...rest } = all;
    const { host_permissions: h2, optional_host_permissions: o2, content_scripts: c2, description: d2, ...rest2 } = read('dist/manifest.json');
    expect(rest, 'the rest as the store build\'s').to.deep.equal(rest2);
    const firefox = read('dist-firefox/manifest.json');
    expect(firefox.optional_host_permissions).to.deep.equal([ALL_SITES]);
    expect(firefox.host_permissions).to.deep.equal(DEFAULT_SITES);
  });

  it('tells the default sites by host, on any port and scheme', () => {
    const yes = ['http://localhost:5173/', 'https://localhost/', 'http://app.localhost:3000/x', 'http://127.0.0.1:8080/',
      'http://[::1]:3000/', 'https://shop.test/', 'http://printer.local/', 'file:///home/me/a.html'];
    const no = ['https://example.com/', 'http://localhost.example.com/', 'http://127.0.0.2/', 'https://mytest.com/', 'https://test.com/',
      'http://localx/', 'chrome://extensions/', 'about:blank', 'not a url'];
    for (const u of yes) expect(anyMatches(DEFAULT_SITES, u), u).to.equal(true);
    for (const u of no) expect(anyMatches(DEFAULT_SITES, u), u).to.equal(false);
  });

  it('asks for a site as its host on both schemes; names it for the popup', () => {
    expect(sitePattern('https://www.example.com:8443/a?b#c')).to.equal('*://www.example.com/*');
    expect(sitePattern('chrome://settings')).to.equal(null);
    expect(sitePattern('file:///x.html')).to.equal(null);
    expect(siteName('https://www.example.com/a')).to.equal('www.example.com');
    expect(siteName('file:///x.html')).to.equal('local files');
    expect(siteName('chrome://settings')).to.equal(null);
  });

  it('registers scripts for the granted sites the manifest does not cover; all sites stand for every one', () => {
    const covered = DEFAULT_SITES;
    expect(grantedSites([...DEFAULT_SITES], covered)).to.deep.equal([]);
    expect(grantedSites([...DEFAULT_SITES, '*://example.com/*', '*://example.com/*'], covered)).to.deep.equal(['*://example.com/*']);
    expect(grantedSites(['*://a.com/*', ALL_SITES], covered)).to.deep.equal([ALL_SITES]);
    expect(grantedSites(['<all_urls>'], covered)).to.deep.equal([ALL_SITES]);
    expect(grantedSites(['*://a.com/*'], ['<all_urls>']), 'the automation build covers every site').to.deep.equal([]);
    expect(siteScripts([], covered)).to.deep.equal([]);
    const [content, main] = siteScripts(['*://example.com/*'], covered);
    expect([content.js, main.js, main.world]).to.deep.equal([['content.js'], ['inject.js'], 'MAIN']);
    for (const s of [content, main]) {
      expect(s.matches).to.deep.equal(['*://example.com/*']);
      expect(s.runAt).to.equal('document_start');
      expect(s.allFrames).to.equal(true);
      expect(s.persistAcrossSessions).to.equal(true);
      // Never twice on a default site (the manifest's scripts run there already).
      expect(s.excludeMatches).to.include('*://*.localhost/*');
    }
  });

  it('says how it stands on a page', () => {
    const c = DEFAULT_SITES;
    expect(siteAccess('http://localhost:3000/', c, [])).to.equal('default');
    expect(siteAccess('https://example.com/', c, [])).to.equal('off');
    expect(siteAccess('https://example.com/', c, ['*://example.com/*'])).to.equal('granted');
    expect(siteAccess('https://sub.example.com/', c, ['*://example.com/*'])).to.equal('off');
    expect(siteAccess('https://sub.example.com/', c, ['https://*.example.com/*'])).to.equal('granted');
    expect(siteAccess('http://sub.example.com/', c, ['https://*.example.com/*']), 'scheme').to.equal('off');
    expect(siteAccess('https://example.com/', c, [ALL_SITES])).to.equal('all-sites');
    expect(siteAccess('chrome://extensions/', c, [ALL_SITES])).to.equal('never');
    expect(siteAccess(undefined, c, [])).to.equal('never');
    expect(siteAccess('https://example.com/', ['<all_urls>'], [])).to.equal('default');
    expect(siteView('https://example.com/', c, [...c, ALL_SITES])).to.deep.equal({ access: 'all-sites', name: 'example.com', pattern: '*://example.com/*', allSites: true });
  });

  it('takes only a well-formed word from our pages', () => {
    expect(parseSiteChanged({ source: SITE_SOURCE, type: 'siteChanged', tabId: 7 })).to.deep.equal({ source: SITE_SOURCE, type: 'siteChanged', tabId: 7 });
    for (const bad of [null, 1, {}, { source: SITE_SOURCE, type: 'siteChanged', tabId: 1.5 }, { source: 'x', type: 'siteChanged', tabId: 1 },
      { source: SITE_SOURCE, type: 'other', tabId: 1 }, { source: SITE_SOURCE, type: 'siteChanged', tabId: '1' }]) {
      expect(parseSiteChanged(bad), JSON.stringify(bad)).to.equal(null);
    }
  });
});
