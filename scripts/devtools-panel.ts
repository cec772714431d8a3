/**
 * Opens DevTools for a page and shows the "Layout Cost" panel, for the e2e
 * tests (tests/e2e/harness.ts) and the benches (bench/panel-open.ts). Uses
 * DevTools-internal modules (TESTING.md): keep them in this one helper.
 */
import type { Frame, Page } from 'puppeteer-core';

export async function openLayoutCostPanel(page: Page, extensionId: string, timeoutMs = 20_000): Promise<{ devtools: Page; panel: Frame }> {
  const devtools = await page.openDevTools();
  const panelId = `chrome-extension://${extensionId}LayoutCost`;
  const panelUrl = `chrome-extension://${extensionId}/panel.html`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const panel = devtools.frames().find((x) => x.url() === panelUrl);
    // The frame is listed as soon as it navigates; its document may still be parsing (beside a CPU hog a test once
    // found no #tab-vitals in it): returned once it has loaded.
    if (panel && await panel.evaluate(() => document.readyState === 'complete').catch(() => false)) return { devtools, panel };
    if (Date.now() > deadline) throw new Error('timed out waiting for the Layout Cost panel');
    await devtools.evaluate(async (id) => {
      // @ts-expect-error DevTools-internal module path, resolved inside the DevTools frontend
      const UI = await import('./ui/legacy/legacy.js');
      UI.InspectorView.InspectorView.instance().showPanel(id);
    }, panelId).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 100));
  }
}
