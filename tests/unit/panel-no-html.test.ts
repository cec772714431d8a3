/**
 * The panel's XSS guard by construction: no HTML-parsing sink anywhere in
 * src/devtools-panel, and the panel page's CSP forbids inline script.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { ROOT } from '../../scripts/chrome';

const DIR = path.join(ROOT, 'src', 'devtools-panel');
const SINKS = /\b(innerHTML|outerHTML|insertAdjacentHTML|document\.write|createContextualFragment|DOMParser|srcdoc)\b|\beval\s*\(|new Function\s*\(/;

describe('panel: no HTML sinks', () => {
  it('never parses strings as HTML or code in src/devtools-panel', () => {
    for (const f of fs.readdirSync(DIR).filter((x) => x.endsWith('.ts'))) {
      const code = fs.readFileSync(path.join(DIR, f), 'utf8')
        .split('\n').filter((l) => !/^\s*(\*|\/\/|\/\*)/.test(l)).join('\n');
      // inspectedWindow.eval runs in the inspected page (reveal in Elements), with a number we built.
      const stripped = code.replace(/\binspected\.eval\(/g, '');
      expect(SINKS.test(stripped), `${f}: ${stripped.match(SINKS)?.[0]}`).to.equal(false);
    }
  });

  it('builds the reveal expression from an integer id only', () => {
    const src = fs.readFileSync(path.join(DIR, 'index.ts'), 'utf8');
    expect(src).to.match(/if \(!Number\.isInteger\(id\) \|\| id <= 0\) return;/);
  });

  it('serves the panel under a CSP without inline script', () => {
    const html = fs.readFileSync(path.join(DIR, 'panel.html'), 'utf8');
    const csp = html.match(/Content-Security-Policy" content="([^"]+)"/)?.[1] ?? '';
    expect(csp).to.match(/script-src 'self'(;|$)/);
    expect(csp).to.not.match(/unsafe-inline|unsafe-eval/);
    expect(html).to.not.match(/<script>|\son[a-z]+=/i);
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'manifest.json'), 'utf8'));
    expect(manifest.content_security_policy.extension_pages).to.match(/script-src 'self'/);
  });
});
