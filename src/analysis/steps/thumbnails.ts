import { join } from 'node:path';
import { writeJpeg, writeThumbnail } from '../../media/index.js';
import { writeWaveform } from '../../media/waveform.js';
import type { AnalysisStep } from './step.js';

/**
 * Each episode's thumbnail (ep-<n>.jpg): its first keyframe as the visual pass decoded it, else a frame
 * decoded at its time; audio shows its episode's sound as a waveform, so a voice memo has a picture of its own.
 * @example
 * thumbnailsStep.fills; // ['episodes']
 */
export const thumbnailsStep: AnalysisStep = {
  stage: 'thumbnails',
  share: 0.06,
  reads: ['probe', 'episodes'],
  uses: ['seen'],
  fills: ['episodes'],
  async run(w, ctx) {
    const probe = w.probe!;
    const episodes = w.episodes!.map((e) => ({ ...e }));
    for (const ep of episodes) {
      const out = join(w.input.thumbnailDir, `ep-${ep.index}.jpg`);
      const keyframeJpeg = w.seen?.thumbnails.get(ep.thumbnailTime);
      if (keyframeJpeg) {
        await writeJpeg(keyframeJpeg, out);
        ep.thumbnail = out;
      } else {
        ep.thumbnail = probe.video
          ? (await writeThumbnail(w.input.file, ep.thumbnailTime, out, { signal: ctx.signal, tools: ctx.models.tools, probe })).path
          : (await writeWaveform(w.input.file, ep.start, ep.end - ep.start, out, { signal: ctx.signal, tools: ctx.models.tools })).path;
      }
      ctx.progress((ep.index + 1) / episodes.length, 'thumbnails');
    }
    return { episodes };
  },
};
