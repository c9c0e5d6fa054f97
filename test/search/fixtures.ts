import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Vidx } from '../../src/server.js';
import type { EpisodeAnalysis, EpisodeVector, MediaAnalysis, TimedText, VisualEntry } from '../../src/analysis/types.js';
import type { IndexedItem, StoredItem } from '../../src/services/search/index.js';
import { itemDir } from '../../src/store/paths.js';

/** Tiny vector spaces for the semantic tests: 8 dimensions, one axis per topic. */
export const DIMS = 8;
export const TOPICS = { sport: 0, baking: 1, nature: 2, city: 3, music: 4 } as const;

/**
 * A unit vector mostly along one topic axis, with a little of a second one so vectors are not identical.
 * @example
 * topicVector('nature', 'sport'); // Float32Array of length 8
 */
export function topicVector(main: keyof typeof TOPICS, side?: keyof typeof TOPICS, sideWeight = 0.2): Float32Array {
  const v = new Float32Array(DIMS).fill(0.01);
  v[TOPICS[main]] = 1;
  if (side) v[TOPICS[side]] += sideWeight;
  let n = 0;
  for (const x of v) n += x * x;
  return v.map((x) => x / Math.sqrt(n));
}

interface EpisodeSpec {
  start: number;
  end: number;
  audio?: [number, number, string][];
  visual?: { start: number; end: number; summary: string; ocr?: string[]; tags?: string[] }[];
  summary: string;
  topic?: keyof typeof TOPICS;
  /** Frame vectors: [time, topic]. */
  frames?: [number, keyof typeof TOPICS][];
}

/**
 * A MediaAnalysis built by hand, the way the pipeline will hand it to the search index.
 * @example
 * const a = buildAnalysis({ language: 'en', summary: '…', episodes: [{ start: 0, end: 30, summary: '…' }] });
 */
export function buildAnalysis(spec: { language: 'en' | 'de'; summary: string; title?: string | null; episodes: EpisodeSpec[]; vectors?: boolean; model?: string }): MediaAnalysis {
  const episodes: EpisodeAnalysis[] = spec.episodes.map((e, index) => {
    const audio: TimedText[] = (e.audio ?? []).map(([start, end, text]) => ({ start, end, text }));
    const visual: VisualEntry[] = (e.visual ?? []).map((v) => ({ start: v.start, end: v.end, summary: v.summary, ocr: v.ocr ?? [], tags: v.tags ?? [] }));
    return { index, start: e.start, end: e.end, audio, visual, summary: e.summary, thumbnail: null, thumbnailTime: e.start };
  });
  const passage: EpisodeVector[] = spec.episodes.flatMap((e, i) => (e.topic ? [{ episodeIndex: i, time: e.start, vector: topicVector(e.topic) }] : []));
  const frames: EpisodeVector[] = spec.episodes.flatMap((e, i) => (e.frames ?? []).map(([time, topic]) => ({ episodeIndex: i, time, vector: topicVector(topic, 'city', 0.1) })));
  const duration = spec.episodes.length ? spec.episodes[spec.episodes.length - 1].end : 0;
  return {
    type: 'video',
    duration,
    language: spec.language,
    title: spec.title ?? null,
    transcript: episodes.flatMap((e) => e.audio),
    transcriptSource: 'asr',
    screenText: [],
    visual: episodes.flatMap((e) => e.visual),
    episodes,
    summary: spec.summary,
    warnings: [],
    passageVectors: spec.vectors && passage.length ? { model: spec.model ?? 'test-e5', dims: DIMS, items: passage } : null,
    frameVectors: spec.vectors && frames.length ? { model: 'test-clip', dims: DIMS, items: frames } : null,
  };
}

/** The English football final: the penalty is in episode 1 at 52.5 s. */
export const FINAL = {
  language: 'en' as const,
  summary: 'The cup final of the season, decided by a penalty.',
  episodes: [
    {
      start: 0, end: 30, topic: 'sport' as const, summary: 'The teams walk out in front of a full stadium.',
      audio: [[0, 5, 'Welcome to the final of the season.'], [5, 12, 'The teams walk onto the pitch.'], [12, 30, 'Listen to this crowd, what an atmosphere.']] as [number, number, string][],
      visual: [{ start: 0, end: 30, summary: 'A stadium full of fans', ocr: ['FINAL 2024'], tags: ['stadium', 'crowd'] }],
    },
    {
      start: 30, end: 75, topic: 'sport' as const, summary: 'A foul in the box, and the captain scores from the spot.',
      audio: [[30, 38, 'The referee points to the spot after the foul.'], [38, 52.5, 'Everybody is waiting now.'], [52.5, 58, 'The captain takes the penalty shot.'], [58, 62, 'And it is a goal!']] as [number, number, string][],
      visual: [{ start: 30, end: 75, summary: 'A player kicks the ball', tags: ['football'] }],
    },
    {
      start: 75, end: 120, topic: 'city' as const, summary: 'Fans celebrate in the streets.',
      audio: [[75, 90, 'Fans celebrate in the streets after the match.'], [90, 120, 'The party goes on all night.']] as [number, number, string][],
      visual: [{ start: 75, end: 120, summary: 'People dancing in a street at night', tags: ['street', 'night'] }],
    },
  ],
};

