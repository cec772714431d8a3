/**
 * The content overlay's input rules against a stand-in window (an
 * EventTarget): which gestures are swallowed, hover hit-testing, Esc, and
 * the legend's show/dismiss state.
 */
import { expect } from 'chai';
import { Interaction, type InteractionDeps } from '../../src/content/agent/canvas/interaction';
import { LEGEND_STORAGE_KEY, LEGEND_TIMEOUT_MS, LegendState } from '../../src/content/agent/canvas/legend-state';

/** Node has no window: the tests swap one in for each case. */
const g = globalThis as unknown as { window?: EventTarget };

function fire(type: string, props: Record<string, unknown> = {}): { event: Event; pageSaw: boolean } {
  const event = new Event(type, { cancelable: true });
  for (const [k, v] of Object.entries({ button: 0, isPrimary: true, clientX: 10, clientY: 20, ...props })) {
    Object.defineProperty(event, k, { value: v });
  }
  let pageSaw = false;
  const page = (): void => {
    pageSaw = true;
  };
  const w = g.window!;
  w.addEventListener(type, page, true); // registered after ours, like the page's own listeners
  w.dispatchEvent(event);
  w.removeEventListener(type, page, true);
  return { event, pageSaw };
}

describe('overlay interaction (content)', () => {
  let state: {
    mode: string; hovered: number | null; pinned: number | null; hits: [number, number][]; escaped: number; viewport: number;
    legend: boolean;
  };
  let ix: Interaction;
  let hitAnswer: number | null;

  beforeEach(() => {
    g.window = new EventTarget();
    state = { mode: 'inspect', hovered: null, pinned: null, hits: [], escaped: 0, viewport: 0, legend: false };
    hitAnswer = 7;
    const deps: InteractionDeps = {
      inspecting: () => state.mode === 'inspect',
      hovered: () => state.hovered,
      pinned: () => state.pinned,
      hitTest: async (x, y) => {
        state.hits.push([x, y]);
        return hitAnswer;
      },
      setHovered: (id) => {
        state.hovered = id;
      },
      pin: (id) => {
        state.pinned = id;
      },
      escape: () => {
        state.escaped++;
        state.pinned = null;
      },
      // The legend sits at x < 100, y > 500 while shown.
      onLegend: (x, y) => state.legend && x < 100 && y > 500,
      dismissLegend: () => {
        state.legend = false;
      },
      viewportChanged: () => {
        state.viewport++;
      },
    };
    ix = new Interaction(deps);
    ix.attach();
  });
  afterEach(() => {
    ix.detach();
    delete g.window;
  });

  it('hover hit-tests the pointer position and keeps the answer', async () => {
    fire('pointermove', { clientX: 33, clientY: 44 });
    await new Promise((r) => setTimeout(r, 0));
    expect(state.hits).to.deep.equal([[33, 44]]);
    expect(state.hovered).to.equal(7);
  });

  it('coalesces moves while a hit-test is in flight: the latest point wins', async () => {
    fire('pointermove', { clientX: 1 });
    fire('pointermove', { clientX: 2 });
    fire('pointermove', { clientX: 3 });
    await new Promise((r) => setTimeout(r, 0));
    expect(state.hits.map((h) => h[0])).to.deep.equal([1, 3]);
  });

  it('does not hit-test outside Inspect', async () => {
    state.mode = 'components';
    fire('pointermove');
    await new Promise((r) => setTimeout(r, 0));
    expect(state.hits).to.deep.equal([]);
  });

  /** Hovers the default press point (10, 20) through a real hit-test. */
  async function hover(): Promise<void> {
    fire('pointermove');
    await new Promise((r) => setTimeout(r, 0));
  }

  it('swallows the whole pinning gesture and pins the hovered component', async () => {
    await hover();
    for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click']) {
      const { event, pageSaw } = fire(type);
      expect(pageSaw, type).to.equal(false);
      expect(event.defaultPrevented, type).to.equal(true);
    }
    expect(state.pinned).to.equal(7);
    expect(fire('dblclick').pageSaw).to.equal(false);
  });

  it('unpins with a click on the pinned component, also swallowed', async () => {
    await hover();
    state.pinned = 7;
    expect(fire('pointerdown').pageSaw).to.equal(false);
    expect(state.pinned).to.equal(null);
  });

  /** A primary press at the hovered point is swallowed and pins: the state each case below starts from. */
  async function pinningPressWouldBeSwallowed(): Promise<void> {
    expect(fire('pointerdown').pageSaw, 'control: a primary press pins').to.equal(false);
    expect(state.pinned).to.equal(7);
    fire('click'); // ends the swallowed gesture
    state.pinned = null;
  }

  it('lets clicks through when nothing is hovered', async () => {
    hitAnswer = null; // a real hit-test of the press point that found no component
    await hover();
    expect(state.hits).to.deep.equal([[10, 20]]);
    for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click']) expect(fire(type).pageSaw, type).to.equal(true);
    expect(state.pinned).to.equal(null);
  });

  it('lets clicks through with a non-primary button or pointer, over a hovered component', async () => {
    await hover();
    await pinningPressWouldBeSwallowed();
    for (const props of [{ button: 1 }, { button: 2 }, { isPrimary: false }]) {
      for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click']) {
        const { event, pageSaw } = fire(type, props);
        expect(pageSaw, `${type} ${JSON.stringify(props)}`).to.equal(true);
        expect(event.defaultPrevented, `${type} ${JSON.stringify(props)}`).to.equal(false);
      }
    }
    expect(state.pinned).to.equal(null);
  });

  it('lets clicks through outside Inspect, over the component hovered in Inspect', async () => {
    await hover();
    await pinningPressWouldBeSwallowed();
    state.mode = 'components';
    for (const type of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click']) expect(fire(type).pageSaw, type).to.equal(true);
    expect(state.pinned).to.equal(null);
  });

  it('a press that outran the hit-test of a new pointer position reaches the page', async () => {
    await hover();
    fire('pointermove', { clientX: 300, clientY: 200 }); // its hit-test is still in flight
    expect(fire('pointerdown', { clientX: 300, clientY: 200 }).pageSaw).to.equal(true);
    expect(state.pinned).to.equal(null);
  });

  it('a click after a pinning click reaches the page when it does not pin', async () => {
    await hover();
    fire('pointerdown');
    fire('click');
    state.hovered = null;
    expect(fire('pointerdown').pageSaw).to.equal(true);
    expect(fire('click').pageSaw).to.equal(true);
  });

  it('a press on the legend hides it and stays ours; once hidden, the same spot is the page\'s', () => {
    state.mode = 'components';
    state.legend = true;
    for (const t of ['pointerdown', 'mousedown', 'pointerup', 'mouseup', 'click']) {
      expect(fire(t, { clientX: 20, clientY: 600 }).pageSaw, t).to.equal(false);
    }
    expect(state.legend).to.equal(false);
    expect(fire('pointerdown', { clientX: 20, clientY: 600 }).pageSaw).to.equal(true);
    expect(fire('click', { clientX: 20, clientY: 600 }).pageSaw).to.equal(true);
    // A press elsewhere while the legend shows is the page's too.
    state.legend = true;
    expect(fire('pointerdown', { clientX: 300, clientY: 600 }).pageSaw).to.equal(true);
    expect(fire('click', { clientX: 300, clientY: 600 }).pageSaw).to.equal(true);
    expect(state.legend).to.equal(true);
  });

  it('never swallows Esc: it unpins and still reaches the page', () => {
    expect(fire('keydown', { key: 'Escape' }).pageSaw).to.equal(true);
    state.pinned = 3;
    expect(fire('keydown', { key: 'Escape' }).pageSaw).to.equal(true);
    expect(state.pinned).to.equal(null);
    expect(fire('keydown', { key: 'a' }).pageSaw).to.equal(true);
    expect(state.escaped).to.equal(2);
  });

  it('asks for fresh bounds on scroll and resize, and forgets the hover when the pointer leaves', () => {
    fire('scroll');
    fire('resize');
    expect(state.viewport).to.equal(2);
    state.hovered = 7;
    fire('mouseout', { relatedTarget: null });
    expect(state.hovered).to.equal(null);
  });

  it('stops listening when detached', async () => {
    await hover();
    await pinningPressWouldBeSwallowed();
    state.legend = true;
    ix.detach();
    // Every listener is gone, not only the hover it forgets: nothing it used to take or answer reaches it.
    fire('pointermove', { clientX: 50, clientY: 60 });
    await new Promise((r) => setTimeout(r, 0));
    expect(state.hits).to.deep.equal([[10, 20]]);
    expect(fire('pointerdown').pageSaw, 'press on the last hovered point').to.equal(true);
    expect(fire('pointerdown', { clientX: 20, clientY: 600 }).pageSaw, 'press on the legend').to.equal(true);
    expect(state.legend).to.equal(true);
    fire('keydown', { key: 'Escape' });
    fire('scroll');
    fire('resize');
    expect([state.escaped, state.viewport, state.pinned]).to.deep.equal([0, 0, null]);
  });
});

