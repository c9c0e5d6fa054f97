import { lineSpeakers, MAX_EDGE_WINDOWS, speakerTurns, voicePrints, windowSeconds } from '../speakers.js';
import { voiceWindows } from '../../media/voice-features.js';
import type { AnalysisStep } from './step.js';

/** Seconds of speech per voice window: long enough that what is said averages out and the voice remains. */
const WINDOW_SECONDS = 2;
/** Seconds per short window, on which a turn's edges are found. */
const EDGE_SECONDS = 0.5;

/**
 * Who speaks when (analysis/speakers.ts), with no model: the speech found (the voice activity the transcript
 * step ran, else the transcript's own lines) listened to window by window, the windows grouped by voice into
 * anonymous turns, and each transcript line given the speaker of the turn that covers most of it. A recording
 * without speech has no speakers. Where the collection groups voices, each speaker's voiceprint too.
 * @example
 * speakersStep.fills; // ['speakers', 'transcript', 'voices']
 */
export const speakersStep: AnalysisStep = {
  stage: 'speakers',
  share: 0.03,
  reads: ['probe', 'transcribed', 'transcript'],
  fills: ['speakers', 'transcript', 'voices'],
  when: (w) => Boolean(w.probe?.audio),
  async run(w, ctx) {
    const transcript = w.transcript ?? [];
    const speech = w.transcribed?.speech.length ? w.transcribed.speech : transcript;
    const seconds = speech.reduce((s, x) => s + Math.max(0, x.end - x.start), 0);
    if (seconds === 0) return { speakers: [] };
    const [windows, edges] = await voiceWindows(w.input.file, speech, { windowSec: [windowSeconds(seconds, WINDOW_SECONDS), windowSeconds(seconds, EDGE_SECONDS, MAX_EDGE_WINDOWS)], signal: ctx.signal, tools: ctx.models.tools });
    const speakers = speakerTurns(windows!, edges);
    const by = lineSpeakers(transcript, speakers);
    // A voiceprint is biometric: made only when the collection groups voices (`voices` on).
    const voices = w.input.voices ? voicePrints(windows!, speakers) : null;
    return { speakers, transcript: transcript.map((line, i) => (by[i] ? { ...line, speaker: by[i] } : line)), ...(voices ? { voices } : {}) };
  },
};
