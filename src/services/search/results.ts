/**
 * Shaping matched episodes into SPEC 2.7 result objects: the moment to start at, a snippet, signed links.
 */
import { LRUMap } from 'mnemonist';
import type { EpisodeRow, EpisodeWithItem, SegmentRow } from '../../store/search-index.js';
import { pictureAt } from '../../analysis/pictures.js';
import type { TimedPicture } from '../../analysis/types.js';
import type { SubtitleLineRow } from '../../store/subtitle-lines.js';
import { describeVisual, stripPresentation } from '../../analysis/phrases.js';
import type { FileLinks } from '../file-links.js';
import type { Place } from '../places.js';
import { metadataText } from '../../tools/normalise.js';
import { bestMoment, compareMatches, scoreLine, snippet, type LineMatch, type MatchTerm, type TimedCandidate } from './moments.js';
import { FINAL_ORDER } from './ranking-knobs.js';

/** One search result (SPEC 2.7). */
export interface SearchResult {
  /** The transcript segments of the episode. */
  audio: { start: number; end: number; text: string }[];
  /** The visual entries of the episode. */
  computer_vision: { start: number; end: number; summary: string }[];
  /** Why it matched: the best matching passage, else the episode summary. */
  content: string;
  /** The episode's index within its media. */
  episode_id: number;
  /** Signed thumbnail URL of the picture on screen at `start_time` (else the episode's); empty when the media has no picture. */
  image_url: string;
  media_id: string;
  /** 0..1, higher is better, comparable within one response. */
  score: number;
  /** The source URL, else a signed link to the stored media file, with `#t=<start_time>`; empty when neither exists. */
  src: string;
  /** Seconds: where the best matching segment starts, else the matching frame, else the episode start. */
  start_time: number;
  /** vidx extra: the item's type (video, audio or image). */
  media_type: 'video' | 'audio' | 'image';
  /** vidx extra: the item's title. */
  title: string | null;
  /** vidx extra: the item's date (ISO 8601), null when unknown; `captured_at_source` says what kind of date. */
  captured_at: string | null;
  /** vidx extra: `metadata` (a recording date the file states) or `file` (only a file-system date). */
  captured_at_source: 'metadata' | 'filename' | 'file' | null;
  /** vidx extra: where the item was recorded (city, district, region, country), null without GPS. */
  place: Place | null;
  /** vidx extra: the people seen in the episode, when the collection has faces on. */
  people?: { person_id: string; name: string | null }[];
  /** vidx extra: who says the line at `start_time`, when the collection groups voices. */
  speaker?: { person_id: string; name: string | null };
  /** vidx extra: the same moment in other copies of this video or photo (duplicates), where they matched too. */
  copies?: { media_id: string; title: string | null; start_time: number }[];
}

/** What the search knows about a matched episode besides its rows. */
export interface Match {
  score: number;
  /** Time of the best matching frame vector, when a frame space found the episode. */
  frameTime: number | null;
}

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

/**
 * A URL with a media fragment `#t=<seconds>` (an existing fragment is replaced).
 * @example
 * withTime('https://example.org/a.mp4', 12.5); // 'https://example.org/a.mp4#t=12.5'
 */
export function withTime(url: string, seconds: number): string {
  const base = url.split('#')[0];
  return `${base}#t=${round(seconds, 3)}`;
}

/** A stored visual entry's parts: its description (null when vidx wrote it from lines and tags), lines, tags. */
interface VisualParts {
  readonly own: string | null;
  readonly lines: readonly string[];
  readonly tags: readonly string[];
}

/**
 * Visual entries' parts by their stored columns. Every search reads the visual entries of a few dozen
 * candidate episodes, and telling vidx's own sentences apart (both languages written out again) and
 * stripping labels was about a twentieth of a small collection's search (a CPU profile of searches over
 * HTTP). A key holds the entry's on-screen lines, which can run to a slide's worth: 5,000 of them stay
 * within ~10 MB and hold the visual entries of the last hundred or so searches.
 */
const VISUAL_PARTS = new LRUMap<string, VisualParts>(5_000);

