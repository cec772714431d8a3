/**
 * A static file server on 127.0.0.1 for the demo and the test fixtures.
 *   /            → tests/fixtures/
 *   /build/      → build/ (bundled fixtures and demo)
 *   /demo/       → demo/
 *   /fonts/      → @fontsource/lobster's files (a web font for the font-swap fixture)
 * `?coi=1` on any page adds COOP/COEP headers (cross-origin isolated: 5 µs timers).
 * `?delay=MS` (at most 10 s) answers that much later: an image or a font that arrives late.
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { ROOT } from './chrome';

export interface StaticServer {
  origin: string;
  close(): Promise<void>;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8',
  '.json': 'application/json', '.png': 'image/png', '.svg': 'image/svg+xml', '.map': 'application/json', '.woff2': 'font/woff2',
};

const MOUNTS: [string, string][] = [
  ['/build/', path.join(ROOT, 'build')],
  ['/demo/', path.join(ROOT, 'demo')],
  ['/fonts/', path.join(ROOT, 'node_modules', '@fontsource', 'lobster', 'files')],
  ['/', path.join(ROOT, 'tests', 'fixtures')],
];

export function startServer(port = 0): Promise<StaticServer> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    let pathname = decodeURIComponent(url.pathname);
    if (pathname.endsWith('/')) pathname += 'index.html';
    const mount = MOUNTS.find(([prefix]) => pathname.startsWith(prefix));
    if (!mount) return void res.writeHead(404).end();
    const file = path.join(mount[1], pathname.slice(mount[0].length));
    if (!file.startsWith(mount[1])) return void res.writeHead(403).end();
    fs.readFile(file, (err, body) => {
      if (err) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      const headers: Record<string, string> = {
        'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-store',
      };
      if (url.searchParams.get('coi') === '1' || req.headers.referer?.includes('coi=1')) {
        headers['cross-origin-opener-policy'] = 'same-origin';
        headers['cross-origin-embedder-policy'] = 'require-corp';
        headers['cross-origin-resource-policy'] = 'same-origin';
      }
      const csp = url.searchParams.get('csp');
      if (csp === 'strict') headers['content-security-policy'] = "default-src 'self'; script-src 'self'";
      const delay = Math.min(10_000, Math.max(0, Number(url.searchParams.get('delay')) || 0));
      if (delay > 0) setTimeout(() => res.writeHead(200, headers).end(body), delay);
      else res.writeHead(200, headers).end(body);
    });
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      const { port: p } = server.address() as AddressInfo;
      resolve({
        origin: `http://127.0.0.1:${p}`,
        close: () => new Promise((r) => server.close(() => r())),
      });
    });
  });
}
