import { existsSync, readdirSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeHub } from '../support/fake-hub.js';
import { facesSetup } from './setup.js';
import { ADMIN_KEY, settledTask, startTestServer, type TestServer } from '../support/server.js';
import { mcpClient, textOf } from '../mcp/clients.js';
import { makeShotsVideo } from './videos.js';

/** Every file name under a folder, recursively. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((d) => d.isFile()).map((d) => d.name);
}

describe('faces and people (BlazeFace + the generated SFace stand-in, videos made from the skimage photos)', () => {
  let tmp: string;
  let media: string;
  let hub: FakeHub;
  let s: TestServer;
  let family: string;
  let again: string;

  beforeAll(async () => {
    const f = await facesSetup('faces-');
    ({ tmp, hub } = f);
    media = f.media;
    // The astronaut, then the cameraman, then a cat; the second video has both people again, at other sizes.
    family = await makeShotsVideo(media, 'family.mp4', [
      { file: 'astronaut.png', scale: 0.9, x0: 100, x1: 260, y: 120, seconds: 6 },
      { file: 'camera.png', scale: 1, x0: 600, x1: 500, y: 100, seconds: 6 },
      { file: 'chelsea.png', scale: 1.2, x0: 300, x1: 340, y: 150, seconds: 4 },
    ]);
    again = await makeShotsVideo(media, 'again.mp4', [
      { file: 'camera.png', scale: 0.8, x0: 200, x1: 260, y: 200, seconds: 5 },
      { file: 'astronaut.png', scale: 1.2, x0: 500, x1: 420, y: 50, seconds: 5 },
    ]);
    s = await startTestServer({ dataDir: f.dataDir, env: f.env });
  }, 120_000);

  afterAll(async () => {
    await s?.close();
    await hub?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  async function index(collection: string, path: string, mediaId: string, reindex = false) {
    const r = await s.call('POST', '/index', { form: { collection, video: { path, media_id: mediaId }, reindex_if_exists: reindex } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const t = await settledTask(s, r.body.task_id);
    expect(t.status, t.error?.message).toBe('completed');
    return t;
  }

  const people = async (collection: string) => (await s.call('GET', `/collections/${collection}/people`)).body;

  it('leaves faces alone while the collection setting is off (the default)', async () => {
    await s.call('POST', '/collections', { json: { collection_id: 'plain', name: 'Plain' } });
    await index('plain', family, 'family');
    const a = (await s.call('GET', '/collections/plain/items/family/analysis')).body;
    expect(a.episodes.length).toBeGreaterThan(0);
    expect(a.episodes.every((e: { faces: unknown }) => e.faces === null)).toBe(true);
    // The item was indexed without looking for faces: a re-index would look (the People view says so).
    expect(await people('plain')).toEqual({ collection_id: 'plain', faces: false, voices: false, unscanned_items: 1, people: [], suggestions: [] });
  }, 180_000);

  it('finds each person as one group across two videos, nameable and searchable by name, with stable ids', async () => {
    await s.call('POST', '/collections', { json: { collection_id: 'fam', name: 'Family' } });
    const on = await s.call('PUT', '/collections/fam/faces', { json: { enabled: true } });
    expect(on.body).toEqual({ collection_id: 'fam', faces: true });
    await index('fam', family, 'family');
    await index('fam', again, 'again');

    const list = await people('fam');
    expect(list.faces).toBe(true);
    expect(list.people).toHaveLength(2);
    for (const p of list.people) expect(p).toMatchObject({ media_count: 2, name: null });

    // Every face of an episode names its person, with a box inside the frame and a crop behind a signed link.
    const a = (await s.call('GET', '/collections/fam/items/family/analysis')).body;
    const faces = a.episodes.flatMap((e: { faces: Array<Record<string, unknown>> }) => e.faces);
    expect(faces.length).toBeGreaterThanOrEqual(2);
    const ids = new Set(list.people.map((p: { person_id: string }) => p.person_id));
    for (const f of faces as Array<{ person_id: string; box: Record<string, number>; thumbnail: string; start: number; end: number }>) {
      expect(ids.has(f.person_id)).toBe(true);
      expect(f.box.x).toBeGreaterThanOrEqual(0);
      expect(f.box.x + f.box.width).toBeLessThanOrEqual(1.01);
      expect(f.end).toBeGreaterThan(f.start);
      const crop = await fetch(f.thumbnail);
      expect(crop.status).toBe(200);
      expect(crop.headers.get('content-type')).toMatch(/jpeg/);
    }
    // The cat shot (last, from 12 s) has no face.
    const catEpisodes = a.episodes.filter((e: { start: number }) => e.start >= 12);
    for (const e of catEpisodes) expect(e.faces).toEqual([]);

    // The astronaut is the person seen first in the family video.
    const astronautId = (faces as Array<{ person_id: string; start: number }>).sort((x, y) => x.start - y.start)[0].person_id;
    const named = await s.call('PUT', `/collections/fam/people/${astronautId}`, { json: { name: 'Eileen Collins' } });
    expect(named.body).toMatchObject({ person_id: astronautId, name: 'Eileen Collins', media_count: 2 });

    const moments = (await s.call('GET', `/collections/fam/people/${astronautId}/moments`)).body.moments;
    expect(new Set(moments.map((m: { media_id: string }) => m.media_id))).toEqual(new Set(['family', 'again']));

    const byName = (await s.call('POST', '/search', { form: { query: 'Eileen Collins', collection: 'fam' } })).body.results;
    expect(new Set(byName.map((r: { media_id: string }) => r.media_id))).toEqual(new Set(['family', 'again']));
    // Each result names the people seen in its episode (a vidx extra, with faces on).
    for (const r of byName as Array<{ people: Array<{ person_id: string; name: string | null }> }>) {
      expect(r.people).toContainEqual({ person_id: astronautId, name: 'Eileen Collins' });
    }
    const filtered = (await s.call('POST', '/search', { form: { query: 'anything at all', collection: 'fam', person_id: astronautId } })).body.results;
    expect(filtered.length).toBeGreaterThan(0);
    const momentSpans = moments.map((m: { media_id: string; start: number; end: number }) => m);
    for (const r of filtered as Array<{ media_id: string; start_time: number }>) {
      expect(momentSpans.some((m: { media_id: string }) => m.media_id === r.media_id)).toBe(true);
    }

    // Reindexing keeps the people (and the name) instead of regrouping from scratch.
    await index('fam', family, 'family', true);
    const after = await people('fam');
    expect(new Set(after.people.map((p: { person_id: string }) => p.person_id))).toEqual(ids);
    expect(after.people.find((p: { person_id: string }) => p.person_id === astronautId).name).toBe('Eileen Collins');

    // An agent asks the same over MCP: the people, then one person's moments by name.
    const agent = await mcpClient('http', s.url, ADMIN_KEY);
    try {
      const listed = JSON.parse(textOf(await agent.callTool({ name: 'people', arguments: { collection: 'fam' } })));
      expect(new Set(listed.people.map((p: { person_id: string }) => p.person_id))).toEqual(ids);
      const seen = JSON.parse(textOf(await agent.callTool({ name: 'people', arguments: { collection: 'fam', person: 'eileen collins' } })));
      expect(seen.person).toEqual({ person_id: astronautId, name: 'Eileen Collins' });
      expect(new Set(seen.moments.map((m: { media_id: string }) => m.media_id))).toEqual(new Set(['family', 'again']));
      const nobody = await agent.callTool({ name: 'people', arguments: { collection: 'fam', person: 'Nobody Here' } });
      expect(nobody.isError).toBe(true);
      expect(textOf(nobody)).toMatch(/no person "Nobody Here"/);
    } finally {
      await agent.close();
    }
  }, 300_000);

  it('splits a track off, merges it back, and deletes a person with their face data', async () => {
    const before = (await people('fam')).people as Array<{ person_id: string; face_count: number }>;
    const eileen = before.find((p) => (p as unknown as { name: string }).name === 'Eileen Collins')!;
    const moments = (await s.call('GET', `/collections/fam/people/${eileen.person_id}/moments`)).body.moments;
    const split = await s.call('POST', `/collections/fam/people/${eileen.person_id}/split`, { json: { track_id: moments[0].track_id } });
    expect(split.status).toBe(200);
    expect(split.body).toMatchObject({ face_count: 1, name: null });
    expect((await people('fam')).people).toHaveLength(3);

    const merged = await s.call('POST', `/collections/fam/people/${eileen.person_id}/merge`, { json: { person_id: split.body.person_id } });
    expect(merged.body).toMatchObject({ person_id: eileen.person_id, face_count: eileen.face_count });
    expect((await s.call('GET', `/collections/fam/people/${split.body.person_id}/moments`)).status).toBe(404);

    const bad = await s.call('POST', `/collections/fam/people/${eileen.person_id}/split`, { json: { track_id: 999999 } });
    expect(bad.status).toBe(404);
    expect(bad.body.detail).toMatch(/track/);

    const other = before.find((p) => p.person_id !== eileen.person_id)!;
    const gone = await s.call('DELETE', `/collections/fam/people/${other.person_id}`);
    expect(gone.body).toEqual({ collection_id: 'fam', person_id: other.person_id });
    expect((await people('fam')).people.map((p: { person_id: string }) => p.person_id)).toEqual([eileen.person_id]);
    const rows = s.vidx.store.db.prepare('SELECT count(*) AS n FROM face_tracks t JOIN people p ON p.pk = t.person_pk WHERE p.person_id = ?').get(other.person_id) as { n: number };
    expect(rows.n).toBe(0);
  }, 120_000);

  it('a folder of those videos, scanned with faces on: each person one group, found by name', async () => {
    await s.call('POST', '/collections', { json: { collection_id: 'album', name: 'Album' } });
    await s.call('PUT', '/collections/album/faces', { json: { enabled: true } });
    const folder = await s.call('POST', '/collections/album/folders', { json: { path: media, watch: false } });
    expect(folder.status, JSON.stringify(folder.body)).toBe(201);
    const scan = await settledTask(s, folder.body.scan_task_id, 240_000);
    expect(scan.status, scan.error?.message).toBe('completed');
    const list = await people('album');
    expect(list.people).toHaveLength(2);
    for (const p of list.people) expect(p.media_count).toBe(2);
    const [first] = list.people;
    await s.call('PUT', `/collections/album/people/${first.person_id}`, { json: { name: 'Folder Person' } });
    const found = (await s.call('POST', '/search', { form: { query: 'Folder Person', collection: 'album' } })).body.results;
    expect(found.length).toBeGreaterThan(0);
    const moments = (await s.call('GET', `/collections/album/people/${first.person_id}/moments`)).body.moments;
    for (const r of found as Array<{ media_id: string }>) expect(moments.some((m: { media_id: string }) => m.media_id === r.media_id)).toBe(true);
  }, 300_000);

  it('turning faces off removes every face row, person and crop of the collection', async () => {
    const off = await s.call('PUT', '/collections/fam/faces', { json: { enabled: false } });
    expect(off.body).toEqual({ collection_id: 'fam', faces: false });
    expect(await people('fam')).toMatchObject({ collection_id: 'fam', faces: false, people: [] });
    // The folder's collection too: then nothing about faces may be left anywhere.
    expect((await s.call('PUT', '/collections/album/faces', { json: { enabled: false } })).body.faces).toBe(false);
    const n = s.vidx.store.db.prepare('SELECT (SELECT count(*) FROM face_tracks) + (SELECT count(*) FROM people) AS n').get() as { n: number };
    expect(n.n).toBe(0);
    expect(filesUnder(s.dataDir).filter((f) => f.startsWith('face-'))).toEqual([]);
    const a = (await s.call('GET', '/collections/fam/items/family/analysis')).body;
    expect(a.episodes.every((e: { faces: unknown }) => e.faces === null)).toBe(true);
    const search = await s.call('POST', '/search', { form: { query: 'x', collection: 'fam', person_id: 'person-gone' } });
    expect(search.status).toBe(404);
    // With faces off, results carry no people at all.
    const plain = (await s.call('POST', '/search', { form: { query: 'family', collection: 'fam' } })).body.results;
    for (const r of plain) expect(r).not.toHaveProperty('people');
  });

  it('answers bad people requests with a clear 4xx', async () => {
    expect((await s.call('PUT', '/collections/fam/faces', { json: { enabled: 'yes' } })).status).toBe(422);
    expect((await s.call('PUT', '/collections/fam/people/nobody', { json: { name: 'X' } })).status).toBe(404);
    expect((await s.call('GET', '/collections/missing/people')).status).toBe(404);
    const merge = await s.call('POST', '/collections/fam/people/nobody/merge', { json: { person_id: 'nobody' } });
    expect(merge.status).toBe(422);
  });
});
