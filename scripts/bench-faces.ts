/**
 * Face figures on this machine: detection recall and false positives on Debian's skimage photos (two people
 * at several sizes, pasted into 1280×720 frames; five pictures without a face), cost per 1280×720 frame, and
 * embedding cost per face with the generated SFace stand-in (same input size as SFace, far fewer operations:
 * not SFace's cost). Grouping quality with real SFace vectors cannot be measured here (the model cannot be
 * downloaded in this environment); test/faces/people.test.ts checks grouping with the stand-in only.
 *
 * Run: `npx tsx scripts/bench-faces.ts`. The last line printed is one JSON object.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeFixtureModels } from './make-fixture-models.js';
import { detectFaces } from '../src/ml/face/detect.js';
import { iou } from '../src/ml/face/decode.js';
import { loadFaceEmbedder } from '../src/ml/face/embed.js';
import { parseManifest } from '../src/ml/registry/manifest.js';
import { pull } from '../src/ml/registry/pull.js';
import { startFakeHub } from '../test/support/fake-hub.js';
import { collage, FACE_PHOTOS, NO_FACE_PHOTOS, photoFrame } from '../test/ml/face-photos.js';

const SCALES = [0.3, 0.45, 0.6, 0.8, 1, 1.3];
/** Keyframes the analysis decodes per minute at most (one per 4 s: see keyframeTimes). */
const FRAMES_PER_MINUTE = 15;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

let found = 0;
let expected = 0;
let falsePositives = 0;
const missed: string[] = [];
const frameMs: number[] = [];
for (const p of FACE_PHOTOS) {
  for (const scale of SCALES) {
    const left = 200;
    const top = 100;
    const frame = await collage([{ file: p.file, scale, left, top }]);
    const truth = { x: left + p.face.x * scale, y: top + p.face.y * scale, width: p.face.width * scale, height: p.face.height * scale };
    const t0 = performance.now();
    const faces = await detectFaces(frame);
    frameMs.push(performance.now() - t0);
    expected++;
    const hit = faces.some((f) => iou(f, truth) > 0.3);
    if (hit) found++;
    else missed.push(`${p.file}@${Math.round(truth.width)}px`);
    falsePositives += faces.filter((f) => iou(f, truth) <= 0.3).length;
  }
}
let noFaceFalsePositives = 0;
for (const file of NO_FACE_PHOTOS) noFaceFalsePositives += (await detectFaces(await photoFrame(file))).length;

const tmp = mkdtempSync(join(tmpdir(), 'vidx-bench-faces-'));
const fixtures = await makeFixtureModels(join(tmp, 'hub'));
const hub = await startFakeHub({ root: fixtures.hubDir });
let embedMs = 0;
try {
  await pull(['tiny-sface'], { hubUrl: hub.url, modelsDir: join(tmp, 'models'), manifest: parseManifest(fixtures.manifest) });
  const embedder = await loadFaceEmbedder({ modelsDir: join(tmp, 'models'), manifest: parseManifest(fixtures.manifest) });
  const frame = await photoFrame('astronaut.png');
  const [face] = await detectFaces(frame);
  const times: number[] = [];
  for (let i = 0; i < 10; i++) {
    const t0 = performance.now();
    await embedder.embed(frame, [face]);
    times.push(performance.now() - t0);
  }
  embedMs = median(times);
} finally {
  await hub.close();
  rmSync(tmp, { recursive: true, force: true });
}

const detectMs = median(frameMs);
console.log(`detection: ${found}/${expected} faces found (missed: ${missed.join(', ') || 'none'}), ${falsePositives} extra boxes, ${noFaceFalsePositives} boxes on ${NO_FACE_PHOTOS.length} photos without a face`);
console.log(`cost: ${detectMs.toFixed(0)} ms per 1280x720 frame (median), stand-in embedding ${embedMs.toFixed(1)} ms per face`);
console.log(
  JSON.stringify({
    bench: 'faces',
    recall: found / expected,
    faces: expected,
    missed,
    extraBoxes: falsePositives,
    noFaceBoxes: noFaceFalsePositives,
    detectMsPerFrame: Math.round(detectMs),
    detectSecondsPerMinuteOfVideo: Math.round((detectMs * FRAMES_PER_MINUTE) / 100) / 10,
    standInEmbedMsPerFace: Math.round(embedMs * 10) / 10,
    note: 'embedding cost is the stand-in, not SFace; grouping quality with SFace not measured here',
  }),
);
