import { decodeAudio, type MediaProbe } from '../media/index.js';
import { streamSpeechSegments, type SpeechSegment } from '../ml/vad/index.js';
import type { ModelRuntime } from '../ml/runtime.js';
import type { TimedText } from './types.js';
import type { StageCode } from './stages.js';
import { SPEECH_NOT_TRANSCRIBED_KEY } from './speech-warning.js';
import { type AnalysisWarning, warning } from './warnings.js';
import { cueLines, readSubtitleTracks, trackLanguage, type FoundTrack } from './subtitle-tracks.js';
import type { Lang } from '../messages/index.js';

/** Where the transcript came from and what it says. */
export interface TranscriptResult {
  segments: TimedText[];
  source: 'sidecar' | 'embedded' | 'asr' | 'none';
  /** Speech regions found by VAD (only computed when ASR runs or no subtitles exist). */
  speech: SpeechSegment[];
  language: Lang | null;
  /** The base language code the transcript's subtitle track is tagged with (`en`, `fr`); null when untagged or not from subtitles. */
  trackLanguage: string | null;
  /** The media's other subtitle tracks with text (see subtitle-tracks.ts). */
  otherTracks: FoundTrack[];
  warnings: AnalysisWarning[];
}

/** Audio is transcribed in blocks of about this length, cut at pauses, so it never sits in memory whole. */
const BLOCK_SECONDS = 300;

/** Groups speech segments into blocks of at most ~BLOCK_SECONDS, each boundary at a pause. */
function blocks(speech: SpeechSegment[]): { start: number; end: number; segments: SpeechSegment[] }[] {
  const out: { start: number; end: number; segments: SpeechSegment[] }[] = [];
  for (const seg of speech) {
    const last = out[out.length - 1];
    if (last && seg.end - last.start <= BLOCK_SECONDS) {
      last.segments.push(seg);
      last.end = seg.end;
    } else out.push({ start: seg.start, end: seg.end, segments: [seg] });
  }
  return out;
}

async function collect(pcm: AsyncIterable<Float32Array>): Promise<Float32Array> {
  const parts: Float32Array[] = [];
  let n = 0;
  for await (const p of pcm) {
    parts.push(p);
    n += p.length;
  }
  const out = new Float32Array(n);
  let o = 0;
  for (const p of parts) {
    out.set(p, o);
    o += p.length;
  }
  return out;
}

/**
 * The best transcript available: a sidecar subtitle next to the source path, else an embedded subtitle
 * stream (preferring `language`), else Whisper over VAD speech regions when the model is installed,
 * else none with a warning. The media's other subtitle tracks come along in `otherTracks`.
 * @example
 * const t = await transcribeMedia(file, probe, { sourcePath, language: 'en', models, signal, progress });
 * t.source; // 'embedded'
 */
export async function transcribeMedia(
  file: string,
  probe: MediaProbe,
  opts: {
    sourcePath: string | null;
    language: Lang | null;
    models: ModelRuntime;
    signal: AbortSignal;
    progress: (fraction: number, stage: StageCode) => void;
  },
): Promise<TranscriptResult> {
  const { signal, language } = opts;
  // Without a language asked for, the sound's own language tag picks among subtitles in several languages.
  const preferred = language ?? asLanguage(probe.audio?.language);
  const warnings: AnalysisWarning[] = [];
  const tracks = await readSubtitleTracks(file, probe, { sourcePath: opts.sourcePath, preferred: preferred ?? undefined, signal, tools: opts.models.tools, warnings });
  if (tracks.primary) {
    const { tag, source, segments } = tracks.primary;
    return { segments, source, speech: [], language: asLanguage(tag) ?? preferred, trackLanguage: trackLanguage(tag) ?? null, otherTracks: tracks.others, warnings };
  }
  const none = { trackLanguage: null, otherTracks: [] };
  if (!probe.audio) return { segments: [], source: 'none', speech: [], language, ...none, warnings };

  opts.progress(0, 'voice_activity');
  const speech: SpeechSegment[] = [];
  const duration = Math.max(1, probe.durationSec);
  for await (const seg of streamSpeechSegments(decodeAudio(file, { signal, tools: opts.models.tools, chunkSeconds: 30 }), { assets: opts.models.setup.assets })) {
    speech.push(seg);
    opts.progress(Math.min(0.3, (0.3 * seg.end) / duration), 'voice_activity');
  }
  const asr = await opts.models.transcriber();
  if (!asr) {
    const why = opts.models.pulled('asr').reason ?? 'not installed';
    if (speech.length) warnings.push(warning(SPEECH_NOT_TRANSCRIBED_KEY, { reason: why }));
    return { segments: [], source: 'none', speech, language, ...none, warnings };
  }
  const segments: TimedText[] = [];
  let detected: Lang | null = language;
  const parts = blocks(speech);
  for (let i = 0; i < parts.length; i++) {
    const b = parts[i];
    opts.progress(0.3 + (0.7 * i) / parts.length, 'speech_recognition');
    const pcm = await collect(decodeAudio(file, { signal, tools: opts.models.tools, startSec: b.start, durationSec: b.end - b.start + 0.05 }));
    const relative = b.segments.map((s) => ({ start: s.start - b.start, end: s.end - b.start }));
    const result = await asr.transcribe(pcm, relative, { language: detected ?? 'auto', candidates: ['en', 'de'], signal });
    detected ??= asLanguage(result.language);
    for (const s of result.segments) segments.push({ start: s.start + b.start, end: s.end + b.start, text: s.text.trim() });
  }
  return { segments: cueLines(segments), source: 'asr', speech, language: detected, ...none, warnings };
}

function asLanguage(code: string | null | undefined): Lang | null {
  if (!code) return null;
  const c = code.toLowerCase();
  if (c === 'de' || c === 'deu' || c === 'ger' || c.startsWith('de-')) return 'de';
  if (c === 'en' || c === 'eng' || c.startsWith('en-')) return 'en';
  return null;
}
