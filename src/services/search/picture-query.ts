/**
 * Search by what is seen: a query picture, or a moment of the collection ("more like this"), becomes ranked
 * lists of episodes like the text lists: frames whose perceptual fingerprints look alike (always, no model
 * needed), and frames whose image–text vectors are near (when the model is installed), fused with the rest.
 */
import { msg } from '../../messages/index.js';
import { MediaError } from '../../media/errors.js';
import { framePrint, type FramePrint, type RgbPicture } from '../../media/perceptual.js';
import type { Repos } from '../../store/index.js';
import type { ItemRow } from '../../store/items.js';
import type { EpisodeRow, VectorSpaceRow } from '../../store/search-index.js';
import { contentWords } from '../../analysis/text-stats.js';
import { notFound, Problem } from '../errors.js';
import type { TimedList } from './fusion.js';
import type { PrintIndex } from './print-index.js';
import { FUSION, PICTURES } from './ranking-knobs.js';
import { printOfRow } from './print-index.js';
import { fromBlob } from '../../tools/vectors.js';

/** A moment of the collection to find more like (POST /search `like`). */
export interface LikeMoment {
  media_id: string;
  start_time: number;
}

/** What a picture query searches with: a fingerprint and, per frame space, a vector. */
export interface PictureProbe {
  print: FramePrint | null;
  /** Image–text vectors by frame space id (a query picture embedded, or a moment's stored frame vector). */
  vectors: Map<number, Float32Array>;
  /** The episode a `like` moment is in: never a result of its own search. */
  exclude: number | null;
  /** Words of a moment with neither fingerprint nor frame vector (audio): searched as any of them. */
  words: string | null;
}

/**
 * Decodes a query image, naming the field (`image`, or `image_path` for a picture read from a path) in the
 * error a caller sees.
 * @example
 * const picture = await decodeQueryImage(bytes);
 */
export async function decodeQueryImage(bytes: Uint8Array, field: 'image' | 'image_path' = 'image'): Promise<RgbPicture> {
  // sharp is loaded at the first picture asked: a search thread, which never decodes one, stays without it.
  const { decodePicture } = await import('../../media/still-image.js');
  try {
    return await decodePicture(bytes);
  } catch (err) {
    if (err instanceof MediaError) throw new Problem('invalid', msg('picture_unreadable', { field, reason: msg('as_given', { text: err.message }) }), [{ field, message: msg('as_given', { text: err.message }) }]);
    throw err;
  }
}

/** The episode of `item` that holds `time` (the last one for its very end); a time outside the item is a 422. */
function episodeAt(episodes: EpisodeRow[], item: ItemRow, time: number): EpisodeRow {
  const end = episodes.length ? Math.max(...episodes.map((e) => e.end)) : 0;
  const inside = episodes.find((e) => time >= e.start && time < e.end) ?? (time >= end - 1e-6 && time <= end + 1e-6 ? episodes.at(-1) : undefined);
  if (!inside || time < 0) {
    const last = Math.round(end * 1000) / 1000;
    throw new Problem('invalid', msg('like_outside_media', { time, id: item.media_id, end: last }), [{ field: 'like.start_time', message: msg('outside_the_media', { end: last }) }]);
  }
  return inside;
}

/**
 * What a `like` moment searches with: its frame nearest the time (fingerprint and stored frame vectors), or
 * for a moment without pictures, its words.
 * @example
 * const probe = likeProbe(store, collection.pk, { media_id: 'trip', start_time: 42 }, spaces);
 */
export function likeProbe(store: Repos<'items' | 'prints' | 'search'>, collectionPk: number, like: LikeMoment, frameSpaces: VectorSpaceRow[]): PictureProbe {
  const item = store.items.find(collectionPk, like.media_id);
  if (!item) throw notFound('media item', like.media_id);
  const episode = episodeAt(store.search.episodesOfItem(item.pk), item, like.start_time);
  const nearest = <T extends { time: number }>(rows: T[]) => rows.sort((a, b) => Math.abs(a.time - like.start_time) - Math.abs(b.time - like.start_time))[0];
  const printRow = nearest(store.prints.ofEpisode(episode.pk));
  const vectors = new Map<number, Float32Array>();
  for (const space of frameSpaces) {
    const row = nearest(store.search.vectorsOfItem(item.pk, space.id).filter((v) => v.episode_pk === episode.pk));
    if (row) vectors.set(space.id, fromBlob(row.embedding));
  }
  const print = printRow ? printOfRow(printRow) : null;
  let words: string | null = null;
  if (!print && vectors.size === 0) {
    const text = [episode.summary, episode.screen_text, ...store.search.segmentsOf([episode.pk]).map((s) => s.text)].join(' ');
    words = mostFrequent(contentWords(text), PICTURES.likeWords).join(' ') || null;
  }
  return { print, vectors, exclude: episode.pk, words };
}

function mostFrequent(words: string[], n: number): string[] {
  const counts = new Map<string, number>();
  for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([w]) => w);
}

/**
 * The fingerprint list of a probe: episodes whose frames look like it, best first, with the matching time.
 * @example
 * const list = printList(printIndex, collection.pk, probe.print, { depth: 30, keep, exclude: probe.exclude });
 */
export function printList(
  index: PrintIndex,
  collectionPk: number,
  print: FramePrint,
  opts: { depth: number; keep?: (itemPk: number) => boolean; exclude: number | null },
): TimedList {
  const hits = index.nearest(collectionPk, print, { limit: opts.depth + 1, minSimilarity: PICTURES.minPrintSimilarity, ...(opts.keep ? { keep: opts.keep } : {}) }).filter((h) => h.episodePk !== opts.exclude);
  return { list: { name: 'prints', weight: FUSION.weights.prints, pks: hits.slice(0, opts.depth).map((h) => h.episodePk) }, times: new Map(hits.map((h) => [h.episodePk, h.time])) };
}

/**
 * The fingerprint of a query picture.
 * @example
 * const probe = pictureProbe(await decodeQueryImage(bytes));
 */
export function pictureProbe(picture: RgbPicture): PictureProbe {
  return { print: framePrint(picture), vectors: new Map(), exclude: null, words: null };
}