function visualParts(s: SegmentRow): VisualParts {
  const key = `${s.text}\u0000${s.ocr ?? ''}\u0000${s.tags ?? ''}`;
  let parts = VISUAL_PARTS.get(key);
  if (parts) return parts;
  const lines = s.ocr ? (JSON.parse(s.ocr) as string[]) : [];
  const tags = s.tags ? (JSON.parse(s.tags) as string[]) : [];
  const written = s.text === describeVisual(lines, tags, 'en') || s.text === describeVisual(lines, tags, 'de');
  parts = Object.freeze({ own: written ? null : stripPresentation(s.text), lines, tags });
  VISUAL_PARTS.set(key, parts);
  return parts;
}

/**
 * The text a visual entry is matched on and quoted from: content only, never "On screen:". A sentence
 * vidx wrote from the on-screen lines and tags (phrases.ts) gives way to those lines and tags; another
 * description (a captioner's) comes first, then the lines and tags it does not already name.
 */
function visualText(s: SegmentRow): string {
  const { own, lines, tags } = visualParts(s);
  const text = own ?? '';
  const extra = [lines.join(' / '), ...tags].filter((x) => x && !text.includes(x));
  return [text, ...extra].filter(Boolean).join(' · ');
}

/** A visual entry's `summary` in a result: its own description without labels, else its lines and tags. */
function visualSummary(s: SegmentRow): string {
  const { own, lines, tags } = visualParts(s);
  return own ?? [lines.join(' / '), tags.join(', ')].filter(Boolean).join(' · ');
}

/** The lines of an episode a query is matched against: transcript segments, visual entries, on-screen text, other subtitle tracks. */
export interface EpisodeLines {
  all: TimedCandidate[];
  /** The transcript segments in order: a sentence may run over two of them. */
  audio: TimedCandidate[];
  /** The lines of each other subtitle track (one list per language, in order): matched like the transcript's. */
  tracks: TimedCandidate[][];
}

/**
 * An episode's lines to match, from its stored segments and its lines of other subtitle tracks.
 * @example
 * const lines = episodeLines(segments, others); // { all: [...], audio: [...], tracks: [[...]] }
 */
export function episodeLines(segments: SegmentRow[], others: readonly SubtitleLineRow[] = []): EpisodeLines {
  const audio = segments.filter((s) => s.kind === 'audio').map((s) => ({ start: s.start, text: s.text }));
  const tracks = new Map<string, TimedCandidate[]>();
  for (const o of others) tracks.set(o.language, [...(tracks.get(o.language) ?? []), { start: o.start, text: o.text }]);
  return {
    all: [
      ...audio,
      ...segments.filter((s) => s.kind === 'visual').map((s) => ({ start: s.start, text: visualText(s) })),
      ...segments.filter((s) => s.kind === 'screen').map((s) => ({ start: s.start, text: s.text })),
    ],
    audio,
    tracks: [...tracks.values()],
  };
}

/** The line of an episode that says the query best, or null (found by vectors, the title or metadata). */
export type BestLine = { candidate: TimedCandidate; match: LineMatch } | null;

/**
 * The line of an episode that says the query best.
 * @example
 * bestLine(episodeLines(segments), terms, phrases)?.candidate.start; // 12.5
 */
export function bestLine(lines: EpisodeLines, terms: MatchTerm[], phrases: string[][]): BestLine {
  let best: BestLine = bestMoment(lines.all, terms, phrases, lines.audio);
  // Each track's lines pair only with their own neighbours: a sentence runs on in its own language.
  for (const track of lines.tracks) {
    const got = bestMoment(track, terms, phrases, track);
    if (!got) continue;
    const order = best ? compareMatches(got.match, best.match) : -1;
    if (!best || order < 0 || (order === 0 && got.candidate.start < best.candidate.start)) best = got;
  }
  return best;
}

/**
 * A place in one line, each name once: "Kreuzberg, Berlin, Germany".
 * @example
 * placeText({ city: 'Lisbon', district: null, region: 'Lisbon', country: 'Portugal', country_code: 'PT' }); // 'Lisbon, Portugal'
 */
export function placeText(place: Place): string {
  return [...new Set([place.district, place.city, place.region, place.country].filter((n): n is string => !!n))].join(', ');
}

/**
 * What a result found only through its item says: the item's words that hold the query (its title, else
 * the place it was recorded at, else its metadata), then the item's first line, so a passage is never empty.
 * `placeLabel` is the place as the caller shows it (in the caller's language).
 * @example
 * itemWords(firstEpisode, segments, terms, 'Lissabon, Portugal'); // 'Lissabon, Portugal — The tram climbs the hill.'
 */
