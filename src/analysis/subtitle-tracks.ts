/**
 * Every subtitle track of a media file: the sidecar files beside a `path` source and the text streams
 * inside the container. One becomes the transcript (chosen as before: the asked language, else an
 * unnamed sidecar or the default stream, else the first); the others are kept, one per language, so each
 * language can be searched and read.
 */
import {
  chooseSidecar,
  chooseSubtitleStream,
  extractEmbeddedSubtitles,
  extractSubtitleStreams,
  listSidecarSubtitles,
  normalizeLanguage,
  readSubtitleFile,
  SourceError,
  textSubtitleStreams,
  ToolError,
  type MediaProbe,
  type SubtitleCue,
} from '../media/index.js';
import { basename } from 'node:path';
import type { MediaTools } from '../media/binaries.js';
import type { FileAccess } from '../media/index.js';
import { guessLanguage } from './text-stats.js';
import { cutText, TEXT_LIMITS } from './limits.js';
import type { SubtitleTrack, TimedText } from './types.js';
import { type AnalysisWarning, warning } from './warnings.js';

/** A subtitle track as read: its language tag as written (absent when untagged), where it came from, its lines. */
export interface FoundTrack {
  tag: string | undefined;
  source: 'sidecar' | 'embedded';
  segments: TimedText[];
}

/** The transcript's track (null when no track has text) and every other track with text. */
export interface FoundTracks {
  primary: FoundTrack | null;
  others: FoundTrack[];
}

/**
 * A track's language as a base code (`ger` → `de`, `pt-BR` → `pt`), or undefined when its tag is missing,
 * undetermined or not a language code at all (containers carry any text there).
 * @example
 * trackLanguage('ger'); // 'de'
 * trackLanguage('English'); // undefined
 */
export function trackLanguage(tag: string | undefined): string | undefined {
  const code = normalizeLanguage(tag);
  return code && /^[a-z]{2,3}$/.test(code) ? code : undefined;
}

/**
 * Cues as transcript lines: one line of text each (line breaks become spaces), empty ones dropped, by start.
 * @example
 * cueLines([{ start: 1, end: 2, text: 'Hello\nworld' }]); // [{ start: 1, end: 2, text: 'Hello world' }]
 */
export function cueLines(cues: readonly TimedText[]): TimedText[] {
  return cues
    .map((c) => ({ start: c.start, end: Math.max(c.end, c.start), text: c.text.replace(/\s*\n\s*/g, ' ').trim() }))
    .filter((c) => c.text)
    .sort((a, b) => a.start - b.start);
}

/**
 * What one subtitle track may give the analysis (issue 43): more than people record, never a load that
 * stalls the server. A line is cut at {@link TEXT_LIMITS}.lineChars; a track keeps its first cues up to
 * `cuesPerSecond` a second of the recording (at least `leastCues`) and at most `cues`: five cues a second is
 * faster than anyone speaks, and 30,000 cues hold more than eight hours of speech.
 */
export const TRACK_LIMITS = { cuesPerSecond: 5, leastCues: 500, cues: 30_000 } as const;

/**
 * A track cut to {@link TRACK_LIMITS} for a recording of `duration` seconds, with a warning when anything was
 * cut; never refused whole.
 * @example
 * boundedTrack(cues, 12, warnings, 'talk.srt'); // the first 500 cues of a 12 s video's 9,000
 */
export function boundedTrack(segments: TimedText[], duration: number, warnings: AnalysisWarning[], name: string): TimedText[] {
  const most = Math.min(TRACK_LIMITS.cues, Math.max(TRACK_LIMITS.leastCues, Math.ceil(duration * TRACK_LIMITS.cuesPerSecond)));
  let cut = 0;
  const lines = segments.slice(0, most).map((s) => {
    if (s.text.length <= TEXT_LIMITS.lineChars) return s;
    cut++;
    return { ...s, text: cutText(s.text, TEXT_LIMITS.lineChars) };
  });
  if (segments.length > most) warnings.push(warning('analysis_subtitle_cues_cut', { name, cues: segments.length, kept: most }));
  if (cut) warnings.push(warning('analysis_subtitle_lines_cut', { name, lines: cut, chars: TEXT_LIMITS.lineChars }));
  return lines;
}

/** A sidecar that cannot be read (a link out of the media roots, a directory) is skipped with a warning. */
async function readSidecar(files: FileAccess, path: string, warnings: AnalysisWarning[]): Promise<SubtitleCue[]> {
  try {
    return await readSubtitleFile(files, path);
  } catch (e) {
    if (!(e instanceof SourceError)) throw e;
    // A source error given as a message is said in the reader's language too.
    warnings.push(warning('analysis_subtitle_file_unread', { reason: e.text ?? e.message }));
    return [];
  }
}

/**
 * The container's text streams, all in one ffmpeg run. When that run fails (one odd stream can fail
 * it), only the chosen stream is read, as vidx always did, and a warning says the others were left out.
 */
