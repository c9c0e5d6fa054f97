import type { FileAccess } from '../media/index.js';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { analysisKey, type AnalysisInputs } from './fingerprint.js';
import type { StoredAnalysis } from './schema.js';
import type { EpisodeVector, MediaAnalysis } from './types.js';

/** Bump when the pipeline's output changes so old cached analyses are not reused. */
export const PIPELINE_VERSION = 11;

export type { StoredAnalysis } from './schema.js';

type StoredVectors = StoredAnalysis['passageVectors'];

function packVectors(v: MediaAnalysis['passageVectors']): StoredVectors {
  return v && { ...v, items: v.items.map((i) => ({ ...i, vector: Buffer.from(i.vector.buffer, i.vector.byteOffset, i.vector.byteLength).toString('base64') })) };
}

/**
 * One stored vector with its float32 values again.
 * @example
 * unpackVector({ episodeIndex: 0, time: 1, vector: 'AACAPw==' }).vector; // Float32Array [1]
 */
export function unpackVector(i: NonNullable<StoredVectors>['items'][number]): EpisodeVector {
  const b = Buffer.from(i.vector, 'base64');
  return { episodeIndex: i.episodeIndex, time: i.time, vector: new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)) };
}

function unpackVectors(v: StoredVectors): MediaAnalysis['passageVectors'] {
  return v && { ...v, items: v.items.map(unpackVector) };
}

/**
 * The JSON form of an analysis (vectors as base64).
 * @example
 * JSON.stringify(toStoredAnalysis(analysis));
 */
export function toStoredAnalysis(analysis: MediaAnalysis): StoredAnalysis {
  return { ...analysis, passageVectors: packVectors(analysis.passageVectors), frameVectors: packVectors(analysis.frameVectors) };
}

/**
 * An analysis again from its JSON form.
 * @example
 * const analysis = fromStoredAnalysis(JSON.parse(text));
 */
export function fromStoredAnalysis(raw: StoredAnalysis): MediaAnalysis {
  return { ...raw, passageVectors: unpackVectors(raw.passageVectors), frameVectors: unpackVectors(raw.frameVectors) };
}

/**
 * Finished analyses by their inputs (content, sidecar subtitles, language, models, title, metadata), so /analyze and /index of the same file (or a retry) do the
 * work once. Each entry is a folder `<dir>/<key>/` with analysis.json and the episode thumbnails.
 * @example
 * const key = await cache.key(inputs, tools.files);
 * const dir = cache.folder(key); // thumbnails go here
 * cache.save(key, analysis);
 * cache.load(key); // the same analysis
 */
export class AnalysisCache {
  constructor(
    private readonly dir: string,
    private readonly maxAgeDays = 7,
  ) {}

  /** The key of an analysis of these inputs with this pipeline version (see fingerprint.ts); sidecars are read through `files`. */
  key(inputs: AnalysisInputs, files: FileAccess): Promise<string> {
    return analysisKey(inputs, PIPELINE_VERSION, files);
  }

  folder(key: string): string {
    const f = join(this.dir, key);
    mkdirSync(f, { recursive: true });
    return f;
  }

  load(key: string): MediaAnalysis | null {
    const raw = this.readJson<StoredAnalysis>(key, 'analysis.json');
    return raw && fromStoredAnalysis(raw);
  }

  save(key: string, analysis: MediaAnalysis): void {
    this.writeJson(key, 'analysis.json', toStoredAnalysis(analysis));
  }

  /** A JSON file of the key's folder (a job's delivered analysis waits there), or null when missing or unreadable. */
  readJson<T>(key: string, name: string): T | null {
    try {
      return JSON.parse(readFileSync(join(this.dir, key, name), 'utf8')) as T;
    } catch {
      return null;
    }
  }

  /** Writes a JSON file into the key's folder, whole or not at all (a temp file renamed). */
  writeJson(key: string, name: string, value: unknown): void {
    const file = join(this.folder(key), name);
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(value));
    renameSync(tmp, file);
  }

  /** Drops entries older than the age limit; run at start. */
  prune(now = Date.now()): void {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return;
    }
    for (const name of names) {
      const path = join(this.dir, name);
      if (now - statSync(path).mtimeMs > this.maxAgeDays * 86_400_000) rmSync(path, { recursive: true, force: true });
    }
  }
}
