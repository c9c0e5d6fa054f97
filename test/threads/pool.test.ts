import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ModelRuntime } from '../../src/ml/runtime.js';
import { suggestFromEpisodes } from '../../src/services/explore/suggestions.js';
import { ThreadPool } from '../../src/services/threads/pool.js';
import type { ThreadSettings } from '../../src/services/threads/protocol.js';

const dir = mkdtempSync(join(tmpdir(), 'vidx-pool-'));
const settings: ThreadSettings = { modelsDir: join(dir, 'models'), mediaRoots: [dir], dataDir: join(dir, 'data'), ownDirs: [join(dir, 'data')], tools: {}, modelAssets: {} };
const models = new ModelRuntime({ modelsDir: settings.modelsDir });
const newPool = (threads: number) => new ThreadPool({ threads, settings, models, label: 'job thread' });

const rows = [
  { media_id: 'a', idx: 0, start: 0, end: 10, text: 'penalty kick goal keeper penalty shootout final' },
  { media_id: 'b', idx: 0, start: 0, end: 10, text: 'penalty shootout keeper saves the penalty kick' },
  { media_id: 'c', idx: 1, start: 10, end: 20, text: 'apple cake recipe flour sugar oven baking' },
  { media_id: 'd', idx: 0, start: 0, end: 10, text: 'apple cake baking in the oven with sugar' },
].map((r) => ({ ...r, spoken: r.text, shown: '', tags: '[]', media_type: 'video' as const, title: null }));

describe('thread pool', () => {
  const threaded = newPool(1);
  const inline = newPool(0);
  afterAll(async () => {
    await threaded.close();
    await inline.close();
  });

  it('gives the same output in a thread as inline and as the direct call', async () => {
    const input = { rows, language: 'en' as const, maxTopics: 8 };
    expect(threaded.threaded).toBe(true);
    expect(inline.threaded).toBe(false);
    const direct = [...suggestFromEpisodes(rows, 'en', 8)];
    expect(direct.length).toBeGreaterThan(0);
    expect(await threaded.run('suggestions', input)).toEqual(direct);
    expect(await inline.run('suggestions', input)).toEqual(direct);
  });

  it('passes a job error back and keeps serving', async () => {
    // A malformed input (rows is not a list) fails inside the thread, not in the caller.
    await expect(threaded.run('suggestions', { rows: null as never, language: 'en', maxTopics: 8 })).rejects.toThrow();
    const out = await Promise.all([1, 2, 3].map(() => threaded.run('clusters', { results: [], vectors: null, query: 'x', language: 'en', maxClusters: 8 })));
    expect(out).toEqual([[], [], []]);
  });

  it('refuses a call it does not know, in a thread and inline', async () => {
    await expect(threaded.run('nope' as never, {} as never)).rejects.toThrow(/unknown thread call "nope"/);
    await expect(inline.run('nope' as never, {} as never)).rejects.toThrow(/unknown thread call "nope"/);
  });

  it('does not start a job whose caller already gave up', async () => {
    const gaveUp = AbortSignal.abort(new Error('caller left'));
    await expect(threaded.run('clusters', { results: [], vectors: null, query: 'x', language: 'en', maxClusters: 8 }, { signal: gaveUp })).rejects.toThrow(/caller left/);
  });

  it('refuses jobs after close', async () => {
    const r = newPool(1);
    await r.close();
    await expect(r.run('suggestions', { rows, language: 'en', maxTopics: 1 })).rejects.toThrow(/closed/);
  });
});
