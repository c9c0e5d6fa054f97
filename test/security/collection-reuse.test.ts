import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fakeAnalyze } from '../support/fake-tasks.js';
import { startTestApp } from '../support/app.js';
import { settledTask, waitFor, type TestServer } from '../support/server.js';
import { textClip } from './media.js';

/**
 * Issue 21.2: a deleted collection's id, taken by another owner, receives nothing of the first owner's
 * work: queued and running tasks end with the delete, retries are refused, and reindex_if_exists never
 * reaches the new owner's item. The single task slot is held by a gated /analyze task (the only pretend
 * work here) so that indexing tasks wait in the queue while collections are deleted and made again.
 */
describe('a reused collection id inherits nothing', () => {
  let s: TestServer;
  const fake = fakeAnalyze();
  let alice: string;
  let bob: string;

  const hold = async () => {
    const r = await s.call('POST', '/analyze', { key: alice, form: { video: { url: 'http://127.0.0.1:9/v.mp4', title: 'gate' } } });
    await waitFor(async () => ((await s.call('GET', `/tasks/${r.body.task_id}`)).body.status === 'running' ? true : undefined), 10_000, 'gate running');
  };
  const index = async (key: string, collection: string, file: string, mediaId: string, title: string, reindex = false) => {
    const r = await s.call('POST', '/index', { key, form: { video: { path: join(s.mediaDir, file), media_id: mediaId, title }, collection, reindex_if_exists: reindex } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    return r.body.task_id as string;
  };
  const items = async (key: string, collection: string) => (await s.call('GET', `/collections/${collection}/items`, { key })).body.items as { media_id: string; title: string }[];

  beforeAll(async () => {
    s = await startTestApp({ registerTasks: fake.register });
    alice = await s.newKey();
    bob = await s.newKey();
    await textClip(join(s.mediaDir, 'alice.mp4'), 'ALICE');
    await textClip(join(s.mediaDir, 'bob.mp4'), 'BOB');
    await textClip(join(s.mediaDir, 'long.mp4'), 'LONG', 20);
    writeFileSync(join(s.mediaDir, 'broken.mp4'), 'not a video at all');
  }, 120_000);
  // A failed test must not leave the gate shut for the next one.
  afterEach(() => fake.release());
  afterAll(() => s.close());

  it('ends queued tasks of a deleted collection; the new owner of the id gets none of their items', async () => {
    await s.call('POST', '/collections', { key: alice, json: { collection_id: 'family', name: 'Family' } });
    // One id namespace: while Alice has it, Bob learns only that the id is taken (documented in docs/security.md).
    const taken = await s.call('POST', '/collections', { key: bob, json: { collection_id: 'family', name: 'Mine' } });
    expect(taken.status).toBe(409);
    expect(taken.body.detail).toBe('collection "family" already exists');
    await hold();
    const queued = await index(alice, 'family', 'alice.mp4', 'shared-id', 'Alice private', true);
    expect((await s.call('DELETE', '/collections/family', { key: alice })).status).toBe(200);
    const ended = await settledTask(s, queued, 5_000);
    expect(ended).toMatchObject({ status: 'failed', error: { message: 'collection deleted', code: 'collection_deleted', retryable: false } });

    expect((await s.call('POST', '/collections', { key: bob, json: { collection_id: 'family', name: 'Bob family' } })).status).toBe(201);
    const bobs = await index(bob, 'family', 'bob.mp4', 'shared-id', 'Bob own');
    // The retry of Alice's task is refused: its collection is gone, whatever now carries the id.
    const retry = await s.call('POST', `/tasks/${queued}/retry`, { key: alice });
    expect(retry.status).toBe(409);
    expect(retry.body.detail).toMatch(/collection deleted/);
    fake.release();
    expect((await settledTask(s, bobs)).status).toBe('completed');
    expect(await items(bob, 'family')).toEqual([expect.objectContaining({ media_id: 'shared-id', title: 'Bob own' })]);
  });

  it('ends a running index task of a deleted collection, and refuses its retry', async () => {
    await s.call('POST', '/collections', { key: alice, json: { collection_id: 'trips', name: 'Trips' } });
    const running = await index(alice, 'trips', 'long.mp4', 'long', 'Alice long');
    await waitFor(async () => ((await s.call('GET', `/tasks/${running}`)).body.status === 'running' ? true : undefined), 30_000, 'index running');
    expect((await s.call('DELETE', '/collections/trips', { key: alice })).status).toBe(200);
    await s.call('POST', '/collections', { key: bob, json: { collection_id: 'trips', name: 'Bob trips' } });
    const ended = await settledTask(s, running, 60_000);
    expect(ended).toMatchObject({ status: 'failed', error: { message: 'collection deleted', code: 'collection_deleted', retryable: false } });
    expect(await items(bob, 'trips')).toEqual([]);
    expect((await s.call('POST', `/tasks/${running}/retry`, { key: alice })).status).toBe(409);
  });

  it('refuses the retry of a task that failed before its collection was deleted', async () => {
    await s.call('POST', '/collections', { key: alice, json: { collection_id: 'notes', name: 'Notes' } });
    const failed = await index(alice, 'notes', 'broken.mp4', 'broken', 'never indexed');
    expect((await settledTask(s, failed)).status).toBe('failed');
    expect((await s.call('DELETE', '/collections/notes', { key: alice })).status).toBe(200);
    await s.call('POST', '/collections', { key: bob, json: { collection_id: 'notes', name: 'Bob notes' } });
    const retry = await s.call('POST', `/tasks/${failed}/retry`, { key: alice });
    expect(retry.status).toBe(409);
    expect(retry.body.detail).toMatch(/collection deleted/);
    expect(await items(bob, 'notes')).toEqual([]);
  });
});
