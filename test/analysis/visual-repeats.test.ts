import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixtureModels, type FixtureSet } from '../../scripts/make-fixture-models.js';
import { probeMedia } from '../../src/media/index.js';
import { ModelRuntime } from '../../src/ml/runtime.js';
import { findShots } from '../../src/analysis/shots.js';
import { analyzeVisual } from '../../src/analysis/visual.js';
import { ensureCorpus, type CorpusManifest } from '../support/corpus.js';

/** The runtime with the image–text model's image calls counted. */
class CountingRuntime extends ModelRuntime {
  images = 0;
  override async imageText() {
    const e = await super.imageText();
    if (!e) return e;
    return {
      ...e,
      embedImages: (images: Parameters<typeof e.embedImages>[0]) => {
        this.images += images.length;
        return e.embedImages(images);
      },
    };
  }
}

describe('frame vectors: a keyframe that repeats the last embedded one reuses its vector', () => {
  let tmp: string;
  let fixtures: FixtureSet;
  let corpus: CorpusManifest;

  beforeAll(async () => {
    corpus = await ensureCorpus();
    tmp = mkdtempSync(join(process.cwd(), 'test', '.tmp', 'visual-repeats-'));
    // The fixture hub folder has the `<repo>/<file>` layout of a models dir.
    fixtures = await makeFixtureModels(join(tmp, 'models'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('embeds each still slide once, yet gives every keyframe a vector', async () => {
    const models = new CountingRuntime({ modelsDir: fixtures.hubDir, manifestPath: fixtures.manifestPath });
    const probe = await probeMedia(corpus.slides.path);
    const v = await analyzeVisual(corpus.slides.path, probe, findShots(corpus.slides.path, probe, { models, signal: new AbortController().signal }), { models, language: 'en', signal: new AbortController().signal, progress: () => {} });
    // Three 8 s slides, a keyframe every 4 s: two per slide, the second a repeat of the first.
    expect(v.keyframes.length).toBeGreaterThan(corpus.slides.slides.length);
    expect(models.images).toBe(corpus.slides.slides.length);
    const items = v.frameVectors?.items ?? [];
    expect(items.map((i) => i.time)).toEqual(v.keyframes);
    for (const slide of corpus.slides.slides) {
      const inSlide = items.filter((i) => i.time >= slide.start && i.time < slide.end);
      expect(inSlide.length).toBeGreaterThan(1);
      for (const i of inSlide) expect(Array.from(i.vector)).toEqual(Array.from(inSlide[0].vector));
    }
  });
});
