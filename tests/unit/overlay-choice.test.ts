import { expect } from 'chai';
import { choiceReuse, samePlan, type ChoiceKey, type PlanKey } from '../../src/content/agent/canvas/choice';

describe('the overlay keeps its choice of meters', () => {
  const settings = {};
  const key = (o: Partial<ChoiceKey> = {}): ChoiceKey => ({ mode: 'components', settings, structure: 3, version: 10, frameNo: 7, sources: 1, ...o } as ChoiceKey);
  const made = { ...key(), at: 1000 };

  it('however old, while the store took no record (an idle page walks nothing)', () => {
    expect(choiceReuse(made, key(), 1000 + 60_000, 250)).to.equal('same');
  });

  it('for the refresh interval when only numbers moved, then chooses again', () => {
    for (const moved of [{ version: 11 }, { frameNo: 8 }]) {
      expect(choiceReuse(made, key(moved), 1249, 250), JSON.stringify(moved)).to.equal('recent');
      expect(choiceReuse(made, key(moved), 1250, 250), JSON.stringify(moved)).to.equal('new');
    }
  });

  it('never across a change of mode, settings, the set of components or their placed types, nor with none made', () => {
    for (const moved of [{ mode: 'heatmap' }, { settings: {} }, { structure: 4 }, { sources: 2 }]) {
      expect(choiceReuse(made, key(moved), 1001, 250), Object.keys(moved)[0]).to.equal('new');
    }
    expect(choiceReuse(null, key(), 1001, 250)).to.equal('new');
  });
});

describe('the overlay keeps its placement of meters', () => {
  const choice = {};
  const key = (o: Partial<PlanKey> = {}): PlanKey => ({
    choice, geometry: 5, width: 800, height: 600, dpr: 2, rtl: false, pinned: 4, hovered: null, highlighted: 9, flash: null, ...o,
  });

  it('while the choice, the geometry, the viewport and the focus stand (numbers alone moved)', () => {
    expect(samePlan(key(), key())).to.equal(true);
  });

  it('never across any change of them, nor with none made', () => {
    const moves: Partial<PlanKey>[] = [
      { choice: {} }, { geometry: 6 }, { width: 801 }, { height: 599 }, { dpr: 1 }, { rtl: true }, { pinned: null },
      { pinned: 5 }, { hovered: 4 }, { highlighted: null }, { flash: { cause: 3, moved: [4] } },
    ];
    for (const moved of moves) expect(samePlan(key(), key(moved)), JSON.stringify(moved)).to.equal(false);
    expect(samePlan(null, key())).to.equal(false);
  });
});
