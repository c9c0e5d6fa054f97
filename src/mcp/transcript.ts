/**
 * An indexed item's stored analysis and its transcript as timed lines, read through
 * GET /collections/{collection_id}/items/{media_id}/analysis (the API has no transcript endpoint of its own:
 * the transcript is the episodes' segments).
 */
import { clock } from '../tools/clock.js';
import type { Schemas } from '../client/index.js';
import type { VidxApi } from './api.js';
import { itemParams } from './tools/fields.js';

/** A timed piece of text. */
export interface Timed {
  start: number;
  end: number;
  text: string;
}

/** The analysis answer (ItemAnalysis in the OpenAPI document). */
export type ItemAnalysis = Schemas['ItemAnalysis'];

/**
 * Reads the stored analysis of an item (404 when the key may not see it, or has no lines in `language`).
 * With `language`, the episodes' lines are that subtitle language's instead of the transcript's.
 * @example
 * const a = await readAnalysis(api, 'trips', 'lake');
 * const de = await readAnalysis(api, 'trips', 'lake', false, 'de');
 */
export async function readAnalysis(api: VidxApi, collectionId: string, media: string, isPublic = false, language?: string): Promise<ItemAnalysis> {
  return api.GET('/collections/{collection_id}/items/{media_id}/analysis', { params: { ...itemParams(collectionId, media), query: { is_public: isPublic || undefined, language } } });
}

/**
 * The transcript segments of all episodes in time order, each once (items indexed before each line had
 * one episode list a line at a boundary in both).
 * @example
 * transcriptOf(analysis).map((s) => s.text).join(' ');
 */
export function transcriptOf(a: ItemAnalysis): Timed[] {
  const seen = new Set<string>();
  const out: Timed[] = [];
  for (const e of a.episodes) {
    for (const s of e.audio) {
      const key = `${s.start}|${s.end}|${s.text}`;
      if (!seen.has(key)) out.push(s);
      seen.add(key);
    }
  }
  return out.sort((x, y) => x.start - y.start || x.end - y.end);
}

/**
 * One line per segment, `[m:ss–m:ss] text`.
 * @example
 * timedLine({ start: 52.5, end: 58, text: 'The penalty.' }); // '[0:52–0:58] The penalty.'
 */
export function timedLine(s: Timed): string {
  return `[${clock(s.start)}–${clock(s.end)}] ${s.text}`;
}

/** A window of the transcript and where the next one starts. */
export interface TranscriptPage {
  lines: string[];
  /** Seconds to pass as `from_seconds` for the rest; null when nothing is left. */
  next: number | null;
  total: number;
}

/**
 * The segments overlapping [from, to), as lines, cut before `maxChars` characters (at least one line).
 * @example
 * const page = transcriptPage(segments, { from: 60, to: 120, maxChars: 8000 });
 */
export function transcriptPage(segments: Timed[], opts: { from?: number; to?: number; maxChars: number }): TranscriptPage {
  const from = opts.from ?? 0;
  const to = opts.to ?? Infinity;
  const inside = segments.filter((s) => s.end > from && s.start < to);
  const lines: string[] = [];
  let used = 0;
  for (const s of inside) {
    const line = timedLine(s);
    if (lines.length > 0 && used + line.length + 1 > opts.maxChars) return { lines, next: s.start, total: inside.length };
    lines.push(line);
    used += line.length + 1;
  }
  return { lines, next: null, total: inside.length };
}
