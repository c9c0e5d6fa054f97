/**
 * The single binary end to end: built (or reused when its inputs did not change), copied alone into an
 * empty folder outside the repository (no node_modules reachable), run with a fresh HOME and temp dir.
 * It serves the API, analyzes and indexes the slides video (OCR, subtitles, thumbnails), searches it, pulls
 * the fixture models from a loopback hub and transcribes speech with them (transformers.js inside the
 * binary), answers a question with the pulled tiny GGUF model (node-llama-cpp inside the binary), and leaves
 * no ONNX Runtime telemetry files behind.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_TRANSCRIPT, makeFixtureModels, type FixtureSet } from '../../scripts/make-fixture-models.js';
import { ensureCorpus, type CorpusManifest } from '../support/corpus.js';
import { startFakeHub, type FakeHub } from '../support/fake-hub.js';
import { waitFor } from '../support/server.js';
import { runProcess } from '../support/cli.js';

const ROOT = join(import.meta.dirname, '..', '..');

const run = runProcess;

describe('dist/vidx, the single binary, alone in an empty folder', () => {
  let dir: string;
  let bin: string;
  let env: NodeJS.ProcessEnv;
  let corpus: CorpusManifest;
  let fixtures: FixtureSet;
  let hub: FakeHub;
  let server: ChildProcess | undefined;
  let url = '';
  let key = '';

  const vidx = (args: string[], timeoutMs?: number) => run(bin, args, { cwd: join(dir, 'work'), env, timeoutMs });

  async function call(method: string, path: string, body?: unknown) {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    // `any`: the assertions below read the documented response fields directly.
    return { status: res.status, body: (await res.json()) as any };
  }

  async function finished(taskId: string) {
    return waitFor(async () => {
      const t = (await call('GET', `/tasks/${taskId}`)).body;
      return t.status === 'completed' || t.status === 'failed' ? t : undefined;
    }, 90_000, `task ${taskId}`);
  }

  beforeAll(async () => {
    const build = await run(process.execPath, ['--import', 'tsx', 'scripts/build-binary.ts', '--if-stale'], { cwd: ROOT, env: process.env, timeoutMs: 170_000 });
    expect(build.code, build.stderr).toBe(0);
    corpus = await ensureCorpus();
    // Outside the repository, so no node_modules in any parent folder.
    dir = mkdtempSync(join(tmpdir(), 'vidx-binary-'));
    for (const d of ['home', 'tmp', 'work']) mkdirSync(join(dir, d));
    bin = join(dir, 'vidx');
    copyFileSync(join(ROOT, 'dist', 'vidx'), bin);
    fixtures = await makeFixtureModels(join(dir, 'hub'));
    hub = await startFakeHub({ root: fixtures.hubDir });
    // A clean environment: only PATH (for ffmpeg) comes from outside.
    env = {
      PATH: process.env.PATH,
      HOME: join(dir, 'home'),
      TMPDIR: join(dir, 'tmp'),
      VIDX_MEDIA_ROOTS: dirname(corpus.slides.path),
      VIDX_MODELS_MANIFEST: fixtures.manifestPath,
      VIDX_HUB_URL: hub.url,
      VIDX_LOG: 'silent',
    };
  }, 240_000);

  afterAll(async () => {
    if (server && server.exitCode === null && server.signalCode === null) {
      // Its files are removed below: wait until it has stopped writing them (SIGKILL if it hangs).
      const exited = new Promise((r) => server!.once('exit', r));
      server.kill('SIGTERM');
      const hung = setTimeout(() => server?.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(hung);
    }
    await hub?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('starts from nothing: unpacks once, answers --version, --help and doctor', async () => {
    expect(readdirSync(dir).sort()).toEqual(['home', 'hub', 'tmp', 'vidx', 'work']);
    // Node, the native libraries, the models npm ships, the page and llama.cpp's CPU build: under 150 MiB.
    expect(statSync(bin).size).toBeLessThan(150 * 1024 * 1024);
    const version = await vidx(['--version']);
    expect(version.code, version.stderr).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const cache = join(dir, 'home', '.cache', 'vidx');
    const builds = readdirSync(cache);
    expect(builds).toHaveLength(1);
    expect(existsSync(join(cache, builds[0], 'native', 'onnxruntime', 'libonnxruntime.so.1'))).toBe(true);
    const help = await vidx(['--help']);
    expect(help.stdout).toMatch(/index <file\|url> --collection C/);
    const doctor = await vidx(['doctor', '--json']);
    const report = JSON.parse(doctor.stdout) as { checks: { name: string; status: string; detail: string }[] };
    const status = Object.fromEntries(report.checks.map((c) => [c.name, c.status]));
    for (const name of ['ffmpeg', 'ffprobe', 'sqlite', 'onnxruntime', 'sharp', 'ocr', 'vad', 'face_detection']) expect(status[name], JSON.stringify(report.checks)).toBe('ok');
    expect(report.checks.find((c) => c.name === 'vidx')?.detail).toContain('single binary');
  });

  it('pulls the fixture models from the loopback hub', async () => {
    const pulled = await vidx(['models', 'pull', 'default', '--yes']);
    expect(pulled.code, pulled.stdout + pulled.stderr).toBe(0);
    expect((await vidx(['models', 'list'])).stdout).toMatch(/tiny-whisper.*installed/);
  });

  it('serves the API: a collection, an analysis with OCR, an index and a search over HTTP', async () => {
    const child = spawn(bin, ['serve', '--port', '0'], { cwd: join(dir, 'work'), env, stdio: ['ignore', 'ignore', 'pipe'] });
    server = child;
    let banner = '';
    child.stderr.on('data', (d: Buffer) => (banner += d));
    url = await waitFor(() => banner.match(/listening on (http:\/\/127\.0\.0\.1:\d+)/)?.[1], 30_000, 'the server banner');
    key = readFileSync(join(dir, 'home', '.local', 'share', 'vidx', 'admin.key'), 'utf8').trim();

    expect((await call('POST', '/collections', { collection_id: 'smoke', name: 'Smoke' })).status).toBe(201);
    const analyze = await call('POST', '/analyze', { video: { path: corpus.slides.path } });
    expect(analyze.status).toBe(202);
    const a = await finished(analyze.body.task_id);
    expect(a.status, a.error?.message).toBe('completed');
    // The analysis ran in the binary's own worker bundle, not on the request thread.
    expect((await call('GET', '/health')).body.analysis).toEqual({ threads: true });
    expect(a.result.transcript_source).toBe('embedded');
    const onScreen = a.result.visual_summary.map((v: { text: string }) => v.text).join(' ');
    for (const slide of corpus.slides.slides) expect(onScreen).toContain(slide.title);

    const index = await call('POST', '/index', { collection: 'smoke', video: { path: corpus.slides.path, media_id: 'slides' } });
    const t = await finished(index.body.task_id);
    expect(t.status, t.error?.message).toBe('completed');
    const found = await call('POST', '/search', { query: 'apple cake', collection: 'smoke' });
    expect(found.status).toBe(200);
    expect(found.body.results[0].media_id).toBe('slides');
    // The gazetteer is unpacked with the binary: a place name resolves (the slides have no GPS, so none is near).
    const nearLisbon = await call('POST', '/search', { query: 'apple cake', collection: 'smoke', near: 'Lissabon' });
    expect(nearLisbon.status, JSON.stringify(nearLisbon.body)).toBe(200);
    expect(nearLisbon.body.results).toEqual([]);

    // Searches by words move to the binary's search thread bundle once it is ready (started by the first search).
    const searchThreads = async () => (await call('GET', '/health')).body.search as { threads: number; ready: number; answered: number };
    expect((await searchThreads()).threads).toBeGreaterThan(0);
    await waitFor(async () => ((await searchThreads()).ready > 0 ? true : undefined), 30_000, 'a ready search thread');
    const before = (await searchThreads()).answered;
    const onThread = await call('POST', '/search', { query: 'apple cake', collection: 'smoke' });
    expect(onThread.body.results[0].media_id).toBe('slides');
    expect((await searchThreads()).answered).toBe(before + 1);

    // The binary's CLI against its own server, finding the admin key in the data dir by itself.
    const cli = await vidx(['search', 'apple cake', '--collection', 'smoke', '--url', url, '--json']);
    expect(cli.code, cli.stderr).toBe(0);
    expect(JSON.parse(cli.stdout).results[0].media_id).toBe('slides');

    // The web page is embedded: served at / from the unpacked copy, with its script and styles.
    expect(banner).toContain(`web page: ${url}/`);
    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const script = /src="(\/assets\/index-[\w-]+\.js)"/.exec(html)?.[1];
    expect(script, html).toBeTruthy();
    const js = await fetch(`${url}${script}`);
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toContain('javascript');
    expect((await js.text()).length).toBeGreaterThan(1000);
  });

  it('transcribes speech with the pulled Whisper model (transformers.js inside the binary)', async () => {
    const r = await call('POST', '/analyze', { video: { path: corpus.speech.path } });
    const t = await finished(r.body.task_id);
    expect(t.status, t.error?.message).toBe('completed');
    expect(t.result.transcript_source).toBe('asr');
    expect(t.result.audio_summary.map((x: { text: string }) => x.text)).toContain(FIXTURE_TRANSCRIPT[0].text);
  });

  it('answers a question with the pulled GGUF model: node-llama-cpp and llama.cpp inside the binary', async () => {
    const pull = await call('POST', '/models/tiny-llm/pull');
    expect(pull.status).toBe(202);
    expect((await finished(pull.body.task_id)).status).toBe('completed');
    const asked = await call('POST', '/ask?stream=false', { question: 'apple cake', collection: 'smoke' });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    expect(asked.body, JSON.stringify(asked.body.notice)).toMatchObject({ mode: 'model', model: 'tiny-llm' });
    expect(asked.body.answer.cites.length).toBeGreaterThan(0);
    expect(asked.body.answer.text).toContain('slides');
  });

  it('leaves no ONNX Runtime telemetry behind: no device id, no event cache, no mat-debug log', () => {
    expect(existsSync(join(dir, 'home', '.cache', 'Microsoft'))).toBe(false);
    expect(readdirSync(join(dir, 'tmp')).filter((f) => /mat-debug|\.ses$/.test(f))).toEqual([]);
    expect(readdirSync(join(dir, 'work'))).toEqual([]);
  });
});
