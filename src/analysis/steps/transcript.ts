import { otherSubtitleTracks } from '../subtitle-tracks.js';
import { guessLanguage } from '../text-stats.js';
import { transcribeMedia } from '../transcript.js';
import { SPEECH_NOT_TRANSCRIBED_KEY } from '../speech-warning.js';
import { isWarning, warning } from '../warnings.js';
import type { AnalysisStep } from './step.js';

/**
 * What is said: a sidecar or embedded subtitle track, else Whisper over the speech VAD finds, else nothing
 * with a warning; the media's other subtitle tracks beside it; and the language the item is analysed in.
 * @example
 * transcriptStep.fills; // ['transcribed', 'language', 'transcript', 'transcriptSource', 'otherTracks']
 */
export const transcriptStep: AnalysisStep = {
  stage: 'transcript',
  stages: ['voice_activity', 'speech_recognition'],
  share: 0.37,
  reads: ['probe'],
  fills: ['transcribed', 'language', 'transcript', 'transcriptSource', 'otherTracks'],
  async run(w, ctx) {
    const { input } = w;
    const probe = w.probe!;
    const transcribed = await transcribeMedia(input.file, probe, { sourcePath: input.sourcePath, language: input.language, models: ctx.models, signal: ctx.signal, progress: ctx.progress });
    const language = input.language ?? transcribed.language ?? guessLanguage(transcribed.segments.map((t) => t.text)) ?? 'en';
    // An untagged transcript track is in the language the item is analysed in.
    const fromSubtitles = transcribed.source === 'sidecar' || transcribed.source === 'embedded';
    const otherTracks = fromSubtitles ? otherSubtitleTracks(transcribed.trackLanguage ?? language, transcribed.otherTracks) : { languages: [], tracks: [] };
    const warnings = [...transcribed.warnings];
    if (transcribed.source === 'none' && probe.audio && !warnings.some((x) => isWarning(x, SPEECH_NOT_TRANSCRIBED_KEY))) warnings.push(warning('analysis_no_transcript'));
    return { transcribed, language, transcript: transcribed.segments, transcriptSource: transcribed.source, otherTracks, warnings };
  },
};
