import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_DETECTED_LANGUAGE, makeFixtureModels } from '../../scripts/make-fixture-models.js';
import { normalizeSegments, planChunks } from '../../src/ml/asr/chunking.js';
import { getTranscriber, SAMPLE_RATE } from '../../src/ml/asr/whisper.js';
import { ModelNotInstalledError } from '../../src/ml/registry/local.js';
import { parseManifest, type Manifest } from '../../src/ml/registry/manifest.js';
import { pull } from '../../src/ml/registry/pull.js';
import { startFakeHub } from '../support/fake-hub.js';

describe('chunk planning', () => {
  it('packs whole segments into windows of at most 30 s', () => {
    expect(planChunks([{ start: 1, end: 5 }, { start: 8, end: 20 }, { start: 29, end: 40 }], { durationS: 60 })).toEqual([
      { start: 1, end: 20 },
      { start: 29, end: 40 },
    ]);
    expect(planChunks([{ start: 0, end: 10 }, { start: 12, end: 30 }], { durationS: 60 })).toEqual([{ start: 0, end: 30 }]);
  });

  it('splits a long segment evenly and clips, sorts and merges the input', () => {
    const pieces = normalizeSegments([{ start: 0, end: 70 }], { durationS: 80 });
    expect(pieces).toHaveLength(3);
    expect(pieces.every((p) => p.end - p.start <= 30)).toBe(true);
    expect(pieces[0].start).toBe(0);
    expect(pieces[2].end).toBe(70);
    expect(normalizeSegments([{ start: 5, end: 9 }, { start: -1, end: 2 }, { start: 8, end: 12 }, { start: 50, end: 70 }, { start: 3, end: 3 }], { durationS: 60 })).toEqual([
      { start: 0, end: 2 },
      { start: 5, end: 12 },
      { start: 50, end: 60 },
    ]);
    expect(planChunks([], { durationS: 10 })).toEqual([]);
  });
});

describe('whisper transcription (fixture model)', () => {
  let tmp: string;
  let modelsDir: string;
  let manifest: Manifest;

  beforeAll(async () => {
    tmp = mkdtempSync(join(process.cwd(), 'test', '.tmp', 'asr-'));
    const fixtures = await makeFixtureModels(join(tmp, 'hub'));
    manifest = parseManifest(fixtures.manifest);
    const hub = await startFakeHub({ root: fixtures.hubDir });
    modelsDir = join(tmp, 'models');
    await pull(['tiny-whisper'], { hubUrl: hub.url, modelsDir, manifest });
    await hub.close();
  });

  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  /** Quiet noise: the fixture decoder ignores the audio, a real one would hear nothing. */
  const audio = (seconds: number) => Float32Array.from({ length: seconds * SAMPLE_RATE }, (_, i) => Math.sin(i / 7) * 0.01);

  it('transcribes a segment with absolute timestamps in the given language', async () => {
    const t = await getTranscriber({ modelsDir, manifest });
    const out = await t.transcribe(audio(20), [{ start: 2, end: 8 }], { language: 'en' });
    expect(out).toEqual({
      language: 'en',
      model: 'tiny-whisper',
      segments: [
        { start: 2, end: 3, text: 'Hello world.' },
        { start: 3.2, end: 4.5, text: 'Guten Tag' },
      ],
    });
  });

  it('offsets every window by its start, across split long segments', async () => {
    const t = await getTranscriber({ modelsDir, manifest });
    const progress: number[] = [];
    const out = await t.transcribe(audio(80), [{ start: 40, end: 75 }, { start: 0.5, end: 4 }], {
      language: 'de',
      onProgress: (done) => progress.push(done),
    });
    // Windows: [0.5, 4], then 40–75 split in two 17.5 s halves.
    expect(progress).toEqual([1, 2, 3]);
    expect(out.segments.map((s) => [s.start, s.end, s.text])).toEqual([
      [0.5, 1.5, 'Hello world.'],
      [1.7, 3, 'Guten Tag'],
      [40, 41, 'Hello world.'],
      [41.2, 42.5, 'Guten Tag'],
      [57.5, 58.5, 'Hello world.'],
      [58.7, 60, 'Guten Tag'],
    ]);
  });

  it('clamps timestamps that run past a short window', async () => {
    const t = await getTranscriber({ modelsDir, manifest });
    const out = await t.transcribe(audio(20), [{ start: 10, end: 11 }], { language: 'en' });
    expect(out.segments).toEqual([
      { start: 10, end: 11, text: 'Hello world.' },
      { start: 11, end: 11, text: 'Guten Tag' },
    ]);
  });

  it('detects the language when none is given', async () => {
    const t = await getTranscriber({ modelsDir, manifest });
    const out = await t.transcribe(audio(10), [{ start: 1, end: 6 }]);
    expect(out.language).toBe(FIXTURE_DETECTED_LANGUAGE);
    expect(out.segments).toHaveLength(2);
    expect(await t.detectLanguage(audio(5), ['en'])).toBe('en');
  });

  it('returns nothing for no speech, and shares one loaded model', async () => {
    const a = await getTranscriber({ modelsDir, manifest });
    const b = await getTranscriber({ modelsDir, manifest, modelId: 'tiny-whisper' });
    expect(a).toBe(b);
    expect(await a.transcribe(audio(5), [], { language: 'de' })).toEqual({ language: 'de', segments: [], model: 'tiny-whisper' });
  });

  it('fails clearly when the model is not installed', async () => {
    const empty = mkdtempSync(join(tmp, 'empty-'));
    const err = await getTranscriber({ modelsDir: empty, manifest }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ModelNotInstalledError);
    expect((err as Error).message).toBe('model tiny-whisper is not installed: run `vidx models pull tiny-whisper`');
  });
});
