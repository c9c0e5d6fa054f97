/**
 * Face figures on this machine: detection recall and false positives on Debian's skimage photos (two people
 * at several sizes, pasted into 1280×720 frames; five pictures without a face), cost per 1280×720 frame, and
 * embedding cost per face with the generated SFace stand-in (same input size as SFace, far fewer operations:
 * not SFace's cost). Grouping quality with real SFace vectors cannot be measured here (the model cannot be
 * downloaded in this environment); test/faces/people.test.ts checks grouping with the stand-in only.
 *
 * With the real-sized SFace stand-in (`npx tsx scripts/make-standin-models.ts --only sface`, into
 * `.standins/models`, or --models DIR) it also times what faces add to a whole analysis: a one-minute video
 * of people (pans, zooms, cuts: the skimage photos) analysed with faces off and on, the same models otherwise
 * (OCR and VAD from npm, the stand-in SFace), best of two runs each; and SFace's cost per face.
 *
 * Run: `npx tsx scripts/bench-faces.ts [--models .standins/models]`. The last line printed is one JSON object.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
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
import { makeShotsVideo, type Shot } from '../test/faces/videos.js';
import { loadManifest } from '../src/ml/registry/manifest.js';
import { ModelRuntime } from '../src/ml/runtime.js';
import { analyzeFile } from '../src/analysis/pipeline.js';
import { median } from './bench-stats.js';

const SCALES = [0.3, 0.45, 0.6, 0.8, 1, 1.3];
/** Keyframes the analysis decodes per minute at most (one per 4 s: see keyframeTimes). */
const FRAMES_PER_MINUTE = 15;


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

/** Median ms of embedding one face (the astronaut's), over 12 runs. */
async function embedMsPerFace(embedder: Awaited<ReturnType<typeof loadFaceEmbedder>>): Promise<number> {
  const frame = await photoFrame('astronaut.png');
  const [face] = await detectFaces(frame);
  const times: number[] = [];
  for (let i = 0; i < 12; i++) {
    const t0 = performance.now();
    await embedder.embed(frame, [face]);
    times.push(performance.now() - t0);
  }
  return median(times);
}

const tmp = mkdtempSync(join(tmpdir(), 'vidx-bench-faces-'));
const fixtures = await makeFixtureModels(join(tmp, 'hub'));
const hub = await startFakeHub({ root: fixtures.hubDir });
let embedMs = 0;
try {
  await pull(['tiny-sface'], { hubUrl: hub.url, modelsDir: join(tmp, 'models'), manifest: parseManifest(fixtures.manifest) });
  embedMs = await embedMsPerFace(await loadFaceEmbedder({ modelsDir: join(tmp, 'models'), manifest: parseManifest(fixtures.manifest) }));
} finally {
  await hub.close();
  rmSync(tmp, { recursive: true, force: true });
}

/** Seconds faces add to analysing one minute of video with people, and SFace ms per face (null without the stand-in). */
async function pipelineCost(modelsDir: string): Promise<{ facesOffS: number; facesOnS: number; addedSPerMinute: number; sfaceMsPerFace: number } | null> {
  const manifest = loadManifest(undefined);
  const runtime = new ModelRuntime({ modelsDir });
  if (!runtime.capabilities().face_embedding.available) return null;
  const sfaceMs = await embedMsPerFace(await loadFaceEmbedder({ modelsDir, manifest }));
  const dir = mkdtempSync(join(tmpdir(), 'vidx-bench-faces-video-'));
  try {
    // One minute: two people alone and together, panning and at several sizes, cut every 5 s.
    const people: Shot[] = [
      { file: 'astronaut.png', scale: 0.9, x0: 100, x1: 300, y: 120, seconds: 5 },
      { file: 'camera.png', scale: 1, x0: 600, x1: 480, y: 100, seconds: 5 },
      { file: 'astronaut.png', scale: 0.5, x0: 700, x1: 600, y: 300, seconds: 5 },
      { file: 'camera.png', scale: 0.6, x0: 100, x1: 200, y: 300, seconds: 5 },
    ];
    const video = await makeShotsVideo(dir, 'people.mp4', [...people, ...people, ...people]);
    const run = async (faces: boolean) => {
      const thumbs = join(dir, `thumbs-${faces}-${Math.random().toString(36).slice(2)}`);
      mkdirSync(thumbs);
      const t0 = performance.now();
      const a = await analyzeFile({ file: video, sourcePath: null, title: null, metadata: null, language: 'en', thumbnailDir: thumbs, faces },
        { models: runtime, signal: new AbortController().signal, progress: () => {} });
      if (faces && !a.faces) throw new Error('the face stage did not run');
      return (performance.now() - t0) / 1000;
    };
    await run(false); // warm: models loaded, files in the page cache
    const off = Math.min(await run(false), await run(false));
    const on = Math.min(await run(true), await run(true));
    // Tracks are not counted: the stand-in's random weights give every face nearly the same vector.
    return { facesOffS: round1(off), facesOnS: round1(on), addedSPerMinute: round1(on - off), sfaceMsPerFace: round1(sfaceMs) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const round1 = (x: number) => Math.round(x * 10) / 10;
const { values } = parseArgs({ options: { models: { type: 'string' } } });
const standins = values.models ?? join(process.cwd(), '.standins', 'models');
const pipeline = existsSync(standins) ? await pipelineCost(standins) : null;
if (pipeline) console.log(`whole analysis of 1 min with people: ${pipeline.facesOffS} s faces off, ${pipeline.facesOnS} s on (+${pipeline.addedSPerMinute} s); SFace stand-in ${pipeline.sfaceMsPerFace} ms per face`);

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
    tinyStandInEmbedMsPerFace: Math.round(embedMs * 10) / 10,
    sfaceStandInMsPerFace: pipeline?.sfaceMsPerFace ?? null,
    facesAddSecondsPerMinute: pipeline?.addedSPerMinute ?? null,
    analysisSecondsFacesOff: pipeline?.facesOffS ?? null,
    analysisSecondsFacesOn: pipeline?.facesOnS ?? null,
    note: 'SFace figures from the real-sized stand-in (scripts/make-standin-models.sface.ts), not SFace itself; grouping quality with SFace not measured here',
  }),
);
