import { extractFrames, thumbnailJpeg, type MediaProbe, type VideoFrame } from '../media/index.js';
import type { FrameSequence } from '../media/scenes.js';
import type { Shots } from './shots.js';
import type { ModelRuntime } from '../ml/runtime.js';
import type { ImageTextEmbedder } from '../ml/embed/index.js';
import { describeVisual } from './phrases.js';
import { screenLines } from './screen-lines.js';
import { dot } from '../tools/vectors.js';
import { framePrint } from '../media/perceptual.js';
import type { EpisodeVector, TimedPrint, TimedText, VisualEntry } from './types.js';
import type { StageCode } from './stages.js';
import { visualPrompt, VISUAL_VOCABULARY } from './vocabulary.js';
import type { Lang } from '../messages/index.js';
import { type AnalysisWarning, warning } from './warnings.js';

/** What the visual pass found. */
export interface VisualResult {
  cuts: { time: number; score: number }[];
  keyframes: number[];
  /** OCR text, repeats merged into one timed entry. */
  screenText: TimedText[];
  entries: VisualEntry[];
  frameVectors: { model: string; dims: number; items: EpisodeVector[] } | null;
  /** The perceptual fingerprint of every keyframe. */
  prints: TimedPrint[];
  /** The 64-bit hashes of frames at a steady rate, from the scene detection's decoding pass (duplicates). */
  sequence: FrameSequence | null;
  /** Thumbnail JPEGs of the keyframes by time (the first {@link KEYFRAME_THUMBNAILS}): an episode's thumbnail is its first keyframe. */
  thumbnails: Map<number, Buffer>;
  warnings: AnalysisWarning[];
}

/**
 * Keyframe thumbnails kept in memory for the episodes (about 15 KB each): past this many an episode's
 * thumbnail is decoded again from the file.
 */
export const KEYFRAME_THUMBNAILS = 2000;

/** A 16×9 grey thumbnail, for skipping OCR on frames that did not change. */
function signature(f: VideoFrame): Float32Array {
  const sig = new Float32Array(16 * 9);
  for (let y = 0; y < 9; y++) {
    for (let x = 0; x < 16; x++) {
      const px = Math.floor(((x + 0.5) * f.width) / 16);
      const py = Math.floor(((y + 0.5) * f.height) / 9);
      const o = (py * f.width + px) * 3;
      sig[y * 16 + x] = (f.data[o] + f.data[o + 1] + f.data[o + 2]) / 765;
    }
  }
  return sig;
}

function sameFrame(a: Float32Array | null, b: Float32Array): boolean {
  if (!a) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d += Math.abs(a[i] - b[i]);
  return d / a.length < 0.01;
}

