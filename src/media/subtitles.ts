import { extname } from 'node:path';
import type { FileAccess } from './file-access.js';
import { cleanCueText } from './subtitle-markup.js';

/** One subtitle cue; times in seconds, text without markup, lines joined by `\n`. */
export interface SubtitleCue {
  start: number;
  end: number;
  text: string;
}

/** Subtitle text formats this module reads. */
export type SubtitleFormat = 'srt' | 'vtt';

const TIME = String.raw`(?:(\d+):)?(\d{1,2}):(\d{1,2})(?:[.,](\d{1,3}))?`;
const TIMING = new RegExp(String.raw`^\s*${TIME}\s*-->\s*${TIME}`);

function seconds(h: string | undefined, m: string, s: string, frac: string | undefined): number {
  const ms = frac ? Number(frac.padEnd(3, '0')) : 0;
  return Number(h ?? 0) * 3600 + Number(m) * 60 + Number(s) + ms / 1000;
}

interface Draft {
  start: number;
  end: number;
  lines: string[];
  /** Index in `lines` of the last blank line seen inside this cue, or -1. */
  blankAt: number;
  /** Inside a WebVTT NOTE/STYLE/REGION block that followed this cue. */
  skipping: boolean;
}

/**
 * Parses SRT or WebVTT text (one tolerant parser: BOM, CRLF/CR, missing or extra blank lines,
 * missing cue numbers, `.` or `,` before milliseconds, optional hours, WebVTT cue settings, NOTE/
 * STYLE/REGION blocks, cue identifiers). A blank line followed by more text and no new timing line
 * is kept as part of the cue (a common SRT mistake). Markup is removed (see subtitle-markup.ts).
 * Cues with no text left are dropped; the result is sorted by start time.
 * @example
 * parseSubtitles('1\r\n00:00:01,000 --> 00:00:02,500\r\n<i>Hello</i>\r\nworld\r\n');
 * // [{ start: 1, end: 2.5, text: 'Hello\nworld' }]
 */
export function parseSubtitles(text: string): SubtitleCue[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const drafts: Draft[] = [];
  let cur: Draft | undefined;
  for (const line of lines) {
    const t = TIMING.exec(line);
    if (t) {
      if (cur) {
        // Lines between the last blank and this timing line were this cue's identifier, not text.
        if (cur.blankAt >= 0) cur.lines.length = cur.blankAt;
        else if (/^\s*\d+\s*$/.test(cur.lines.at(-1) ?? '')) cur.lines.pop();
      }
      cur = { start: seconds(t[1], t[2], t[3], t[4]), end: seconds(t[5], t[6], t[7], t[8]), lines: [], blankAt: -1, skipping: false };
      drafts.push(cur);
      continue;
    }
    if (!cur) continue;
    if (line.trim() === '') {
      cur.blankAt = cur.lines.length;
      continue;
    }
    if (cur.blankAt === cur.lines.length && /^(NOTE|STYLE|REGION)(\s|$)/.test(line)) cur.skipping = true;
    if (!cur.skipping) cur.lines.push(line);
  }
  const cues: SubtitleCue[] = [];
  for (const d of drafts) {
    const clean = cleanCueText(d.lines.join('\n'));
    if (clean && d.end >= d.start) cues.push({ start: d.start, end: d.end, text: clean });
  }
  return cues.sort((a, b) => a.start - b.start);
}

/**
 * Decodes subtitle file bytes: UTF-8 (with or without BOM), UTF-16 with BOM, and falls back to
 * Windows-1252 for legacy files that are not valid UTF-8.
 * @example
 * decodeSubtitleBytes(await readFile('film.srt')); // string without BOM
 */
export function decodeSubtitleBytes(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/**
 * Which format a subtitle file is, from its content first (`WEBVTT` header) then its extension.
 * @example
 * subtitleFormatOf('talk.en.vtt', 'WEBVTT\n\n…'); // 'vtt'
 */
export function subtitleFormatOf(path: string, text: string): SubtitleFormat {
  if (/^\uFEFF?WEBVTT(?:[ \t]|\r|\n|$)/.test(text)) return 'vtt';
  return extname(path).toLowerCase() === '.vtt' ? 'vtt' : 'srt';
}

/**
 * Reads and parses an .srt or .vtt file.
 * @example
 * const cues = await readSubtitleFile(files, '/media/talk.de.srt'); // [{ start, end, text }, …]
 */
export async function readSubtitleFile(files: FileAccess, path: string): Promise<SubtitleCue[]> {
  return parseSubtitles(decodeSubtitleBytes(await files.readMediaFile(path)));
}
