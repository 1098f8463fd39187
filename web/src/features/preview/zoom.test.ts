import { describe, expect, it } from 'vitest';
import {
  clampScale,
  doubleClickZoom,
  INITIAL_ZOOM,
  pinchScale,
  wheelScale,
  zoomTransform,
} from './zoom.ts';

describe('image zoom', () => {
  it.each([
    [0.1, 0.25],
    [0.25, 0.25],
    [2.5, 2.5],
    [4, 4],
    [9, 4],
  ])('clamps scale %s to %s', (scale, clamped) => {
    expect(clampScale(scale)).toBe(clamped);
  });

  it('steps by 0.25 per wheel notch, up zooms in, within 0.25–4', () => {
    expect(wheelScale(1, -100)).toBe(1.25);
    expect(wheelScale(1, 100)).toBe(0.75);
    expect(wheelScale(4, -1)).toBe(4);
    expect(wheelScale(0.25, 1)).toBe(0.25);
    expect(wheelScale(2, 0)).toBe(2);
  });

  it('cycles 1, 2, 4, 1 on double-click and re-centres at 1', () => {
    const two = doubleClickZoom({ scale: 1, x: 10, y: 5 });
    expect(two).toEqual({ scale: 2, x: 10, y: 5 });
    const four = doubleClickZoom(two);
    expect(four.scale).toBe(4);
    expect(doubleClickZoom(four)).toEqual(INITIAL_ZOOM);
    expect(doubleClickZoom({ scale: 1.75, x: 3, y: 3 })).toEqual(INITIAL_ZOOM);
  });

  it('scales a pinch by the change of finger distance, clamped', () => {
    expect(pinchScale(1, 100, 200)).toBe(2);
    expect(pinchScale(2, 100, 50)).toBe(1);
    expect(pinchScale(1, 100, 1000)).toBe(4);
    expect(pinchScale(1.5, 0, 10)).toBe(1.5);
  });

  it('writes the transform as translate then scale', () => {
    expect(zoomTransform({ scale: 2, x: -4, y: 6 })).toBe('translate(-4px, 6px) scale(2)');
  });
});