function normalise(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

function similarText(a: string, b: string): boolean {
  const wa = new Set(normalise(a).split(' ').filter(Boolean));
  const wb = new Set(normalise(b).split(' ').filter(Boolean));
  if (wa.size === 0 && wb.size === 0) return true;
  let inter = 0;
  for (const w of wa) if (wb.has(w)) inter++;
  return inter / Math.max(1, wa.size + wb.size - inter) >= 0.7;
}

const labelCache = new Map<string, Float32Array[]>();

/**
 * The text vectors of the tag vocabulary for an image-text model, computed once per model.
 * @example
 * const labels = await labelVectors(embedder);
 */
export async function labelVectors(embedder: ImageTextEmbedder): Promise<Float32Array[]> {
  let v = labelCache.get(embedder.modelId);
  if (!v) {
    v = await embedder.embedTexts(VISUAL_VOCABULARY.map(([en]) => visualPrompt(en)));
    labelCache.set(embedder.modelId, v);
  }
  return v;
}

/**
 * Zero-shot tags: labels whose softmax share (CLIP's logit scale of 100) is clearly above the rest.
 * @example
 * tagsFor(frameVector, await labelVectors(embedder), 'en'); // ['beach', 'sea']
 */
export function tagsFor(vector: Float32Array, labels: Float32Array[], language: Lang): string[] {
  const logits = labels.map((l) => 100 * dot(vector, l));
  const max = Math.max(...logits);
  const exp = logits.map((x) => Math.exp(x - max));
  const sum = exp.reduce((a, b) => a + b, 0);
  return exp
    .map((e, i) => ({ p: e / sum, i }))
    .filter((x) => x.p >= 0.15)
    .sort((a, b) => b.p - a.p)
    .slice(0, 3)
    .map((x) => VISUAL_VOCABULARY[x.i][language === 'de' ? 1 : 0]);
}

/**
 * Keyframes, on-screen text, visual tags and frame vectors of a video, within its shots as their pass finds
 * them (the keyframes of the first shots are read while the pass goes on). Decodes only the keyframes, reads
 * each changed frame once with OCR and merges repeats of the same text into one timed entry.
 * @example
 * const v = await analyzeVisual(file, probe, findShots(file, probe, { models, signal }), { models, language: 'en', signal, progress });
 * v.screenText; // [{ start: 0, end: 8, text: 'Apfelkuchen Rezept' }, …]
 */
export async function analyzeVisual(
  file: string,
  probe: MediaProbe,
  shots: Shots,
  opts: { models: ModelRuntime; language: Lang; signal: AbortSignal; progress: (fraction: number, stage: StageCode) => void; onFrame?: (frame: VideoFrame) => Promise<void> },
): Promise<VisualResult> {
  const warnings: AnalysisWarning[] = [];
  const duration = probe.durationSec;
  const keyframes: number[] = [];
  // The keyframes of the shots the pass has settled are decoded and read while it goes on.
  const settled = async function* (): AsyncGenerator<number> {
    for await (const t of shots.keyframes(duration)) {
      keyframes.push(t);
      yield t;
    }
  };
  const embedder = await opts.models.imageText();
  if (!embedder) warnings.push(warning('analysis_no_visual_tags', { reason: opts.models.pulled('image_text').reason ?? 'not installed' }));
  const labels = embedder ? await labelVectors(embedder) : null;
  const ocr = opts.models.ocr();

  const perFrame: { time: number; text: string; tags: string[] }[] = [];
  const prints: TimedPrint[] = [];
  const thumbnails = new Map<number, Buffer>();
  const vectors: EpisodeVector[] = [];
  let lastSig: Float32Array | null = null;
  let lastText = '';
  let batch: VideoFrame[] = [];
  // A keyframe that looks like the last one sent to CLIP (a static slide, a still shot) reuses its vector and
  // tags: on the stand-in bench a CLIP image costs ~0.1-0.2 s, and most keyframes of slides and talks repeat.
  let lastClip: { sig: Float32Array; time: number } | null = null;
  const repeats = new Map<number, number>();
  const flush = async () => {
    if (!embedder || !labels || batch.length === 0) return;
    const vecs = await embedder.embedImages(batch.map((f) => ({ data: f.data, width: f.width, height: f.height })));
    vecs.forEach((v, i) => {
      vectors.push({ episodeIndex: -1, time: batch[i].time, vector: v });
      const entry = perFrame.find((p) => p.time === batch[i].time);
      if (entry) entry.tags = tagsFor(v, labels, opts.language);
    });
    batch = [];
  };
  for await (const frame of extractFrames(file, settled(), { signal: opts.signal, tools: opts.models.tools, probe, maxWidth: 1280 })) {
    await opts.onFrame?.(frame);
    prints.push({ time: frame.time, ...framePrint(frame) });
    if (thumbnails.size < KEYFRAME_THUMBNAILS) thumbnails.set(frame.time, await thumbnailJpeg(frame));
    const sig = signature(frame);
    let text = lastText;
    if (!sameFrame(lastSig, sig)) {
      const lines = await ocr.recognize({ data: frame.data, width: frame.width, height: frame.height }, { language: opts.language, signal: opts.signal });
      text = screenLines(lines).join('\n');
    }
    lastSig = sig;
    lastText = text;
    perFrame.push({ time: frame.time, text, tags: [] });
    if (embedder && lastClip && sameFrame(lastClip.sig, sig)) repeats.set(frame.time, lastClip.time);
    else if (embedder) {
      lastClip = { sig, time: frame.time };
      batch.push(frame);
      if (batch.length >= 8) await flush();
    }
    opts.progress(duration > 0 ? frame.time / duration : 1, 'on_screen_text');
  }
  await flush();
  const { cuts, sequence } = await shots.found;
  for (const [time, source] of repeats) {
    const vector = vectors.find((v) => v.time === source)?.vector;
    const entry = perFrame.find((p) => p.time === time);
    if (vector) vectors.push({ episodeIndex: -1, time, vector });
    if (entry) entry.tags = perFrame.find((p) => p.time === source)?.tags ?? [];
  }
  vectors.sort((a, b) => a.time - b.time);

  // Each keyframe speaks for the stretch up to the next keyframe (the first from the start of its shot).
  const cutTimes = cuts.map((c) => c.time);
  const spans = perFrame.map((p, i) => {
    const shotStart = Math.max(0, ...cutTimes.filter((c) => c <= p.time));
    const prev = perFrame[i - 1];
    const start = prev && prev.time >= shotStart ? p.time : shotStart;
    const next = perFrame[i + 1];
    return { ...p, start: i === 0 ? 0 : start, end: next ? next.time : duration };
  });
  for (let i = 1; i < spans.length; i++) spans[i - 1].end = spans[i].start;

  const screenText: TimedText[] = [];
  const entries: VisualEntry[] = [];
  for (const s of spans) {
    const lastScreen = screenText[screenText.length - 1];
    if (s.text && lastScreen && lastScreen.end >= s.start - 0.01 && similarText(lastScreen.text, s.text)) lastScreen.end = s.end;
    else if (s.text) screenText.push({ start: s.start, end: s.end, text: s.text });
    const lines = s.text ? s.text.split('\n') : [];
    const last = entries[entries.length - 1];
    if (last && last.end >= s.start - 0.01 && similarText(last.ocr.join(' '), s.text) && sameTags(last.tags, s.tags)) {
      last.end = s.end;
    } else if (lines.length || s.tags.length) {
      entries.push({ start: s.start, end: s.end, ocr: lines, tags: s.tags, summary: describeVisual(lines, s.tags, opts.language) });
    }
  }
  return {
    cuts,
    keyframes,
    screenText,
    entries,
    frameVectors: embedder ? { model: embedder.modelId, dims: embedder.dims, items: vectors } : null,
    prints,
    sequence,
    thumbnails,
    warnings,
  };
}

function sameTags(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((t) => b.includes(t));
}
