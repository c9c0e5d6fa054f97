import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runTool } from '../../src/media/run.js';

const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';

/**
 * A short clip whose only content is a word on screen (OCR reads it), as MPEG-TS or MP4 by extension.
 * @example
 * await textClip('/tmp/x/secret.ts', 'SECRET');
 */
export async function textClip(file: string, word: string, seconds = 2): Promise<void> {
  mkdirSync(dirname(file), { recursive: true });
  await runTool('ffmpeg', [
    '-v', 'error', '-y', '-f', 'lavfi', '-i', `color=c=black:s=640x360:d=${seconds}:r=10`,
    '-vf', `drawtext=fontfile=${FONT}:text=${word}:fontsize=72:fontcolor=white:x=(w-tw)/2:y=(h-th)/2`,
    '-c:v', 'libx264', '-pix_fmt', 'yuv420p', file,
  ]);
}

/**
 * An HLS playlist that lists `segment` (any path or URL), as a user could leave one in a media root.
 * @example
 * hlsPlaylist('/media/p.m3u8', 'file:///elsewhere/secret.ts');
 */
export function hlsPlaylist(file: string, segment: string): void {
  writeFileSync(file, `#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\n${segment}\n#EXT-X-ENDLIST\n`);
}

/**
 * An ffconcat list naming `target`.
 * @example
 * concatList('/media/list.ffconcat', '/elsewhere/secret.ts');
 */
export function concatList(file: string, target: string): void {
  writeFileSync(file, `ffconcat version 1.0\nfile '${target}'\n`);
}

/** SRT text of one cue. */
export function srt(text: string): string {
  return `1\n00:00:00,000 --> 00:00:01,500\n${text}\n`;
}

export { join };
