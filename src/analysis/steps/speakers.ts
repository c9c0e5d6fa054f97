import { lineSpeakers, MAX_EDGE_WINDOWS, pieceTurns, speakerTurns, voicePrints, windowSeconds } from '../speakers.js';
import { voicePieces } from '../voice-pieces.js';
import { voiceWindows } from '../../media/voice-features.js';
import type { Span } from '../../tools/time-spans.js';
import type { AnalysisStep, StepContext } from './step.js';

/** Seconds of speech per voice window: long enough that what is said averages out and the voice remains. */
const WINDOW_SECONDS = 2;
/** Seconds per short window, on which a turn's edges are found. */
const EDGE_SECONDS = 0.5;

/**
 * Who speaks when (analysis/speakers.ts): the speech found (the voice activity the transcript step ran, else
 * the transcript's own lines) listened to piece by piece, the pieces grouped by voice into anonymous turns,
 * and each transcript line given the speaker of the turn that covers most of it. With no model a piece's
 * voice is its pitch and MFCCs; with the pulled speaker pair it is the embedder's vector of a stretch the
 * segmentation model found to be one voice (`speakersModel` names the embedder). A recording without speech
 * has no speakers. Where the collection groups voices, each speaker's voiceprint too.
 * @example
 * speakersStep.fills; // ['speakers', 'speakersModel', 'transcript', 'voices']
 */
export const speakersStep: AnalysisStep = {
  stage: 'speakers',
  share: 0.03,
  reads: ['probe', 'transcribed', 'transcript'],
  fills: ['speakers', 'speakersModel', 'transcript', 'voices'],
  when: (w) => Boolean(w.probe?.audio),
  async run(w, ctx) {
    const transcript = w.transcript ?? [];
    const speech = w.transcribed?.speech.length ? w.transcribed.speech : transcript;
    const seconds = speech.reduce((s, x) => s + Math.max(0, x.end - x.start), 0);
    if (seconds === 0) return { speakers: [] };
    const pair = await ctx.models.speakerModels();
    const pieces = pair ? await voicePieces(w.input.file, speech, { ...pair, signal: ctx.signal, tools: ctx.models.tools }) : null;
    const byModel = pair && pieces ? pieceTurns(pieces, pair.embedder.sameSpeaker) : null;
    // The model-free windows are still heard where a voiceprint is wanted: a print keeps its MFCC part, so
    // people grouped before a model was pulled (or after it is removed) still match.
    const windows = !byModel || w.input.voices ? await featureWindows(w.input.file, speech, seconds, ctx) : null;
    const speakers = byModel ?? speakerTurns(windows![0]!, windows![1]);
    const by = lineSpeakers(transcript, speakers);
    // A voiceprint is biometric: made only when the collection groups voices (`voices` on).
    const embedded = pair && pieces ? { pieces, model: pair.embedder.modelId, sameCosine: pair.embedder.sameSpeaker } : undefined;
    const voices = w.input.voices ? voicePrints(windows![0]!, speakers, embedded) : null;
    return {
      speakers,
      ...(pair && byModel ? { speakersModel: pair.segmenter ? `${pair.segmenter.modelId}+${pair.embedder.modelId}` : pair.embedder.modelId } : {}),
      transcript: transcript.map((line, i) => (by[i] ? { ...line, speaker: by[i] } : line)),
      ...(voices ? { voices } : {}),
    };
  },
};

/** The model-free voice windows of the speech: long ones that tell voices apart, short ones that find a turn's edges. */
function featureWindows(file: string, speech: readonly Span[], seconds: number, ctx: StepContext) {
  return voiceWindows(file, speech, { windowSec: [windowSeconds(seconds, WINDOW_SECONDS), windowSeconds(seconds, EDGE_SECONDS, MAX_EDGE_WINDOWS)], signal: ctx.signal, tools: ctx.models.tools });
}