export function itemWords(e: EpisodeWithItem, segments: SegmentRow[], terms: MatchTerm[], placeLabel: string | null): string {
  const holds = (text: string | null | undefined) => !!text && scoreLine(text, terms).matched > 0;
  const metadata = e.item_metadata ? metadataText(JSON.parse(e.item_metadata)) : '';
  const named = holds(e.item_title) ? e.item_title : placeLabel && holds(e.place_words) ? placeLabel : holds(metadata) ? snippet(metadata, terms, 120) : e.item_title;
  const first = episodeLines(segments).all.sort((a, b) => a.start - b.start)[0]?.text ?? (stripPresentation(e.summary) || e.screen_text.split('\n')[0]);
  return [named, first ? snippet(first, terms, 160) : ''].filter(Boolean).join(' — ');
}

/**
 * The thumbnail of the picture on screen at `time` in an episode ({@link pictureAt}), or null for an episode
 * without pictures (audio, photos, items indexed before them), which shows its own thumbnail.
 */
function pictureShown(e: EpisodeRow, time: number): string | null {
  return e.pictures ? (pictureAt(JSON.parse(e.pictures) as TimedPicture[], time)?.thumbnail ?? null) : null;
}

/**
 * Builds the result object of one matched episode; `best` is its best line ({@link bestLine}). `said` is the
 * passage of a result found only through its item ({@link itemWords}), which opens at the episode's start.
 * @example
 * const r = shapeResult(episode, segments, { score: 0.93, frameTime: null }, best, terms, links);
 */
export function shapeResult(e: EpisodeWithItem, segments: SegmentRow[], match: Match, best: BestLine, terms: MatchTerm[], links: FileLinks, said?: string): SearchResult {
  // A line keeps its own start whichever episode found it (one that began just before this episode is
  // shared with the one before): the same line reports the same time for every query.
  const startTime = round(Math.max(0, best ? best.candidate.start : Math.min(Math.max(match.frameTime ?? e.start, e.start), e.end)), 3);
  const audio = aroundMoment(segments.filter((s) => s.kind === 'audio'), startTime);
  const visual = aroundMoment(segments.filter((s) => s.kind === 'visual'), startTime);
  const fallback = stripPresentation(e.summary) || audio.map((s) => s.text).join(' ') || e.screen_text.replace(/\n/g, ' / ');
  const content = best ? snippet(best.candidate.text, terms) : (said ?? snippet(fallback, terms));
  const thumb = pictureShown(e, startTime) ?? e.thumbnail ?? e.item_thumbnail;
  const image = thumb ? links.file(thumb) : null;
  const stored = e.stored_file ? links.file(e.stored_file) : null;
  const src = e.item_src ?? stored;
  return {
    audio: audio.map((s) => ({ start: s.start, end: s.end, text: s.text })),
    computer_vision: visual.map((s) => ({ start: s.start, end: s.end, summary: visualSummary(s) })),
    content,
    episode_id: e.idx,
    image_url: image ?? '',
    media_id: e.media_id,
    score: round(match.score, 4),
    src: src ? withTime(src, startTime) : '',
    start_time: startTime,
    media_type: e.item_type,
    title: e.item_title,
    captured_at: e.captured_at,
    captured_at_source: e.captured_at_source,
    place: e.place ? (JSON.parse(e.place) as Place) : null,
  };
}

/** Lines (transcript segments, visual entries) a result carries at most: the moment's, never a whole track (issue 43). */
export const MOMENT_LINES = 30;

/**
 * The lines of a moment: up to {@link MOMENT_LINES} of the episode's, from a few before the one `start`
 * falls in onwards (all of them when the episode holds no more).
 * @example
 * aroundMoment(segments, 52.5).length; // at most 30
 */
function aroundMoment(lines: SegmentRow[], start: number): SegmentRow[] {
  if (lines.length <= MOMENT_LINES) return lines;
  const sorted = [...lines].sort((a, b) => a.start - b.start);
  const found = sorted.findIndex((l) => l.end > start);
  const at = found < 0 ? sorted.length - 1 : found;
  const from = Math.max(0, Math.min(at - 3, sorted.length - MOMENT_LINES));
  return sorted.slice(from, from + MOMENT_LINES);
}

