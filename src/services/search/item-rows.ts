/**
 * The rows an analysed item becomes in the search index, computed before anything is written: each
 * episode's segments, lines of other subtitle tracks and searchable text (stemmed for the words table,
 * distinct words for the parts table), and the checks on the analysis's numbers and vectors. Written as
 * steps (generators that yield between short pieces of work), so a long analysis is prepared in slices
 * that let requests in, and a short one at once (runAll).
 */
import type { EpisodeAnalysis, EpisodeVector, MediaAnalysis, TimedPrint, TimedText } from '../../analysis/types.js';
import type { VectorKind } from '../../store/search-index.js';
import type { EpisodeText, StoredEpisodeText } from '../../store/text-index.js';
import { distinctWordsSteps, metadataText } from '../../tools/normalise.js';
import { runAll } from '../../tools/time-slices.js';
import { episodeLineSteps, firstEndingAfter, inTimeOrder, type OtherLine } from './episode-lines.js';
import { indexTextSteps, textLanguage } from './stems.js';
import type { Lang } from '../../messages/index.js';

/** An episode's rows, computed before the write transaction opens so the write lock is held briefly. */
export interface PreparedEpisode {
  episode: EpisodeAnalysis;
  screenText: string[];
  tags: string[];
  segments: { kind: 'audio' | 'visual' | 'screen'; seq: number; start: number; end: number; text: string; ocr: string | null; tags: string | null; speaker?: number | null }[];
  /** The episode's lines of the item's other subtitle tracks. */
  others: OtherLine[];
  text: EpisodeText;
  words: EpisodeText;
}

/** A set of vectors of one kind, as the analysis holds it. */
export type VectorSet = [VectorKind, NonNullable<MediaAnalysis['passageVectors']>];

/** Everything an item's rows are made of. */
export interface PreparedItem {
  episodes: PreparedEpisode[];
  vectorSets: VectorSet[];
}

/** Items of a long list handled between two steps. */
const PER_STEP = 500;

const finite = (n: number, what: string): number => {
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new Error(`analysis: ${what} is not a finite number (${String(n)})`);
  return n;
};

/**
 * The item-level words of the metadata column: the owner's metadata and the names of the place it was
 * recorded at (both describe the whole item, so both rank like metadata).
 * @example
 * describedBy({ trip: 'Alps' }, 'Zermatt Valais'); // 'Alps\nZermatt Valais'
 */
export function describedBy(metadata: unknown, placeWords: string | null | undefined): string {
  return [metadataText(metadata), placeWords ?? ''].filter(Boolean).join('\n');
}

/**
 * What the words table (stemmed in the item's language, umlauts also transliterated) and the parts table
 * (distinct words as written) get of an episode's text, as steps. The lines of other subtitle tracks join
 * the transcript column, each stemmed in its own track's language: a German line is found by German word
 * forms and ranks like a transcript line.
 * @example
 * const { text, words } = runAll(tablesTextSteps(raw, 'de'));
 */
export function* tablesTextSteps(raw: EpisodeText, language: Lang, others: readonly { language: string; text: string }[] = []): Generator<void, { text: EpisodeText; words: EpisodeText }> {
  const text = {} as EpisodeText;
  const words = {} as EpisodeText;
  for (const key of Object.keys(raw) as (keyof EpisodeText)[]) {
    text[key] = yield* indexTextSteps(raw[key], language);
    words[key] = yield* distinctWordsSteps(raw[key]);
  }
  if (others.length > 0) {
    const parts = [text.transcript];
    for (const [i, o] of others.entries()) {
      parts.push(yield* indexTextSteps(o.text, textLanguage(o.language)));
      if (i % PER_STEP === 0) yield;
    }
    text.transcript = parts.filter(Boolean).join(' ');
    words.transcript = yield* distinctWordsSteps([raw.transcript, ...others.map((o) => o.text)].join(' '));
  }
  return { text, words };
}

/**
 * {@link tablesTextSteps} at once (an item's stored episodes, retexted after its title or metadata changed).
 * @example
 * const { text, words } = tablesText(storedText(row), 'en', storedOthers(row));
 */
export function tablesText(raw: EpisodeText, language: Lang, others: readonly { language: string; text: string }[] = []): { text: EpisodeText; words: EpisodeText } {
  return runAll(tablesTextSteps(raw, language, others));
}

/**
 * An episode's stored lines of other subtitle tracks, as tablesText takes them.
 * @example
 * storedOthers(row); // [{ language: 'de', text: 'Hallo' }]
 */
export function storedOthers(r: StoredEpisodeText): { language: string; text: string }[] {
  return (JSON.parse(r.others) as [string, string][]).map(([language, text]) => ({ language, text }));
}

/**
 * An episode's text rebuilt from its stored rows, as prepareEpisodeSteps built it when the item was stored.
 * @example
 * tablesText(storedText(row), textLanguage(row.language), storedOthers(row));
 */
export function storedText(r: StoredEpisodeText): EpisodeText {
  const audio = JSON.parse(r.audio) as string[];
  return {
    title: r.title ?? '',
    transcript: audio.map((a) => a.trim()).filter(Boolean).join(' '),
    screen_text: r.screen_text,
    tags: (JSON.parse(r.tags) as string[]).join(', '),
    summary: r.summary,
    metadata: describedBy(r.additional_metadata ? JSON.parse(r.additional_metadata) : null, r.place_words),
  };
}

/** Distinct trimmed, non-empty strings, in the order they first come. */
function distinct(values: Iterable<string>): string[] {
  const out = new Set<string>();
  for (const v of values) {
    const t = v.trim();
    if (t) out.add(t);
  }
  return [...out];
}

