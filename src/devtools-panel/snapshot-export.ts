/**
 * Export: asks the shown frame's content script for a snapshot (the same
 * object `__LAYOUT_COST__.snapshot()` resolves to, built by the same store
 * method) and downloads it as JSON through a Blob URL and <a download>.
 */
import { el } from './dom';

const SNAPSHOT_TIMEOUT_MS = 10_000;

export class SnapshotExporter {
  private nextReq = 1;
  private pending = new Map<number, { url: string; timer: ReturnType<typeof setTimeout> }>();

  constructor(
    private readonly request: (reqId: number) => boolean,
    private readonly onDone: (ok: boolean, message: string) => void,
  ) {}

  start(pageUrl: string): void {
    const reqId = this.nextReq++;
    if (!this.request(reqId)) {
      this.onDone(false, 'Not connected to the page');
      return;
    }
    const timer = setTimeout(() => {
      this.pending.delete(reqId);
      this.onDone(false, 'The page did not answer');
    }, SNAPSHOT_TIMEOUT_MS);
    this.pending.set(reqId, { url: pageUrl, timer });
  }

  onSnapshot(reqId: number, snapshot: unknown): void {
    const p = this.pending.get(reqId);
    if (!p) return;
    clearTimeout(p.timer);
    this.pending.delete(reqId);
    const name = fileName(p.url, new Date());
    download(JSON.stringify(snapshot, null, 2), name);
    this.onDone(true, `Saved ${name}`);
  }
}

/** `layout-cost-<host>-<yyyymmdd-hhmmss>.json`, with the host reduced to safe characters. */
export function fileName(pageUrl: string, when: Date): string {
  let host = 'page';
  try {
    host = new URL(pageUrl).host.replace(/[^a-z0-9.-]+/gi, '_').slice(0, 60) || 'page';
  } catch {
    // about:blank and the like keep "page".
  }
  const p = (n: number) => String(n).padStart(2, '0');
  const stamp = `${when.getFullYear()}${p(when.getMonth() + 1)}${p(when.getDate())}-${p(when.getHours())}${p(when.getMinutes())}${p(when.getSeconds())}`;
  return `layout-cost-${host}-${stamp}.json`;
}

/** Downloads `json` as a file named `name` (also the recording view's Save JSON). */
export function download(json: string, name: string): void {
  const url = URL.createObjectURL(new Blob([json], { type: 'application/json' }));
  const a = el('a', { attrs: { href: url, download: name } });
  document.body.append(a);
  a.click();
  a.remove();
  // Revoking at once can cancel the download in some Chrome versions; a minute is plenty.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