/** German baking: "Apfelkuchen" appears only on screen (episode 0, visual entry at 20 s); München in episode 1 at 50 s. */
export const BACKEN = {
  language: 'de' as const,
  summary: 'Ein Rezept aus Omas Küche.',
  episodes: [
    {
      start: 0, end: 40, topic: 'baking' as const, summary: 'Äpfel werden geschält.',
      audio: [[0, 6, 'Heute backen wir zusammen.'], [6, 15, 'Zuerst die Äpfel schälen und klein schneiden.']] as [number, number, string][],
      visual: [
        { start: 0, end: 20, summary: 'Hände schälen Äpfel', tags: ['kitchen'] },
        { start: 20, end: 40, summary: 'Eine Schrifttafel', ocr: ['Apfelkuchen nach Omas Rezept'] },
      ],
    },
    {
      start: 40, end: 80, topic: 'baking' as const, summary: 'Der Teig ruht.',
      audio: [[40, 50, 'Der Teig muss eine Stunde ruhen.'], [50, 80, 'In der Zwischenzeit gehen wir über die Straße.']] as [number, number, string][],
      visual: [
        { start: 40, end: 50, summary: 'Eine Schüssel mit Teig' },
        { start: 50, end: 80, summary: 'Ein Ladenschild', ocr: ['Bäckerei Müller, München'] },
      ],
    },
  ],
};

/** A lake trip: the sunset is a visual tag of episode 1 (visual entry at 80 s), never spoken. */
export const LAKE = {
  language: 'en' as const,
  summary: 'A day trip to the lake.',
  episodes: [
    {
      start: 0, end: 60, topic: 'city' as const, summary: 'Driving out of town.', frames: [[20, 'city']] as [number, keyof typeof TOPICS][],
      audio: [[0, 30, 'We drove for hours to get out of town.'], [30, 60, 'The traffic was terrible.']] as [number, number, string][],
      visual: [{ start: 0, end: 60, summary: 'A car on a motorway', tags: ['car', 'road'] }],
    },
    {
      start: 60, end: 100, topic: 'nature' as const, summary: 'Evening at the water.', frames: [[85, 'nature']] as [number, keyof typeof TOPICS][],
      audio: [[62, 70, 'Look at those colours.']] as [number, number, string][],
      visual: [
        { start: 60, end: 80, summary: 'People on a jetty', tags: ['water'] },
        { start: 80, end: 100, summary: 'The sun going down', tags: ['sunset over the lake'] },
      ],
    },
  ],
};

/**
 * An IndexedItem with a small thumbnail file in the item's folder (so signed links open something).
 * @example
 * const item = fixtureItem(s.vidx, s.dataDir, 'trips', 'lake', { title: 'Lake day' });
 */
export function fixtureItem(vidx: Vidx, dataDir: string, collectionId: string, mediaId: string, over: Partial<IndexedItem> = {}): IndexedItem {
  const collection = vidx.store.collections.findById(collectionId);
  if (!collection) throw new Error(`no collection ${collectionId}`);
  const dir = itemDir(dataDir, collection.pk, mediaId);
  mkdirSync(dir, { recursive: true });
  const thumb = join(dir, 'thumb.jpg');
  writeFileSync(thumb, Buffer.from(`thumbnail of ${mediaId}`));
  return {
    media_id: mediaId,
    type: 'video',
    title: null,
    src: null,
    thumbnail: relative(dataDir, thumb),
    duration: null,
    additional_metadata: null,
    ...over,
  };
}

/** A small file standing in for a media file kept under the data dir; returns its relative path. */
function storedMedia(dataDir: string, collectionPk: number, mediaId: string): string {
  const dir = itemDir(dataDir, collectionPk, mediaId);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'media.mp4');
  writeFileSync(file, Buffer.from('not really an mp4'));
  return relative(dataDir, file);
}

/**
 * Indexes the three fixture videos into a collection, in-process, as the index task will.
 * @example
 * indexFixtures(s.vidx, s.dataDir, 'demo', { vectors: true });
 */
export function indexFixtures(vidx: Vidx, dataDir: string, collectionId: string, opts: { vectors?: boolean } = {}): Record<'final' | 'backen' | 'lake', StoredItem> {
  const pk = vidx.store.collections.findById(collectionId)!.pk;
  const store = (mediaId: string, spec: Parameters<typeof buildAnalysis>[0], over: Partial<IndexedItem>) =>
    vidx.searchIndex.storeItem(pk, fixtureItem(vidx, dataDir, collectionId, mediaId, over), buildAnalysis({ ...spec, vectors: opts.vectors }), { replace: false });
  return {
    final: store('cup-final', FINAL, { title: 'Cup final 2024', src: 'https://example.invalid/final.mp4', additional_metadata: { league: 'Premier' } }),
    backen: store('backen', BACKEN, { title: 'Omas Rezept', additional_metadata: { sprache: 'Deutsch' }, storedFile: null }),
    lake: store('lake-trip', LAKE, { title: 'Lake day', additional_metadata: { place: 'Bodensee' }, storedFile: storedMedia(dataDir, pk, 'lake-trip') }),
  };
}
