import { msg } from '../../messages/index.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { thumbnailProblem } from '../../media/delivered-picture.js';
import { Problem } from '../errors.js';
import { DELIVERED_FILE } from './wire.js';
import type { StoredAnalysis } from '../../analysis/cache.js';
import { episodeLines, TooManyOverlaps, type EpisodeLines } from '../search/episode-lines.js';
import type { TimeSlices } from '../../tools/time-slices.js';

/**
 * Checks the files of a delivery before anything of it is committed: each one sent must be a JPEG or WebP
 * thumbnail or face crop of a sane size that decodes (a name listed but not sent is dropped later, as before).
 * Throws 422 `bad_thumbnail` naming the file.
 * @example
 * await checkDeliveredFiles(stagedDir, ['ep-0.jpg', 'face-0.jpg']);
 */
export async function checkDeliveredFiles(dir: string, files: string[]): Promise<void> {
  for (const name of new Set(files)) {
    const path = join(dir, name);
    if (!DELIVERED_FILE.test(name) || !existsSync(path)) continue;
    const why = await thumbnailProblem(path);
    if (why) throw new Problem('invalid', msg('delivered_file_refused', { file: name, reason: msg('as_given', { text: why }) }), [{ field: `files.${name}`, message: msg('as_given', { text: why }) }], 'bad_thumbnail');
  }
}

/**
 * Characters of text one episode of a delivery may hold (see checkEpisodeText): an episode of the pipeline
 * lasts at most 5 minutes and holds a few thousand.
 */
export const MAX_EPISODE_TEXT = 1_000_000;

/** Pairs of line and episode the check looks at, at most: a real analysis files each line in one or two episodes. */
export const MAX_LINE_EPISODE_PAIRS = 5_000_000;

/**
 * Checks that no episode of a delivered analysis holds more than `max` characters of text: its own lines,
 * visual entries and summary, and the screen-text and other-track lines filed with it (as the search index
 * files them). An episode's text is one row of the search tables, written in one statement; the pipeline's
 * episodes hold a few thousand characters. Throws 422 `episode_text_too_long` naming the episode, or a 422
 * naming the list whose lines lie in far too many episodes. Runs in slices that let requests in.
 * @example
 * await checkEpisodeText(wire, 1_000_000, new TimeSlices());
 */
export async function checkEpisodeText(a: StoredAnalysis, max: number, slices: TimeSlices): Promise<void> {
  let lines: EpisodeLines;
  try {
    lines = await episodeLines(a, slices, MAX_LINE_EPISODE_PAIRS);
  } catch (err) {
    if (!(err instanceof TooManyOverlaps)) throw err;
    const field = `analysis.${err.list}`;
    throw new Problem('invalid', msg('delivery_lines_overlap', { list: field }), [{ field, message: msg('overlap_too_many_episodes') }]);
  }
  for (const [n, e] of a.episodes.entries()) {
    let size = e.summary.length;
    for (const x of e.audio) size += x.text.length;
    for (const v of e.visual) size += v.summary.length + v.ocr.reduce((s, o) => s + o.length, 0) + v.tags.reduce((s, t) => s + t.length, 0);
    for (const t of lines.screen[n]!) size += t.text.length;
    for (const o of lines.others[n]!) size += o.text.length;
    if (size > max) {
      throw new Problem('invalid', msg('episode_text_too_long', { n, size, max }), [{ field: `analysis.episodes.${n}`, message: msg('text_at_most', { max, size }) }], 'episode_text_too_long');
    }
    await slices.pause();
  }
}
