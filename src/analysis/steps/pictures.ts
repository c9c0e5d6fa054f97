import { join } from 'node:path';
import { writeJpeg } from '../../media/index.js';
import { pictureStretches } from '../pictures.js';
import type { TimedPicture } from '../types.js';
import type { AnalysisStep } from './step.js';

/**
 * A thumbnail of each distinct picture of the video (pic-<n>.jpg, from the keyframes the visual pass decoded:
 * nothing is decoded again), so a search result can show the picture on screen at its moment. A picture past
 * the keyframes whose thumbnails were kept has none (its stretch still ends the one before).
 * @example
 * picturesStep.fills; // ['stills']
 */
export const picturesStep: AnalysisStep = {
  stage: 'thumbnails',
  share: 0,
  reads: ['seen'],
  fills: ['stills'],
  when: (w) => Boolean(w.seen),
  async run(w) {
    const seen = w.seen!;
    const stills: TimedPicture[] = [];
    for (const [n, p] of pictureStretches(seen.prints, seen.cuts.map((c) => c.time)).entries()) {
      const jpeg = seen.thumbnails.get(p.time);
      const path = jpeg ? join(w.input.thumbnailDir, `pic-${n}.jpg`) : null;
      if (jpeg && path) await writeJpeg(jpeg, path);
      stills.push({ ...p, thumbnail: path });
    }
    return { stills };
  },
};