describe('overlay legend state (content)', () => {
  let t = 0;
  const now = (): number => t;
  const storage = (initial: unknown) => {
    const data: Record<string, unknown> = { [LEGEND_STORAGE_KEY]: initial };
    return { data, get: async (k: string) => data[k], set: async (k: string, v: unknown) => { data[k] = v; } };
  };
  beforeEach(() => {
    t = 1000;
  });

  it('shows on the first enable in the document, once', async () => {
    const l = new LegendState(storage(undefined), now);
    await Promise.resolve();
    l.enabled();
    expect(l.visible()).to.equal(true);
    l.disabled();
    l.enabled();
    expect(l.visible()).to.equal(false);
  });

  it('hides after the timeout without remembering it', async () => {
    const s = storage(undefined);
    const l = new LegendState(s, now);
    await Promise.resolve();
    l.enabled();
    t += LEGEND_TIMEOUT_MS - 1;
    expect(l.visible()).to.equal(true);
    t += 1;
    expect(l.visible()).to.equal(false);
    expect(s.data[LEGEND_STORAGE_KEY]).to.equal(undefined);
  });

  it('Esc dismisses it and remembers; a dismissed legend never shows again', async () => {
    const s = storage(undefined);
    const l = new LegendState(s, now);
    await Promise.resolve();
    l.enabled();
    expect(l.dismiss()).to.equal(true);
    expect(l.visible()).to.equal(false);
    expect(l.dismiss()).to.equal(false);
    await Promise.resolve();
    expect(s.data[LEGEND_STORAGE_KEY]).to.equal(true);
    const next = new LegendState(s, now);
    await new Promise((r) => setTimeout(r, 0));
    next.enabled();
    expect(next.visible()).to.equal(false);
  });

  it('counts storage failures and then behaves as never dismissed', async () => {
    const l = new LegendState({ get: async () => { throw new Error('no storage'); }, set: async () => undefined }, now);
    await new Promise((r) => setTimeout(r, 0));
    expect(l.storageErrors).to.equal(1);
    l.enabled();
    expect(l.visible()).to.equal(true);
  });
});
