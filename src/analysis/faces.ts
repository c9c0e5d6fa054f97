/**
 * The face stage of the analysis: finds faces on the frames the visual pass decodes, embeds those big enough
 * (when the face embedder is pulled), links them into one track per person per shot and writes a crop of
 * each track's best sighting. Grouping tracks into people happens when an item is stored in a collection.
 */
import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import type { VideoFrame } from '../media/index.js';
import { detectFaces } from '../ml/face/detect.js';
import { DEFAULT_MODEL_SETUP, type ModelSetup } from '../ml/assets.js';
import { MIN_EMBED_SIZE, type FaceEmbedder } from '../ml/face/embed.js';
import type { FaceDetection } from '../ml/face/types.js';
import type { ModelRuntime } from '../ml/runtime.js';
import { extraFaceTimes } from './face-sampling.js';
import { linkTracks, type FaceSighting, type UnitBox } from './face-tracks.js';
import { type AnalysisWarning, warning } from './warnings.js';

/** One person in one shot, as the analysis keeps it. */
export interface FaceTrack {
  start: number;
  end: number;
  /** Where the face is on its best frame, as fractions of the frame. */
  box: UnitBox;
  score: number;
  /** JPEG crop of the best sighting: a path relative to the data dir once stored, absolute while only analysed. */
  thumbnail: string | null;
  /** Unit face vector (mean over the track), null without the embedder or for faces under 40 px. */
  vector: number[] | null;
  /** The person this track belongs to in its collection; null until stored (or without a vector). */
  personId: string | null;
}

/** A face crop with some room around it, at most 160 px wide, as JPEG. */
async function cropJpeg(frame: VideoFrame, d: FaceDetection): Promise<Buffer> {
  const m = 0.3 * Math.max(d.width, d.height);
  const left = Math.max(0, Math.floor(d.x - m));
  const top = Math.max(0, Math.floor(d.y - m));
  const width = Math.max(1, Math.min(frame.width - left, Math.ceil(d.width + 2 * m)));
  const height = Math.max(1, Math.min(frame.height - top, Math.ceil(d.height + 2 * m)));
  return sharp(frame.data, { raw: { width: frame.width, height: frame.height, channels: 3 } })
    .extract({ left, top, width, height })
    .resize({ width: Math.min(160, width), withoutEnlargement: true })
    .jpeg({ quality: 85 })
    .toBuffer();
}

/**
 * Collects faces frame by frame, then returns the tracks.
 * @example
 * const scan = await startFaceScan(models);
 * for await (const f of frames) await scan.add(f);
 * const tracks = await scan.finish(cuts, duration, thumbnailDir, (times) => extractFrames(file, times));
 */
export class FaceScan {
  private readonly frames: Array<{ time: number; faces: FaceSighting[] }> = [];
  private readonly crops: Buffer[] = [];

  constructor(
    private readonly embedder: FaceEmbedder | null,
    readonly warnings: AnalysisWarning[],
    private readonly setup: ModelSetup = DEFAULT_MODEL_SETUP,
  ) {}

  /** The embedder's same-person cosine, for grouping these tracks; null without an embedder. */
  get samePerson(): number | null {
    return this.embedder?.samePerson ?? null;
  }

  async add(frame: VideoFrame): Promise<void> {
    const found = await detectFaces(frame, { setup: this.setup });
    const big = found.filter((d) => d.width >= MIN_EMBED_SIZE);
    const vectors = this.embedder && big.length ? await this.embedder.embed(frame, big) : [];
    const faces: FaceSighting[] = [];
    for (const d of found) {
      const i = big.indexOf(d);
      faces.push({
        time: frame.time,
        box: { x: d.x / frame.width, y: d.y / frame.height, width: d.width / frame.width, height: d.height / frame.height },
        score: d.score,
        vector: i >= 0 && vectors[i] ? Array.from(vectors[i]) : null,
        pixels: d.width,
        ref: this.crops.length,
      });
      this.crops.push(await cropJpeg(frame, d));
    }
    this.frames.push({ time: frame.time, faces });
  }

  /**
   * Looks again inside the shots with faces (`decode` gives the frames at the times asked; see
   * face-sampling.ts), then links the sightings into tracks and writes each track's crop.
   */
  async finish(cuts: number[], duration: number, thumbnailDir: string, decode?: (times: number[]) => AsyncIterable<VideoFrame>): Promise<FaceTrack[]> {
    const extra = decode ? extraFaceTimes(this.frames.map((f) => ({ time: f.time, faces: f.faces.length })), cuts, duration) : [];
    if (decode && extra.length > 0) for await (const frame of decode(extra)) await this.add(frame);
    const tracks = linkTracks(this.frames, cuts, duration);
    const out: FaceTrack[] = [];
    for (const [i, t] of tracks.entries()) {
      const thumbnail = join(thumbnailDir, `face-${i}.jpg`);
      await writeFile(thumbnail, this.crops[t.best.ref]);
      const round = (x: number) => Math.round(x * 10_000) / 10_000;
      const box = { x: round(Math.max(0, t.best.box.x)), y: round(Math.max(0, t.best.box.y)), width: round(t.best.box.width), height: round(t.best.box.height) };
      out.push({ start: t.start, end: t.end, box, score: round(Math.max(...t.sightings.map((s) => s.score))), thumbnail, vector: t.vector, personId: null });
    }
    return out;
  }
}

/**
 * A face scan with the embedder if it is pulled; without it faces are found but cannot be grouped, and the
 * warnings say so.
 * @example
 * const scan = await startFaceScan(models); scan.warnings; // ['faces found but not grouped into people: …']
 */
export async function startFaceScan(models: ModelRuntime): Promise<FaceScan> {
  const embedder = await models.faceEmbedder();
  const warnings = embedder ? [] : [warning('analysis_faces_not_grouped', { reason: models.pulled('face_embedding').reason ?? 'not installed' })];
  return new FaceScan(embedder, warnings, models.setup);
}
