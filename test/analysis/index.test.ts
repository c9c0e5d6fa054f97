import { existsSync, lstatSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCorpus, type CorpusManifest } from '../support/corpus.js';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';
import { itemDir } from '../../src/store/paths.js';

describe('POST /index over the test corpus, then search', () => {
  let s: TestServer;
  let corpus: CorpusManifest;
  beforeAll(async () => {
    corpus = await ensureCorpus();
    s = await startTestServer({ env: { VIDX_MEDIA_ROOTS: dirname(corpus.slides.path) } });
    await s.call('POST', '/collections', { json: { collection_id: 'home', name: 'Home videos' } });
  });
  afterAll(() => s.close());

  async function index(body: Record<string, unknown>) {
    const r = await s.call('POST', '/index', { form: { collection: 'home', ...body } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    return waitFor(async () => {
      const t = (await s.call('GET', `/tasks/${r.body.task_id}`)).body;
      return t.status === 'completed' || t.status === 'failed' ? t : undefined;
    }, 90_000, 'indexing');
  }
  const search = async (query: string, extra: Record<string, unknown> = {}) => {
    const r = await s.call('POST', '/search', { form: { query, collection: 'home', ...extra } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.results as { media_id: string; episode_id: number; start_time: number; score: number; src: string; image_url: string; audio: unknown[]; computer_vision: { summary: string }[]; content: string }[];
  };

  it('indexes a video into a media item with its episodes', async () => {
    const t = await index({ video: { path: corpus.slides.path, media_id: 'slides', title: 'Slides', additional_metadata: { trip: 'none' } } });
    expect(t.status, t.error?.message).toBe('completed');
    expect(t.result).toMatchObject({ status: 'indexed', media_id: 'slides', episodes: 3, transcript_source: 'embedded' });
    const item = (await s.call('GET', '/collections/home/items/slides')).body;
    expect(item).toMatchObject({ type: 'video', media_id: 'slides', title: 'Slides', additional_metadata: { trip: 'none' } });
    expect(item.duration).toBeCloseTo(24, 0);
    expect((await fetch(item.thumbnail_url)).status).toBe(200);
    // A path source has no URL: the item plays from the same signed link that search results give.
    expect(item.src).toMatch(/\/files\/.*media\.mp4\?exp=\d+&sig=/);
    expect([200, 206]).toContain((await fetch(item.src)).status);
    const listed = (await s.call('GET', '/collections/home/items')).body.items[0];
    expect(listed.src).toMatch(/\/files\/.*media\.mp4\?exp=/);
    const analysis = (await s.call('GET', '/collections/home/items/slides/analysis')).body;
    expect(analysis.episodes).toHaveLength(3);
    expect(analysis.video_duration).toBeCloseTo(24, 0);
    const pk = s.vidx.store.collections.findById('home')!.pk;
    // The kept link lives in the item's version folder (collections/<pk>/<media_id>/v-<id>/), which the database names.
    const stored = s.vidx.store.search.analysisOf(s.vidx.store.items.find(pk, 'slides')!.pk)!.stored_file!;
    expect(stored).toMatch(new RegExp(`^collections/${pk}/slides/v-[0-9a-f]{12}/media\\.mp4$`));
    expect(lstatSync(join(s.dataDir, stored)).isSymbolicLink()).toBe(true);
  });

  it('finds spoken words, slide-only words and compounds at the right moment', async () => {
    const penalty = await search('penalty shot');
    expect(penalty[0]).toMatchObject({ media_id: 'slides', episode_id: 1 });
    expect(penalty[0].start_time).toBeGreaterThanOrEqual(8);
    expect(penalty[0].start_time).toBeLessThan(16);
    const cinnamon = await search('cinnamon');
    expect(cinnamon[0]).toMatchObject({ media_id: 'slides', episode_id: 0 });
    const slideOnly = await search('Golden hour');
    expect(slideOnly[0]).toMatchObject({ media_id: 'slides', episode_id: 2 });
    const compound = await search('Kuchen');
    expect(compound[0]).toMatchObject({ media_id: 'slides', episode_id: 0 });
    const video = await fetch(penalty[0].src);
    expect([200, 206]).toContain(video.status);
    expect(video.headers.get('content-type')).toBe('video/mp4');
    const ranged = await fetch(penalty[0].src, { headers: { range: 'bytes=0-99' } });
    expect(ranged.status).toBe(206);
    expect((await ranged.arrayBuffer()).byteLength).toBe(100);
    expect(await search('xylophone zebra')).toEqual([]);
    expect((await search('"penalty" OR (shot* NEAR/2 -x) col:foo')).length).toBeGreaterThan(0);
  });

  it('leaves an existing item alone unless reindex_if_exists, then replaces it atomically', async () => {
    const skipped = await index({ video: { path: corpus.slides.path, media_id: 'slides', title: 'Changed' } });
    expect(skipped.result.status).toBe('skipped');
    expect((await s.call('GET', '/collections/home/items/slides')).body.title).toBe('Slides');
    const re = await index({ video: { path: corpus.slides.path, media_id: 'slides', title: 'Changed' }, reindex_if_exists: true });
    expect(re.status, re.error?.message).toBe('completed');
    expect(re.result.status).toBe('reindexed');
    expect((await s.call('GET', '/collections/home/items/slides')).body.title).toBe('Changed');
    expect((await s.call('GET', '/collections/home/items')).body.items).toHaveLength(1);
    expect((await search('penalty shot'))[0].media_id).toBe('slides');
  });

  it('indexes German speech from a sidecar and finds it by a German query', async () => {
    const t = await index({ video: { path: corpus.german.path, media_id: 'german' }, index_language: 'de' });
    expect(t.status, t.error?.message).toBe('completed');
    const hits = await search('Regen');
    expect(hits[0].media_id).toBe('german');
    expect(hits[0].start_time).toBeGreaterThan(5);
  });

  it('removes every row, vector and file of a deleted item', async () => {
    const pk = s.vidx.store.collections.findById('home')!.pk;
    const dir = itemDir(s.dataDir, pk, 'german');
    expect(existsSync(dir)).toBe(true);
    expect((await s.call('DELETE', '/collections/home/items/german')).status).toBe(200);
    expect(existsSync(dir)).toBe(false);
    expect(await search('Regen')).toEqual([]);
  });
});
