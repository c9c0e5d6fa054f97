import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_DIMS, makeFixtureModels } from '../../scripts/make-fixture-models.js';
import { getImageTextEmbedder, type RgbFrame } from '../../src/ml/embed/image-text.js';
import { getTextEmbedder } from '../../src/ml/embed/text.js';
import { ModelNotInstalledError } from '../../src/ml/registry/local.js';
import { parseManifest, type Manifest } from '../../src/ml/registry/manifest.js';
import { pull } from '../../src/ml/registry/pull.js';
import { startFakeHub } from '../support/fake-hub.js';

let tmp: string;
let modelsDir: string;
let manifest: Manifest;

beforeAll(async () => {
  tmp = mkdtempSync(join(process.cwd(), 'test', '.tmp', 'embed-'));
  const fixtures = await makeFixtureModels(join(tmp, 'hub'));
  manifest = parseManifest(fixtures.manifest);
  const hub = await startFakeHub({ root: fixtures.hubDir });
  modelsDir = join(tmp, 'models');
  await pull(['tiny-clip', 'tiny-siglip', 'tiny-e5'], { hubUrl: hub.url, modelsDir, manifest });
  await hub.close();
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const norm = (v: Float32Array) => Math.sqrt(v.reduce((a, x) => a + x * x, 0));
const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

function expectClose(a: Float32Array[], b: Float32Array[]) {
  expect(a).toHaveLength(b.length);
  a.forEach((v, i) => {
    v.forEach((x, j) => {
      expect(x).toBeCloseTo(b[i][j], 5);
    });
  });
}

/** A deterministic test card: a gradient with a coloured block whose place depends on `seed`. */
function frame(seed: number, width = 48, height = 40, channels: 3 | 4 = 3): RgbFrame {
  const data = new Uint8Array(width * height * channels);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * channels;
      const inBlock = Math.abs(x - ((seed * 13) % width)) < 8 && Math.abs(y - ((seed * 7) % height)) < 8;
      data[o] = inBlock ? 250 : (x * 5) % 256;
      data[o + 1] = inBlock ? 20 * seed : (y * 6) % 256;
      data[o + 2] = (x + y + seed * 40) % 256;
      if (channels === 4) data[o + 3] = 255;
    }
  }
  return { data, width, height, channels };
}

describe('text embedder (e5 fixture)', () => {
  const texts = ['hello world', 'die katze', 'video search for the cat', 'der', 'hallo welt, wie geht es der katze heute?'];

  it('returns L2-normalised vectors of the manifest dimensions', async () => {
    const e = await getTextEmbedder({ modelsDir, manifest });
    expect(e.dims).toBe(FIXTURE_DIMS.text_embedding);
    const vs = await e.embedPassages(texts);
    expect(vs).toHaveLength(texts.length);
    for (const v of vs) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(FIXTURE_DIMS.text_embedding);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    expect(dot(vs[0], vs[1])).toBeLessThan(0.999);
  });

  it('gives the same vectors batched as one by one', async () => {
    const e = await getTextEmbedder({ modelsDir, manifest, batchSize: 2 });
    const batched = await e.embedQueries(texts);
    const single = [];
    for (const t of texts) single.push(...(await e.embedQueries([t])));
    expectClose(batched, single);
  });

  it('uses different prefixes for queries and passages', async () => {
    const e = await getTextEmbedder({ modelsDir, manifest });
    const [q] = await e.embed(['hello world'], 'query');
    const [p] = await e.embed(['hello world'], 'passage');
    expect(dot(q, p)).toBeLessThan(0.9999);
  });
});

describe('image-text embedder (CLIP fixture)', () => {
  it('embeds texts: normalised, fixed size, batch-invariant', async () => {
    const e = await getImageTextEmbedder({ modelsDir, manifest, textBatchSize: 2 });
    expect(e.dims).toBe(FIXTURE_DIMS.image_text);
    const queries = ['a photo of a cat', 'dog', 'ein auto auf der straße', 'hund'];
    const batched = await e.embedTexts(queries);
    for (const v of batched) {
      expect(v.length).toBe(FIXTURE_DIMS.image_text);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    const single = [];
    for (const q of queries) single.push(...(await e.embedTexts([q])));
    expectClose(batched, single);
  });

  it('embeds RGB and RGBA frames and encoded images into the same space', async () => {
    const e = await getImageTextEmbedder({ modelsDir, manifest, imageBatchSize: 2 });
    const frames = [frame(1), frame(2), frame(3, 64, 36)];
    const batched = await e.embedImages(frames);
    for (const v of batched) {
      expect(v.length).toBe(FIXTURE_DIMS.image_text);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
    const single = [];
    for (const f of frames) single.push(...(await e.embedImages([f])));
    expectClose(batched, single);
    expect(dot(batched[0], batched[1])).toBeLessThan(0.9999);

    const rgba = frame(1, 48, 40, 4);
    const [fromRgba] = await e.embedImages([rgba]);
    expectClose([fromRgba], [batched[0]]);

    const f = frames[0];
    const png = await sharp(Buffer.from(f.data), { raw: { width: f.width, height: f.height, channels: 3 } }).png().toBuffer();
    const jpeg = await sharp(Buffer.from(f.data), { raw: { width: f.width, height: f.height, channels: 3 } }).jpeg({ quality: 95 }).toBuffer();
    const [fromPng, fromJpeg] = await e.embedImages([png, jpeg]);
    expectClose([fromPng], [batched[0]]);
    expect(dot(fromJpeg, batched[0])).toBeGreaterThan(0.99);

    const [t] = await e.embedTexts(['a photo of a cat']);
    expect(t.length).toBe(fromPng.length);
  });

  it('rejects a frame whose buffer does not match its size', async () => {
    const e = await getImageTextEmbedder({ modelsDir, manifest });
    await expect(e.embedImages([{ data: new Uint8Array(10), width: 4, height: 4 }])).rejects.toThrow(/expected 4×4×3/);
  });
});

describe('image-text embedder (SigLIP fixture)', () => {
  it('pads texts to 64 tokens, reads the pooled output, and embeds frames', async () => {
    const e = await getImageTextEmbedder({ modelsDir, manifest, modelId: 'tiny-siglip', textBatchSize: 3 });
    expect(e.modelId).toBe('tiny-siglip');
    const queries = ['a photo of a cat', 'katze', 'ein sehr langer satz über eine katze auf dem dach'];
    // The fixture averages over every position, pads included: batch == single only when
    // every text is padded to the same fixed length.
    const batched = await e.embedTexts(queries);
    const single = [];
    for (const q of queries) single.push(...(await e.embedTexts([q])));
    expectClose(batched, single);
    const [img] = await e.embedImages([frame(4)]);
    for (const v of [...batched, img]) {
      expect(v.length).toBe(FIXTURE_DIMS.image_text);
      expect(norm(v)).toBeCloseTo(1, 5);
    }
  });
});

describe('missing models', () => {
  it('throw ModelNotInstalledError with the pull command', async () => {
    const empty = mkdtempSync(join(tmp, 'empty-'));
    await expect(getTextEmbedder({ modelsDir: empty, manifest })).rejects.toThrow(ModelNotInstalledError);
    await expect(getImageTextEmbedder({ modelsDir: empty, manifest })).rejects.toThrow('run `vidx models pull tiny-clip`');
  });
});
