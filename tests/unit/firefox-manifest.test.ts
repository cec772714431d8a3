/**
 * The Firefox build's manifest (issue 16; webpack.config.js `firefoxManifest`, docs/FIREFOX.md): generated from
 * Chrome's, differing only where Firefox needs it. Reads both built manifests (npm test builds first).
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ROOT } from '../../scripts/chrome';

const read = (dir: string): Record<string, any> => JSON.parse(fs.readFileSync(path.join(ROOT, dir, 'manifest.json'), 'utf8'));

describe('the Firefox manifest', () => {
  before(function () {
    if (!fs.existsSync(path.join(ROOT, 'dist-firefox', 'manifest.json'))) this.skip();
  });

  it('differs from Chrome\'s only in the background, the gecko settings and Chrome-only keys', () => {
    const chrome = read('dist');
    const firefox = read('dist-firefox');
    expect(chrome.background).to.deep.equal({ service_worker: 'background.js' });
    expect(firefox.background).to.deep.equal({ scripts: ['background.js'] });
    expect(firefox.browser_specific_settings.gecko).to.deep.include({ id: 'layout-cost@layout-cost.dev', strict_min_version: '142.0' });
    expect(firefox.browser_specific_settings.gecko.data_collection_permissions).to.deep.equal({ required: ['none'] });
    expect(firefox).to.not.have.property('minimum_chrome_version');
    // Everything else is the same: content scripts (MAIN world at document_start), permissions, the command, the CSP.
    const rest = (m: Record<string, any>) => {
      const { background, browser_specific_settings, minimum_chrome_version, ...others } = m;
      void background; void browser_specific_settings; void minimum_chrome_version;
      return others;
    };
    expect(rest(firefox)).to.deep.equal(rest(chrome));
    // The content boot first, then the MAIN world's: the channel's secret goes from the first to the second at load
    // (docs/ARCHITECTURE.md, security model), and both browsers run a run_at's scripts in the manifest's order.
    expect(firefox.content_scripts.map((c: { js: string[] }) => c.js)).to.deep.equal([['content.js'], ['inject.js']]);
    expect(firefox.content_scripts[0]).to.not.have.property('world');
    expect(firefox.content_scripts[1]).to.deep.include({ world: 'MAIN', run_at: 'document_start', all_frames: true });
  });

  it('ships the same files as the Chrome build', () => {
    const list = (dir: string) => fs.readdirSync(path.join(ROOT, dir)).filter((f) => f !== 'manifest.json').sort();
    expect(list('dist-firefox')).to.deep.equal(list('dist'));
    for (const f of ['inject.js', 'content.js', 'agent.js', 'background.js', 'panel.js']) {
      expect(fs.readFileSync(path.join(ROOT, 'dist-firefox', f)).equals(fs.readFileSync(path.join(ROOT, 'dist', f))), f).to.equal(true);
    }
  });
});
