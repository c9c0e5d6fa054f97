import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_TRANSCRIPT, makeFixtureModels, type FixtureSet } from '../../scripts/make-fixture-models.js';
import { ensureCorpus, type CorpusManifest } from '../support/corpus.js';
import { runCli } from '../support/cli.js';
import { startFakeHub, type FakeHub } from '../support/fake-hub.js';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';
import { makePhoto, makeSpeech } from '../support/folder-media.js';

/** Runs the real CLI in its own process; output of both streams together. */
async function cli(args: string[], env: Record<string, string>): Promise<{ code: number; out: string }> {
  const r = await runCli(args, env);
  return { code: r.code, out: r.stdout + r.stderr };
}

describe('pulled models in the pipeline: Whisper, image-text and text embeddings (tiny fixture models from a loopback hub)', () => {
  let tmp: string;
  let fixtures: FixtureSet;
  let hub: FakeHub;
  let corpus: CorpusManifest;
  let s: TestServer;
  let env: Record<string, string>;

  beforeAll(async () => {
    corpus = await ensureCorpus();
    tmp = mkdtempSync(join(process.cwd(), 'test', '.tmp', 'models-pipeline-'));
    fixtures = await makeFixtureModels(join(tmp, 'hub'));
    hub = await startFakeHub({ root: fixtures.hubDir, revisions: Object.fromEntries(fixtures.manifest.models.map((m) => [m.repo, m.revision])) });
    const dataDir = join(tmp, 'data');
    env = { VIDX_DATA_DIR: dataDir, VIDX_MODELS_MANIFEST: fixtures.manifestPath, VIDX_HUB_URL: hub.url };
    const pulled = await cli(['models', 'pull', 'default', '--yes'], env);
    expect(pulled.code, pulled.out).toBe(0);
    mkdirSync(join(tmp, 'media'));
    s = await startTestServer({ dataDir, env: { ...env, VIDX_MEDIA_ROOTS: `${dirname(corpus.slides.path)}:${join(tmp, 'media')}` } });
  });
  afterAll(async () => {
    await s?.close();
    await hub?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  async function task(path: string, body: Record<string, unknown>) {
    const r = await s.call('POST', path, { form: body });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    return waitFor(async () => {
      const t = (await s.call('GET', `/tasks/${r.body.task_id}`)).body;
      return t.status === 'completed' || t.status === 'failed' ? t : undefined;
    }, 90_000);
  }

  it('lists the pulled models as installed and reports every capability available', async () => {
    const list = await cli(['models', 'list'], env);
    expect(list.out).toMatch(/tiny-whisper.*installed/);
    const health = (await s.call('GET', '/health', { key: null })).body;
    for (const cap of ['ocr', 'vad', 'face_detection', 'asr', 'image_text', 'text_embedding', 'face_embedding']) expect(health.capabilities[cap].available, cap).toBe(true);
  });

  it('transcribes speech without subtitles with Whisper over VAD regions, at absolute times', async () => {
    const t = await task('/analyze', { video: { path: corpus.speech.path } });
    expect(t.status, t.error?.message).toBe('completed');
    expect(t.result.transcript_source).toBe('asr');
    const texts = t.result.audio_summary.map((a: { text: string }) => a.text);
    expect(texts).toContain(FIXTURE_TRANSCRIPT[0].text);
    // Every chunk starts at a VAD speech region inside the file, so segment times grow and stay inside it.
    const starts = t.result.audio_summary.map((a: { segment: { start: { seconds: number } } }) => a.segment.start.seconds);
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    expect(Math.max(...starts)).toBeLessThan(corpus.speech.durationSec);
    expect(t.result.warnings.join(' ')).not.toMatch(/not transcribed/);
  });

  it('indexes with passage and frame vectors and searches through the semantic path too', async () => {
    await s.call('POST', '/collections', { json: { collection_id: 'sem', name: 'Semantic' } });
    const t = await task('/index', { collection: 'sem', video: { path: corpus.slides.path, media_id: 'slides' } });
    expect(t.status, t.error?.message).toBe('completed');
    const spaces = s.vidx.store.db.prepare('SELECT kind, dims, (SELECT count(*) FROM vectors v WHERE v.space_id = s.id) AS n FROM vector_spaces s ORDER BY kind').all() as { kind: string; dims: number; n: number }[];
    expect(spaces.map((x) => x.kind)).toEqual(['frame', 'passage']);
    expect(spaces.every((x) => x.n > 0)).toBe(true);
    const r = await s.call('POST', '/search', { form: { query: 'penalty shot', collection: 'sem' } });
    expect(r.status).toBe(200);
    expect(r.body.results[0]).toMatchObject({ media_id: 'slides', episode_id: 1 });
  });

  it('indexes a photo with a frame vector (no missing-model warning), and a voice memo through Whisper, each with its type', async () => {
    const photo = join(tmp, 'media', 'sign.jpg');
    const memo = join(tmp, 'media', 'memo.m4a');
    await Promise.all([makePhoto(photo, 'BAKERY'), makeSpeech(memo, 'Hello world, remember to buy oat milk.')]);
    const p = await task('/index', { collection: 'sem', video: { path: photo, media_id: 'photo' } });
    expect(p.status, p.error?.message).toBe('completed');
    expect((await s.call('GET', '/collections/sem/items/photo')).body).toMatchObject({ type: 'image', duration: 0 });
    const frames = s.vidx.store.db
      .prepare(`SELECT count(*) AS n FROM vectors v JOIN vector_spaces sp ON sp.id = v.space_id JOIN episodes e ON e.pk = v.episode_pk
                JOIN items i ON i.pk = e.item_pk WHERE i.media_id = 'photo' AND sp.kind = 'frame'`)
      .get() as { n: number };
    expect(frames.n).toBe(1);
    const analysis = (await s.call('GET', '/collections/sem/items/photo/analysis')).body;
    expect(analysis.episodes).toHaveLength(1);
    expect(p.result.warnings.join(' ')).not.toMatch(/image-text model/);
    const m = await task('/index', { collection: 'sem', video: { path: memo, media_id: 'memo' } });
    expect(m.status, m.error?.message).toBe('completed');
    expect(m.result.transcript_source).toBe('asr');
    expect((await s.call('GET', '/collections/sem/items/memo')).body.type).toBe('audio');
    const r = await s.call('POST', '/search', { json: { query: 'hello world', collection: 'sem', media_type: 'audio' } });
    expect(r.body.results[0]).toMatchObject({ media_id: 'memo', media_type: 'audio' });
  }, 180_000);

  it('searches by picture with the image-text model beside the fingerprints', { timeout: 120_000 }, async () => {
    const health = (await s.call('GET', '/health', { key: null })).body;
    expect(health.picture_search).toEqual({ fingerprints: true, image_text: true });
    // A mirrored screenshot: its fingerprint matches no frame (see test/search/by-picture), its CLIP vector does.
    const shot = join(tmp, 'mirrored.jpg');
    const frame = await runFfmpegFrame(corpus.slides.path, 10);
    await sharp(frame).flop().jpeg().toFile(shot);
    const form = new FormData();
    form.set('body', JSON.stringify({ collection: 'sem', image: 'mirrored.jpg', media_type: 'video' }));
    form.set('file', new Blob([readFileSync(shot)]), 'mirrored.jpg');
    const r = await fetch(`${s.url}/search`, { method: 'POST', headers: { 'x-api-key': s.adminKey }, body: form });
    const body = (await r.json()) as { results: { media_id: string; start_time: number }[] };
    expect(r.status, JSON.stringify(body)).toBe(200);
    expect(body.results[0]?.media_id).toBe('slides');
    // More like a moment: a re-encoded copy's same moment comes first; the moment itself never.
    const copy = join(tmp, 'media', 'slides-copy.mp4');
    await promisify(execFile)('ffmpeg', ['-v', 'error', '-y', '-i', corpus.slides.path, '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '32', '-c:a', 'copy', copy]);
    const indexed = await task('/index', { collection: 'sem', video: { path: copy, media_id: 'slides-copy' } });
    expect(indexed.status, indexed.error?.message).toBe('completed');
    const like = await s.call('POST', '/search', { json: { collection: 'sem', like: { media_id: 'slides', start_time: 2 }, media_type: 'video' } });
    expect(like.status).toBe(200);
    const hits = like.body.results as { media_id: string; start_time: number; end_time: number }[];
    expect(hits[0]).toMatchObject({ media_id: 'slides-copy' });
    expect(hits[0]!.start_time).toBeLessThanOrEqual(2);
    expect(hits.some((h) => h.media_id === 'slides' && h.start_time <= 2 && h.end_time > 2)).toBe(false);
  });
});

/** One frame of a video as PNG bytes. */
async function runFfmpegFrame(file: string, at: number): Promise<Buffer> {
  const { stdout } = await promisify(execFile)('ffmpeg', ['-v', 'error', '-ss', String(at), '-i', file, '-frames:v', '1', '-f', 'image2pipe', '-vcodec', 'png', '-'], { encoding: 'buffer', maxBuffer: 32 * 1024 * 1024 });
  return stdout;
}
