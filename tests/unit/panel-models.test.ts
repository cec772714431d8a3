import { expect } from 'chai';
import type { Status } from '../../src/protocol';
import { DEFAULT_SETTINGS } from '../../src/overlay/settings';
import { chooseFrame, frameLabel, pickerFrames } from '../../src/devtools-panel/model';
import { isFilterShortcut } from '../../src/devtools-panel/shortcuts';
import { isToggleShortcut } from '../../src/protocol/shortcut';
import { cloneDefaults, editNumber, MS_RAMP_FIELDS, readSettings, SURFACE_FIELDS } from '../../src/devtools-panel/settings-model';
import { fileName } from '../../src/devtools-panel/snapshot-export';
import { formatResolution, notices, type StatusContext } from '../../src/devtools-panel/status';
import { overrideTheme, themeFromName } from '../../src/devtools-panel/theme';

function status(o: Partial<Status> = {}): Status {
  return {
    renderers: 1, roots: 1, agent: true, minified: false, degraded: [], timerResolutionMs: 0.1, url: 'http://a.test/x',
    frameId: 0, mode: 'components', pinned: null, components: 3, droppedEvents: 0, droppedMessages: 0, drawn: 2,
    hidden: 0, capped: false, hovered: null, self: null, ...o,
  };
}
const ctx = { connected: true, otherReactFrames: 0, shortcut: 'Ctrl+Shift+L' };
const ids = (s: Status | null, c: StatusContext = ctx) => notices(s, c).map((n) => n.id);

describe('panel honest states', () => {
  it('waits for the page, and says when the worker is reconnecting', () => {
    expect(ids(null)).to.deep.equal(['waiting']);
    expect(ids(null, { ...ctx, connected: false })).to.deep.equal(['reconnecting', 'waiting']);
    // Layout Cost does not run on the site (the site bar offers it): no "waiting for the page".
    expect(ids(null, { ...ctx, siteOff: true })).to.deep.equal([]);
  });
  it('says there is no React, pointing at other frames that have it', () => {
    expect(ids(status({ renderers: 0 }))).to.deep.equal(['no-react']);
    expect(notices(status({ renderers: 0 }), { ...ctx, otherReactFrames: 2 })[0].text).to.match(/React, Vue or Preact runs in 2 other frames/);
  });
  it('says React was found and the overlay is off', () => {
    const n = notices(status({ mode: 'off', roots: 2 }), ctx);
    expect(n[0]).to.include({ id: 'react-off' });
    expect(n[0].text).to.equal('React found (2 roots), overlay off — press Ctrl+Shift+L or Enable');
  });
  it('reports dropped events, degraded measurement with its reasons, minified names, capping and the timer', () => {
    const n = notices(status({ droppedEvents: 1234, degraded: ['page replaced requestAnimationFrame', '\u202Ex'], minified: true, capped: true, drawn: 200 }), ctx);
    const by = Object.fromEntries(n.map((x) => [x.id, x.text]));
    expect(by.dropped).to.equal('1\u2009234 events dropped (the page outran the buffer)');
    expect(by.degraded).to.equal('Measurement degraded: page replaced requestAnimationFrame; x');
    expect(by.minified).to.equal('Names look minified (a production build); looking for source maps…');
    const sourced = (src: { types: number; located: number; mapped: number; pending: number }) =>
      notices(status({ minified: true, sources: src }), ctx).find((x) => x.id === 'minified')?.text;
    expect(sourced({ types: 24, located: 24, mapped: 23, pending: 0 })).to.equal('Names look minified: 23 of 24 component types named from the page\'s source maps');
    expect(sourced({ types: 24, located: 24, mapped: 0, pending: 0 })).to.match(/no source map was found for them/);
    expect(notices(status({ minified: false }), ctx).some((x) => x.id === 'minified')).to.equal(false);
    expect(by.capped).to.match(/200 meters/);
    expect(by.timer).to.equal('Timer resolution 0.1 ms');
    expect(formatResolution(0.005)).to.equal('5 µs');
    const cut = notices(status({ components: 40_002 }), { ...ctx, tableRows: 20_000 }).find((x) => x.id === 'truncated');
    expect(cut?.text).to.equal('Table lists 20\u2009000 of 40\u2009002 components');
    expect(ids(status({ components: 3 }), { ...ctx, tableRows: 3 })).to.not.include('truncated');
    expect(formatResolution(0)).to.equal('unknown');
  });
});