/** Content compared without case, spacing and punctuation: two hits that read the same are one. */
function sameText(a: string, b: string): boolean {
  const norm = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  return norm(a) === norm(b);
}

/**
 * One result per moment: a hit of a media whose start lies within FINAL_ORDER.sameMomentSeconds of a
 * better-ranked hit of the same media is dropped (two neighbouring episodes matching at their shared
 * boundary are one place to watch), and so is a hit whose `content` reads the same as a better-ranked hit
 * of the same media (a still slide cut into two episodes shows one text twice). Order is kept.
 * @example
 * mergeMoments([{ media_id: 'a', start_time: 8, … }, { media_id: 'a', start_time: 7.25, … }]).length; // 1
 */
export function mergeMoments(results: SearchResult[]): SearchResult[] {
  const kept: SearchResult[] = [];
  for (const r of results) {
    const same = kept.some((k) => k.media_id === r.media_id && (Math.abs(k.start_time - r.start_time) < FINAL_ORDER.sameMomentSeconds || sameText(k.content, r.content)));
    if (same) continue;
    kept.push(r);
  }
  return kept;
}

/** Where a result's item stands among its copies: the kept copy's item, and the seconds to add to the result's time for the same moment in it. */
export interface CopyPlace {
  item: number;
  lead: number;
  offset: number;
}

/**
 * The stretch of its own time a result's moment covers: from its start to the end of the shortest line or
 * shot (transcript segment, visual entry) it starts in, else FINAL_ORDER.sameMomentSeconds.
 */
function momentSpan(r: SearchResult): [number, number] {
  let end = r.start_time + FINAL_ORDER.sameMomentSeconds;
  let shortest = Infinity;
  for (const s of [...r.audio, ...r.computer_vision]) {
    if (s.start > r.start_time + 0.05 || s.end <= r.start_time || s.end - s.start >= shortest) continue;
    shortest = s.end - s.start;
    end = s.end;
  }
  return [r.start_time, end];
}

/**
 * One result for a moment that several copies of one video share (a trim, a re-encode): the kept copy's
 * (the original) where it is among the results, else the best-ranked copy's, in the place of the best-ranked
 * of them, with the others in `copies`. Two hits are one moment when their stretches ({@link momentSpan}),
 * mapped onto the kept copy's time, overlap: a trim that starts inside a slide shows that slide from its own
 * second 0. `copies` names each other item once, at its best-ranked hit. Order is kept otherwise.
 * @example
 * mergeCopies([trimHit, reencodeHit, originalHit], (r) => places.get(r.media_id))[0].media_id; // the original's, with copies: [trim, reencode]
 */
export function mergeCopies(results: SearchResult[], placeOf: (r: SearchResult) => CopyPlace | undefined): SearchResult[] {
  type Moment = { shown: SearchResult; lead: number; span: [number, number]; isLead: boolean; others: SearchResult[] };
  const moments: Moment[] = [];
  const out: (SearchResult | Moment)[] = [];
  for (const r of results) {
    const place = placeOf(r);
    if (!place) {
      out.push(r);
      continue;
    }
    const [from, to] = momentSpan(r).map((t) => t + place.offset) as [number, number];
    const isLead = place.item === place.lead;
    const same = moments.find((m) => m.lead === place.lead && from < m.span[1] && m.span[0] < to);
    if (!same) {
      const moment = { shown: r, lead: place.lead, span: [from, to] as [number, number], isLead, others: [] };
      moments.push(moment);
      out.push(moment);
    } else if (isLead && !same.isLead) {
      // The original ranks where its best copy ranked.
      same.others.unshift(same.shown);
      same.shown = { ...r, score: same.shown.score };
      same.isLead = true;
    } else same.others.push(r);
  }
  return out.map((o) => {
    if (!('shown' in o)) return o;
    // Each copy once, and never the shown item itself (two of its episodes may hold the moment).
    const copies = o.others.filter((c, i) => c.media_id !== o.shown.media_id && o.others.findIndex((d) => d.media_id === c.media_id) === i);
    if (!copies.length) return o.shown;
    return { ...o.shown, copies: copies.map((c) => ({ media_id: c.media_id, title: c.title, start_time: c.start_time })) };
  });
}
