import { describe, expect, it } from 'vitest';
import { pictureAt, pictureStretches, picturesOf } from '../../src/analysis/pictures.js';
import type { TimedPrint } from '../../src/analysis/types.js';

/** A made-up print of one of three looks: prints of one look are alike, of two looks not. */
const print = (time: number, look: 'navy' | 'green' | 'pan'): TimedPrint => {
  const hash = { navy: '0f0f0f0f0f0f0f0f', green: 'f0f0f0f0f0f0f0f0', pan: '00ff00ff00ff00ff' }[look];
  const colour = new Array<number>(48).fill(look === 'navy' ? 60 : look === 'green' ? 110 : 200);
  return { time, hash, detail: hash.repeat(4), colour };
};

describe('pictures of a video', () => {
  it('keeps one picture per look, starting where its shot starts', () => {
    // Two still slides, cut at 12 s: keyframes a second after each cut and every 4 s.
    const prints = [print(1, 'navy'), print(5, 'navy'), print(9, 'navy'), print(13, 'green'), print(17, 'green'), print(21, 'green')];
    expect(pictureStretches(prints, [12])).toEqual([{ from: 0, time: 1 }, { from: 12, time: 13 }]);
  });

  it('starts a picture that changed without a cut at its own keyframe', () => {
    expect(pictureStretches([print(1, 'navy'), print(5, 'pan')], [])).toEqual([{ from: 0, time: 1 }, { from: 5, time: 5 }]);
  });

  it('answers the picture on screen at a time, and an episode’s pictures', () => {
    const pictures = [{ from: 0, time: 1, thumbnail: 'a' }, { from: 12, time: 13, thumbnail: 'b' }];
    expect(pictureAt(pictures, 12)?.thumbnail).toBe('b');
    expect(pictureAt(pictures, 11.9)?.thumbnail).toBe('a');
    expect(pictureAt([], 3)).toBeNull();
    expect(picturesOf(pictures, 6.5, 12).map((p) => p.thumbnail)).toEqual(['a']);
    expect(picturesOf(pictures, 10, 14).map((p) => p.thumbnail)).toEqual(['a', 'b']);
  });
});
