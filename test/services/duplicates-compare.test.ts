import { describe, expect, it } from 'vitest';
import { CandidateIndex } from '../../src/services/duplicates/candidates.js';
import { agreeingMeetings, comparePhotos, compareVideos, isFlat, type ItemLook } from '../../src/services/duplicates/compare.js';

let seed = 7;
const rnd = () => {
  seed = (seed * 1103515245 + 12345) >>> 0;
  return seed / 2 ** 32;
};
/** A random-walk frame sequence: each frame a few bits from the last, as a moving shot. */
function walk(frames: number): Uint32Array {
  const h = new Uint32Array(frames * 2);
  h[0] = 0x9e3779b9;
  h[1] = 0x7f4a7c15;
  for (let i = 1; i < frames; i++) {
    h[2 * i] = h[2 * i - 2]!;
    h[2 * i + 1] = h[2 * i - 1]!;
    for (let b = 0; b < 3; b++) h[2 * i + (rnd() < 0.5 ? 0 : 1)] ^= 1 << Math.floor(rnd() * 32);
  }
  return h;
}
const video = (itemPk: number, hashes: Uint32Array, words: string[] = []): ItemLook => ({ itemPk, kind: 'video', duration: hashes.length / 2 / 10, fps: 10, hashes, photo: null, words: new Set(words) });

describe('duplicates: comparing items', () => {
  it('finds a trimmed copy at its offset, and what share of each it covers', () => {
    const original = video(1, walk(600));
    const copy = video(2, original.hashes.slice(2 * 123, 2 * 483));
    const index = new CandidateIndex();
    index.add(original);
    const offsets = index.candidates(copy).get(1)!;
    expect(offsets.length).toBeGreaterThan(10);
    const m = compareVideos(copy, original, offsets)!;
    expect(m.overlapA).toBe(1);
    expect(m.overlapB).toBeCloseTo(0.6, 1);
    expect(m.similarity).toBe(1);
  });

  it('keeps apart videos whose frames do not line up, and look-alikes whose on-screen words differ', () => {
    const a = video(1, walk(300));
    expect(compareVideos(a, video(2, walk(300)), [0, 0, 0])).toBeNull();
    const sameFrames = video(3, a.hashes.slice(), ['quarterly', 'results', 'sales', 'region']);
    const otherWords = { ...a, words: new Set(['team', 'offsite', 'plans', 'budget']) };
    expect(compareVideos(otherWords, sameFrames, [0, 0])).toBeNull();
  });

  it('files and asks a still shot once, and still finds its copy', () => {
    const still = new Uint32Array(2400 * 2);
    for (let i = 0; i < 2400; i++) [still[2 * i], still[2 * i + 1]] = [0x5a5a1234, 0x0f0f4321];
    const index = new CandidateIndex();
    index.add(video(1, still));
    const offsets = index.candidates(video(2, still.slice())).get(1)!;
    expect(offsets).toEqual([0]);
    expect(compareVideos(video(2, still.slice()), video(1, still), offsets)?.overlapA).toBe(1);
  });

  it('offers a video whose meetings agree on one offset, not one that meets by chance', () => {
    const original = walk(300);
    // An unrelated video sharing two single frames with the original, far apart and at scattered offsets.
    const unrelated = walk(300);
    unrelated.set(original.subarray(2 * 40, 2 * 41), 2 * 200);
    unrelated.set(original.subarray(2 * 250, 2 * 251), 2 * 10);
    const index = new CandidateIndex();
    index.add(video(1, original));
    index.add(video(2, unrelated));
    const copy = video(3, original.slice(2 * 50, 2 * 250));
    expect([...index.candidates(copy).keys()]).toEqual([1]);
    expect(agreeingMeetings(index.candidates(copy).get(1)!)).toBeGreaterThanOrEqual(3);
    // The chance meetings are there (the original asks and meets the unrelated video) but not offered.
    expect(index.candidates(video(1, original)).has(2)).toBe(false);
  });

  it('bounds the meetings kept per candidate to a fair sample', () => {
    // Two frames taking turns: every frame meets half the other item's entries, in uncrowded buckets.
    const flicker = new Uint32Array(1200 * 2);
    for (let i = 0; i < 1200; i++) [flicker[2 * i], flicker[2 * i + 1]] = i % 2 ? [0x5a5a1234, 0x0f0f4321] : [0x1234abcd, 0x4321dcba];
    const index = new CandidateIndex();
    index.add(video(1, flicker.slice(0, 2 * 300)));
    const offsets = index.candidates(video(2, flicker)).get(1)!;
    expect(offsets).toHaveLength(2000);
  });

  it('calls near-uniform frames flat, and compares photos by fingerprint', () => {
    expect(isFlat(0, 0)).toBe(true);
    expect(isFlat(0xffffffff, 0xffffffff)).toBe(true);
    expect(isFlat(0x0f0f0f0f, 0xf0f0f0f0)).toBe(false);
    const photo = (itemPk: number, hash: string): ItemLook => ({ itemPk, kind: 'image', duration: 0, fps: 1, hashes: new Uint32Array(0), photo: { hash, detail: '0f'.repeat(32), colour: Array(48).fill(100) }, words: new Set() });
    expect(comparePhotos(photo(1, '0f0f0f0ff0f0f0f0'), photo(2, '0f0f0f0ff0f0f0f1'))?.similarity).toBeGreaterThan(0.95);
    expect(comparePhotos(photo(1, '0f0f0f0ff0f0f0f0'), photo(2, 'f0f0f0f00f0f0f0f'))).toBeNull();
  });
});
