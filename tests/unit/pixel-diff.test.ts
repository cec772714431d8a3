import { expect } from 'chai';
import { deviceRect, diffPixels } from '../../src/background/pixel-diff';

const px = (...rgba: number[][]): Uint8ClampedArray => new Uint8ClampedArray(rgba.flat());
const W = [255, 255, 255, 255], R = [200, 0, 0, 255], B = [0, 0, 200, 255];

describe('experiments: the pixel comparison', () => {
  it('counts pixels the declaration changed among those that stayed put without it', () => {
    // 0: static, unchanged · 1: static, changed with it · 2: animating on its own (not compared) · 3: within tolerance.
    const off1 = px(W, W, R, W), on = px(W, B, B, [254, 253, 255, 255]), off2 = px(W, W, B, [255, 254, 254, 255]);
    expect(diffPixels(off1, on, off2)).to.deep.equal({ compared: 3, changed: 1 });
  });

  it('nothing compared when everything animates; buffers of different lengths compare their common part', () => {
    expect(diffPixels(px(R, R), px(W, W), px(B, B))).to.deep.equal({ compared: 0, changed: 0 });
    expect(diffPixels(px(W, W), px(W), px(W, W, W))).to.deep.equal({ compared: 1, changed: 0 });
  });

  it('maps a CSS px rect to the capture\'s device pixels by devicePixelRatio, clamped to the bitmap', () => {
    expect(deviceRect([10, 20, 30, 40], 2, 1600, 1200)).to.deep.equal([20, 40, 60, 80]);
    expect(deviceRect([-10, 590, 100, 50], 1, 800, 600)).to.deep.equal([0, 590, 90, 10]);
    expect(deviceRect([900, 0, 10, 10], 1, 800, 600)).to.equal(null);
    expect(deviceRect([0, 0, 10, 10], 0, 800, 600)).to.equal(null);
    // Emulated viewport wider than the visible area (device mode): the visible top-left part, not a rescaled one.
    expect(deviceRect([0, 0, 60, 16], 1, 725, 813)).to.deep.equal([0, 0, 60, 16]);
  });
});
