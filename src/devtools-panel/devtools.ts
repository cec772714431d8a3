/** The devtools page: creates the "Layout Cost" panel, nothing else. */
import browser from 'webextension-polyfill';

browser.devtools.panels.create('Layout Cost', 'icons/icon32.png', 'panel.html').catch((e: unknown) => {
  console.warn('[layout-cost] could not create the panel', e);
});
