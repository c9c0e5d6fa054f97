/** The shapes of the relevance benchmark's judged set: media with known lines, queries with judged moments. */

/** A timed piece of text in a medium: a subtitle line or a slide on screen. Seconds. */
export interface TimedLine {
  start: number;
  end: number;
  text: string;
}

/**
 * One medium of the judged collection. `lines` become a sidecar .srt; `slides` are drawn on the picture
 * (found only through on-screen text recognition). Every item has one or the other.
 * @example
 * const m: MediaSpec = { id: 'beach', title: 'Summer holiday at the sea', language: 'en', durationSec: 20, lines: [], slides: [] };
 */
export interface MediaSpec {
  /** media_id in the collection, also the file name (`<id>.mp4`). */
  id: string;
  title: string;
  language: 'en' | 'de';
  durationSec: number;
  lines: TimedLine[];
  slides: TimedLine[];
}

/** Graded relevance: 2 = the meant moment, 1 = an acceptable one. */
export type Grade = 1 | 2;

/**
 * A judged moment: a result counts as this moment when its media_id is `media_id` and its start_time
 * lies in [start − 0.5, end].
 * @example
 * const j: JudgedMoment = { media_id: 'apple-cake', start: 5.5, end: 9.5, grade: 2, text: 'Today we bake …' };
 */
export interface JudgedMoment {
  media_id: string;
  start: number;
  end: number;
  grade: Grade;
  /** The judged line, for the table and the misses. */
  text: string;
}

/** What a query tests; each query has one, and the figures are also given per kind. */
export type QueryKind =
  | 'titles'
  | 'phrase'
  | 'multi-word'
  | 'stems-en'
  | 'stems-de'
  | 'compounds'
  | 'typos'
  | 'slides'
  | 'lecture'
  | 'plain'
  | 'no-answer';

/**
 * A query and the moments a person would expect for it; no moments for a no-answer query.
 * @example
 * const q: JudgedQuery = { query: 'regnet', kind: 'stems-de', language: 'de', moments: [] };
 */
export interface JudgedQuery {
  query: string;
  kind: QueryKind;
  language: 'en' | 'de';
  moments: JudgedMoment[];
}
