import { expect } from 'chai';
import {
  clampToViewport, intersectsViewport, meterAnchor, METER_HEIGHT_PX, METER_WIDTH_PX, pageAnchor, roomForMeter,
} from '../../src/overlay/anchor';

const vp = { width: 1280, height: 900, dpr: 1 };

describe('overlay meter anchor', () => {
  it('sits at the top-right corner, 4 px inward', () => {
    expect(meterAnchor({ x: 100, y: 50, width: 400, height: 300 }, vp)).to.deep.equal({ x: 100 + 400 - 4 - 32, y: 54 });
  });

  it('mirrors to the top-left on right-to-left pages', () => {
    expect(meterAnchor({ x: 100, y: 50, width: 400, height: 300 }, vp, true)).to.deep.equal({ x: 104, y: 54 });
  });

  it('is suppressed under 40 px wide or tall, shown at exactly 40', () => {
    expect(meterAnchor({ x: 0, y: 0, width: 39.9, height: 300 }, vp)).to.equal(null);
    expect(meterAnchor({ x: 0, y: 0, width: 300, height: 39 }, vp)).to.equal(null);
    expect(meterAnchor({ x: 0, y: 0, width: 40, height: 40 }, vp)).to.deep.equal({ x: 4, y: 4 });
    expect(roomForMeter({ x: 0, y: 0, width: 40, height: 40 })).to.equal(true);
  });

  it('is suppressed when the box is wholly off screen, kept when a sliver shows', () => {
    expect(meterAnchor({ x: 0, y: -500, width: 300, height: 500 }, vp)).to.equal(null);
    expect(meterAnchor({ x: 1280, y: 0, width: 300, height: 500 }, vp)).to.equal(null);
    expect(intersectsViewport({ x: 0, y: -499, width: 300, height: 500 }, vp)).to.equal(true);
  });

  it('clamps into the viewport: a box scrolled half out keeps its meter on screen', () => {
    expect(meterAnchor({ x: 100, y: -200, width: 400, height: 500 }, vp)).to.deep.equal({ x: 464, y: 0 });
    expect(meterAnchor({ x: 1200, y: 890, width: 400, height: 500 }, vp)).to.deep.equal({ x: 1280 - METER_WIDTH_PX, y: 900 - METER_HEIGHT_PX });
    expect(meterAnchor({ x: -300, y: 10, width: 320, height: 100 }, vp)).to.deep.equal({ x: 0, y: 14 });
  });

  it('keeps the top-left on screen when the viewport is smaller than the meter', () => {
    expect(clampToViewport({ x: 5, y: 5 }, { width: 20, height: 10, dpr: 1 })).to.deep.equal({ x: 0, y: 0 });
  });

  it('anchors the <page> bucket at the viewport’s bottom corner, clear of the root component’s meter', () => {
    expect(pageAnchor(vp)).to.deep.equal({ x: 1280 - 4 - 32, y: 900 - 4 - 14 });
    expect(pageAnchor(vp, true)).to.deep.equal({ x: 4, y: 900 - 4 - 14 });
  });
});
