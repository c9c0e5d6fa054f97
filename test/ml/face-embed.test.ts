import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixtureModels } from '../../scripts/make-fixture-models.js';
import { describeCapabilities } from '../../src/ml/capabilities.js';
import { alignFace } from '../../src/ml/face/align.js';
import { detectFaces } from '../../src/ml/face/detect.js';
import { DEFAULT_SAME_PERSON, loadFaceEmbedder } from '../../src/ml/face/embed.js';
import { parseManifest, type Manifest } from '../../src/ml/registry/manifest.js';
import { pull } from '../../src/ml/registry/pull.js';
import { ModelRuntime } from '../../src/ml/runtime.js';
import { startFakeHub, type FakeHub } from '../support/fake-hub.js';
import { photoFrame } from './face-photos.js';

let tmp: string;
let manifest: Manifest;
let manifestPath: string;
let hub: FakeHub;

beforeAll(async () => {
  tmp = mkdtempSync(join(process.cwd(), 'test', '.tmp', 'face-embed-'));
  const fixtures = await makeFixtureModels(join(tmp, 'hub'));
  manifest = parseManifest(fixtures.manifest);
  manifestPath = fixtures.manifestPath;
  hub = await startFakeHub({ root: fixtures.hubDir });
});

afterAll(async () => {
  await hub?.close();
  rmSync(tmp, { recursive: true, force: true });
});

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

describe('face alignment', () => {
  it('maps the 112 px template onto keypoints that are the template scaled by 2, turned 90° and moved', () => {
    const tpl: Array<[number, number]> = [[38.7946, 52.1963], [74.0318, 52.0014], [56.5252, 72.2366], [56.6396, 92.7848]];
    // Frame point = R90(2·p) + (500, 100): x' = -2y + 500, y' = 2x + 100.
    const keypoints = [...tpl.map(([x, y]) => [-2 * y + 500, 2 * x + 100] as [number, number]), [0, 0] as [number, number], [0, 0] as [number, number]];
    const [a, b, c, d, e, f] = alignFace({ keypoints });
    expect(a).toBeCloseTo(0, 6);
    expect(b).toBeCloseTo(-2, 6);
    expect(c).toBeCloseTo(500, 4);
    expect(d).toBeCloseTo(2, 6);
    expect(e).toBeCloseTo(0, 6);
    expect(f).toBeCloseTo(100, 4);
  });
});

describe('face embedder pulled like the other models (generated SFace stand-in)', () => {
  it('is missing until pulled, then reported and loaded', async () => {
    const modelsDir = mkdtempSync(join(tmp, 'm-'));
    expect(describeCapabilities(modelsDir, { manifest }).face_embedding).toEqual({ available: false, model: 'tiny-sface', reason: 'missing: run `vidx models pull tiny-sface`' });
    expect(await new ModelRuntime({ modelsDir, manifestPath }).faceEmbedder()).toBeNull();
    await pull(['tiny-sface'], { hubUrl: hub.url, modelsDir, manifest });
    expect(describeCapabilities(modelsDir, { manifest }).face_embedding).toEqual({ available: true, model: 'tiny-sface' });
    const embedder = await new ModelRuntime({ modelsDir, manifestPath }).faceEmbedder();
    expect(embedder?.modelId).toBe('tiny-sface');
    expect(embedder?.dims).toBe(128);
    // The same-person threshold is the model's: the manifest's samePersonCosine, else the default.
    expect(embedder?.samePerson).toBe(DEFAULT_SAME_PERSON);
    const strict: Manifest = { ...manifest, models: manifest.models.map((m) => (m.id === 'tiny-sface' ? { ...m, samePersonCosine: 0.9 } : m)) };
    expect((await loadFaceEmbedder({ modelsDir, manifest: strict })).samePerson).toBe(0.9);
  });

  it('gives unit vectors that stay close for the same face at another scale and differ for another face', async () => {
    const modelsDir = mkdtempSync(join(tmp, 'm-'));
    await pull(['tiny-sface'], { hubUrl: hub.url, modelsDir, manifest });
    const embedder = await loadFaceEmbedder({ modelsDir, manifest });
    const vec = async (file: string, scale: number) => {
      const frame = await photoFrame(file, scale);
      const [face] = await detectFaces(frame);
      const [v] = await embedder.embed(frame, [face]);
      return v;
    };
    const astro = await vec('astronaut.png', 1);
    const astroSmall = await vec('astronaut.png', 0.6);
    const camera = await vec('camera.png', 1);
    expect(astro).toHaveLength(128);
    expect(dot(astro, astro)).toBeCloseTo(1, 5);
    // Alignment puts the same face in the same place of the crop whatever its size in the frame.
    expect(dot(astro, astroSmall)).toBeGreaterThan(0.9);
    expect(dot(astro, camera)).toBeLessThan(dot(astro, astroSmall) - 0.2);
  });
});
