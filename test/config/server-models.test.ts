import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faceDetectorPath } from '../../src/ml/face/assets.js';
import { faceDetectorSession } from '../../src/ml/face/detect.js';
import { startTestApp } from '../support/app.js';
import type { TestServer } from '../support/server.js';

type Health = { capabilities: Record<string, { available: boolean; reason?: string }> };

/**
 * Issue 33.3: model file settings live on each server's own runtime, not in module globals. Two servers in
 * one process, one with VIDX_OCR_MODELS naming a folder without the models, each see their own.
 */
describe('two servers in one process with different model files', () => {
  let empty: string;
  let named: TestServer;
  let plain: TestServer;

  beforeAll(async () => {
    empty = mkdtempSync(join(tmpdir(), 'vidx-ocr-models-'));
    named = await startTestApp({ queryEmbedder: null, env: { VIDX_OCR_MODELS: empty } });
    plain = await startTestApp({ queryEmbedder: null });
  }, 60_000);
  afterAll(async () => {
    await named?.close();
    await plain?.close();
    rmSync(empty, { recursive: true, force: true });
  });

  it('each reports the OCR models its own settings name', async () => {
    const ocr = async (s: TestServer) => ((await s.call('GET', '/health')).body as Health).capabilities.ocr;
    expect(await ocr(named)).toMatchObject({ available: false, reason: expect.stringMatching(/missing/) });
    expect((await ocr(plain)).available).toBe(true);
  });

  it('shares an ONNX session per model file, whoever asks', async () => {
    const setup = { assets: { faceDetector: faceDetectorPath() }, providers: 'cpu' as const };
    const first = await faceDetectorSession(setup);
    expect(await faceDetectorSession()).toBe(first);
    expect(await faceDetectorSession({ assets: {}, providers: 'cpu' })).toBe(first);
  });
});
