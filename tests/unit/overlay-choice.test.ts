import { expect } from 'chai';
import { choiceReuse, type ChoiceKey } from '../../src/content/main/canvas/choice';

describe('the overlay keeps its choice of meters', () => {
  const settings = {};
  const key = (o: Partial<ChoiceKey> = {}): ChoiceKey => ({ mode: 'components', settings, structure: 3, version: 10, frameNo: 7, ...o });
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

  it('never across a change of mode, settings or the set of components, nor with none made', () => {
    for (const moved of [{ mode: 'heatmap' }, { settings: {} }, { structure: 4 }]) {
      expect(choiceReuse(made, key(moved), 1001, 250), Object.keys(moved)[0]).to.equal('new');
    }
    expect(choiceReuse(null, key(), 1001, 250)).to.equal('new');
  });
});