async function readEmbedded(file: string, probe: MediaProbe, preferred: string | undefined, signal: AbortSignal, warnings: AnalysisWarning[], tools?: MediaTools): Promise<{ tag: string | undefined; chosen: boolean; segments: TimedText[] }[]> {
  const streams = textSubtitleStreams(probe.subtitles);
  if (streams.length === 0) return [];
  const chosen = chooseSubtitleStream(streams, preferred);
  try {
    const all = await extractSubtitleStreams(file, streams, { signal, tools });
    return all.map((t) => ({ tag: t.stream.language, chosen: t.stream === chosen, segments: cueLines(t.cues) }));
  } catch (e) {
    if (signal.aborted || !(e instanceof ToolError) || streams.length === 1) throw e;
    warnings.push(warning('analysis_subtitle_tracks_one_read', { tracks: streams.length, reason: e.message }));
    const one = await extractEmbeddedSubtitles(file, { signal, tools, probe, ...(preferred ? { language: preferred } : {}) });
    return one ? [{ tag: one.stream.language, chosen: true, segments: cueLines(one.cues) }] : [];
  }
}

/**
 * The container's text streams; when a sidecar already gives the transcript, streams that cannot be read
 * only add a warning (before every track was kept, they were not even opened then).
 */
async function readEmbeddedBeside(
  sidecars: readonly (FoundTrack & { chosen: boolean })[],
  file: string,
  probe: MediaProbe,
  opts: { preferred: string | undefined; signal: AbortSignal; warnings: AnalysisWarning[]; tools: MediaTools },
): Promise<{ tag: string | undefined; chosen: boolean; segments: TimedText[] }[]> {
  try {
    return await readEmbedded(file, probe, opts.preferred, opts.signal, opts.warnings, opts.tools);
  } catch (e) {
    const transcribed = sidecars.some((t) => t.chosen && t.segments.length);
    if (!transcribed || opts.signal.aborted || !(e instanceof ToolError)) throw e;
    opts.warnings.push(warning('analysis_subtitle_tracks_unread', { reason: e.message }));
    return [];
  }
}

/**
 * Reads every subtitle track of a media file and picks the transcript's: the chosen sidecar when it has
 * text, else the chosen embedded stream when it has text. Unreadable sidecars add a warning.
 * @example
 * const { primary, others } = await readSubtitleTracks(file, probe, { sourcePath, preferred: 'en', signal, warnings, tools });
 * others.map((t) => t.tag); // ['ger']
 */
export async function readSubtitleTracks(
  file: string,
  probe: MediaProbe,
  opts: { sourcePath: string | null; preferred: string | undefined; signal: AbortSignal; warnings: AnalysisWarning[]; tools: MediaTools },
): Promise<FoundTracks> {
  const sidecars = opts.sourcePath ? await listSidecarSubtitles(opts.sourcePath) : [];
  const chosenSidecar = chooseSidecar(sidecars, opts.preferred);
  const found: (FoundTrack & { chosen: boolean })[] = [];
  const bounded = (segments: TimedText[], name: string) => boundedTrack(segments, probe.durationSec, opts.warnings, name);
  for (const s of sidecars) found.push({ tag: s.language, source: 'sidecar', chosen: s === chosenSidecar, segments: bounded(cueLines(await readSidecar(opts.tools.files, s.path, opts.warnings)), basename(s.path)) });
  for (const t of await readEmbeddedBeside(found, file, probe, opts)) found.push({ ...t, source: 'embedded', segments: bounded(t.segments, `the ${t.tag ?? 'untagged'} subtitle stream`) });
  // A chosen sidecar without text gives way to the chosen stream, as before.
  const primary = found.find((t) => t.chosen && t.source === 'sidecar' && t.segments.length) ?? found.find((t) => t.chosen && t.source === 'embedded' && t.segments.length) ?? null;
  const strip = ({ tag, source, segments }: FoundTrack): FoundTrack => ({ tag, source, segments });
  return { primary: primary && strip(primary), others: found.filter((t) => t !== primary && t.segments.length).map(strip) };
}

/**
 * The other tracks as the analysis keeps them: each named by its base language (`ger` → `de`; an untagged
 * one by its English or German stop words, else `und`), none in the transcript's language, and one per
 * language: the one with the most lines (a "forced" track holds only a few), the first among equals
 * (sidecars come first). Returns the languages too, the transcript's first.
 * @example
 * otherSubtitleTracks('en', [{ tag: 'ger', source: 'embedded', segments }]); // { languages: ['en', 'de'], tracks: [{ language: 'de', … }] }
 */
export function otherSubtitleTracks(primaryLanguage: string, others: readonly FoundTrack[]): { languages: string[]; tracks: SubtitleTrack[] } {
  const best = new Map<string, SubtitleTrack>();
  for (const t of others) {
    const language = trackLanguage(t.tag) ?? guessLanguage(t.segments.map((s) => s.text)) ?? 'und';
    if (language === primaryLanguage) continue;
    const kept = best.get(language);
    if (!kept || t.segments.length > kept.segments.length) best.set(language, { language, source: t.source, segments: t.segments });
  }
  const tracks = [...best.values()];
  return { languages: [primaryLanguage, ...tracks.map((t) => t.language)], tracks };
}
