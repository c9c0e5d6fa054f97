import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, openAsBlob, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixtureModels, type FixtureSet } from '../../scripts/make-fixture-models.js';
import { modelArchiveForm } from '../../src/client/upload.js';
import { startFakeHub, type FakeHub } from '../support/fake-hub.js';
import { settledTask, startTestServer, type TestServer } from '../support/server.js';

/**
 * Issue 23.4: models installable from the page. GET /models, POST /models/{id}/pull (a task with progress,
 * the same manifest and checks as `vidx models pull`) and DELETE /models/{id}, for admins; the hub is a
 * loopback stand-in serving the generated fixture models.
 */
describe('models: list, pull with progress, remove (admin)', () => {
  let tmp: string;
  let hub: FakeHub;
  let s: TestServer;
  let fixtures: FixtureSet;

  beforeAll(async () => {
    tmp = mkdtempSync(join(process.cwd(), 'test', '.tmp', 'models-api-'));
    fixtures = await makeFixtureModels(join(tmp, 'hub'));
    hub = await startFakeHub({ root: fixtures.hubDir });
    s = await startTestServer({ env: { VIDX_MODELS_MANIFEST: fixtures.manifestPath, VIDX_HUB_URL: hub.url } });
  }, 120_000);
  afterAll(async () => {
    await s.close();
    await hub.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  const model = async (id: string) => ((await s.call('GET', '/models')).body.models as { id: string; state: string; in_use: boolean; size_bytes: number }[]).find((m) => m.id === id)!;

  it('lists every model with its capability, size and state, and every capability with its model', async () => {
    const r = await s.call('GET', '/models');
    expect(r.status).toBe(200);
    const whisper = r.body.models.find((m: { id: string }) => m.id === 'tiny-whisper');
    expect(whisper).toMatchObject({ capability: 'asr', default: true, state: 'missing', in_use: false, bytes_on_disk: 0 });
    expect(whisper.size_bytes).toBeGreaterThan(1000);
    expect(r.body.capabilities.asr).toMatchObject({ available: false, model: 'tiny-whisper', reason: expect.stringMatching(/vidx models pull tiny-whisper/) });
    expect(r.body.capabilities.ocr.available).toBe(true);
    const user = await s.newKey();
    expect((await s.call('GET', '/models', { key: user })).status).toBe(403);
    expect((await s.call('POST', '/models/tiny-whisper/pull', { key: user })).status).toBe(403);
    expect((await s.call('POST', '/models/no-such-model/pull')).status).toBe(404);
  });

  it('pulls a model as a task, after which its capability uses it; removes it again', async () => {
    const r = await s.call('POST', '/models/tiny-whisper/pull');
    expect(r.status).toBe(202);
    const t = await settledTask(s, r.body.task_id, 60_000);
    expect(t).toMatchObject({ status: 'completed', kind: 'model_pull', endpoint: '/models/tiny-whisper/pull', result: { model_id: 'tiny-whisper', already_installed: false } });
    expect((t.result as { bytes_fetched: number }).bytes_fetched).toBeGreaterThan(1000);
    expect(hub.requests.filter((q) => q.status === 200 || q.status === 206).length).toBeGreaterThan(0);
    expect(await model('tiny-whisper')).toMatchObject({ state: 'installed', in_use: true });
    expect((await s.call('GET', '/health', { key: null })).body.capabilities.asr).toMatchObject({ available: true, model: 'tiny-whisper' });
    // Pulling again fetches nothing.
    const again = await settledTask(s, (await s.call('POST', '/models/tiny-whisper/pull')).body.task_id);
    expect(again.result).toMatchObject({ already_installed: true, bytes_fetched: 0 });

    const removed = await s.call('DELETE', '/models/tiny-whisper');
    expect(removed.status).toBe(200);
    expect(removed.body).toMatchObject({ id: 'tiny-whisper', state: 'missing', bytes_on_disk: 0 });
    expect((await s.call('GET', '/health', { key: null })).body.capabilities.asr.available).toBe(false);
  });

  it('imports an uploaded archive checked against the manifest; a damaged one is a 422 naming the file, in German too', async () => {
    const archive = join(tmp, 'tiny-e5.tar');
    execFileSync('tar', ['-cf', archive, '-C', join(fixtures.hubDir, 'vidx-test', 'tiny-e5'), '.']);
    const ok = await s.call('POST', '/models/import', { body: modelArchiveForm(await openAsBlob(archive), 'tiny-e5.tar') });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: 'tiny-e5', state: 'installed' });
    expect((await s.call('DELETE', '/models/tiny-e5')).status).toBe(200);

    const broken = join(tmp, 'broken');
    cpSync(join(fixtures.hubDir, 'vidx-test', 'tiny-e5'), broken, { recursive: true });
    rmSync(join(broken, 'tokenizer.json'));
    execFileSync('tar', ['-cf', join(tmp, 'broken.tar'), '-C', broken, '.']);
    const form = async () => modelArchiveForm(await openAsBlob(join(tmp, 'broken.tar')), 'broken.tar', 'tiny-e5');
    const bad = await s.call('POST', '/models/import', { body: await form() });
    expect(bad.status).toBe(422);
    expect(bad.body).toMatchObject({ code: 'import_missing_file', detail: 'model tiny-e5: file "tokenizer.json" is missing' });
    const german = await s.call('POST', '/models/import', { body: await form(), headers: { 'accept-language': 'de' } });
    expect(german.body.detail).toBe('Modell tiny-e5: Die Datei „tokenizer.json“ fehlt');
    expect((await model('tiny-e5')).state).toBe('missing');

    const none = await s.call('POST', '/models/import', { json: { archive: 'archive' } });
    expect(none.status).toBe(422);
    expect(none.body.code).toBe('import_no_archive');
    expect((await s.call('POST', '/models/import', { body: await form(), key: await s.newKey() })).status).toBe(403);
  });

  it('answers a pull that fails (the hub is gone) at once with hub_unreachable, naming the hub', async () => {
    await hub.close();
    const r = await s.call('POST', '/models/tiny-e5/pull');
    const t = await settledTask(s, r.body.task_id, 60_000);
    expect(t.status).toBe('failed');
    expect(t.error).toMatchObject({ code: 'hub_unreachable', retryable: true, params: { hub: hub.url, reason: 'ECONNREFUSED', id: 'tiny-e5', repo: 'vidx-test/tiny-e5', revision: expect.any(String) } });
    expect(t.error?.message).toContain(`cannot reach the model hub at ${hub.url}`);
    expect(t.error?.message).toContain('vidx models import');
    expect((await model('tiny-e5')).state).not.toBe('installed');
  });
});
