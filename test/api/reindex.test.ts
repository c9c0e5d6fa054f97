import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callJson, mcpClient } from '../mcp/clients.js';
import { runCli } from '../support/cli.js';
import { makeVideo } from '../support/folder-media.js';
import { settledTask, startTestServer, waitFor, type TestServer } from '../support/server.js';

/**
 * Issue 22.8: re-index items from their sources (a path's file, a kept upload), keeping media_id, title and
 * metadata; progress per item; an item whose source is gone fails alone. Also `vidx reindex` and the MCP
 * tool `reindex`.
 */
describe('re-index a collection from its sources', () => {
  let s: TestServer;
  let user: string;
  const search = async (query: string) =>
    ((await s.call('POST', '/search', { key: user, form: { collection: 'family', query } })).body.results as { media_id: string; title: string }[]).map((r) => r.media_id);
  const item = async (id: string) => (await s.call('GET', `/collections/family/items/${id}`, { key: user })).body;

  beforeAll(async () => {
    s = await startTestServer({ queryEmbedder: null });
    user = await s.newKey();
    await s.call('POST', '/collections', { key: user, json: { collection_id: 'family', name: 'Family' } });
    await makeVideo(join(s.mediaDir, 'harbour.mp4'), 'HARBOUR');
    await makeVideo(join(s.mediaDir, 'Kuchen.mp4'), 'APFELKUCHEN');
    const byPath = await s.call('POST', '/index', { key: user, form: { collection: 'family', video: { path: join(s.mediaDir, 'harbour.mp4'), media_id: 'harbour' } } });
    const fd = new FormData();
    fd.append('body', JSON.stringify({ collection: 'family', index_language: 'de', video: { content: 'Kuchen.mp4', media_id: 'kuchen', additional_metadata: { wer: 'Oma' } } }));
    fd.append('file', new Blob([new Uint8Array(readFileSync(join(s.mediaDir, 'Kuchen.mp4')))]), 'Kuchen.mp4');
    const upload = (await (await fetch(`${s.url}/index`, { method: 'POST', headers: { 'x-api-key': user }, body: fd })).json()) as { task_id: string };
    for (const id of [byPath.body.task_id, upload.task_id]) expect((await settledTask(s, id)).status).toBe('completed');
    // The upload's file is gone from where it was sent: only vidx's kept copy remains.
    rmSync(join(s.mediaDir, 'Kuchen.mp4'));
  }, 120_000);
  afterAll(() => s.close());

  it('analyses every item again from its source, keeping ids, titles and metadata, with progress per item', async () => {
    expect((await s.call('PATCH', '/collections/family/items/kuchen', { key: user, json: { title: 'Omas Apfelkuchen' } })).status).toBe(200);
    // The file behind the path changed since: the re-index must read it again.
    await makeVideo(join(s.mediaDir, 'harbour.mp4'), 'LIGHTHOUSE');
    expect(await search('lighthouse')).toEqual([]);
    const before = (await item('kuchen')) as { thumbnail_url: string };
    const r = await s.call('POST', '/collections/family/reindex', { key: user, json: {} });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const stages = new Set<string>();
    const steps: { code: string; item?: { n: number; total: number; name: string } }[] = [];
    const done = await waitFor(async () => {
      const t = (await s.call('GET', `/tasks/${r.body.task_id}`, { key: user })).body;
      if (t.stage) stages.add(t.stage);
      if (t.step) steps.push(t.step);
      return t.status === 'completed' || t.status === 'failed' ? t : undefined;
    }, 120_000, 'reindex');
    expect(done).toMatchObject({ kind: 'reindex', endpoint: '/collections/family/reindex', data: { collection: 'family', media_ids: null } });
    expect(done.result).toEqual({ collection: 'family', total: 2, reindexed: 2, failed: [] });
    expect([...stages].some((st) => /^[12]\/2 /.test(st)), [...stages].join(' | ')).toBe(true);
    // The same as a code and the item it is on, for the page to say in German.
    expect(steps.some((st) => st.item?.total === 2 && st.code !== 'other' && typeof st.item.name === 'string'), JSON.stringify(steps)).toBe(true);
    expect(await search('lighthouse')).toEqual(['harbour']);
    expect(await item('kuchen')).toMatchObject({ title: 'Omas Apfelkuchen', additional_metadata: { wer: 'Oma' } });
    expect(await item('harbour')).toMatchObject({ title: 'harbour' });
    expect(await search('Apfelkuchen')).toEqual(['kuchen']);
    // A link handed out before the re-index (a page left open) still shows the picture: now the new version's.
    const after = (await item('kuchen')) as { thumbnail_url: string };
    expect(new URL(after.thumbnail_url).pathname).not.toBe(new URL(before.thumbnail_url).pathname);
    const old = await fetch(before.thumbnail_url);
    expect(old.status).toBe(200);
    expect(Buffer.from(await old.arrayBuffer()).equals(Buffer.from(await (await fetch(after.thumbnail_url)).arrayBuffer()))).toBe(true);
    const listed = (await s.call('GET', '/tasks?endpoint=/collections/family/reindex', { key: user })).body.tasks as { id: string }[];
    expect(listed.map((t) => t.id)).toContain(r.body.task_id);
  });

  it('fails an item whose source is gone alone, with its reason; the others are re-indexed', async () => {
    rmSync(join(s.mediaDir, 'harbour.mp4'));
    const r = await s.call('POST', '/collections/family/reindex', { key: user, json: { media_ids: ['harbour', 'kuchen'] } });
    const t = await settledTask(s, r.body.task_id, 120_000);
    expect(t.status).toBe('completed');
    expect(t.result).toEqual({
      collection: 'family', total: 2, reindexed: 1,
      failed: [{ media_id: 'harbour', title: 'harbour', reason: expect.stringMatching(/harbour\.mp4.*does not exist/), retryable: false }],
    });
    // The item stays as it was indexed before.
    expect(await search('lighthouse')).toEqual(['harbour']);
  });

  it('refuses unknown items, other owners and a bad body', async () => {
    const unknown = await s.call('POST', '/collections/family/reindex', { key: user, json: { media_ids: ['kuchen', 'nope'] } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual([{ field: 'media_ids', message: 'not in collection "family": nope' }]);
    const other = await s.newKey();
    expect((await s.call('POST', '/collections/family/reindex', { key: other, json: {} })).status).toBe(404);
    expect((await s.call('POST', '/collections/family/reindex', { key: user, json: { media_ids: [] } })).status).toBe(422);
    expect((await s.call('POST', '/collections/family/reindex', { key: user, json: { media: ['kuchen'] } })).status).toBe(422);
  });

  it('re-indexes from the command line (vidx reindex) and from an agent (MCP reindex)', async () => {
    const cli = await runCli(['reindex', '--collection', 'family', 'kuchen', '--url', s.url], { VIDX_API_KEY: user }, { timeoutMs: 120_000 });
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(/re-indexed 1 of 1 item/);
    const client = await mcpClient('http', s.url, user);
    try {
      const answer = await callJson(client, 'reindex', { collection: 'family', media_ids: ['kuchen'], wait_seconds: 60 });
      expect(answer).toMatchObject({ status: 'completed', result: { total: 1, reindexed: 1, failed: [] } });
    } finally {
      await client.close();
    }
    expect(await item('kuchen')).toMatchObject({ title: 'Omas Apfelkuchen' });
  });
});
