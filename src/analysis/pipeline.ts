/**
 * The analysis of one audio or video file: the steps of steps/, in order. Each step is a file that says what it
 * reads and fills; this file lists them and makes the analysis of what they filled. Still pictures have their
 * own short path (image.ts).
 */
import type { MediaProbe } from '../media/index.js';
import { episodesStep } from './steps/episodes.js';
import { facesStep } from './steps/faces.js';
import { picturesStep } from './steps/pictures.js';
import { probeStep } from './steps/probe.js';
import { runSteps } from './steps/run.js';
import { shotsStep } from './steps/shots.js';
import { soundStep } from './steps/sound.js';
import { speakersStep } from './steps/speakers.js';
import type { AnalysisStep, PipelineContext, PipelineInput, Work } from './steps/step.js';
import { summariesStep } from './steps/summaries.js';
import { textVectorsStep } from './steps/text-vectors.js';
import { thumbnailsStep } from './steps/thumbnails.js';
import { transcriptStep } from './steps/transcript.js';
import { videoSummaryStep } from './steps/video-summary.js';
import { visualStep } from './steps/visual.js';
import type { MediaAnalysis } from './types.js';

export type { PipelineContext, PipelineInput } from './steps/step.js';

/**
 * The steps of an audio or video analysis, in the order they run (their shares of the progress add up to 1).
 * @example
 * VIDEO_STEPS.map((s) => s.stage); // ['probing', 'transcript', 'shot_detection', 'on_screen_text', 'sound', …]
 */
export const VIDEO_STEPS: readonly AnalysisStep[] = [
  probeStep,
  transcriptStep,
  shotsStep,
  visualStep,
  soundStep,
  speakersStep,
  facesStep,
  episodesStep,
  picturesStep,
  summariesStep,
  thumbnailsStep,
  videoSummaryStep,
  textVectorsStep,
];

/**
 * Analyses one media file: probe, transcript, shots and on-screen text, sound, speakers, faces, episodes, summaries,
 * thumbnails and (when the models are installed) vectors. Failures of the file itself throw a MediaError; a
 * missing model only adds a warning.
 * @example
 * const analysis = await analyzeFile({ file, sourcePath: file, title: null, metadata: null, language: 'en', thumbnailDir }, ctx);
 */
export async function analyzeFile(input: PipelineInput, ctx: PipelineContext): Promise<MediaAnalysis> {
  return analysisOf(await runSteps(VIDEO_STEPS, { input, warnings: [] }, ctx));
}

/**
 * Every field of an analysis, optional ones too: the object below names each, so a field added to the schema
 * and left out here fails the build instead of being dropped between a step and the cache.
 */
type EveryField = Record<keyof MediaAnalysis, unknown> & { [K in keyof MediaAnalysis]?: MediaAnalysis[K] | undefined };

/** The analysis the steps' work makes. */
function analysisOf(w: Work): MediaAnalysis {
  const probe = w.probe!;
  const episodes = w.episodes!;
  const frameVectors = w.seen?.frameVectors
    ? { ...w.seen.frameVectors, items: w.seen.frameVectors.items.map((v) => ({ ...v, episodeIndex: episodes.findIndex((e) => v.time >= e.start && v.time < e.end) })) }
    : null;
  const analysis: EveryField = {
    type: probe.video ? 'video' : 'audio',
    duration: probe.durationSec,
    ...shownSize(probe),
    language: w.language!,
    title: w.input.title ?? probe.tags.title ?? null,
    transcript: w.transcript!,
    transcriptSource: w.transcriptSource!,
    subtitleLanguages: w.otherTracks!.languages,
    subtitleTracks: w.otherTracks!.tracks,
    screenText: w.screenText ?? [],
    visual: w.visual ?? [],
    episodes,
    summary: w.summary!,
    warnings: w.warnings,
    passageVectors: w.passageVectors ?? null,
    frameVectors,
    framePrints: w.framePrints ?? [],
    frameSequence: w.frameSequence ?? null,
    soundPrint: w.soundPrint ?? null,
    speakers: w.speakers ?? [],
    speakersModel: w.speakersModel,
    faces: w.faces ?? null,
    facesSamePerson: w.facesSamePerson ?? null,
    voices: w.voices,
  };
  // An absent optional field is left out, not written as undefined (the cache's JSON, a delivery's schema).
  return Object.fromEntries(Object.entries(analysis).filter(([, v]) => v !== undefined)) as MediaAnalysis;
}

/** The video's size as shown: a quarter turn swaps width and height. */
function shownSize(probe: MediaProbe): { width: number | null; height: number | null } {
  const v = probe.video;
  if (!v) return { width: null, height: null };
  const turned = v.rotation === 90 || v.rotation === 270;
  return { width: turned ? v.height : v.width, height: turned ? v.width : v.height };
}
