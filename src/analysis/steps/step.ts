/**
 * What an analysis step is: one file in steps/, one thing the pipeline learns of a media file. A step says
 * which stage it reports, its share of the analysis's progress, what it reads of the work so far and what it
 * fills in; the pipeline (pipeline.ts) lists its steps in order and hands each the work so far (run.ts runs a
 * step as soon as the steps before it that it depends on are done, so steps that share nothing run side by side). A new sense
 * (voices, say) is a new step file, a line in the pipeline's list, and where its output is stored.
 */
import type { FaceScan } from '../faces.js';
import type { Lang } from '../../messages/index.js';
import type { MediaProbe } from '../../media/index.js';
import type { ModelRuntime } from '../../ml/runtime.js';
import type { SentenceEmbedder } from '../summarize.js';
import type { StageCode } from '../stages.js';
import type { TranscriptResult } from '../transcript.js';
import type { MediaAnalysis, SubtitleTrack, TimedPicture } from '../types.js';
import type { Shots } from '../shots.js';
import type { VisualResult } from '../visual.js';
import type { AnalysisWarning } from '../warnings.js';

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
  /** Make each speaker's voiceprint (a collection setting; off by default: voiceprints are biometric data). */
  voices?: boolean;
}

/** Runs stage by stage with cancellation and progress (the stage as its English words, see stages.ts). */
export interface PipelineContext {
  models: ModelRuntime;
  signal: AbortSignal;
  progress: (fraction: number, stage: string) => void;
}

/**
 * The work so far: the input, what steps learned on the way (the probe, the transcript, the visual pass, the
 * episodes' spans) and the output fields they filled. Each step reads what it declares and fills what it
 * declares; the pipeline makes the analysis from it at the end.
 */
export interface Work extends Partial<MediaAnalysis> {
  input: PipelineInput;
  probe?: MediaProbe;
  transcribed?: TranscriptResult;
  /** A video's shots, filled as soon as their pass starts (the visual pass reads the first while it goes on). */
  shots?: Shots;
  seen?: VisualResult;
  faceScan?: FaceScan | null;
  /** The episodes' spans, in order. */
  spans?: [number, number][];
  /** The thumbnails of the video's distinct pictures. */
  stills?: TimedPicture[];
  /** Ranks sentences for summaries: the text embedder's, else null (lexical). */
  embed?: SentenceEmbedder;
  /** Title and metadata words that raise the sentences holding them in summaries. */
  boost?: string[];
  /** The other subtitle tracks (output fields subtitleLanguages and subtitleTracks are made from them). */
  otherTracks?: { languages: string[]; tracks: SubtitleTrack[] };
  warnings: AnalysisWarning[];
}

/** The keys of the work a step may read or fill. */
export type WorkKey = Exclude<keyof Work, 'input' | 'warnings'>;

/** What a step is given besides the work. */
export interface StepContext {
  models: ModelRuntime;
  signal: AbortSignal;
  /** Progress inside the step, 0..1, in one of its stages. */
  progress: (fraction: number, stage: StageCode) => void;
  /** Fills fields the step declares `early` before it ends (a field it does not declare early throws). */
  fill: (out: StepOutput) => void;
}

/**
 * One step of the pipeline.
 * @example
 * export const soundStep: AnalysisStep = {
 *   stage: 'sound', share: 0.02, reads: ['probe'], fills: ['soundPrint'],
 *   when: (w) => Boolean(w.probe?.video && w.probe.audio),
 *   run: async (w, ctx) => ({ soundPrint: await soundPrint(w.input.file, { signal: ctx.signal, tools: ctx.models.tools }) }),
 * };
 */
export interface AnalysisStep {
  /** The stage it reports first (its others it names in `stages`). */
  stage: StageCode;
  /** Further stages it reports as it goes. */
  stages?: readonly StageCode[];
  /** Its share of the whole analysis's progress (the shares of the pipeline's steps add up to 1). */
  share: number;
  /** What it needs filled before it runs. */
  reads: readonly WorkKey[];
  /** What it reads when an earlier step filled it (a video's visual pass, say), and goes on without otherwise. */
  uses?: readonly WorkKey[];
  fills: readonly WorkKey[];
  /**
   * What it fills before it ends, with `ctx.fill` (a video's shots while their pass runs): a later step that
   * reads only these of its fields starts then, instead of when it ends.
   */
  early?: readonly WorkKey[];
  /** Whether it runs for this media; always when absent. Its share then passes to the steps after it. */
  when?: (w: Readonly<Work>) => boolean;
  /** What it fills (only the fields it declares) and the warnings it adds. */
  run(w: Readonly<Work>, ctx: StepContext): Promise<StepOutput>;
}

/** What a step hands back: fields it declares in `fills`, and warnings to add to the analysis's. */
export type StepOutput = Partial<Omit<Work, 'input' | 'warnings'>> & { warnings?: AnalysisWarning[] };
