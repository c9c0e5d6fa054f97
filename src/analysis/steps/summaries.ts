import { episodeSummary } from '../phrases.js';
import { picturesOf } from '../pictures.js';
import { belongsTo, clip, owningSpans } from '../spans.js';
import { extractiveSummary, type SentenceEmbedder } from '../summarize.js';
import type { EpisodeAnalysis, TimedText, VisualEntry } from '../types.js';
import type { AnalysisStep } from './step.js';

function metadataWords(meta: Record<string, unknown> | null): string[] {
  if (!meta) return [];
  return Object.values(meta).filter((v): v is string => typeof v === 'string');
}

/**
 * The episodes: each span's transcript lines (a line belongs to the episode it overlaps most), visual
 * entries and pictures, and its summary (the most central of what was said, else what was shown).
 * @example
 * summariesStep.fills; // ['episodes', 'embed', 'boost']
 */
export const summariesStep: AnalysisStep = {
  stage: 'summaries',
  share: 0.06,
  reads: ['spans', 'transcript', 'language'],
  uses: ['seen', 'stills'],
  fills: ['episodes', 'embed', 'boost'],
  async run(w, ctx) {
    const spans = w.spans!;
    const textEmbedder = await ctx.models.textEmbedder();
    const embed: SentenceEmbedder = textEmbedder ? (texts) => textEmbedder.embedPassages(texts) : null;
    const boost = [w.input.title ?? '', ...metadataWords(w.input.metadata)];
    // The transcript as the steps left it: its lines carry their speakers (steps/speakers.ts).
    const segments = w.transcript!;
    const owner = owningSpans(segments, spans.map(([start, end]) => ({ start, end })));
    const lines = spans.map((): TimedText[] => []);
    segments.forEach((line, k) => {
      lines[owner[k]!]?.push(line);
    });
    const episodes: EpisodeAnalysis[] = [];
    for (let i = 0; i < spans.length; i++) {
      const [start, end] = spans[i]!;
      episodes.push(await episodeOf(w, i, start, end, lines[i]!, embed, boost));
      ctx.progress((i + 1) / spans.length, 'summaries');
    }
    return { episodes, embed, boost };
  },
};

async function episodeOf(w: Parameters<AnalysisStep['run']>[0], index: number, start: number, end: number, audio: TimedText[], embed: SentenceEmbedder, boost: string[]): Promise<EpisodeAnalysis> {
  // A shot that only runs a moment into this episode belongs to the one before (its text is not ours).
  const seen: VisualEntry[] = (w.seen?.entries ?? []).filter((v) => belongsTo(v, { start, end })).map((v) => clip(v, start, end));
  const spoken = await extractiveSummary(audio.map((a) => a.text), 2, embed, boost);
  const screen = [...new Set(seen.flatMap((v) => v.ocr))].slice(0, 3);
  const tags = [...new Set(seen.flatMap((v) => v.tags))].slice(0, 4);
  const keyframe = w.seen?.keyframes.find((t) => t >= start && t < end);
  return {
    index,
    start,
    end,
    audio,
    visual: seen,
    summary: episodeSummary(spoken, screen, tags, w.language!),
    thumbnail: null,
    thumbnailTime: keyframe ?? start + (end - start) / 2,
    // Copies: each episode's paths are rewritten on their own later (relative to the data dir, renamed).
    ...(w.stills?.length ? { pictures: picturesOf(w.stills, start, end).map((p) => ({ ...p })) } : {}),
  };
}
