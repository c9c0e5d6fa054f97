/**
 * What crosses between the server and its workers: a job's identity and the data BullMQ keeps for it, the
 * answer to a worker that starts one, and an analysis as a worker delivers it (JSON, its thumbnails and
 * face crops as files named beside it). Plain data, shared by the server's side and `vidx worker`.
 */
import { basename } from 'node:path';
import { fromStoredAnalysis, toStoredAnalysis, unpackVector, type StoredAnalysis } from '../../analysis/cache.js';
import type { TimeSlices } from '../../tools/time-slices.js';
import type { AnalysisJob } from '../analysis/runner.js';
import type { EpisodeAnalysis, MediaAnalysis } from '../../analysis/types.js';
import type { ModelSet } from '../../ml/model-set.js';
import { fromWire, toWire, type WireError } from '../threads/protocol.js';

/** What BullMQ keeps of a job: whose it is and what the server expects of the worker. */
export interface JobData {
  task: string;
  /** The analysis cache key of the job's inputs. */
  key: string;
  kind: AnalysisJob['kind'];
  /** The model set the server analyses with: a worker whose set differs fails the job and says why. */
  models: ModelSet;
}

/** The pipeline input a worker gets besides the media: what the caller said about it. */
export interface JobInputFields {
  title: string | null;
  metadata: Record<string, unknown> | null;
  language: 'en' | 'de' | null;
  faces: boolean;
  /** Make voiceprints (the collection groups voices); absent from older servers: off. */
  voices?: boolean;
}

/** A file of a job: the media first, then the subtitle files beside it; `path` on the server, never sent. */
export interface JobFile {
  name: string;
  size: number;
  path: string;
}

/** A job a worker cannot start: not yet (try again soon), or never (drop it). */
export type JobNotReady = { status: 'wait'; reason: string } | { status: 'gone'; reason: string };

/** The answer to a worker that starts a job: go (with what to read), try again soon, or drop it. */
export type JobStart = { status: 'ready'; kind: AnalysisJob['kind']; input: JobInputFields; path_source: boolean; files: JobFile[] } | JobNotReady;

/** The answer to a delivery: committed now, already committed before, try again soon, or nobody wants it any more. */
export type DeliveryAnswer = { status: 'committed' | 'duplicate' | 'wait' | 'gone'; reason?: string };

/** The header a worker names itself in, where its request's body (a delivery) is read only after the checks. */
export const WORKER_HEADER = 'x-vidx-worker';

/** The names a delivered file may have: the pipeline's episode thumbnails, pictures and face crops. */
export const DELIVERED_FILE = /^(ep|pic|face)-\d{1,5}\.jpg$/;

const TASK_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CACHE_KEY = /^[0-9a-z-]{1,120}$/;

/**
 * A job's id: its task and the cache key of its inputs. The same task analysing the same inputs (a retry, a
 * run after a restart) finds the same job in Redis, or its delivered result.
 * @example
 * jobIdOf('0193…-…', '3fa2…-auto-v3-81c0…'); // '0193…-…-3fa2…-auto-v3-81c0…'
 */
export function jobIdOf(task: string, key: string): string {
  return `${task}-${key}`;
}

/**
 * The task and cache key of a job id, or null for anything that is not one.
 * @example
 * parseJobId(jobIdOf(task, key)); // { task, key }
 */
export function parseJobId(id: string): { task: string; key: string } | null {
  const task = id.slice(0, 36);
  const key = id.slice(37);
  return TASK_ID.test(task) && id[36] === '-' && CACHE_KEY.test(key) ? { task, key } : null;
}

/**
 * An analysis as a worker sends it: its JSON form with thumbnails and face crops by file name, and those names.
 * @example
 * const { analysis, files } = toWireAnalysis(await pool.run(name, input, { signal }));
 */
export function toWireAnalysis(analysis: MediaAnalysis): { analysis: StoredAnalysis; files: string[] } {
  const name = (p: string | null) => (p ? basename(p) : null);
  const episodes = analysis.episodes.map((e) => ({ ...e, thumbnail: name(e.thumbnail), ...pictures(e, name) }));
  const faces = analysis.faces ? analysis.faces.map((f) => ({ ...f, thumbnail: name(f.thumbnail) })) : analysis.faces;
  return { analysis: toStoredAnalysis({ ...analysis, episodes, faces }), files: [...new Set(namedFiles({ episodes, faces }))] };
}

