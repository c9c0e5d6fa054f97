/**
 * Issue 24: re-indexing is atomic. A new version of an item's files is written beside the old one, the rows
 * that name it commit in one transaction, and only then does the old version go. A real kill -9 at each of
 * those steps leaves an item whose every file link works, all old or all new, and the next start removes
 * the version nobody names and finishes the task.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IndexStep } from '../../src/services/analysis/index-task.js';
import { ensureCorpus } from '../support/corpus.js';
import { ADMIN_KEY, settledTask, startTestServer, waitFor } from '../support/server.js';
import { spawnVidx } from '../support/spawn-server.js';

describe('re-index survives kill -9 at each step', () => {
  let base: string;
  let media: string;
  beforeAll(async () => {
    const corpus = await ensureCorpus();
    base = mkdtempSync(join(tmpdir(), 'vidx-reindex-crash-'));
    media = join(base, 'media');
    mkdirSync(media);
    copyFileSync(corpus.silent.path, join(media, 'clip.mp4'));
  }, 120_000);
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  const versions = (dataDir: string, pk: number) => readdirSync(join(dataDir, 'collections', String(pk), 'clip')).sort();

  for (const step of ['staged', 'committed', 'cleaned'] satisfies IndexStep[]) {
    it(`after a kill at "${step}": every link works, then the task finishes with one version left`, async () => {
      const dataDir = join(base, `data-${step}`);
      const env = { VIDX_MEDIA_ROOTS: media };
      // The first version, indexed normally.
      const first = await startTestServer({ dataDir, env });
      await first.call('POST', '/collections', { json: { collection_id: 'c', name: 'C' } });
      const indexed = await first.call('POST', '/index', { json: { collection: 'c', video: { path: join(media, 'clip.mp4'), media_id: 'clip', additional_metadata: { v: 1 } } } });
      expect((await settledTask(first, indexed.body.task_id)).status).toBe('completed');
      const pk = first.vidx.store.collections.findById('c')!.pk;
      const [oldVersion] = versions(dataDir, pk);
      expect(oldVersion).toMatch(/^v-[0-9a-f]{12}$/);
      await first.close({ keepData: true });

      // Re-index in a process that kills itself at the step.
      const crashing = await spawnVidx('test/support/crash-server.ts', { VIDX_DATA_DIR: dataDir, VIDX_ADMIN_KEY: ADMIN_KEY, VIDX_MEDIA_ROOTS: media, VIDX_TEST_CRASH_AT: step });
      const r = await fetch(`${crashing.url}/index`, {
        method: 'POST',
        headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' },
        body: JSON.stringify({ collection: 'c', reindex_if_exists: true, video: { path: join(media, 'clip.mp4'), media_id: 'clip', additional_metadata: { v: 2 } } }),
      });
      const { task_id: taskId } = (await r.json()) as { task_id: string };
      expect(await crashing.exited).toBe('SIGKILL');
      const onDisk = versions(dataDir, pk);
      // Before the commit both versions are on disk and the old one is named; after the cleaning only the new one.
      expect(onDisk).toHaveLength(step === 'cleaned' ? 1 : 2);
      expect(onDisk.includes(oldVersion!)).toBe(step !== 'cleaned');

      // The next start: the unnamed version is gone before anything is served, the item is whole, and the
      // task that was running is run again to its end.
      const s = await startTestServer({ dataDir, env });
      try {
        const item = (await s.call('GET', '/collections/c/items/clip')).body;
        const named = /\/collections\/\d+\/clip\/(v-[0-9a-f]{12})\//.exec(decodeURIComponent(String(item.thumbnail_url)))![1];
        expect(named).toBe(step === 'staged' ? oldVersion : onDisk.find((v) => v !== oldVersion));
        const analysis = (await s.call('GET', '/collections/c/items/clip/analysis')).body;
        for (const url of [item.src, item.thumbnail_url, ...analysis.episodes.map((e: { thumbnail_url: string }) => e.thumbnail_url)]) {
          expect([200, 206], url).toContain((await fetch(url)).status);
        }
        expect(item.additional_metadata).toEqual({ v: step === 'staged' ? 1 : 2 });
        const task = await settledTask(s, taskId);
        expect(task.status, task.error?.message).toBe('completed');
        await waitFor(() => (versions(dataDir, pk).length === 1 ? true : undefined), 10_000, 'one version left');
        expect((await s.call('GET', '/collections/c/items/clip')).body.additional_metadata).toEqual({ v: 2 });
      } finally {
        await s.close();
      }
    }, 180_000);
  }
});
