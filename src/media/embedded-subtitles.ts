import type { MediaTools } from './binaries.js';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { normalizeLanguage, sameLanguage } from './languages.js';
import { probeMedia, type MediaProbe, type SubtitleStreamInfo } from './probe.js';
import { fileUrl, runTool } from './run.js';
import { parseSubtitles, type SubtitleCue } from './subtitles.js';

/** Picture-based subtitle codecs: they need OCR, ffmpeg cannot turn them into text. */
const BITMAP_CODECS = new Set(['hdmv_pgs_subtitle', 'dvd_subtitle', 'dvb_subtitle', 'xsub', 'dvb_teletext', 'unknown']);

/**
 * The subtitle streams that hold text (not pictures), in container order.
 * @example
 * textSubtitleStreams(probe.subtitles).map((s) => s.language); // ['eng', 'ger']
 */
export function textSubtitleStreams(streams: readonly SubtitleStreamInfo[]): SubtitleStreamInfo[] {
  return streams.filter((s) => !BITMAP_CODECS.has(s.codec));
}

/**
 * The text subtitle stream to use: one in `language`, else the default-flagged one, else the first.
 * Bitmap streams (PGS, VobSub, DVB) are never chosen.
 * @example
 * chooseSubtitleStream(probe.subtitles, 'en'); // { index: 2, subIndex: 0, codec: 'mov_text', language: 'eng', … }
 */
export function chooseSubtitleStream(streams: readonly SubtitleStreamInfo[], language?: string): SubtitleStreamInfo | undefined {
  const text = textSubtitleStreams(streams);
  const want = normalizeLanguage(language);
  return (want ? text.find((s) => sameLanguage(s.language, want)) : undefined) ?? text.find((s) => s.isDefault) ?? text[0];
}

/**
 * Extracts an embedded text subtitle stream (mov_text, SubRip, ASS, WebVTT, …) by letting ffmpeg
 * convert it to SRT on a pipe, then parses it. Returns null when the file has no usable text stream.
 * @example
 * const subs = await extractEmbeddedSubtitles('/media/talk.mp4', { language: 'en', signal });
 * subs?.cues; // [{ start: 1, end: 4, text: 'Today we bake…' }]
 * subs?.stream.language; // 'eng'
 */
export async function extractEmbeddedSubtitles(
  file: string,
  opts: { signal?: AbortSignal; language?: string; probe?: MediaProbe; tools?: MediaTools } = {},
): Promise<{ stream: SubtitleStreamInfo; cues: SubtitleCue[] } | null> {
  const { signal, language, tools } = opts;
  const probe = opts.probe ?? (await probeMedia(file, { signal, checkIntegrity: false, tools }));
  const stream = chooseSubtitleStream(probe.subtitles, language);
  if (!stream) return null;
  const { stdout } = await runTool(
    'ffmpeg',
    ['-hide_banner', '-nostdin', '-nostats', '-v', 'error', '-i', fileUrl(file), '-map', `0:${stream.index}`, '-c:s', 'srt', '-f', 'srt', 'pipe:1'],
    { signal, tools, maxStdoutBytes: 32 * 1024 * 1024 },
  );
  return { stream, cues: parseSubtitles(stdout.toString('utf8')) };
}

/** Largest SRT text read from one stream, as for the single-stream pipe. */
const MAX_TRACK_BYTES = 32 * 1024 * 1024;

/**
 * Extracts several embedded text subtitle streams in one ffmpeg run (one read of the file, however many
 * tracks it has: a film may carry twenty), each converted to SRT in a temporary folder, then parsed.
 * Results are in the order of `streams`. Throws the tool's error when ffmpeg fails.
 * @example
 * const tracks = await extractSubtitleStreams('/media/film.mkv', textSubtitleStreams(probe.subtitles), { signal });
 * tracks[1].stream.language; // 'ger'
 */
export async function extractSubtitleStreams(
  file: string,
  streams: readonly SubtitleStreamInfo[],
  opts: { signal?: AbortSignal; tools?: MediaTools } = {},
): Promise<{ stream: SubtitleStreamInfo; cues: SubtitleCue[] }[]> {
  if (streams.length === 0) return [];
  const dir = await mkdtemp(join(tmpdir(), 'vidx-subs-'));
  try {
    const outputs = streams.flatMap((s, i) => ['-map', `0:${s.index}`, '-c:s', 'srt', '-fs', String(MAX_TRACK_BYTES), '-f', 'srt', fileUrl(join(dir, `${i}.srt`))]);
    await runTool('ffmpeg', ['-hide_banner', '-nostdin', '-nostats', '-v', 'error', '-i', fileUrl(file), ...outputs], { signal: opts.signal, tools: opts.tools });
    const out: { stream: SubtitleStreamInfo; cues: SubtitleCue[] }[] = [];
    for (const [i, stream] of streams.entries()) {
      // A stream without a single cue leaves no file behind on some ffmpeg versions.
      const text = await readFile(join(dir, `${i}.srt`), 'utf8').catch(() => '');
      out.push({ stream, cues: parseSubtitles(text) });
    }
    return out;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
