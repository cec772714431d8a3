/**
 * The component table goes to the panel as changes (TableMessage): after a
 * whole table, each update carries the rows that changed and the ids that
 * went. Checked end to end in pure code: a real RollupStore fed with records,
 * the real PanelFeed, and the panel's real PanelModel applying what the feed
 * sent — after every step the panel's table equals a whole table built from
 * the store at that moment.
 */
import { expect } from 'chai';
import { PanelFeed } from '../../src/content/agent/panel-feed';
import { RollupStore } from '../../src/content/agent/store';
import { rowFingerprint, toMicros, WHOLE_EVERY } from '../../src/content/agent/table-diff';
import { PanelModel } from '../../src/devtools-panel/model';
import { fakeFeedSource } from './feed-source';
import { RECORD_STRIDE, RecordKind, ROW_VALUES, type ComponentRow, type Status, type TableMessage } from '../../src/protocol';

function batch(...rows: number[][]): Float64Array {
  const d = new Float64Array(rows.length * RECORD_STRIDE);
  rows.forEach((r, i) => d.set(r, i * RECORD_STRIDE));
  return d;
}

interface Rig {
  store: RollupStore;
  feed: PanelFeed;
  model: PanelModel;
  sent: TableMessage[];
  version: { n: number };
  /** Delivers every table sent so far to the panel (or drops the next one), answering resyncs as the worker would. */
  deliver(drop?: number): void;
  /** The panel's rows and a whole table from the store now, for comparison. */
  both(): { panel: ComponentRow[]; truth: ComponentRow[] };
}

function rig(): Rig {
  const store = new RollupStore(() => 0);
  const sent: TableMessage[] = [];
  const version = { n: 0 };
  const src = fakeFeedSource((type, payload) => {
    if (type === 'table') sent.push(JSON.parse(JSON.stringify(payload)) as TableMessage);
  }, store, () => version.n);
  const feed = new PanelFeed(src);
  const model = new PanelModel();
  model.onStatus({ frameId: 0, renderers: 1 } as Status);
  let delivered = 0;
  const r: Rig = {
    store, feed, model, sent, version,
    deliver(drop = -1) {
      while (delivered < sent.length) {
        const i = delivered++;
        if (i === drop) continue;
        if (model.onTable(sent[i])) feed.resync();
      }
    },
    both() {
      // Changed rows travel with their ms to the µs (TableMessage.values): compared so.
      const us = (r: ComponentRow): ComponentRow => ({
        ...r, styleMs: toMicros(r.styleMs), layoutMs: toMicros(r.layoutMs), forcedMs: toMicros(r.forcedMs), lastFrameMs: toMicros(r.lastFrameMs),
      });
      return { panel: (model.table?.rows ?? []).map(us), truth: [...store.components.values()].map((c) => us(store.row(c))) };
    },
  };
  return r;
}

/** The feed's next table, now (its timer is 500 ms). */
function tick(r: Rig): void {
  (r.feed as unknown as { sendTable(): void }).sendTable();
}

function mounts(from: number, to: number): number[][] {
  const out: number[][] = [];
  for (let id = from; id <= to; id++) out.push([RecordKind.Mount, id, id === 1 ? -1 : 1, id === 1 ? 0 : 1, 0, -1]);
  return out;
}

