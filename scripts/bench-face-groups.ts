/**
 * Grouping quality with real face embeddings: face-api's 128-D face recognition network (MIT, derived from
 * dlib's public-domain ResNet; `@vladmandic/face-api` with TF.js on its WASM backend) stands in for SFace,
 * which cannot be downloaded here. A measuring tool only: face-api is not a dependency of vidx; install it
 * beside the checkout and name the folder:
 *
 *   mkdir -p /tmp/faceapi && (cd /tmp/faceapi && npm init -y && npm i @vladmandic/face-api @tensorflow/tfjs@4 @tensorflow/tfjs-backend-wasm@4)
 *   npx tsx scripts/bench-face-groups.ts --faceapi /tmp/faceapi
 *
 * Three people from Debian's photos (skimage's astronaut and cameraman, matplotlib's Grace Hopper), each in
 * eight variations (scale, mirror, JPEG 30, darker, brighter, shifted, small), pasted into 1280×720 frames;
 * vidx's BlazeFace finds the face, vidx's 5-point alignment frames it (as a 150×150 chip with dlib's
 * margin), face-api embeds it, and vidx's own grouping (services/people/grouping.ts, through the store, the
 * way an index task calls it) puts each face into a person. Printed: faces found, groups, purity (no group
 * mixes people), splits, the same-person and other-person cosine ranges. The last line is one JSON object.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { detectFaces } from '../src/ml/face/detect.js';
import { alignFace } from '../src/ml/face/align.js';
import { warpToTensor, type Affine } from '../src/ml/face/warp.js';
import type { RgbFrame } from '../src/ml/ocr/types.js';
import { storeFaceTracks } from '../src/services/people/grouping.js';
import { DEFAULT_SAME_PERSON } from '../src/ml/face/embed.js';
import { cosine } from '../src/analysis/face-tracks.js';
import { openStore } from '../src/store/index.js';

const { values } = parseArgs({ options: { faceapi: { type: 'string' } } });
if (!values.faceapi) throw new Error('--faceapi DIR: a folder with @vladmandic/face-api and @tensorflow/tfjs(-backend-wasm) installed (see the header)');
const req = createRequire(join(values.faceapi, 'package.json'));
// Types: face-api is loaded from a folder outside the project, so it has none here; the calls are few.
const tf = req('@tensorflow/tfjs') as { setBackend(b: string): Promise<boolean>; ready(): Promise<void>; tensor3d(v: Float32Array, s: number[], d: string): unknown };
req('@tensorflow/tfjs-backend-wasm');
const faceapi = req('@vladmandic/face-api/dist/face-api.node-wasm.js') as {
  nets: { faceRecognitionNet: { loadFromDisk(dir: string): Promise<void> } };
  computeFaceDescriptor(t: unknown): Promise<Float32Array>;
};
await tf.setBackend('wasm');
await tf.ready();
await faceapi.nets.faceRecognitionNet.loadFromDisk(join(values.faceapi, 'node_modules', '@vladmandic', 'face-api', 'model'));

const PEOPLE = [
  { name: 'astronaut', file: '/usr/lib/python3/dist-packages/skimage/data/astronaut.png' },
  { name: 'cameraman', file: '/usr/lib/python3/dist-packages/skimage/data/camera.png' },
  { name: 'grace_hopper', file: '/usr/share/matplotlib/mpl-data/sample_data/grace_hopper.jpg' },
];
const VARIATIONS: Array<{ name: string; scale: number; flip?: boolean; jpeg?: number; light?: number; dx?: number }> = [
  { name: 'as is', scale: 1 },
  { name: 'mirror', scale: 1, flip: true },
  { name: 'jpeg 30', scale: 1, jpeg: 30 },
  { name: 'darker', scale: 1, light: 0.6 },
  { name: 'brighter', scale: 1, light: 1.4 },
  { name: 'larger', scale: 1.4 },
  { name: 'smaller, shifted', scale: 0.7, dx: 300 },
  { name: 'small', scale: 0.5, dx: 500 },
];

/** A photo variation pasted on grey into a 1280×720 frame. */
async function frameOf(file: string, v: (typeof VARIATIONS)[number]): Promise<RgbFrame> {
  let img = sharp(file).removeAlpha().toColourspace('srgb');
  img = img.resize({ height: Math.round(440 * v.scale) });
  if (v.flip) img = img.flop();
  if (v.light) img = img.modulate({ brightness: v.light });
  let buf = await img.png().toBuffer();
  if (v.jpeg) buf = await sharp(buf).jpeg({ quality: v.jpeg }).toBuffer();
  const { data, info } = await sharp({ create: { width: 1280, height: 720, channels: 3, background: { r: 128, g: 128, b: 128 } } })
    .composite([{ input: buf, left: 100 + (v.dx ?? 0), top: 40 }])
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`expected RGB, got ${info.channels} channels`);
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

