import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KEPT_TABLES } from '../../scripts/make-upgrade-fixture.js';
import { migrations } from '../../src/store/migrations/index.js';
import { COPY_RULES } from '../../src/services/duplicates/service.js';
import type { QueryEmbedder } from '../../src/services/search/index.js';
import { topicVector } from '../search/fixtures.js';
import { settledTask, startTestServer, waitFor, type TestServer } from '../support/server.js';
import { copyUpgradeFixture, upgradeFixtures, type UpgradeCopy } from './upgrade-copy.js';

/** Query "embeddings" in the fixture's 8-dimensional topic space: "golden hour" means nature, anything else music. */
const embedder: QueryEmbedder = {
  async embed(query) {
    return { vector: topicVector(/golden hour/i.test(query) ? 'nature' : 'music'), minSimilarity: 0.5 };
  },
};

/** The migrations a database has recorded, with when; and the rows of the tables an upgrade keeps. */
function schemaState(s: TestServer) {
  const db = s.vidx.store.db;
  return {
    applied: db.prepare('SELECT id, applied_at FROM schema_migrations ORDER BY id').all() as { id: number; applied_at: string }[],
    version: db.pragma('user_version', { simple: true }) as number,
    counts: Object.fromEntries(KEPT_TABLES.map((t) => [t, (db.prepare(`SELECT COUNT(*) AS n FROM ${t}`).get() as { n: number }).n])),
  };
}

/**
 * Issue 33.9: a data dir the previous release wrote opens in today's vidx with everything in it. The fixture
 * (test/fixtures/upgrade/<release>, made by scripts/make-upgrade-fixture.ts in a checkout of that release)
 * is copied and opened; what it holds is read back through the API, and through the store where the API
 * does not show it.
 */