describe('panel frame picker', () => {
  const frames = new Map<number, Status>([[0, status({ renderers: 0 })], [3, status({ frameId: 3 })], [5, status({ frameId: 5 })], [7, status({ frameId: 7, renderers: 0 })]]);
  it('prefers the top frame with React, else the first React frame, and keeps the user’s choice', () => {
    expect(chooseFrame(frames, null, false)).to.equal(3);
    expect(chooseFrame(frames, 5, true)).to.equal(5);
    expect(chooseFrame(new Map([[0, status()], [3, status()]]), null, false)).to.equal(0);
    expect(chooseFrame(new Map(), null, false)).to.equal(null);
    expect(chooseFrame(new Map([[0, status({ renderers: 0 })]]), null, false)).to.equal(0);
  });
  it('lists the top frame and the React frames, with capped labels', () => {
    expect(pickerFrames(frames)).to.deep.equal([0, 3, 5]);
    expect(frameLabel(0, status({ url: 'http://a.test/path?q=1', roots: 2 }))).to.equal('top — a.test/path (2 roots)');
    expect(frameLabel(3, status({ url: 'about:blank', renderers: 0 }))).to.equal('frame 3 — about:blank (no React)');
    expect(frameLabel(3, status({ url: 'x'.repeat(2000) })).length).to.equal(80);
  });
});

describe('panel settings model', () => {
  it('falls back to defaults for missing or invalid settings', () => {
    expect(readSettings(undefined)).to.deep.equal(DEFAULT_SETTINGS);
    expect(readSettings({ ...DEFAULT_SETTINGS, msRamp: [9, 1, 2] })).to.deep.equal(DEFAULT_SETTINGS);
    expect(readSettings({ ...DEFAULT_SETTINGS, colorBlind: true }).colorBlind).to.equal(true);
  });
  it('edits a ramp step and refuses a decreasing ramp or a non-number', () => {
    const s = cloneDefaults();
    const ok = editNumber(s, MS_RAMP_FIELDS[1], '10');
    expect(ok.ok && ok.settings.msRamp).to.deep.equal([2, 10, 16]);
    const bad = editNumber(s, MS_RAMP_FIELDS[1], '1');
    expect(bad.ok).to.equal(false);
    expect(!bad.ok && bad.error).to.match(/must not decrease/);
    expect(editNumber(s, MS_RAMP_FIELDS[0], 'abc').ok).to.equal(false);
    expect(s.msRamp).to.deep.equal([2, 8, 16]);
  });
  it('shows surface fractions as percent and stores fractions', () => {
    const f = SURFACE_FIELDS[0];
    expect(f.toInput(cloneDefaults())).to.equal(50);
    const r = editNumber(cloneDefaults(), f, '75');
    expect(r.ok && r.settings.surfaceLayoutFraction).to.equal(0.75);
    expect(editNumber(cloneDefaults(), f, '150').ok).to.equal(false);
  });
});

describe('panel keys, theme and export name', () => {
  const key = (o: Partial<KeyboardEvent>) => ({ shiftKey: true, altKey: false, repeat: false, metaKey: false, ctrlKey: true, code: 'KeyL', key: 'L', ...o });
  it('recognizes Ctrl+Shift+L (⌘⇧L on macOS) only', () => {
    expect(isToggleShortcut(key({}), false)).to.equal(true);
    expect(isToggleShortcut(key({ ctrlKey: false, metaKey: true }), true)).to.equal(true);
    expect(isToggleShortcut(key({ shiftKey: false }), false)).to.equal(false);
    expect(isToggleShortcut(key({ repeat: true }), false)).to.equal(false);
    expect(isToggleShortcut(key({ code: 'KeyK', key: 'K' }), false)).to.equal(false);
    expect(isFilterShortcut({ key: '/', ctrlKey: false, metaKey: false, altKey: false }, { tagName: 'DIV' } as unknown as EventTarget)).to.equal(true);
    expect(isFilterShortcut({ key: '/', ctrlKey: false, metaKey: false, altKey: false }, { tagName: 'INPUT' } as unknown as EventTarget)).to.equal(false);
  });
  it('maps the DevTools theme name and the ?theme override', () => {
    expect(themeFromName('dark')).to.equal('dark');
    expect(themeFromName('default')).to.equal('light');
    expect(themeFromName(undefined)).to.equal('light');
    expect(overrideTheme('?theme=dark')).to.equal('dark');
    expect(overrideTheme('?theme=<x>')).to.equal(null);
  });
  it('names the export file after a sanitized host and the time', () => {
    expect(fileName('http://127.0.0.1:8080/a', new Date(2024, 0, 2, 3, 4, 5))).to.equal('layout-cost-127.0.0.1_8080-20240102-030405.json');
    expect(fileName('about:blank', new Date(2024, 0, 2, 3, 4, 5))).to.equal('layout-cost-page-20240102-030405.json');
  });
});
