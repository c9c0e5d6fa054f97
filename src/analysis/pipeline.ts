import { join } from 'node:path';
import { extractFrames, probeMedia, writeJpeg, writeThumbnail, type MediaProbe } from '../media/index.js';
import { writeWaveform } from '../media/waveform.js';
import { soundPrint } from '../media/sound-print.js';
import type { ModelRuntime } from '../ml/runtime.js';
import { cutEpisodes } from './episodes.js';
import { episodeSummary } from './phrases.js';
import { pictureStretches, picturesOf } from './pictures.js';
import { belongsTo, clip, owningSpans } from './spans.js';
import { extractiveSummary, videoSummary, type SentenceEmbedder } from './summarize.js';
import { guessLanguage } from './text-stats.js';
import { transcribeMedia } from './transcript.js';
import { otherSubtitleTracks } from './subtitle-tracks.js';
import type { EpisodeAnalysis, MediaAnalysis, TimedPicture, TimedText, VisualEntry } from './types.js';
import { analyzeVisual, type VisualResult } from './visual.js';
import { startFaceScan } from './faces.js';
import type { Lang } from '../messages/index.js';

/** One media file to analyse. */
export interface PipelineInput {
  file: string;
  /** The original path for `path` sources (sidecar subtitles sit next to it). */
  sourcePath: string | null;
  title: string | null;
  metadata: Record<string, unknown> | null;
  /** The language asked for (index_language); null lets the media decide. */
  language: Lang | null;
  /** Folder that receives the episode thumbnails (ep-<n>.jpg) and face crops (face-<n>.jpg). */
  thumbnailDir: string;
  /** Look for faces (a collection setting; off by default: faces are biometric data). */
  faces?: boolean;
}

/** Runs stage by stage with cancellation and progress. */
export interface PipelineContext {
  models: ModelRuntime;
  signal: AbortSignal;
  progress: (fraction: number, stage: string) => void;
}

function metadataWords(meta: Record<string, unknown> | null): string[] {
  if (!meta) return [];
  return Object.values(meta).filter((v): v is string => typeof v === 'string');
}

/**
 * Analyses one media file: probe, transcript, shots and on-screen text, episodes, summaries,
 * thumbnails and (when the models are installed) vectors. Failures of the file itself throw a
 * MediaError; a missing model only adds a warning.
 * @example
 * const analysis = await analyzeFile({ file, sourcePath: file, title: null, metadata: null, language: 'en', thumbnailDir }, ctx);
 */
