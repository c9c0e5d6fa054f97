import { describe, expect, it } from 'vitest';
import { CandidateIndex } from '../../src/services/duplicates/candidates.js';
import { agreeingMeetings, comparePhotos, compareVideos, isFlat, type ItemLook } from '../../src/services/duplicates/compare.js';
import { soundVerdict, wordsVerdict } from '../../src/services/duplicates/evidence.js';
import { keptHoldsAll, type Ranked } from '../../src/services/duplicates/keep.js';
import { LOOK_BYTES } from '../../src/media/perceptual.js';
import type { SoundFrames } from '../../src/media/sound-print.js';

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
const video = (itemPk: number, hashes: Uint32Array, words: string[] = []): ItemLook => ({
  itemPk, kind: 'video', duration: hashes.length / 2 / 10, fps: 10, hashes, looks: null, keyframes: [], photo: null, words: new Set(words), sound: null,
});

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
    const photo = (itemPk: number, hash: string): ItemLook => ({
      itemPk, kind: 'image', duration: 0, fps: 1, hashes: new Uint32Array(0), looks: null, keyframes: [], photo: { hash, detail: '0f'.repeat(32), colour: Array(48).fill(100) }, words: new Set(), sound: null,
    });
    expect(comparePhotos(photo(1, '0f0f0f0ff0f0f0f0'), photo(2, '0f0f0f0ff0f0f0f1'))?.similarity).toBeGreaterThan(0.95);
    expect(comparePhotos(photo(1, '0f0f0f0ff0f0f0f0'), photo(2, 'f0f0f0f00f0f0f0f'))).toBeNull();
  });
});

/** Looks of `frames` frames: one structure and one colour for all (see media/perceptual.ts frameLook). */
function looksOf(frames: number, structure: number, colour: number[]): Uint8Array {
  const looks = new Uint8Array(frames * LOOK_BYTES);
  for (let i = 0; i < frames; i++) looks.set([structure, ...colour], i * LOOK_BYTES);
  return looks;
}
const BROWN = [90, 110, 150, 90, 110, 150, 90, 110, 150, 90, 110, 150];
const BLUE = [80, 170, 100, 80, 170, 100, 80, 170, 100, 80, 170, 100];
/** A sound print of `frames` loud frames of seeded random bits (xorshift: every bit of it is random). */
function soundOf(frames: number, seedValue: number): SoundFrames {
  let x = seedValue * 0x9e3779b1;
  const bytes = new Uint8Array(frames * 5);
  for (let i = 0; i < frames; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    bytes.set([x >>> 24, (x >>> 16) & 0xff, (x >>> 8) & 0xff, x & 0xff, 70], i * 5);
  }
  return { fps: 10, frames: bytes };
}

