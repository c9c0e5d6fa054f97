import { warning } from '../warnings.js';
import type { AnalysisStep } from './step.js';

/**
 * A vector of each episode's text from the text embedder (when installed), for searches by meaning; without
 * it, a warning says summaries rank lexically and search has no meaning to go by.
 * @example
 * textVectorsStep.fills; // ['passageVectors']
 */
export const textVectorsStep: AnalysisStep = {
  stage: 'text_vectors',
  share: 0.02,
  reads: ['episodes'],
  fills: ['passageVectors'],
  async run(w, ctx) {
    const textEmbedder = await ctx.models.textEmbedder();
    if (!textEmbedder) {
      return { passageVectors: null, warnings: [warning('analysis_no_text_vectors', { reason: ctx.models.pulled('text_embedding').reason ?? 'not installed' })] };
    }
    const episodes = w.episodes!;
    const texts = episodes.map((e) => [w.input.title ?? '', e.summary, ...e.audio.map((a) => a.text), ...e.visual.flatMap((v) => v.ocr)].join(' ').slice(0, 2000));
    const vecs = await textEmbedder.embedPassages(texts);
    return { passageVectors: { model: textEmbedder.modelId, dims: textEmbedder.dims, items: vecs.map((v, i) => ({ episodeIndex: i, time: episodes[i]!.start, vector: v })) } };
  },
};
