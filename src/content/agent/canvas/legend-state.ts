/**
 * When the legend shows (SPEC §3: "legend on first enable"; issue 4: "drawn
 * once on first enable in a tab and can be dismissed").
 *
 * - It appears on the first enable in this document and stays for
 *   LEGEND_TIMEOUT_MS or until clicked; later mode changes in the same document
 *   show only the short mode caption. Esc does not touch it: the page's Esc is
 *   the page's (issue 9: a modal stayed open because our legend ate the key).
 * - A click on it is a deliberate dismissal: it is remembered in chrome.storage.local
 *   ('legendDismissed'), so the legend never comes back in any tab until the
 *   extension's storage is cleared. A timeout is not: the next document that
 *   is enabled shows it again. (chrome.storage.session would fit "per tab"
 *   better, but content scripts cannot read it unless the worker opens it to
 *   them, and page sessionStorage belongs to the page.)
 */

export const LEGEND_TIMEOUT_MS = 8_000;
export const LEGEND_STORAGE_KEY = 'legendDismissed';

export interface LegendStorage {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown): Promise<void>;
}

export class LegendState {
  private shownAt: number | null = null;
  private shownOnce = false;
  /** null until storage answered; then whether the user dismissed it for good. */
  private dismissed: boolean | null = null;
  /** Storage calls that failed (the legend then behaves as never dismissed). */
  storageErrors = 0;

  constructor(private readonly storage: LegendStorage | null, private readonly now: () => number = () => performance.now()) {
    if (!storage) {
      this.dismissed = false;
      return;
    }
    storage.get(LEGEND_STORAGE_KEY).then(
      (v) => {
        this.dismissed = v === true;
        if (this.dismissed) this.shownAt = null;
      },
      () => {
        this.storageErrors++;
        this.dismissed = false;
      },
    );
  }

  /** The overlay turned on: show the legend if this is the document's first enable. */
  enabled(): void {
    if (this.shownOnce || this.dismissed === true) return;
    this.shownOnce = true;
    this.shownAt = this.now();
  }

  /** The overlay turned off: the legend goes with it (and does not come back in this document). */
  disabled(): void {
    this.shownAt = null;
  }

  visible(): boolean {
    if (this.shownAt === null) return false;
    if (this.now() - this.shownAt >= LEGEND_TIMEOUT_MS) this.shownAt = null;
    return this.shownAt !== null;
  }

  /** A click on it: hide now and remember. Returns false when there was nothing to hide. */
  dismiss(): boolean {
    if (!this.visible()) return false;
    this.shownAt = null;
    this.dismissed = true;
    this.storage?.set(LEGEND_STORAGE_KEY, true).catch(() => {
      this.storageErrors++;
    });
    return true;
  }
}
