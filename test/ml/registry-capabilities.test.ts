import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixtureModels } from '../../scripts/make-fixture-models.js';
import { describeCapabilities } from '../../src/ml/capabilities.js';
import { loadManifest, parseManifest, type Manifest } from '../../src/ml/registry/manifest.js';
import { pull } from '../../src/ml/registry/pull.js';
import { ModelRuntime } from '../../src/ml/runtime.js';
import { startFakeHub, type FakeHub } from '../support/fake-hub.js';

let tmp: string;
let manifest: Manifest;
let hub: FakeHub;

beforeAll(async () => {
  tmp = mkdtempSync(join(process.cwd(), 'test', '.tmp', 'caps-'));
  const fixtures = await makeFixtureModels(join(tmp, 'hub'));
  manifest = parseManifest(fixtures.manifest);
  hub = await startFakeHub({ root: fixtures.hubDir });
});

afterAll(async () => {
  await hub?.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('describeCapabilities', () => {
  it('reports packaged OCR/VAD as available and pulled models as missing with the pull hint', () => {
    const caps = describeCapabilities(mkdtempSync(join(tmp, 'm-')), { manifest });
    expect(caps.ocr.available).toBe(true);
    expect(caps.vad.available).toBe(true);
    expect(caps.asr).toEqual({ available: false, model: 'tiny-whisper', reason: 'missing: run `vidx models pull tiny-whisper`' });
    expect(caps.image_text).toEqual({ available: false, model: 'tiny-clip', reason: 'missing: run `vidx models pull tiny-clip`' });
    expect(caps.text_embedding.reason).toBe('missing: run `vidx models pull tiny-e5`');
  });

  it('uses the shipped manifest by default', () => {
    const caps = describeCapabilities(mkdtempSync(join(tmp, 'm-')));
    const real = loadManifest();
    expect(caps.asr.model).toBe(real.models.find((m) => m.capability === 'asr' && m.default)!.id);
    expect(caps.asr.reason).toMatch(/^missing: run `vidx models pull [\w.-]+`$/);
  });

  it('sees installed and partially downloaded models', async () => {
    const modelsDir = mkdtempSync(join(tmp, 'm-'));
    await pull(['tiny-e5'], { hubUrl: hub.url, modelsDir, manifest });
    const dir = join(modelsDir, 'vidx-test', 'tiny-whisper');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'tokenizer.json.part'), 'partial');
    const caps = describeCapabilities(modelsDir, { manifest });
    expect(caps.text_embedding).toEqual({ available: true, model: 'tiny-e5' });
    expect(caps.asr).toEqual({ available: false, model: 'tiny-whisper', reason: 'partially downloaded: run `vidx models pull tiny-whisper`' });
  });

  it('a model runtime reads one pulled capability as the whole list says it, and sees a pull at once', async () => {
    const modelsDir = mkdtempSync(join(tmp, 'm-'));
    const manifestPath = join(tmp, 'manifest.json');
    writeFileSync(manifestPath, JSON.stringify(manifest));
    const models = new ModelRuntime({ modelsDir, manifestPath });
    expect(models.pulled('text_embedding')).toEqual(models.capabilities().text_embedding);
    expect(models.pulled('text_embedding').available).toBe(false);
    await pull(['tiny-e5'], { hubUrl: hub.url, modelsDir, manifest });
    expect(models.pulled('text_embedding')).toEqual({ available: true, model: 'tiny-e5' });
    expect(models.pulled('image_text')).toEqual(models.capabilities().image_text);
  });
});