describe('duplicates: what besides grey frames makes a copy (issue 42)', () => {
  const still = (frames: number) => {
    const h = new Uint32Array(frames * 2);
    for (let i = 0; i < frames; i++) [h[2 * i], h[2 * i + 1]] = [0x700ff00f, 0xf00fe0f8];
    return h;
  };
  const card = (itemPk: number, colour: number[], extra: Partial<ItemLook> = {}): ItemLook => ({ ...video(itemPk, still(80)), looks: looksOf(80, 5, colour), ...extra });

  it('keeps apart frames of the same grey in other colours', () => {
    const brown = { ...video(1, walk(100)), looks: looksOf(100, 120, BROWN) };
    const blue = { ...video(2, brown.hashes.slice()), looks: looksOf(100, 120, BLUE) };
    expect(compareVideos(brown, blue, [0, 0, 0])).toBeNull();
    expect(compareVideos(brown, { ...blue, looks: looksOf(100, 120, BROWN) }, [0, 0, 0])?.overlapA).toBe(1);
  });

  it('does not pair flat title cards on their frames alone, but on agreeing words or sound', () => {
    expect(compareVideos(card(1, BROWN), card(2, BROWN), [0])).toBeNull();
    const voice = soundOf(80, 3);
    expect(compareVideos(card(1, BROWN, { sound: voice }), card(2, BROWN, { sound: voice }), [0])?.overlapA).toBe(1);
    expect(compareVideos(card(1, BROWN, { sound: voice }), card(2, BROWN, { sound: soundOf(80, 4) }), [0])).toBeNull();
    const words = new Set(['brot', 'backen']);
    expect(compareVideos(card(1, BROWN, { words }), card(2, BROWN, { words }), [0])?.overlapA).toBe(1);
    expect(compareVideos(card(1, BROWN, { words }), card(2, BROWN, { words: new Set(['marienplatz']) }), [0])).toBeNull();
  });

  it('calls a part a copy only when its frames match in order', () => {
    const original = video(1, walk(400));
    const part = original.hashes.slice(2 * 100, 2 * 300);
    // The same frames, the halves swapped: every frame has its like, but not in order.
    const swapped = new Uint32Array(part.length);
    swapped.set(part.subarray(part.length / 2), 0);
    swapped.set(part.subarray(0, part.length / 2), part.length / 2);
    expect(compareVideos(video(2, part), original, [10, 10, 10])?.overlapA).toBe(1);
    expect(compareVideos(video(3, swapped), original, [0, 20, 0, 20])).toBeNull();
  });

  it('keeps a photo and its recoloured version apart', () => {
    const photo = (itemPk: number, colour: number[]): ItemLook => ({
      itemPk, kind: 'image', duration: 0, fps: 1, hashes: new Uint32Array(0), looks: null, keyframes: [], photo: { hash: '0f0f0f0ff0f0f0f0', detail: '0f'.repeat(32), colour }, words: new Set(), sound: null,
    });
    expect(comparePhotos(photo(1, Array(48).fill(100)), photo(2, Array(48).fill(104)))).not.toBeNull();
    expect(comparePhotos(photo(1, Array(48).fill(100)), photo(2, Array.from({ length: 48 }, (_, i) => (i % 3 === 2 ? 160 : 70))))).toBeNull();
  });
});

describe('duplicates: what the other senses say', () => {
  it('reads on-screen words with OCR slips forgiven, and needs enough to tell', () => {
    expect(wordsVerdict(new Set(['brot', 'backen']), new Set(['marienplatz']))).toBe('differ');
    expect(wordsVerdict(new Set(['budget', 'review']), new Set(['budget', 'reviev', 'solar']))).toBe('agree');
    expect(wordsVerdict(new Set(['ok']), new Set(['no']))).toBeNull();
    expect(wordsVerdict(new Set(), new Set(['budget']))).toBeNull();
  });

  it('hears the same sound, other sound, and too little sound', () => {
    expect(soundVerdict(soundOf(50, 1), soundOf(50, 1), 0)).toBe('agree');
    expect(soundVerdict(soundOf(50, 1), soundOf(50, 2), 0)).toBe('differ');
    expect(soundVerdict(soundOf(10, 1), soundOf(10, 1), 0)).toBeNull();
    expect(soundVerdict(soundOf(50, 1), null, 0)).toBeNull();
  });
});

describe('which copies the kept one holds whole', () => {
  const item = (o: Partial<Ranked> = {}): Ranked => ({ pk: 1, type: 'video', duration: 10, width: 640, height: 360, size: 1e6, captured_at: null, captured_at_source: null, latitude: null, format: 'mp4', ...o });
  it('holds a copy it shows whole, with at least its pixels and, for photos, its date and place', () => {
    expect(keptHoldsAll(item(), item({ pk: 2 }), 1)).toBe(true);
    expect(keptHoldsAll(item(), item({ pk: 2 }), 0.5)).toBe(false);
    expect(keptHoldsAll(item(), item({ pk: 2, width: 1920, height: 1080 }), 1)).toBe(false);
    const heic = item({ type: 'image', format: 'heic', captured_at_source: 'metadata', latitude: 48.1 });
    const jpeg = item({ pk: 2, type: 'image', format: 'jpg' });
    expect(keptHoldsAll(heic, jpeg, 1)).toBe(true);
    expect(keptHoldsAll(jpeg, heic, 1)).toBe(false);
  });
});