export async function analyzeFile(input: PipelineInput, ctx: PipelineContext): Promise<MediaAnalysis> {
  const stage = (from: number, to: number) => (f: number, name: string) => ctx.progress(from + (to - from) * Math.min(1, Math.max(0, f)), name);
  ctx.progress(0, 'probing');
  const probe: MediaProbe = await probeMedia(input.file, { signal: ctx.signal, tools: ctx.models.tools });
  const duration = probe.durationSec;
  const hasVideo = Boolean(probe.video);

  const transcript = await transcribeMedia(input.file, probe, {
    sourcePath: input.sourcePath,
    language: input.language,
    models: ctx.models,
    signal: ctx.signal,
    progress: stage(0.05, hasVideo ? 0.45 : 0.85),
  });
  const language = input.language ?? transcript.language ?? guessLanguage(transcript.segments.map((t) => t.text)) ?? 'en';
  // An untagged transcript track is in the language the item is analysed in.
  const fromSubtitles = transcript.source === 'sidecar' || transcript.source === 'embedded';
  const subtitles = fromSubtitles ? otherSubtitleTracks(transcript.trackLanguage ?? language, transcript.otherTracks) : { languages: [], tracks: [] };

  let visual: VisualResult = { cuts: [], keyframes: [], screenText: [], entries: [], frameVectors: null, prints: [], sequence: null, thumbnails: new Map(), warnings: [] };
  const faceScan = input.faces && hasVideo ? await startFaceScan(ctx.models) : null;
  if (hasVideo) visual = await analyzeVisual(input.file, probe, { models: ctx.models, language, signal: ctx.signal, progress: stage(0.45, 0.85), onFrame: faceScan ? (f) => faceScan.add(f) : undefined });
  // Duplicates ask the sound as well as the frames: two slides of one colour with other voices are no copies.
  const sound = hasVideo && probe.audio ? await soundPrint(input.file, { signal: ctx.signal, tools: ctx.models.tools }) : null;
  const faces = faceScan
    ? await faceScan.finish(visual.cuts.map((c) => c.time), duration, input.thumbnailDir, (times) => extractFrames(input.file, times, { signal: ctx.signal, tools: ctx.models.tools, probe, maxWidth: 1280 }))
    : null;

  ctx.progress(0.86, 'episodes');
  const cuts = cutEpisodes({
    duration,
    shots: visual.cuts,
    transcript: transcript.segments.length ? transcript.segments : transcript.speech.map((s) => ({ ...s, text: '' })),
    textChanges: visual.screenText.map((t) => t.start).filter((t) => t > 0),
  });

  const textEmbedder = await ctx.models.textEmbedder();
  const embed: SentenceEmbedder = textEmbedder ? (texts) => textEmbedder.embedPassages(texts) : null;
  const boost = [input.title ?? '', ...metadataWords(input.metadata)];

  const pictures = await writePictures(visual, input.thumbnailDir);
  const episodes: EpisodeAnalysis[] = [];
  // Each transcript line belongs to one episode only: the one it owningSpans most.
  const owner = owningSpans(transcript.segments, cuts.map(([start, end]) => ({ start, end })));
  const lines = cuts.map((): TimedText[] => []);
  transcript.segments.forEach((line, k) => {
    lines[owner[k]!]?.push(line);
  });
  for (let i = 0; i < cuts.length; i++) {
    const [start, end] = cuts[i];
    const audio = lines[i]!;
    // A shot that only runs a moment into this episode belongs to the one before (its text is not ours).
    const seen: VisualEntry[] = visual.entries.filter((v) => belongsTo(v, { start, end })).map((v) => clip(v, start, end));
    const spoken = await extractiveSummary(audio.map((a) => a.text), 2, embed, boost);
    const screen = [...new Set(seen.flatMap((v) => v.ocr))].slice(0, 3);
    const tags = [...new Set(seen.flatMap((v) => v.tags))].slice(0, 4);
    const keyframe = visual.keyframes.find((t) => t >= start && t < end);
    episodes.push({
      index: i,
      start,
      end,
      audio,
      visual: seen,
      summary: episodeSummary(spoken, screen, tags, language),
      thumbnail: null,
      thumbnailTime: keyframe ?? start + (end - start) / 2,
      // Copies: each episode's paths are rewritten on their own later (relative to the data dir, renamed).
      ...(pictures.length ? { pictures: picturesOf(pictures, start, end).map((p) => ({ ...p })) } : {}),
    });
    ctx.progress(0.86 + (0.06 * (i + 1)) / cuts.length, 'summaries');
  }

  for (const ep of episodes) {
    const out = join(input.thumbnailDir, `ep-${ep.index}.jpg`);
    // Audio shows its episode's sound as a waveform, so a voice memo has a picture of its own.
    // A keyframe's thumbnail was made from the frame the visual pass decoded; any other time is decoded again.
    const keyframeJpeg = visual.thumbnails.get(ep.thumbnailTime);
    if (keyframeJpeg) {
      await writeJpeg(keyframeJpeg, out);
      ep.thumbnail = out;
    } else {
      ep.thumbnail = hasVideo
        ? (await writeThumbnail(input.file, ep.thumbnailTime, out, { signal: ctx.signal, tools: ctx.models.tools, probe })).path
        : (await writeWaveform(input.file, ep.start, ep.end - ep.start, out, { signal: ctx.signal, tools: ctx.models.tools })).path;
    }
    ctx.progress(0.92 + (0.06 * (ep.index + 1)) / episodes.length, 'thumbnails');
  }

  // One sentence per episode (or run of episodes): what was said, else what was shown as text.
  const parts = episodes.map((e) => {
    const said = e.audio.map((a) => a.text);
    return said.length ? said : [...new Set(e.visual.flatMap((v) => v.ocr))].map((line) => (/[.!?…]$/.test(line) ? line : `${line}.`));
  });
  const summary = await videoSummary(parts, embed, boost);

  let passageVectors: MediaAnalysis['passageVectors'] = null;
  if (textEmbedder) {
    ctx.progress(0.98, 'text vectors');
    const texts = episodes.map((e) => [input.title ?? '', e.summary, ...e.audio.map((a) => a.text), ...e.visual.flatMap((v) => v.ocr)].join(' ').slice(0, 2000));
    const vecs = await textEmbedder.embedPassages(texts);
    passageVectors = { model: textEmbedder.modelId, dims: textEmbedder.dims, items: vecs.map((v, i) => ({ episodeIndex: i, time: episodes[i].start, vector: v })) };
  } else {
    transcript.warnings.push(`summaries ranked lexically and no semantic text search: the text embedding model is ${ctx.models.capabilities().text_embedding.reason ?? 'not installed'}`);
  }
  const frameVectors = visual.frameVectors
    ? { ...visual.frameVectors, items: visual.frameVectors.items.map((v) => ({ ...v, episodeIndex: episodes.findIndex((e) => v.time >= e.start && v.time < e.end) })) }
    : null;

  const warnings = [...transcript.warnings, ...visual.warnings, ...(faceScan?.warnings ?? [])];
  if (transcript.source === 'none' && probe.audio && !warnings.some((w) => w.startsWith('speech'))) warnings.push('no transcript: no subtitles and no speech found');
  ctx.progress(1, 'done');
  return {
    type: hasVideo ? 'video' : 'audio',
    duration,
    ...shownSize(probe),
    language,
    title: input.title ?? probe.tags.title ?? null,
    transcript: transcript.segments,
    transcriptSource: transcript.source,
    subtitleLanguages: subtitles.languages,
    subtitleTracks: subtitles.tracks,
    screenText: visual.screenText,
    visual: visual.entries,
    episodes,
    summary,
    warnings,
    passageVectors,
    frameVectors,
    framePrints: visual.prints,
    frameSequence: visual.sequence,
    soundPrint: sound,
    faces,
    facesSamePerson: faceScan?.samePerson ?? null,
  };
}

/**
 * Writes a thumbnail of each picture of the video (pic-<n>.jpg, from the keyframes the visual pass decoded:
 * nothing is decoded again) and answers the pictures; none for audio. A picture past the keyframes whose
 * thumbnails were kept has none (its stretch still ends the one before).
 */
async function writePictures(visual: VisualResult, dir: string): Promise<TimedPicture[]> {
  const out: TimedPicture[] = [];
  for (const [n, p] of pictureStretches(visual.prints, visual.cuts.map((c) => c.time)).entries()) {
    const jpeg = visual.thumbnails.get(p.time);
    const path = jpeg ? join(dir, `pic-${n}.jpg`) : null;
    if (jpeg && path) await writeJpeg(jpeg, path);
    out.push({ ...p, thumbnail: path });
  }
  return out;
}

/** The video's size as shown: a quarter turn swaps width and height. */
function shownSize(probe: MediaProbe): { width: number | null; height: number | null } {
  const v = probe.video;
  if (!v) return { width: null, height: null };
  const turned = v.rotation === 90 || v.rotation === 270;
  return { width: turned ? v.height : v.width, height: turned ? v.width : v.height };
}
