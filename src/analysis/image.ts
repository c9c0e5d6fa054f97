import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { EpisodeAnalysis, MediaAnalysis, VisualEntry } from './types.js';
import type { PipelineContext, PipelineInput } from './pipeline.js';
import { stageText } from './stages.js';
import { describeVisual } from './phrases.js';
import { screenLines } from './screen-lines.js';
import { labelVectors, tagsFor } from './visual.js';
import { thumbnailJpeg, writeJpeg } from '../media/index.js';
import { decodeStill } from '../media/still-decode.js';
import { framePrint } from '../media/perceptual.js';
import { type AnalysisWarning, warning } from './warnings.js';

/** Pictures are read at most this wide or high: enough for OCR, bounded in memory. */
const MAX_SIDE = 1600;

/**
 * Analyses a still picture as media of one moment: EXIF orientation (or HEIF rotation) applied, on-screen
 * text by OCR, tags and a frame vector when the image-text model is installed, a thumbnail, and one
 * episode at time 0 that search finds like a video moment.
 * @example
 * const analysis = await analyzeImage({ file, sourcePath: file, title: null, metadata: null, language: 'en', thumbnailDir }, ctx);
 * analysis.type; // 'image'
 */
export async function analyzeImage(input: PipelineInput, ctx: PipelineContext): Promise<MediaAnalysis> {
  const language = input.language ?? 'en';
  ctx.progress(0, stageText('decoding_image'));
  // Bytes read through the file-access rule: the decoder never opens a name itself. One decode serves OCR,
  // prints, tags and the thumbnail; a picture that does not decode fails here with a clear code.
  const bytes = await ctx.models.tools.files.readCheckedFile(input.file);
  const { frame, width, height } = await decodeStill(bytes, { maxSide: MAX_SIDE });
  const shown = { width: width || null, height: height || null };
  const print = { time: 0, ...framePrint(frame) };
  // The thumbnail is encoded on libuv's threads while OCR reads the picture on this one and ONNX Runtime's.
  const thumbnailBytes = thumbnailJpeg(frame, { width: 320, quality: 75 });
  // Read again below; a failure before that point is the analysis's own error, not this one's.
  thumbnailBytes.catch(() => undefined);
  ctx.signal.throwIfAborted();

  ctx.progress(0.2, stageText('on_screen_text'));
  const ocr = screenLines(await ctx.models.ocr().recognize(frame));
  const warnings: AnalysisWarning[] = [];
  let tags: string[] = [];
  let frameVectors: MediaAnalysis['frameVectors'] = null;
  const embedder = await ctx.models.imageText();
  if (embedder) {
    ctx.progress(0.6, stageText('visual_tags'));
    const [vector] = await embedder.embedImages([frame]);
    tags = tagsFor(vector, await labelVectors(embedder), language);
    frameVectors = { model: embedder.modelId, dims: embedder.dims, items: [{ episodeIndex: 0, time: 0, vector }] };
  } else {
    warnings.push(warning('analysis_no_visual_tags', { reason: ctx.models.pulled('image_text').reason ?? 'not installed' }));
  }
  ctx.signal.throwIfAborted();

  ctx.progress(0.8, stageText('thumbnails'));
  await mkdir(input.thumbnailDir, { recursive: true });
  const thumbnail = join(input.thumbnailDir, 'ep-0.jpg');
  await writeJpeg(await thumbnailBytes, thumbnail);

  const seen: VisualEntry[] = ocr.length || tags.length ? [{ start: 0, end: 0, ocr, tags, summary: describeVisual(ocr, tags, language) }] : [];
  // A picture with nothing recognised has no summary: no words of ours stand in for content (issue 34).
  const summary = seen[0]?.summary ?? '';
  const episode: EpisodeAnalysis = { index: 0, start: 0, end: 0, audio: [], visual: seen, summary, thumbnail, thumbnailTime: 0 };

  let passageVectors: MediaAnalysis['passageVectors'] = null;
  const textEmbedder = await ctx.models.textEmbedder();
  if (textEmbedder) {
    const [v] = await textEmbedder.embedPassages([[input.title ?? '', summary, ...ocr].join(' ').slice(0, 2000)]);
    passageVectors = { model: textEmbedder.modelId, dims: textEmbedder.dims, items: [{ episodeIndex: 0, time: 0, vector: v }] };
  }
  ctx.progress(1, stageText('done'));
  return {
    type: 'image',
    duration: 0,
    ...shown,
    language,
    title: input.title,
    transcript: [],
    transcriptSource: 'none',
    screenText: ocr.length ? [{ start: 0, end: 0, text: ocr.join('\n') }] : [],
    visual: seen,
    episodes: [episode],
    summary,
    warnings,
    passageVectors,
    frameVectors,
    framePrints: [print],
  };
}
