import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeStandinModels } from '../../scripts/make-standin-models.js';
import { STANDIN_SPEECH } from '../../scripts/make-standin-models.whisper.js';
import { getTranscriber } from '../../src/ml/asr/index.js';
import { getModel, loadManifest } from '../../src/ml/registry/manifest.js';
import { modelStatus } from '../../src/ml/registry/status.js';

// The smallest stand-in (whisper-tiny, ~65 MB): the bench stand-ins load and run through vidx's own code path.
describe('real-shaped stand-ins (scripts/make-standin-models.ts)', () => {
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(process.cwd(), 'test', '.tmp', 'standins-'));
    await makeStandinModels(dir, ['whisper-tiny']);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('writes the manifest entry files, so the registry sees the model as installed', () => {
    const entry = getModel(loadManifest(), 'whisper-tiny');
    expect(modelStatus(entry, dir).state).toBe('installed');
    // Real shapes: the encoder is fp32 (~8M weights), the merged decoder int8 (~29M weights, 51865 × 384 embedding).
    expect(statSync(join(dir, 'Xenova/whisper-tiny/onnx/encoder_model.onnx')).size).toBeGreaterThan(30e6);
    expect(statSync(join(dir, 'Xenova/whisper-tiny/onnx/decoder_model_merged_quantized.onnx')).size).toBeGreaterThan(28e6);
  });

  it('transcribes a 30 s window into the stand-in speech: 80 words in 8 timed segments, then ends', async () => {
    const asr = await getTranscriber({ modelsDir: dir, modelId: 'whisper-tiny' });
    const pcm = Float32Array.from({ length: 30 * 16000 }, (_, i) => 0.05 * Math.sin(i / 7));
    const t = await asr.transcribe(pcm, [{ start: 0, end: 30 }], { language: 'en' });
    expect(t.segments).toHaveLength(8);
    expect(t.segments.map((s) => s.text).join(' ').replace(/\./g, '').split(' ')).toEqual(STANDIN_SPEECH);
    for (let i = 1; i < t.segments.length; i++) expect(t.segments[i].start).toBeGreaterThan(t.segments[i - 1].start);
  });
});