/** One episode's rows, with its screen-text entries and other-track lines already picked (episode-lines.ts). */
function* prepareEpisodeSteps(e: EpisodeAnalysis, language: Lang, title: string, metadata: string, screenEntries: readonly TimedText[], others: OtherLine[]): Generator<void, PreparedEpisode> {
  finite(e.start, `episode ${e.index} start`);
  finite(e.end, `episode ${e.index} end`);
  const screenText = distinct([...e.visual.flatMap((v) => v.ocr), ...screenEntries.map((t) => t.text)]);
  const tags = distinct(e.visual.flatMap((v) => v.tags));
  const segments: PreparedEpisode['segments'] = [];
  for (const [seq, a] of e.audio.entries()) {
    segments.push({ kind: 'audio', seq, start: finite(a.start, 'audio start'), end: finite(a.end, 'audio end'), text: a.text, ocr: null, tags: null, speaker: a.speaker ?? null });
    if (seq % PER_STEP === 0) yield;
  }
  for (const [seq, v] of e.visual.entries()) {
    segments.push({ kind: 'visual', seq, start: finite(v.start, 'visual start'), end: finite(v.end, 'visual end'), text: v.summary, ocr: JSON.stringify(v.ocr), tags: JSON.stringify(v.tags) });
    if (seq % PER_STEP === 0) yield;
  }
  for (const [seq, t] of screenEntries.entries()) segments.push({ kind: 'screen', seq, start: t.start, end: t.end, text: t.text, ocr: null, tags: null });
  for (const o of others) {
    finite(o.start, 'subtitle start');
    finite(o.end, 'subtitle end');
  }
  const transcript = e.audio.map((a) => a.text.trim()).filter(Boolean).join(' ');
  const raw: EpisodeText = { title, transcript, screen_text: screenText.join('\n'), tags: tags.join(', '), summary: e.summary, metadata };
  return { episode: e, screenText, tags, segments, others, ...(yield* tablesTextSteps(raw, language, others)) };
}

/**
 * Every row of an analysed item, as steps: episode indices unique, numbers finite, vectors of their
 * set's size and finite, each episode's lines picked and its text prepared.
 * @example
 * const prepared = await runInSlices(prepareItemSteps(analysis, title, metadata), slices);
 */
export function* prepareItemSteps(analysis: MediaAnalysis, title: string, metadata: string): Generator<void, PreparedItem> {
  const seen = new Set<number>();
  for (const e of analysis.episodes) {
    if (seen.has(e.index)) throw new Error(`analysis: episode index ${e.index} appears twice`);
    seen.add(e.index);
  }
  const vectorSets = (
    [
      ['passage', analysis.passageVectors],
      ['frame', analysis.frameVectors],
    ] as const
  ).filter((x): x is VectorSet => x[1] !== null && x[1].items.length > 0);
  for (const [kind, set] of vectorSets) {
    for (const [i, v] of set.items.entries()) {
      if (v.vector.length !== set.dims) throw new Error(`analysis: a ${kind} vector of ${set.model} has ${v.vector.length} dimensions, not ${set.dims}`);
      if (!v.vector.every(Number.isFinite)) throw new Error(`analysis: a ${kind} vector of ${set.model} holds a non-finite value`);
      if (i % PER_STEP === 0) yield;
    }
  }
  const lines = yield* episodeLineSteps(analysis);
  const language = textLanguage(analysis.language);
  const episodes: PreparedEpisode[] = [];
  for (const [n, e] of analysis.episodes.entries()) {
    episodes.push(yield* prepareEpisodeSteps(e, language, title, metadata, lines.screen[n]!, lines.others[n]!));
    yield;
  }
  return { episodes, vectorSets };
}

/**
 * A print's columns: the 64-bit hash in two unsigned halves, the detail hash and colours as bytes.
 * @example
 * printRow(print).hash_hi; // the first 32 bits
 */
export function printRow(p: TimedPrint): { time: number; hash_hi: number; hash_lo: number; detail: Buffer; colour: Buffer } {
  return { time: p.time, hash_hi: parseInt(p.hash.slice(0, 8), 16), hash_lo: parseInt(p.hash.slice(8, 16), 16), detail: Buffer.from(p.detail, 'hex'), colour: Buffer.from(p.colour) };
}

/**
 * The episode a vector or print belongs to: by its index, else by its time (the pipeline may not know the
 * index), the last episode taking what comes after it. Episodes in time order are searched by binary search.
 * @example
 * const finder = new EpisodeFinder(analysis.episodes);
 * finder.of({ episodeIndex: -1, time: 12.5 }); // the episode 12.5 s lies in
 */
export class EpisodeFinder {
  private readonly byIndex = new Map<number, EpisodeAnalysis>();
  private readonly ordered: boolean;

  constructor(private readonly episodes: readonly EpisodeAnalysis[]) {
    for (const e of episodes) this.byIndex.set(e.index, e);
    this.ordered = inTimeOrder(episodes);
  }

  of(v: Pick<EpisodeVector, 'episodeIndex' | 'time'>): EpisodeAnalysis | undefined {
    const found = this.byIndex.get(v.episodeIndex);
    if (found) return found;
    const eps = this.episodes;
    let at: EpisodeAnalysis | undefined;
    if (this.ordered) {
      const e = eps[firstEndingAfter(eps, v.time)];
      at = e && v.time >= e.start ? e : undefined;
    } else {
      at = eps.find((e) => v.time >= e.start && v.time < e.end);
    }
    return at ?? (eps.length > 0 && v.time >= eps[eps.length - 1]!.end ? eps[eps.length - 1] : undefined);
  }
}
