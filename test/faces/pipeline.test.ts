import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixtureModels } from '../../scripts/make-fixture-models.js';
import { ModelRuntime } from '../../src/ml/runtime.js';
import { analyzeFile } from '../../src/analysis/pipeline.js';
import { linkTracks, type FaceSighting } from '../../src/analysis/face-tracks.js';
import { makeShotsVideo } from './videos.js';
import { type AnalysisWarning, sayWarning } from '../../src/analysis/warnings.js';

/** An analysis's (keyed) warnings in English words, as a task result shows them. */
const said = (warnings: AnalysisWarning[]) => warnings.map((w) => sayWarning(w, 'en')).join(' ');

let tmp: string;
let manifestPath: string;
let video: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(process.cwd(), 'test', '.tmp', 'faces-pipeline-'));
  manifestPath = (await makeFixtureModels(join(tmp, 'hub'))).manifestPath;
  video = await makeShotsVideo(tmp, 'two-shots.mp4', [
    { file: 'astronaut.png', scale: 0.9, x0: 100, x1: 300, y: 120, seconds: 6 },
    { file: 'camera.png', scale: 1, x0: 600, x1: 500, y: 100, seconds: 6 },
  ]);
}, 60_000);

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const sighting = (time: number, x: number, vector: number[] | null = null, ref = 0): FaceSighting => ({ time, box: { x, y: 0.2, width: 0.1, height: 0.15 }, score: 0.9, vector, pixels: 100, ref });

describe('face tracks', () => {
  it('joins a face that moves a little between frames of a shot, and never across a cut', () => {
    const tracks = linkTracks(
      [
        { time: 1, faces: [sighting(1, 0.2)] },
        { time: 5, faces: [sighting(5, 0.27)] },
        { time: 7, faces: [sighting(7, 0.27)] },
      ],
      [6],
      10,
    );
    expect(tracks.map((t) => [t.start, t.end, t.sightings.length])).toEqual([[0, 6, 2], [6, 10, 1]]);
  });

  it('tells two faces of one frame apart by their vectors, wherever they move', () => {
    const a = [1, 0];
    const b = [0, 1];
    const tracks = linkTracks(
      [
        { time: 1, faces: [sighting(1, 0.1, a), sighting(1, 0.6, b)] },
        // They swapped places: vectors, not places, decide.
        { time: 5, faces: [sighting(5, 0.1, b), sighting(5, 0.6, a)] },
      ],
      [],
      8,
    );
    expect(tracks).toHaveLength(2);
    for (const t of tracks) expect(new Set(t.sightings.map((s) => s.vector![0]))).toHaveProperty('size', 1);
  });
});

describe('the faces stage in the analysis pipeline', () => {
  it('without the face embedder: finds the faces per shot with boxes and crops, ungrouped, and says so', async () => {
    const models = new ModelRuntime({ modelsDir: join(tmp, 'no-models'), manifestPath });
    const thumbnailDir = join(tmp, 'thumbs');
    mkdirSync(thumbnailDir);
    const a = await analyzeFile(
      { file: video, sourcePath: null, title: null, metadata: null, language: 'en', thumbnailDir, faces: true },
      { models, signal: new AbortController().signal, progress: () => {} },
    );
    expect(said(a.warnings)).toMatch(/faces found but not grouped into people: the face embedding model is missing: run `vidx models pull tiny-sface`/);
    expect(a.faces).toHaveLength(2);
    expect(a.facesSamePerson).toBeNull();
    const [astronaut, camera] = a.faces!;
    expect(astronaut.start).toBe(0);
    // From the cut at 6 s if the shot detector saw it, else from the first keyframe showing the cameraman.
    expect(camera.start).toBeGreaterThanOrEqual(5.5);
    expect(astronaut.end).toBeCloseTo(camera.start, 1);
    for (const f of a.faces!) {
      expect(f.personId).toBeNull();
      expect(f.vector).toBeNull();
      expect(f.box.width).toBeGreaterThan(0.03);
      expect(f.box.x + f.box.width).toBeLessThanOrEqual(1);
      expect(existsSync(f.thumbnail!)).toBe(true);
    }
    // The astronaut slides right through the shot: one track, not one per frame.
    expect(astronaut.box.x).toBeGreaterThan(0.1);
  }, 120_000);

  it('does not look for faces unless asked', async () => {
    const models = new ModelRuntime({ modelsDir: join(tmp, 'no-models'), manifestPath });
    const thumbnailDir = join(tmp, 'thumbs-off');
    mkdirSync(thumbnailDir);
    const a = await analyzeFile({ file: video, sourcePath: null, title: null, metadata: null, language: 'en', thumbnailDir }, { models, signal: new AbortController().signal, progress: () => {} });
    expect(a.faces).toBeNull();
    expect(said(a.warnings)).not.toMatch(/faces/);
  }, 120_000);
});
