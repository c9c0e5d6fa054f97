/**
 * Issue 27: an analysis crosses from a worker to the server as JSON (WireAnalysis) with its files by name.
 * What the pipeline produces must come through whole: a field the schema dropped would be missing from every
 * item a worker analysed (a picture's fingerprints, its size, the vectors).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeliveryBody } from '../../src/http/schemas/workers.js';
import { ModelRuntime } from '../../src/ml/runtime.js';
import { analyzeFile } from '../../src/analysis/pipeline.js';
import type { MediaAnalysis } from '../../src/analysis/types.js';
import { fromWireAnalysis, jobIdOf, parseJobId, toWireAnalysis } from '../../src/services/jobs/wire.js';
import { makeVideo } from '../support/folder-media.js';

describe('an analysis on the wire', () => {
  let dir: string;
  let analysis: MediaAnalysis;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vidx-wire-'));
    await makeVideo(join(dir, 'clip.mp4'), 'ON THE WIRE', 3);
    const models = new ModelRuntime({ modelsDir: join(dir, 'models') });
    analysis = await analyzeFile(
      { file: join(dir, 'clip.mp4'), sourcePath: null, title: null, metadata: null, language: 'en', thumbnailDir: join(dir, 'out') },
      { models, signal: new AbortController().signal, progress: () => {} },
    );
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('comes through the delivery schema whole, its files named and placed in the server’s folder', () => {
    const { analysis: wire, files } = toWireAnalysis(analysis);
    // Each episode's thumbnail, then its pictures (one still card: one picture, named once).
    expect(files).toEqual([...analysis.episodes.map((e) => `ep-${e.index}.jpg`), 'pic-0.jpg']);
    const parsed = DeliveryBody.parse(JSON.parse(JSON.stringify({ worker: 'w1', files, analysis: wire })));
    const back = fromWireAnalysis(parsed.analysis as typeof wire, '/srv/cache/k', new Set(files));
    const placed = (e: MediaAnalysis['episodes'][number]) => ({
      ...e,
      thumbnail: `/srv/cache/k/ep-${e.index}.jpg`,
      pictures: e.pictures!.map((p) => ({ ...p, thumbnail: '/srv/cache/k/pic-0.jpg' })),
    });
    expect(back).toEqual({ ...analysis, episodes: analysis.episodes.map(placed) });
    expect(analysis.framePrints?.length).toBeGreaterThan(0);
    expect(analysis.episodes[0]!.pictures).toEqual([{ from: 0, time: expect.any(Number), thumbnail: join(dir, 'out', 'pic-0.jpg') }]);
  });

  it('names no file outside the folder, whatever a worker says', () => {
    const { analysis: wire } = toWireAnalysis(analysis);
    const forged = { ...wire, episodes: wire.episodes.map((e) => ({ ...e, thumbnail: '../../vidx.db', pictures: [{ from: 0, time: 1, thumbnail: '../../vidx.db' }] })) };
    expect(() => DeliveryBody.parse({ worker: 'w1', files: ['../../vidx.db'], analysis: forged })).toThrow();
    expect(() => DeliveryBody.parse({ worker: 'w1', files: [], analysis: forged })).toThrow();
    const back = fromWireAnalysis(forged, '/srv/cache/k', new Set(['../../vidx.db'])).episodes;
    expect(back.every((e) => e.thumbnail === null && e.pictures!.every((p) => p.thumbnail === null))).toBe(true);
  });

  it('names its job by task and cache key, and reads them back', () => {
    const task = '0193a4b2-1c2d-7e8f-9a0b-1c2d3e4f5a6b';
    const key = '3fa2c0ffee00112233445566-auto-v5-81c0aa00bb11cc22dd33';
    expect(parseJobId(jobIdOf(task, key))).toEqual({ task, key });
    expect(parseJobId('x')).toBeNull();
    expect(parseJobId(`${task}-../../etc`)).toBeNull();
  });
});