describe.each(upgradeFixtures())('a data dir made by release %s', (release) => {
  let copy: UpgradeCopy;
  let s: TestServer;
  let admin: string;
  let user: string;
  let before: ReturnType<typeof schemaState>;

  const start = () => startTestServer({ dataDir: copy.dataDir, noAdminKey: true, queryEmbedder: embedder, env: { VIDX_MEDIA_ROOTS: copy.media } });
  const search = async (key: string, form: Record<string, unknown>) => {
    const r = await s.call('POST', '/search', { key, form });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body.results as { media_id: string; episode_id: number; start_time: number; people?: { person_id: string; name: string | null }[] }[];
  };

  beforeAll(async () => {
    copy = copyUpgradeFixture(release);
    ({ admin, user } = copy.manifest.keys);
    s = await start();
    before = schemaState(s);
  });
  afterAll(async () => {
    await s?.close({ keepData: true });
    rmSync(copy.root, { recursive: true, force: true });
    rmSync(`${copy.dataDir}-media`, { recursive: true, force: true });
  });

  it('records every migration of today, the release’s own and the new ones, and keeps every row', () => {
    expect(before.applied.map((m) => m.id)).toEqual(migrations.map((m) => m.id).sort((a, b) => a - b));
    expect(before.applied.map((m) => m.id)).toEqual(expect.arrayContaining(copy.manifest.migrations));
    expect(before.version).toBe(Math.max(...migrations.map((m) => m.id)));
    expect(before.counts).toEqual(copy.manifest.counts);
  });

  it('lets both keys in with their roles; a user sees only their own', async () => {
    expect((await s.call('GET', '/me', { key: admin })).body).toMatchObject({ name: 'fixture-admin', role: 'admin' });
    expect((await s.call('GET', '/me', { key: user })).body).toMatchObject({ name: 'fixture-user', role: 'user' });
    expect((await s.call('GET', '/me', { key: 'vidx_not_a_key_0123456789' })).status).toBe(401);
    const keys = (await s.call('GET', '/keys', { key: admin })).body.keys as { name: string; role: string }[];
    expect(keys.map((k) => k.name)).toEqual(expect.arrayContaining(['fixture-admin', 'fixture-user']));
    expect((await s.call('GET', '/keys', { key: user })).status).toBe(403);
    const own = (key: string) => s.call('GET', '/collections', { key }).then((r) => r.body.collections.map((c: { collection_id: string }) => c.collection_id));
    expect(await own(user)).toEqual(['home']);
    expect((await own(admin)).sort()).toEqual(['attic', 'library']);
    expect((await s.call('GET', '/collections/attic', { key: user })).status).toBe(404);
    expect((await s.call('GET', '/collections/attic/items', { key: user })).status).toBe(404);
    expect((await s.call('GET', '/webhooks', { key: user })).body.webhooks).toEqual([]);
    expect((await s.call('GET', `/webhooks/${copy.manifest.webhook.id}`, { key: user })).status).toBe(404);
  });

  it('keeps the collections with their settings, and the items with their fields', async () => {
    for (const c of copy.manifest.collections) {
      const key = c.owner === 'admin' ? admin : user;
      expect((await s.call('GET', `/collections/${c.collection_id}`, { key })).body).toMatchObject({ collection_id: c.collection_id, is_public: c.is_public });
      const items = (await s.call('GET', `/collections/${c.collection_id}/items?limit=100`, { key })).body.items as { media_id: string }[];
      expect(items.map((i) => i.media_id).sort()).toEqual(c.media_ids);
    }
    expect((await s.call('GET', '/collections?public=true', { key: user })).body.collections.map((c: { collection_id: string }) => c.collection_id)).toEqual(['library']);
    const final = (await s.call('GET', '/collections/library/items/cup-final', { key: admin })).body;
    expect(final).toMatchObject({ media_id: 'cup-final', title: 'Cup final 2024', src: 'https://example.invalid/final.mp4', additional_metadata: { league: 'Premier' }, place: null });
    // The thumbnail link is signed with the data dir's link secret, which the upgrade kept.
    expect((await fetch(final.thumbnail_url)).status).toBe(200);
  });

  it('finds each collection’s copies again by today’s rules before it shows them (issue 42)', async () => {
    const db = s.vidx.store.db;
    for (const c of copy.manifest.collections) {
      const key = c.owner === 'admin' ? admin : user;
      const r = await s.call('GET', `/collections/${c.collection_id}/duplicates`, { key });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      const pk = s.vidx.store.collections.findById(c.collection_id)!.pk;
      expect(db.prepare('SELECT rules FROM duplicate_checks WHERE collection_pk = ?').pluck().get(pk)).toBe(COPY_RULES);
    }
  });

  it('looks up the place of an item with GPS stored before places existed', async () => {
    const harbour = copy.manifest.collections.find((c) => c.collection_id === 'home')!.media_ids.find((m) => m !== 'party')!;
    const item = await waitFor(async () => {
      const body = (await s.call('GET', `/collections/home/items/${harbour}`, { key: user })).body;
      return body.place ? body : undefined;
    }, 30_000, 'the place backfill');
    expect(item).toMatchObject({ latitude: 48.8577, longitude: 2.295, place: { country_code: 'FR' } });
  });

  it('keeps analyses, their text and their vectors searchable', async () => {
    const analysis = (await s.call('GET', '/collections/library/items/cup-final/analysis', { key: admin })).body;
    expect(analysis.episodes).toHaveLength(3);
    expect(analysis.video_summary).toBe('The cup final of the season, decided by a penalty.');
    expect((await search(admin, { query: 'penalty', collection: 'library' }))[0]).toMatchObject({ media_id: 'cup-final', episode_id: 1, start_time: 52.5 });
    expect((await search(admin, { query: 'Apfelkuchen', collection: 'library' }))[0]).toMatchObject({ media_id: 'backen' });
    expect((await search(user, { query: 'harbour', collection: 'home' }))).toHaveLength(1);
    // Found by meaning alone, at the frame whose vector matches: the vectors answer after the upgrade.
    const byMeaning = await waitFor(async () => (await search(admin, { query: 'golden hour', collection: 'library' }))[0], 30_000, 'a vector answer');
    expect(byMeaning).toMatchObject({ media_id: 'lake-trip', episode_id: 1, start_time: 85 });
  });

  it('keeps faces and the named person', async () => {
    const p = copy.manifest.person;
    const people = (await s.call('GET', `/collections/${p.collection_id}/people`, { key: admin })).body;
    expect(people).toMatchObject({ faces: true, people: [{ person_id: p.person_id, name: p.name, face_count: 1, media_count: 1 }] });
    expect((await fetch(people.people[0].cover_url)).status).toBe(200);
    const moments = (await s.call('GET', `/collections/${p.collection_id}/people/${p.person_id}/moments`, { key: admin })).body.moments;
    expect(moments).toEqual([expect.objectContaining({ media_id: p.media_id, start: 30 })]);
    const episode = (await s.call('GET', `/collections/${p.collection_id}/items/${p.media_id}/analysis`, { key: admin })).body.episodes[1];
    expect(episode.faces).toEqual([expect.objectContaining({ person_id: p.person_id })]);
  });

  it('keeps the folder and its scan, and a rescan finds nothing new', async () => {
    const f = copy.manifest.folder;
    const folder = (await s.call('GET', `/collections/${f.collection_id}/folders/${f.folder_id}`, { key: user })).body;
    expect(folder).toMatchObject({ path: join(copy.root, f.media_dir), last_scan_result: { added: 1 } });
    const scan = await s.call('POST', `/collections/${f.collection_id}/folders/${f.folder_id}/scan`, { key: user });
    expect(scan.status, JSON.stringify(scan.body)).toBe(202);
    const task = await settledTask(s, scan.body.task_id);
    expect(task.status, task.error?.message).toBe('completed');
    // A checkout gives the file a new date; its content hash tells it is the same file.
    expect(task.result).toMatchObject({ found: 1, added: 0, changed: 0, removed: 0, unchanged: 1, failed: [] });
  });

  it('keeps finished tasks with their results, the webhook and the share link', async () => {
    const listed = (await s.call('GET', '/tasks?limit=100', { key: user })).body.tasks.map((t: { task_id: string }) => t.task_id);
    for (const t of copy.manifest.tasks) {
      expect(listed).toContain(t.task_id);
      const read = (await s.call('GET', `/tasks/${t.task_id}`, { key: user })).body;
      expect(read).toMatchObject({ kind: t.kind, status: t.status });
      // Warnings are compared by number only: their wording may change between releases.
      const { warnings, ...rest } = t.result;
      expect(read.result).toMatchObject(rest);
      if (Array.isArray(warnings)) expect(read.result.warnings).toHaveLength(warnings.length);
    }
    const hooks = (await s.call('GET', '/webhooks', { key: admin })).body.webhooks;
    expect(hooks).toEqual([expect.objectContaining({ id: copy.manifest.webhook.id, url: copy.manifest.webhook.url, events: ['task.completed'] })]);
    const shared = await s.call('GET', `/shared/${copy.manifest.share.token}`, { key: null });
    expect(shared.status).toBe(200);
    expect(shared.body).toMatchObject({ title: 'Birthday party', type: 'video', start_time: copy.manifest.share.start_time });
    const video = await fetch(shared.body.src);
    expect(video.status).toBe(200);
    expect((await video.arrayBuffer()).byteLength).toBeGreaterThan(1000);
  });

  it('starts a second time without migrating again or changing a row', async () => {
    const first = schemaState(s);
    await s.close({ keepData: true });
    s = await start();
    expect(schemaState(s)).toEqual(first);
    expect((await s.call('GET', '/me', { key: user })).status).toBe(200);
  });
});