describe('panel table as changes (TableMessage)', () => {
  it('a whole table on connect, then only the rows that changed and the ids that went; the panel\'s table stays equal', () => {
    const r = rig();
    r.store.apply(batch(...mounts(1, 500)), 500, ['Cell'], 0, 0);
    r.feed.setConnected(true);
    r.deliver();
    expect(r.sent[0].whole).to.equal(true);
    expect(r.sent[0].rows).to.have.length(500);
    expect(r.both().panel).to.deep.equal(r.both().truth);

    // Nothing changed: an update with no rows.
    tick(r);
    r.deliver();
    expect(r.sent.at(-1)!.whole).to.equal(false);
    expect(r.sent.at(-1)!.rows).to.have.length(0);
    expect(r.both().panel).to.deep.equal(r.both().truth);

    // Three components re-rendered (Stats), one got cost, two unmounted, two mounted.
    r.store.apply(batch(
      [RecordKind.Stats, 7, 2, 1, 1, 0], [RecordKind.Stats, 8, 5, 1, 3, 0], [RecordKind.Stats, 9, 1, 2, 2, 0],
      [RecordKind.Cost, 12, 0.5, 1.25, 0], [RecordKind.Frame, 1, 0.5, 1.25, 0, 0],
      [RecordKind.Unmount, 20], [RecordKind.Unmount, 21], ...mounts(501, 502),
    ), 10, [], 1, 0);
    tick(r);
    r.deliver();
    const last = r.sent.at(-1)!;
    expect(last.whole).to.equal(false);
    expect(last.removed.sort((a, b) => a - b)).to.deep.equal([20, 21]);
    // New components as whole rows; the ones the panel has as values only (ROW_VALUES numbers each, id first).
    expect(last.rows.map((x) => x.id)).to.deep.equal([501, 502]);
    expect(last.values.length % ROW_VALUES).to.equal(0);
    const changed = last.values.filter((_, i) => i % ROW_VALUES === 0);
    expect(changed).to.include.members([7, 8, 9, 12]);
    // The cost record rolls up to its ancestors (12's parent 1): they changed too; nothing else did.
    expect(changed.length).to.be.at.most(6);
    expect(r.both().panel).to.deep.equal(r.both().truth);
  });

  it('a missed update: the panel asks once, the feed answers with a whole table, and the tables agree again', () => {
    const r = rig();
    r.store.apply(batch(...mounts(1, 50)), 50, ['Cell'], 0, 0);
    r.feed.setConnected(true);
    r.deliver();
    r.store.apply(batch([RecordKind.Stats, 3, 1, 1, 1, 0]), 1, [], 1, 0);
    tick(r);
    r.store.apply(batch([RecordKind.Stats, 4, 1, 1, 1, 0]), 1, [], 1, 0);
    tick(r);
    const before = r.sent.length;
    r.deliver(before - 2); // the first of the two is lost on the way
    // The second could not apply; the resync's whole table followed at once.
    expect(r.sent.length).to.equal(before + 1);
    expect(r.sent.at(-1)!.whole).to.equal(true);
    r.deliver();
    expect(r.both().panel).to.deep.equal(r.both().truth);
    expect(r.model.table!.rows.find((x) => x.id === 3)!.commits).to.equal(1);
    expect(r.model.table!.rows.find((x) => x.id === 4)!.commits).to.equal(1);
  });

  it('whole again when names may have changed (the source book\'s version) and every WHOLE_EVERY updates', () => {
    const r = rig();
    r.store.apply(batch(...mounts(1, 10)), 10, ['Cell'], 0, 0);
    r.feed.setConnected(true);
    tick(r);
    r.version.n++;
    tick(r);
    expect(r.sent.map((m) => m.whole)).to.deep.equal([true, false, true]);
    for (let i = 0; i < WHOLE_EVERY; i++) tick(r);
    expect(r.sent.slice(3).map((m) => m.whole)).to.deep.equal([...new Array(WHOLE_EVERY - 1).fill(false), true]);
    r.deliver();
    expect(r.both().panel).to.deep.equal(r.both().truth);
  });

  it('whole again when keys held back came over (Key records): the panel\'s rows get them', () => {
    const r = rig();
    r.store.apply(batch(...mounts(1, 3)), 3, ['Cell'], 0, 0);
    r.feed.setConnected(true);
    tick(r);
    r.deliver();
    expect(r.model.table?.rows.map((x) => x.key)).to.deep.equal([null, null, null]);
    r.store.apply(batch([RecordKind.Key, 2, 0], [RecordKind.Key, 3, 1]), 2, [], 1, 0, ['two', 'three']);
    tick(r);
    tick(r);
    expect(r.sent.map((m) => m.whole)).to.deep.equal([true, false, true, false]);
    r.deliver();
    expect(r.model.table?.rows.map((x) => x.key)).to.deep.equal([null, 'two', 'three']);
    expect(r.both().panel).to.deep.equal(r.both().truth);
  });

  it('disconnecting frees what the feed kept of the panel\'s table', () => {
    const r = rig();
    r.store.apply(batch(...mounts(1, 100)), 100, ['Cell'], 0, 0);
    r.feed.setConnected(true);
    expect(r.feed.rowsSent).to.equal(100);
    r.feed.setConnected(false);
    expect(r.feed.rowsSent).to.equal(0);
  });

  it('a fingerprint changes whenever any one field changes', () => {
    let seed = 7;
    const rnd = (): number => ((seed = (Math.imul(seed, 1103515245) + 12345) | 0) >>> 8) / 2 ** 24;
    for (let n = 0; n < 2000; n++) {
      const f = [rnd() * 20, rnd() * 20, rnd() * 5, rnd() * 30, (rnd() * 1e4) | 0, (rnd() * 1e5) | 0, (rnd() * 100) | 0, (rnd() * 1e6) | 0, (rnd() * 1e3) | 0];
      const base = rowFingerprint(...(f as Parameters<typeof rowFingerprint>));
      for (let k = 0; k < f.length; k++) {
        const g = f.slice();
        g[k] += k < 4 ? 0.001 + rnd() * 3 : 1 + ((rnd() * 1000) | 0);
        expect(rowFingerprint(...(g as Parameters<typeof rowFingerprint>)), `field ${k}`).to.not.equal(base);
      }
    }
  });
});
