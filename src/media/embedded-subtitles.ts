import { normalizeLanguage, sameLanguage } from './languages.js';
import { probeMedia, type MediaProbe, type SubtitleStreamInfo } from './probe.js';
import { fileUrl, runTool } from './run.js';
import { parseSubtitles, type SubtitleCue } from './subtitles.js';

/** Picture-based subtitle codecs: they need OCR, ffmpeg cannot turn them into text. */
const BITMAP_CODECS = new Set(['hdmv_pgs_subtitle', 'dvd_subtitle', 'dvb_subtitle', 'xsub', 'dvb_teletext', 'unknown']);

/**
 * The text subtitle stream to use: one in `language`, else the default-flagged one, else the first.
 * Bitmap streams (PGS, VobSub, DVB) are never chosen.
 * @example
 * chooseSubtitleStream(probe.subtitles, 'en'); // { index: 2, subIndex: 0, codec: 'mov_text', language: 'eng', … }
 */
export function chooseSubtitleStream(streams: readonly SubtitleStreamInfo[], language?: string): SubtitleStreamInfo | undefined {
  const text = streams.filter((s) => !BITMAP_CODECS.has(s.codec));
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
  opts: { signal?: AbortSignal; language?: string; probe?: MediaProbe } = {},
): Promise<{ stream: SubtitleStreamInfo; cues: SubtitleCue[] } | null> {
  const { signal, language } = opts;
  const probe = opts.probe ?? (await probeMedia(file, { signal, checkIntegrity: false }));
  const stream = chooseSubtitleStream(probe.subtitles, language);
  if (!stream) return null;
  const { stdout } = await runTool(
    'ffmpeg',
    ['-hide_banner', '-nostdin', '-nostats', '-v', 'error', '-i', fileUrl(file), '-map', `0:${stream.index}`, '-c:s', 'srt', '-f', 'srt', 'pipe:1'],
    { signal, maxStdoutBytes: 32 * 1024 * 1024 },
  );
  return { stream, cues: parseSubtitles(stdout.toString('utf8')) };
}
