/**
 * The writes of an item's index rows (episodes with their segments, subtitle lines and text rows,
 * vectors, the frame sequence, prints) as steps, one row at a time: the caller runs them all inside one
 * transaction (a small item), or slice by slice in short transactions of their own (a large one, staged:
 * services/search/indexer.ts). Writes never open their own transaction.
 */
import type { MediaAnalysis } from '../../analysis/types.js';
import type { Repos } from '../../store/index.js';
import { signBits, toBlob, unit } from '../../tools/vectors.js';
import { EpisodeFinder, printRow, type PreparedItem } from './item-rows.js';

/**
 * Where each field of an analysis is kept once its item is stored. A field added to the analysis schema
 * (analysis/schema.ts) and given no place here fails the build; test/jobs/every-field.test.ts reads each
 * place back after a remote worker delivered it.
 */
export const ANALYSIS_STORAGE: Record<keyof MediaAnalysis, string> = {
  type: 'items.type',
  duration: 'items.duration, item_analysis.duration',
  width: 'items.width',
  height: 'items.height',
  language: 'item_analysis.language (the stems of the text tables too)',
  title: "items.title when the caller gave it (a job's input carries it); a file's own title tag only for a source without a name",
  transcript: "segments of kind audio: each episode's audio holds its lines",
  transcriptSource: 'item_analysis.transcript_source',
  subtitleLanguages: 'item_analysis.subtitle_languages',
  subtitleTracks: 'subtitle_lines, in the episode each line belongs to',
  screenText: 'segments of kind screen, and episodes.screen_text',
  visual: "segments of kind visual: each episode's visual holds its entries",
  episodes: 'episodes, with their text rows (words, own words, parts)',
  summary: 'item_analysis.summary',
  warnings: 'item_analysis.warnings',
  passageVectors: 'vectors of a text space',
  frameVectors: 'vectors of a frame space',
  framePrints: 'frame_prints',
  frameSequence: 'frame_sequences.hashes and .looks',
  soundPrint: 'frame_sequences.sound',
  speakers: "item_analysis.speakers (the turns), and each transcript line's segments.speaker",
  speakersModel: 'item_analysis.speakers_model',
  faces: "face_tracks, when the collection's faces are on (services/people), and item_analysis.faces_scanned",
  facesSamePerson: "not kept: it groups the item's face tracks into people as they are stored",
  voices: "voice_tracks, each joined to a person, when the collection's voices are on (services/people/voice-grouping.ts)",
};

/** Where an item's rows go. */
export interface RowTarget {
  itemPk: number;
  /** The collection whose text tables, vectors and prints hold the rows. */
  collectionPk: number;
  /** The collection its episode rows name: its own, or the hidden one while it is staged. */
  episodesIn: number;
  at: string;
}

/** About how long each kind of row takes to write (µs), to tell a small item from a large one before writing it. */
const COST_US = { episode: 60, row: 6, vector: 60, textChar: 0.013 };

/**
 * About how long writing an item's rows takes (ms): its text rows (stemmed text twice, distinct words
 * once, as the words, own-words and parts tables take them), rows and vectors.
 * @example
 * writeCostMs(prepared, analysis) < 8; // one short transaction will do
 */
export function writeCostMs(p: PreparedItem, analysis: MediaAnalysis): number {
  let us = 0;
  for (const e of p.episodes) {
    us += COST_US.episode + COST_US.row * (e.segments.length + e.others.length);
    for (const k of Object.keys(e.text) as (keyof typeof e.text)[]) us += COST_US.textChar * (2 * e.text[k].length + e.words[k].length);
  }
  for (const [, set] of p.vectorSets) us += COST_US.vector * set.items.length;
  us += COST_US.row * (analysis.framePrints?.length ?? 0);
  return us / 1000;
}

/**
 * The item's index rows, written one per step; each step yields about how many bytes it wrote (what a
 * transaction's commit then has to write out).
 * @example
 * runAll(indexRowSteps(store, { itemPk, collectionPk, episodesIn: collectionPk, at }, analysis, prepared));
 */
export function* indexRowSteps(store: Repos<'prints' | 'search' | 'subtitles' | 'text'>, t: RowTarget, analysis: MediaAnalysis, p: PreparedItem): Generator<number, { vectors: number }> {
  const repo = store.search;
  const pkByIndex = new Map<number, number>();
  for (const ep of p.episodes) {
    const e = ep.episode;
    const pk = repo.insertEpisode({
      item_pk: t.itemPk,
      collection_pk: t.episodesIn,
      idx: e.index,
      start: e.start,
      end: e.end,
      summary: e.summary,
      thumbnail: e.thumbnail,
      thumbnail_time: Number.isFinite(e.thumbnailTime) ? e.thumbnailTime : null,
      screen_text: ep.screenText.join('\n'),
      tags: JSON.stringify(ep.tags),
      pictures: e.pictures?.length ? JSON.stringify(e.pictures) : null,
    });
    pkByIndex.set(e.index, pk);
    store.text.insertText(t.collectionPk, pk, ep.text, ep.words);
    yield textBytes(ep);
    for (const s of ep.segments) {
      repo.insertSegment({ episode_pk: pk, ...s });
      yield 32 + s.text.length + (s.ocr?.length ?? 0) + (s.tags?.length ?? 0);
    }
    for (const o of ep.others) {
      store.subtitles.insert({ episode_pk: pk, ...o });
      yield 32 + o.text.length;
    }
  }
  const finder = new EpisodeFinder(analysis.episodes);
  let vectors = 0;
  for (const [kind, set] of p.vectorSets) {
    const space = repo.space(kind, set.model, set.dims, t.at);
    for (const v of set.items) {
      const episode = finder.of(v);
      if (!episode) continue;
      const u = unit(v.vector);
      repo.insertVector(space, { episode_pk: pkByIndex.get(episode.index)!, collection_pk: t.collectionPk, time: v.time, embedding: toBlob(u) }, signBits(u));
      vectors++;
      yield 64 + 4 * set.dims;
    }
  }
  storeSequence(store, t, analysis);
  yield (analysis.frameSequence?.hashes.length ?? 0) + (analysis.frameSequence?.looks?.length ?? 0);
  for (const print of analysis.framePrints ?? []) {
    const episode = finder.of({ episodeIndex: -1, time: print.time }) ?? analysis.episodes[0];
    if (episode) store.prints.insert({ ...printRow(print), episode_pk: pkByIndex.get(episode.index)!, item_pk: t.itemPk, collection_pk: t.collectionPk });
    yield 128;
  }
  return { vectors };
}

/** About the bytes an episode's text rows take: its stemmed text in two tables (words, own words), its distinct words in one. */
function textBytes(ep: PreparedItem['episodes'][number]): number {
  let n = 256;
  for (const k of Object.keys(ep.text) as (keyof typeof ep.text)[]) n += 2 * ep.text[k].length + ep.words[k].length;
  return n;
}

/** A video's dense frames, their looks and its sound print, which duplicates compare. */
function storeSequence(store: Repos<'prints'>, t: RowTarget, analysis: MediaAnalysis): void {
  const seq = analysis.frameSequence;
  if (!seq?.hashes) return;
  const sound = analysis.soundPrint ?? null;
  store.prints.putSequence(t.itemPk, t.collectionPk, {
    fps: seq.fps,
    hashes: Buffer.from(seq.hashes, 'hex'),
    looks: seq.looks ? Buffer.from(seq.looks, 'hex') : null,
    sound_fps: sound?.fps ?? null,
    sound: sound ? Buffer.from(sound.frames, 'hex') : null,
  });
}
