import { expect } from 'chai';
import { DirtiedTally, MAX_KEYS } from '../../src/inject/agent/pipeline/dirtied';
import { dirtiedLine } from '../../src/devtools-panel/text';

describe('what dirtied a component', () => {
  it('rolls per-frame counts into EMAs (α = 0.2) and lists the busiest first', () => {
    const t = new DirtiedTally();
    for (let f = 0; f < 30; f++) {
      t.add('attribute', 'class', 'td', 'react', 490);
      if (f % 2 === 0) t.add('text', '#text', 'span', 'other');
      t.endFrame();
    }
    const top = t.top();
    expect(top[0]).to.include({ kind: 'attribute', name: 'class', on: 'td', source: 'react', last: 490 });
    expect(top[0].perFrame).to.be.closeTo(490, 1);
    expect(top[1].kind).to.equal('text');
    expect(top[1].perFrame).to.be.within(0.3, 0.7);
  });

  it('forgets what stopped, and keeps a bounded table however many names a page invents', () => {
    const t = new DirtiedTally();
    t.add('children', 'added', 'ul', 'other', 3);
    t.endFrame();
    for (let f = 0; f < 60; f++) t.endFrame();
    expect(t.top()).to.deep.equal([]);
    for (let i = 0; i < 10_000; i++) t.add('attribute', `data-x${i}`, 'div', 'other');
    t.endFrame();
    expect(t.top(1000).length).to.be.at.most(MAX_KEYS * 2);
  });

  it('says it in words, page text capped', () => {
    const l = dirtiedLine({ kind: 'attribute', name: 'class', on: 'td', source: 'react', perFrame: 490.2, last: 490 });
    expect(`${l.count} ${l.what}${l.rest}`).to.equal('490 class changes on TD per frame, from React (last frame 490)');
    const c = dirtiedLine({ kind: 'children', name: 'added', on: 'ul', source: 'other', perFrame: 0.5, last: 1 });
    expect(`${c.count} ${c.what}${c.rest}`).to.equal('0.5 children added to UL per frame, from other code (last frame 1)');
  });
});
