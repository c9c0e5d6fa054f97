import { describe, expect, it } from 'vitest';
import { blendOverlaps, decodeHeads, iou, type RawHeads } from '../../src/ml/face/decode.js';
import { detectFaces } from '../../src/ml/face/detect.js';
import { frameViews } from '../../src/ml/face/views.js';
import { collage, FACE_PHOTOS, NO_FACE_PHOTOS, photoFrame } from './face-photos.js';

function heads(): RawHeads {
  return [
    { scores: new Float32Array(512).fill(-10), boxes: new Float32Array(512 * 16) },
    { scores: new Float32Array(384).fill(-10), boxes: new Float32Array(384 * 16) },
  ];
}

describe('BlazeFace decoding', () => {
  it('places a box on its anchor cell, offsets in input pixels, and drops scores under the threshold', () => {
    const raw = heads();
    // Second layer (8×8, 6 per cell): cell (x=2, y=5), anchor 1; centre offset +16 px right, size 64 px.
    const idx = (5 * 8 + 2) * 6 + 1;
    raw[1].scores[idx] = 4;
    raw[1].boxes.set([16, 0, 64, 64, 0, 0], idx * 16);
    raw[0].scores[3] = 0.1; // sigmoid ≈ 0.52: under 0.9
    const [d, ...rest] = decodeHeads(raw, 256, 0.9);
    expect(rest).toHaveLength(0);
    expect(d.x + d.width / 2).toBeCloseTo(2.5 / 8 + 16 / 256, 6);
    expect(d.y + d.height / 2).toBeCloseTo(5.5 / 8, 6);
    expect(d.width).toBeCloseTo(0.25, 6);
    expect(d.score).toBeCloseTo(1 / (1 + Math.exp(-4)), 6);
    expect(d.keypoints[0]).toEqual([2.5 / 8, 5.5 / 8]);
  });

  it('blends overlapping detections into one, weighted by score, keeping the best score', () => {
    const kp = Array.from({ length: 6 }, () => [0, 0] as [number, number]);
    const out = blendOverlaps([
      { x: 0, y: 0, width: 10, height: 10, score: 0.9, keypoints: kp },
      { x: 2, y: 0, width: 10, height: 10, score: 0.6, keypoints: kp },
      { x: 50, y: 50, width: 10, height: 10, score: 0.7, keypoints: kp },
    ]);
    expect(out).toHaveLength(2);
    expect(out[0].score).toBe(0.9);
    expect(out[0].x).toBeCloseTo((0 * 0.9 + 2 * 0.6) / 1.5, 6);
    expect(iou(out[1], { x: 50, y: 50, width: 10, height: 10 })).toBe(1);
  });

  it('reads a wide frame whole and in overlapping squares that cover it', () => {
    const views = frameViews(1280, 720);
    expect(views[0]).toMatchObject({ size: 1280, y: -280 });
    const squares = views.slice(1);
    expect(squares.every((v) => v.size === 720)).toBe(true);
    expect(Math.min(...squares.map((v) => v.x))).toBe(0);
    expect(Math.max(...squares.map((v) => v.x + v.size))).toBe(1280);
  });
});

describe('face detection on the shipped BlazeFace model', () => {
  it.each(FACE_PHOTOS)('finds the one face in $file', async ({ file, face }) => {
    const found = await detectFaces(await photoFrame(file));
    expect(found).toHaveLength(1);
    expect(iou(found[0], face)).toBeGreaterThan(0.5);
    // The eyes sit in the upper half of the box, the subject's right eye left of the left one.
    const [right, left] = found[0].keypoints;
    expect(right[0]).toBeLessThan(left[0]);
    expect(right[1]).toBeLessThan(found[0].y + found[0].height / 2);
  });

  it.each(NO_FACE_PHOTOS)('finds no face in %s', async (file) => {
    expect(await detectFaces(await photoFrame(file))).toEqual([]);
  });

  it('finds two people of about 50 px in a 1280×720 frame, beside a cat', async () => {
    const frame = await collage([
      { file: 'astronaut.png', scale: 0.5, left: 40, top: 300 },
      { file: 'chelsea.png', scale: 0.8, left: 420, top: 100 },
      { file: 'camera.png', scale: 0.7, left: 860, top: 200 },
    ]);
    const found = await detectFaces(frame);
    expect(found).toHaveLength(2);
    const [a, b] = [...found].sort((p, q) => p.x - q.x);
    expect(iou(a, { x: 40 + 85, y: 300 + 35, width: 52, height: 55 })).toBeGreaterThan(0.4);
    expect(iou(b, { x: 860 + 130, y: 200 + 84, width: 52, height: 52 })).toBeGreaterThan(0.4);
  });
});