/** The 150×150 chip face-api expects: vidx's 112 px alignment, zoomed out by dlib's 25 % margin. */
function chip(frame: RgbFrame, map: Affine): Float32Array {
  const s = (112 / 150) * 1.25;
  const t0 = 56 - 75 * s;
  const [a, b, c, d, e, f] = map;
  const scaled: Affine = [a * s, b * s, a * t0 + b * t0 + c, d * s, e * s, d * t0 + e * t0 + f];
  return warpToTensor(frame, scaled, 150, 150, 1, 0);
}

const faces: Array<{ person: string; variation: string; vector: number[] }> = [];
const missed: string[] = [];
for (const p of PEOPLE) {
  for (const v of VARIATIONS) {
    const frame = await frameOf(p.file, v);
    const found = (await detectFaces(frame)).sort((x, y) => y.width - x.width);
    if (found.length === 0) {
      missed.push(`${p.name} (${v.name})`);
      continue;
    }
    const raw = await faceapi.computeFaceDescriptor(tf.tensor3d(chip(frame, alignFace(found[0])), [150, 150, 3], 'float32'));
    const norm = Math.hypot(...raw);
    faces.push({ person: p.name, variation: v.name, vector: Array.from(raw, (x) => x / norm) });
  }
}

/**
 * vidx's grouping through a real store, one item per face (the way an index task stores an item's tracks), at
 * a same-person cosine; returns groups, groups that mix people, and extra groups of one person (splits).
 */
function group(samePerson: number): { groups: number; mixed: number; splits: number } {
  const dir = mkdtempSync(join(tmpdir(), 'vidx-face-groups-'));
  const store = openStore(join(dir, 'vidx.db'));
  try {
    const at = new Date().toISOString();
    const collectionPk = store.collections.insert({ collection_id: 'g', owner: 'bench', name: 'g', description: null, is_public: 0, created_at: at, updated_at: at }).pk;
    const byPerson = new Map<string, Set<string>>();
    faces.forEach((f, i) => {
      const item = store.items.insert({ cursor: `c${String(i).padStart(4, '0')}`, collection_pk: collectionPk, media_id: `f${i}`, type: 'image', title: null, src: null, thumbnail: null, duration: 0, additional_metadata: null, created_at: at, updated_at: at });
      const track = { start: 0, end: 1, box: { x: 0, y: 0, width: 0.1, height: 0.1 }, score: 1, thumbnail: null, vector: f.vector, personId: null };
      const [t] = store.db.transaction(() => storeFaceTracks(store.faces, collectionPk, item.pk, [track], [null], samePerson))();
      const id = t.personId ?? 'none';
      byPerson.set(id, (byPerson.get(id) ?? new Set()).add(f.person));
    });
    const groups = [...byPerson.values()];
    const splits = PEOPLE.map((p) => groups.filter((g) => g.has(p.name)).length).reduce((s, n) => s + Math.max(0, n - 1), 0);
    return { groups: groups.length, mixed: groups.filter((g) => g.size > 1).length, splits };
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const same: number[] = [];
const other: number[] = [];
for (let i = 0; i < faces.length; i++) for (let j = i + 1; j < faces.length; j++) (faces[i].person === faces[j].person ? same : other).push(cosine(faces[i].vector, faces[j].vector));
same.sort((a, b) => a - b);
const r3 = (x: number) => Math.round(x * 1000) / 1000;
const otherMax = Math.max(...other);
// The threshold this network would need: midway between the closest other person and the farthest same one.
const fitted = r3((otherMax + same[0]) / 2);
const atDefault = group(DEFAULT_SAME_PERSON);
const atFitted = group(fitted);
const result = {
  bench: 'face-groups',
  model: 'face-api 128-D (dlib ResNet, MIT), TF.js wasm',
  people: PEOPLE.length,
  faces: faces.length,
  missed,
  sameMin: r3(same[0]),
  sameP5: r3(same[Math.floor(same.length * 0.05)]),
  otherMax: r3(otherMax),
  atDefault: { samePerson: DEFAULT_SAME_PERSON, ...atDefault },
  atFitted: { samePerson: fitted, ...atFitted },
};
console.log(`${faces.length} faces of ${PEOPLE.length} people; same person cosine min ${result.sameMin} (5th percentile ${result.sameP5}), other people max ${result.otherMax}`);
console.log(`vidx's default ${DEFAULT_SAME_PERSON}: ${atDefault.groups} groups, ${atDefault.mixed} mixed, ${atDefault.splits} splits; at ${fitted}: ${atFitted.groups} groups, ${atFitted.mixed} mixed, ${atFitted.splits} splits`);
console.log(JSON.stringify(result));
