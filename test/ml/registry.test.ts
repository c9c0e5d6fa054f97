import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixtureModels, type FixtureSet } from '../../scripts/make-fixture-models.js';
import { DownloadError } from '../../src/ml/registry/download.js';
import { parseManifest, UnknownModelError, type Manifest } from '../../src/ml/registry/manifest.js';
import { loadConfig } from '../../src/config.js';
import { hubFileUrl, pull, type PullProgress } from '../../src/ml/registry/pull.js';
import { listModelStatus, modelDir, modelStatus } from '../../src/ml/registry/status.js';
import { startFakeHub, type FakeHub } from '../support/fake-hub.js';

let tmp: string;
let fixtures: FixtureSet;
let manifest: Manifest;
let hub: FakeHub;

beforeAll(async () => {
  tmp = mkdtempSync(join(process.cwd(), 'test', '.tmp', 'registry-'));
  fixtures = await makeFixtureModels(join(tmp, 'hub'));
  manifest = parseManifest(fixtures.manifest);
  const revisions = Object.fromEntries(manifest.models.map((m) => [m.repo, m.revision]));
  hub = await startFakeHub({ root: fixtures.hubDir, revisions });
});

afterAll(async () => {
  await hub?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const freshDir = () => mkdtempSync(join(tmp, 'models-'));
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const whisper = () => manifest.models.find((m) => m.id === 'tiny-whisper')!;

describe('hub URLs', () => {
  it('defaults to huggingface.co and honours VIDX_HUB_URL', () => {
    expect(loadConfig({}).hubUrl).toBe('https://huggingface.co');
    expect(loadConfig({ VIDX_HUB_URL: 'http://127.0.0.1:9/' }).hubUrl).toBe('http://127.0.0.1:9');
    expect(hubFileUrl('https://huggingface.co', 'Xenova/whisper-base', 'abc', 'onnx/encoder_model.onnx')).toBe(
      'https://huggingface.co/Xenova/whisper-base/resolve/abc/onnx/encoder_model.onnx',
    );
  });
});

describe('pull', () => {
  it('downloads the defaults at their pinned revision, verified, with progress', async () => {
    const modelsDir = freshDir();
    expect(listModelStatus(manifest, modelsDir).every((s) => s.state === 'missing')).toBe(true);
    const defaults = manifest.models.filter((m) => m.default);
    const events: PullProgress[] = [];
    const before = hub.requests.length;
    const result = await pull(['default'], { hubUrl: hub.url, modelsDir, manifest, onProgress: (e) => events.push(e) });

    expect(result.pulled).toEqual(['tiny-whisper', 'tiny-clip', 'tiny-e5', 'tiny-sface']);
    const total = defaults.flatMap((m) => m.files).reduce((a, f) => a + (f.size ?? 0), 0);
    expect(result.bytesFetched).toBe(total);
    expect(modelStatus(manifest.models.find((m) => m.id === 'tiny-siglip')!, modelsDir).state).toBe('missing');
    for (const m of defaults) {
      for (const f of m.files) {
        const p = join(modelDir(modelsDir, m), f.path);
        expect(sha(p)).toBe(f.sha256);
        expect(existsSync(`${p}.part`)).toBe(false);
      }
      expect(modelStatus(m, modelsDir).state).toBe('installed');
    }
    const reqs = hub.requests.slice(before);
    expect(reqs.every((r) => r.status === 200 && r.revision === manifest.models.find((m) => m.repo === r.repo)!.revision)).toBe(true);

    const done = events.filter((e) => e.type === 'file-done');
    expect(done).toHaveLength(defaults.flatMap((m) => m.files).length);
    expect(events.filter((e) => e.type === 'model-done').map((e) => e.modelId)).toEqual(result.pulled);
    const bytes = events.filter((e) => e.type === 'bytes').map((e) => e.bytesDone);
    expect(bytes).toEqual([...bytes].sort((a, b) => a - b)); // monotonic
    expect(events.at(-1)).toMatchObject({ type: 'model-done', bytesDone: total, bytesTotal: total, exact: true });
  });

  it('fetches nothing when the models are already installed', async () => {
    const modelsDir = freshDir();
    await pull(['tiny-e5'], { hubUrl: hub.url, modelsDir, manifest });
    const before = hub.requests.length;
    const again = await pull(['tiny-e5'], { hubUrl: hub.url, modelsDir, manifest });
    expect(again).toEqual({ pulled: [], alreadyInstalled: ['tiny-e5'], bytesFetched: 0 });
    expect(hub.requests.length).toBe(before);
  });

  it('resumes an interrupted download with a Range request', async () => {
    const modelsDir = freshDir();
    const tokenizer = whisper().files.find((f) => f.path === 'tokenizer.json')!;
    hub.cutNext(5000, 'tokenizer.json');
    await expect(pull(['tiny-whisper'], { hubUrl: hub.url, modelsDir, manifest, retries: 0 })).rejects.toThrow();

    const dest = join(modelDir(modelsDir, whisper()), 'tokenizer.json');
    expect(existsSync(dest)).toBe(false);
    expect(statSync(`${dest}.part`).size).toBe(5000);
    const status = modelStatus(whisper(), modelsDir);
    expect(status.state).toBe('partial');

    const before = hub.requests.length;
    const result = await pull(['tiny-whisper'], { hubUrl: hub.url, modelsDir, manifest });
    const tokReq = hub.requests.slice(before).find((r) => r.file === 'tokenizer.json')!;
    expect(tokReq).toMatchObject({ range: 'bytes=5000-', status: 206, bytesSent: tokenizer.size! - 5000 });
    // Files completed before the cut are not fetched again.
    expect(hub.requests.slice(before).map((r) => r.file)).not.toContain('config.json');
    expect(sha(dest)).toBe(tokenizer.sha256);
    expect(result.pulled).toEqual(['tiny-whisper']);
    expect(modelStatus(whisper(), modelsDir).state).toBe('installed');
  });

  it('retries by itself after a cut and resumes from the part file', async () => {
    const modelsDir = freshDir();
    hub.cutNext(1000, 'onnx/decoder_model_merged_quantized.onnx');
    const events: PullProgress[] = [];
    const before = hub.requests.length;
    await pull(['tiny-whisper'], { hubUrl: hub.url, modelsDir, manifest, retryDelayMs: 1, onProgress: (e) => events.push(e) });
    expect(events.some((e) => e.type === 'retry')).toBe(true);
    const dec = hub.requests.slice(before).filter((r) => r.file === 'onnx/decoder_model_merged_quantized.onnx');
    expect(dec.map((r) => r.range)).toEqual([null, 'bytes=1000-']);
    expect(modelStatus(whisper(), modelsDir).state).toBe('installed');
  });

  it('stops in the pause before a retry when the pull is stopped, and keeps the part file for the next pull', async () => {
    const modelsDir = freshDir();
    const file = 'onnx/decoder_model_merged_quantized.onnx';
    hub.cutNext(1000, file);
    const stop = new AbortController();
    const before = hub.requests.length;
    // A pause of an hour: the pull ends only because the stop cuts it short.
    const pulling = pull(['tiny-whisper'], { hubUrl: hub.url, modelsDir, manifest, retryDelayMs: 3_600_000, signal: stop.signal, onProgress: (e) => e.type === 'retry' && stop.abort() });
    await expect(pulling).rejects.toThrow(/aborted/);
    expect(hub.requests.slice(before).filter((r) => r.file === file).map((r) => r.range)).toEqual([null]);
    expect(statSync(`${join(modelDir(modelsDir, whisper()), file)}.part`).size).toBe(1000);
  });

  it('rejects a file whose sha256 does not match and keeps nothing of it', async () => {
    const modelsDir = freshDir();
    const bad = structuredClone(manifest);
    const e5 = bad.models.find((m) => m.id === 'tiny-e5')!;
    e5.files[0].sha256 = '0'.repeat(64);
    const err = await pull(['tiny-e5'], { hubUrl: hub.url, modelsDir, manifest: bad }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DownloadError);
    expect((err as DownloadError).message).toMatch(/sha256 mismatch/);
    const dest = join(modelDir(modelsDir, e5), e5.files[0].path);
    expect(existsSync(dest)).toBe(false);
    expect(existsSync(`${dest}.part`)).toBe(false);
  });

  it('fails fast on a 404 (unknown revision) without retrying', async () => {
    const modelsDir = freshDir();
    const bad = structuredClone(manifest);
    bad.models.find((m) => m.id === 'tiny-e5')!.revision = 'f'.repeat(40);
    const before = hub.requests.length;
    await expect(pull(['tiny-e5'], { hubUrl: hub.url, modelsDir, manifest: bad, retryDelayMs: 1 })).rejects.toThrow(/HTTP 404/);
    expect(hub.requests.length - before).toBe(1);
  });

  it('will not write a file another live process is downloading, but takes over a stale lock', async () => {
    const modelsDir = freshDir();
    const e5 = manifest.models.find((m) => m.id === 'tiny-e5')!;
    const dest = join(modelDir(modelsDir, e5), e5.files[0].path);
    mkdirSync(dirname(dest), { recursive: true });
    writeFileSync(`${dest}.part.lock`, String(process.pid));
    await expect(pull(['tiny-e5'], { hubUrl: hub.url, modelsDir, manifest })).rejects.toThrow(/being downloaded by process/);
    writeFileSync(`${dest}.part.lock`, '999999999'); // no such process
    await pull(['tiny-e5'], { hubUrl: hub.url, modelsDir, manifest });
    expect(existsSync(`${dest}.part.lock`)).toBe(false);
    expect(modelStatus(e5, modelsDir).state).toBe('installed');
  });

  it('refuses unknown ids', async () => {
    await expect(pull(['nope'], { hubUrl: hub.url, modelsDir: freshDir(), manifest })).rejects.toBeInstanceOf(UnknownModelError);
  });
});

describe('which model a capability uses', () => {
  it('uses a model pulled by id when the capability has no default (SFace is not a default until pinned)', async () => {
    const { describeCapabilities } = await import('../../src/ml/capabilities.js');
    const noDefault: Manifest = { ...manifest, models: manifest.models.map((m) => (m.capability === 'face_embedding' ? { ...m, default: false } : m)) };
    const dir = freshDir();
    const before = describeCapabilities(dir, { manifest: noDefault }).face_embedding;
    expect(before).toMatchObject({ available: false, model: 'tiny-sface' });
    expect(before.reason).toContain('vidx models pull tiny-sface');
    await pull(['tiny-sface'], { hubUrl: hub.url, modelsDir: dir, manifest: noDefault });
    expect(describeCapabilities(dir, { manifest: noDefault }).face_embedding).toEqual({ available: true, model: 'tiny-sface' });
  });
});
