import { beforeAll, describe, expect, it } from 'vitest';
import { MediaError } from '../../src/media/errors.js';
import { detectScenes } from '../../src/media/scenes.js';
import { ensureCorpus, type CorpusManifest } from '../support/corpus.js';

let corpus: CorpusManifest;
beforeAll(async () => {
  corpus = await ensureCorpus();
});

describe('detectScenes', () => {
  it('finds the slide changes within half a second, and nothing else', async () => {
    const { cuts, scenes, durationSec } = await detectScenes(corpus.slides.path);
    expect(cuts.map((c) => c.time)).toHaveLength(corpus.slides.cuts.length);
    cuts.forEach((c, i) => {
      expect(Math.abs(c.time - corpus.slides.cuts[i])).toBeLessThanOrEqual(0.5);
      expect(c.score).toBeGreaterThan(0.3);
    });
    expect(scenes).toHaveLength(3);
    expect(scenes[0].start).toBe(0);
    expect(scenes.at(-1)!.end).toBe(durationSec);
  });

  it('works on a video without audio and reports no cut in a single shot', async () => {
    const silent = await detectScenes(corpus.silent.path);
    expect(silent.cuts.map((c) => Math.round(c.time))).toEqual(corpus.silent.cuts);
    const german = await detectScenes(corpus.german.path);
    expect(german.cuts).toEqual([]);
    expect(german.scenes).toEqual([{ start: 0, end: 12 }]);
  });

  it('refuses an audio-only file with no_video', async () => {
    await expect(detectScenes(corpus.speech.path)).rejects.toSatisfy((e: unknown) => e instanceof MediaError && e.code === 'no_video');
  });
});
