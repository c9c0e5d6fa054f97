import { describe, expect, it } from 'vitest';
import { framePrint, printSimilarity, type RgbPicture } from '../../src/media/perceptual.js';

/** A picture drawn by `shade(x, y)` (x, y in 0..1) at a given size: the same scene at any size. */
function draw(width: number, height: number, shade: (x: number, y: number) => [number, number, number]): RgbPicture {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) data.set(shade((x + 0.5) / width, (y + 0.5) / height), (y * width + x) * 3);
  }
  return { data, width, height };
}
const rings = (x: number, y: number): [number, number, number] => {
  const v = 128 + 120 * Math.sin(18 * Math.hypot(x - 0.4, y - 0.6));
  return [v, 255 - v, 90];
};
const stripes = (x: number, y: number): [number, number, number] => {
  const v = (Math.floor(x * 9 + y * 3) % 2) * 200 + 30;
  return [v, v, 255 - v];
};

describe('perceptual prints', () => {
  it('prints a scene alike at 1920×1080, 1280×720 and 320×180 (large frames are read on a lattice), and another scene apart', () => {
    const big = framePrint(draw(1920, 1080, rings));
    const mid = framePrint(draw(1280, 720, rings));
    const small = framePrint(draw(320, 180, rings));
    expect(printSimilarity(big, mid)).toBeGreaterThan(0.95);
    expect(printSimilarity(big, small)).toBeGreaterThan(0.9);
    expect(printSimilarity(big, framePrint(draw(1280, 720, stripes)))).toBeLessThan(0.6);
    expect(big.hash).toMatch(/^[0-9a-f]{16}$/);
    expect(big.detail).toMatch(/^[0-9a-f]{64}$/);
    expect(big.colour).toHaveLength(48);
  });

  it('refuses data shorter than its size says', () => {
    expect(() => framePrint({ data: new Uint8Array(10), width: 4, height: 4 })).toThrow(/not an RGB picture/);
  });
});
