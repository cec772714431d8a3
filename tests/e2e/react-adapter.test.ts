/**
 * The React adapter against ground truth it does not share: for every React
 * version, the snapshot's components (order, depth, key, authored,
 * rendered) must equal what this test computes itself by walking React's
 * own fiber tree and the DOM (element.children recursion, open shadow roots
 * and the closed roots the fixture recorded).
 */
import { expect } from 'chai';
import { launch, lc, waitFor, type Harness } from './harness';
import type { Truth } from './fiber-truth';
import { expectMatches, ours } from './truth-match';

describe('React adapter (e2e)', function () {
  this.timeout(120_000);
  let h: Harness;
  before(async () => {
    h = await launch();
  });
  after(async () => h?.close());

  for (const v of ['16', '17', '18', '19', '19-dev']) {
    it(`React ${v}: counts equal an independent walk, through updates and unmount`, async () => {
      const page = await h.newPage(`counts-r${v}.html`);
      await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true && !!(window as any).__addImperative));
      const st = await lc.state(page);
      expect(st.react).to.deep.equal({ renderers: 1, roots: 1 });
      // React put the attachShadow tap in when it first read the hook, before it rendered (boot/shadow.ts).
      expect(await page.evaluate(() => (window as any).__LAYOUT_COST__.internals().shadowTapped)).to.equal(true);
      // Measured from the names, not React's build: nothing seen yet, and then the fixture's readable names.
      expect(st.minified).to.equal(false);
      await lc.enable(page);
      const truth = await expectMatches(page);
      await waitFor(async () => ((await lc.snapshot(page)) as any).components.every((c: any) => c.source !== null), { what: 'sources located' });
      expect((await lc.state(page)).minified).to.equal(false);
      // Sanity: the fixture exercises what it claims (inflation from shadow DOM, widgets, innerHTML).
      const wc = truth.find((t) => t.name === 'WebComponents') as Truth;
      expect(wc.rendered).to.be.greaterThan(wc.authored + 8);
      expect((truth.find((t) => t.name === 'Imperative') as Truth).rendered).to.equal(21);
      expect((truth.find((t) => t.name === 'Inner') as Truth).rendered).to.equal(6);
      // A host whose open root was attached before the tap went in (early-shadow.js): found by the agent's walk.
      expect((truth.find((t) => t.name === 'Early') as Truth).rendered).to.equal(5);

      // Commits that add and remove components, and DOM that React did not make.
      await page.evaluate(() => (window as any).__setItems(['a', 'c', 'd', 'e']));
      await page.evaluate(() => (window as any).__addImperative(5));
      const after = await expectMatches(page);
      expect(after.filter((t) => t.name === 'Item').map((t) => t.key)).to.deep.equal(['a', 'c', 'd', 'e']);
      expect((after.find((t) => t.name === 'Imperative') as Truth).rendered).to.equal(31);

      // Unmount frees every instance and every table entry.
      await page.evaluate(() => (window as any).__unmount());
      await waitFor(async () => ((await lc.snapshot(page)) as any).components.length === 0, { what: 'empty snapshot' });
      const stats = await page.evaluate(() => (window as any).__LAYOUT_COST__.internals());
      expect(stats.entries).to.equal(0);
      expect(stats.pendingRecounts).to.equal(0);
      await page.close();
    });
  }

  for (const v of ['18', '19']) {
    it(`React ${v}: server markup hydrated, and a Suspense boundary hydrated later in a commit of its own`, async () => {
      const page = await h.newPage(`hydrate-r${v}.html`);
      await waitFor(() => page.evaluate(() => (window as any).__hydrated === true), { what: 'hydration' });
      await lc.enable(page);
      // The boundary is still dehydrated: its server markup is in the DOM, counted as rendered by App, with no fibers.
      const first = await expectMatches(page);
      expect(first.map((t) => t.name)).to.deep.equal(['App', 'Counter', 'Rows', 'Row', 'Row', 'Row']);
      expect(await page.evaluate(() => document.querySelectorAll('.details .row').length)).to.equal(3);
      const serverDetails = await page.evaluateHandle(() => document.querySelector('.details'));

      // The lazy code arrives: React hydrates the boundary, claiming the server's elements, in a later commit that
      // the adapter sees through the commit walk (the overlay was on before it).
      await page.evaluate(() => (window as any).__release());
      await waitFor(() => page.evaluate(() => (window as any).__detailsHydrated === true), { what: 'the boundary hydrated' });
      const hydrated = await expectMatches(page, ['root'], { ordered: false });
      expect(hydrated.filter((t) => t.name === 'Details')).to.have.length(1);
      expect(hydrated.filter((t) => t.name === 'Row')).to.have.length(6);
      expect(await page.evaluate((d) => d === document.querySelector('.details'), serverDetails)).to.equal(true);
      expect(await page.evaluate(() => (window as any).__recoverable)).to.deep.equal([]);

      // Updates after hydration: the counter gains an element.
      await page.evaluate(() => (window as any).__bump());
      const bumped = await expectMatches(page, ['root'], { ordered: false });
      expect((bumped.find((t) => t.name === 'Counter') as Truth).rendered).to.equal(2);
      const counter = ((await lc.snapshot(page)) as any).components.find((c: any) => c.name === 'Counter');
      expect(counter.rendered).to.equal(2);
      await page.close();
    });
  }

  it('React 19: the whole document hydrated (hydrateRoot(document, …), as Next.js does): singletons and hoistables', async () => {
    const page = await h.newPage('hydrate-document-r19.html');
    await waitFor(() => page.evaluate(() => (window as any).__hydrated === true), { what: 'hydration' });
    expect(await page.evaluate(() => (window as any).__recoverable)).to.deep.equal([]);
    await lc.enable(page);
    const truth = await expectMatches(page, ['#document']);
    expect(truth.map((t) => t.name)).to.deep.equal(['Document', 'List', 'Item', 'Item']);
    // Document's top host is <html>: the whole document, the fixture's script tag included, is its rendered count — but
    // not the overlay's own element, which sits under <html> too.
    await waitFor(() => page.evaluate(() => document.documentElement.querySelectorAll(':scope > layout-cost-overlay').length === 1),
      { what: "the overlay's element under <html>" });
    const all = await page.evaluate(() => document.querySelectorAll('*').length - 1);
    expect(((await lc.snapshot(page)) as any).components.find((c: any) => c.name === 'Document').rendered).to.equal(all);
    expect(truth[0].rendered).to.equal(all);
    expect(truth[0].authored).to.be.lessThan(all);
    await page.evaluate(() => (window as any).__add('c'));
    const after = await expectMatches(page, ['#document'], { ordered: false });
    expect(after.filter((t) => t.name === 'Item')).to.have.length(3);
    await page.close();
  });

  it('infers names: displayName, function and class names, memo and forwardRef unwrapped', async () => {
    const page = await h.newPage('counts-r19-dev.html');
    await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true));
    await lc.enable(page);
    await waitFor(async () => ((await lc.snapshot(page)) as any).components.length >= 12);
    const names = (await ours(page)).map((c) => c.name);
    expect(names).to.include.members(['App', 'Header', 'ClassBox', 'InferredBadge', 'InferredFancy', 'WebComponents', 'List', 'Item']);
    expect(names).to.not.include('Anonymous');
    await page.close();
  });

  it('back-fills a tree mounted before enable and keeps ids stable across re-renders', async () => {
    const page = await h.newPage('counts-r18.html');
    await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true));
    await lc.enable(page);
    await expectMatches(page);
    const before = ((await lc.snapshot(page)) as any).components.map((c: any) => c.id).sort();
    await page.evaluate(() => (window as any).__setItems(['a', 'b', 'c']));
    await expectMatches(page);
    const afterIds = ((await lc.snapshot(page)) as any).components.map((c: any) => c.id).sort();
    expect(afterIds).to.deep.equal(before);
    // List rendered at mount and once more; its parents did not render again.
    await waitFor(async () => ((await lc.snapshot(page)) as any).components.find((c: any) => c.name === 'List').commits === 2,
      { what: 'List commits = 2' });
    const app = ((await lc.snapshot(page)) as any).components.find((c: any) => c.name === 'App');
    expect(app.commits).to.equal(1);
    await page.close();
  });

  it('answers a snapshot taken in the same task as a commit with that commit counted (React 17: the commit is synchronous)', async () => {
    const page = await h.newPage('counts-r17.html');
    await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true));
    await lc.enable(page);
    await expectMatches(page);
    // The agent flushes before an API call goes out (its held commit counts behind it): the two items mounted by this
    // commit are in the answer, counted, and the rest's commits are current — not waiting for the next flush.
    const items = await page.evaluate(async () => {
      const w = window as any;
      w.__setItems(['a', 'b', 'c', 'x', 'y']);
      const s = await w.__LAYOUT_COST__.snapshot();
      return {
        items: s.components.filter((c: any) => c.name === 'Item').map((c: any) => [c.key, c.authored, c.rendered, c.commits]),
        list: s.components.find((c: any) => c.name === 'List').commits,
      };
    });
    // Item is not memoised: the three that were there rendered again with List.
    expect(items.items).to.deep.equal([['a', 2, 2, 2], ['b', 2, 2, 2], ['c', 2, 2, 2], ['x', 2, 2, 1], ['y', 2, 2, 1]]);
    expect(items.list).to.equal(2);
    await page.close();
  });

  it('handles two copies of React on one page', async () => {
    const page = await h.newPage('two-copies.html');
    await waitFor(() => page.evaluate(() => !!document.querySelector('#root2 #app-root')));
    const st = await lc.state(page);
    expect(st.react).to.deep.equal({ renderers: 2, roots: 2 });
    await lc.enable(page);
    await expectMatches(page, ['root', 'root2']);
    const names = (await ours(page)).map((c) => c.name);
    expect(names).to.include('App');
    expect(names.filter((n) => n === 'Anonymous' || (n ?? '').length <= 3).length).to.be.greaterThan(3);
    await page.close();
  });

  it('counts a real web-component library (Shoelace): shadow DOM rendered after the commit', async () => {
    const page = await h.newPage('library.html');
    await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true));
    await lc.enable(page);
    // Lit renders each shadow root asynchronously: wait until the card's shadow DOM exists.
    await waitFor(() => page.evaluate(() => !!document.querySelector('sl-card')?.shadowRoot?.children.length));
    const truth = await expectMatches(page);
    const panel = truth.find((t) => t.name === 'Panel') as Truth;
    expect(panel.rendered / panel.authored).to.be.greaterThan(3);
    // A commit that adds a web component: its shadow tree appears later and is counted.
    await page.evaluate(() => (window as any).__addSpinner());
    const after = await expectMatches(page);
    expect((after.find((t) => t.name === 'Status') as Truth).authored).to.equal(5);
    await page.close();
  });

  it('works on a page with a strict CSP (the agent is injected by the extension, not by a page script)', async () => {
    const page = await h.newPage('counts-r19.html?csp=strict');
    await waitFor(() => page.evaluate(() => (window as any).__fixtureReady === true));
    const inlineRan = await page.evaluate(() => {
      const s = document.createElement('script');
      s.textContent = 'window.__inlineRan = true';
      document.body.append(s);
      return (window as any).__inlineRan === true;
    });
    expect(inlineRan, 'the CSP blocks inline script').to.equal(false);
    await lc.enable(page);
    await expectMatches(page);
    await page.close();
  });

  it('does nothing on a page without React', async () => {
    const page = await h.newPage('plain.html');
    const st = await lc.state(page);
    expect(st.react).to.deep.equal({ renderers: 0, roots: 0 });
    expect(st.agent).to.equal(false);
    // Off: the only trace of us is the hook, the API and the pass-through wrappers.
    const own = await page.evaluate(() => Object.getOwnPropertyNames(window).filter((k) => /LAYOUT_COST|REACT_DEVTOOLS/.test(k)));
    expect(own.sort()).to.deep.equal(['__LAYOUT_COST_OFFER__', '__LAYOUT_COST__']);
    await page.close();
  });
});