/**
 * Every file an analysis names: its episodes' thumbnails and pictures, its face crops (a picture two
 * episodes show is named twice).
 * @example
 * namedFiles(stored); // ['ep-0.jpg', 'pic-0.jpg', 'face-0.jpg']
 */
export function namedFiles(analysis: Pick<MediaAnalysis, 'episodes' | 'faces'>): string[] {
  const names = [
    ...analysis.episodes.flatMap((e) => [e.thumbnail, ...(e.pictures ?? []).map((p) => p.thumbnail)]),
    ...(analysis.faces ?? []).map((f) => f.thumbnail),
  ];
  return names.filter((f): f is string => f !== null);
}

/** An episode's pictures with each file named anew; nothing for an episode without pictures. */
function pictures(e: EpisodeAnalysis, name: (p: string | null) => string | null): Pick<EpisodeAnalysis, 'pictures'> {
  return e.pictures ? { pictures: e.pictures.map((p) => ({ ...p, thumbnail: name(p.thumbnail) })) } : {};
}

/**
 * The analysis again with each file it names as a path in `folder`; a name that is not a delivered file
 * (`present`) becomes null, so nothing a worker says can point outside the folder.
 * @example
 * const analysis = fromWireAnalysis(wire, cache.folder(key), new Set(['ep-0.jpg']));
 */
export function fromWireAnalysis(wire: StoredAnalysis, folder: string, present: ReadonlySet<string>): MediaAnalysis {
  return withFiles(fromStoredAnalysis(wire), folder, present);
}

/**
 * {@link fromWireAnalysis} in slices that let requests in: a delivery may hold a hundred thousand vectors,
 * each decoded from base64.
 * @example
 * const analysis = await fromWireAnalysisInSlices(wire, folder, present, new TimeSlices());
 */
export async function fromWireAnalysisInSlices(wire: StoredAnalysis, folder: string, present: ReadonlySet<string>, slices: TimeSlices): Promise<MediaAnalysis> {
  const unpack = async (v: StoredAnalysis['passageVectors']): Promise<MediaAnalysis['passageVectors']> => {
    if (!v) return null;
    const items = [];
    for (const i of v.items) {
      items.push(unpackVector(i));
      await slices.pause();
    }
    return { ...v, items };
  };
  const passageVectors = await unpack(wire.passageVectors);
  const frameVectors = await unpack(wire.frameVectors);
  return withFiles({ ...wire, passageVectors, frameVectors }, folder, present);
}

/** The analysis with each file it names as a path in `folder`, or null where that file was not delivered. */
function withFiles(analysis: MediaAnalysis, folder: string, present: ReadonlySet<string>): MediaAnalysis {
  const path = (name: string | null) => (name && DELIVERED_FILE.test(name) && present.has(name) ? `${folder}/${name}` : null);
  return {
    ...analysis,
    episodes: analysis.episodes.map((e) => ({ ...e, thumbnail: path(e.thumbnail), ...pictures(e, path) })),
    faces: analysis.faces ? analysis.faces.map((f) => ({ ...f, thumbnail: path(f.thumbnail) })) : analysis.faces,
  };
}

/**
 * What a worker's failed job says, for BullMQ's `failedReason`: the error as JSON (its class and code
 * survive, so a task fails with `not_media` as it would here).
 * @example
 * throw new UnrecoverableError(failureReason(new MediaError('not_media', 'x.txt is not a media file')));
 */
export function failureReason(err: unknown): string {
  return JSON.stringify(toWire(err));
}

/**
 * The error again from a job's `failedReason` (JSON from {@link failureReason}, or BullMQ's own words).
 * @example
 * jobFailure(job.failedReason) instanceof MediaError; // true for a file that is not media
 */
export function jobFailure(reason: string | undefined): Error {
  try {
    const wire = JSON.parse(reason ?? '') as Partial<WireError>;
    if (typeof wire.name === 'string' && typeof wire.message === 'string') return fromWire(wire as WireError);
  } catch {
    // Not ours: BullMQ's (a job that stalled too often) or a worker of another version.
  }
  return new Error(`the analysis job failed on its worker: ${reason ?? 'no reason given'}`);
}
