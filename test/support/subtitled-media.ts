/**
 * Media with subtitles in two languages, made by ffmpeg at run time: an MKV with an English (default) and a
 * German text track, and a video with `.en.srt` and `.de.srt` sidecars. The German lines start a little after
 * the English ones, so a search result's time says which line it found.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

/** One cue: start and end in seconds, text. */
export type Cue = [number, number, string];

export const FILM_EN: Cue[] = [[1, 3.5, 'Good morning from Berlin.'], [6.5, 9, 'In the evening it will rain.']];
export const FILM_DE: Cue[] = [[1.2, 3.8, 'Guten Morgen aus Berlin.'], [6.8, 9.5, 'Am Abend wird es regnen.']];
export const TALK_EN: Cue[] = [[2, 4, 'The cat sleeps on the sofa.']];
export const TALK_DE: Cue[] = [[2.4, 4.4, 'Die Katzen schlafen auf dem Sofa.']];

const time = (s: number) => {
  const ms = Math.round(s * 1000);
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)},${pad(ms % 1000, 3)}`;
};

/**
 * Cues as SRT text.
 * @example
 * srt([[1, 2, 'Hello']]); // '1\n00:00:01,000 --> 00:00:02,000\nHello\n'
 */
export function srt(cues: Cue[]): string {
  return cues.map(([a, b, text], i) => `${i + 1}\n${time(a)} --> ${time(b)}\n${text}\n`).join('\n');
}

// Plain ffmpeg, not the server's tool runner: lavfi sources are refused there, rightly.
const ffmpeg = (args: string[]) => promisify(execFile)('ffmpeg', ['-hide_banner', '-v', 'error', '-y', ...args]);
const PICTURE = ['-f', 'lavfi', '-i', 'color=c=0x204060:s=320x240:d=12:r=10'];
const H264 = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p'];

/**
 * Writes `film.mkv` (12 s, tracks eng (default) and ger from FILM_EN and FILM_DE) into `dir`.
 * @example
 * const film = await makeTwoTrackFilm(s.mediaDir);
 */
export async function makeTwoTrackFilm(dir: string): Promise<string> {
  await writeFile(join(dir, 'film-en.srt'), srt(FILM_EN));
  await writeFile(join(dir, 'film-de.srt'), srt(FILM_DE));
  const out = join(dir, 'film.mkv');
  await ffmpeg([...PICTURE, '-i', join(dir, 'film-en.srt'), '-i', join(dir, 'film-de.srt'), '-map', '0:v', '-map', '1', '-map', '2', ...H264, '-c:s', 'srt',
    '-metadata:s:s:0', 'language=eng', '-metadata:s:s:1', 'language=ger', '-disposition:s:0', 'default', out]);
  return out;
}

/**
 * Writes `overlong.mkv`: 12 s of picture whose English subtitles run on to 14 s, so the file plays for 14 s
 * in a browser while its picture (what vidx measures) lasts 12 s.
 * @example
 * const film = await makeOverlongFilm(s.mediaDir);
 */
export async function makeOverlongFilm(dir: string): Promise<string> {
  await writeFile(join(dir, 'overlong-en.srt'), srt([[1, 3.5, 'Good morning from Berlin.'], [12.5, 14, 'The end.']]));
  const out = join(dir, 'overlong.mkv');
  await ffmpeg([...PICTURE, '-i', join(dir, 'overlong-en.srt'), '-map', '0:v', '-map', '1', ...H264, '-c:s', 'srt', '-metadata:s:s:0', 'language=eng', out]);
  return out;
}

/**
 * Writes `talk.mp4` (12 s, no subtitles inside) with `talk.en.srt` and `talk.de.srt` beside it into `dir`.
 * @example
 * const talk = await makeSidecarTalk(s.mediaDir);
 */
export async function makeSidecarTalk(dir: string): Promise<string> {
  const out = join(dir, 'talk.mp4');
  await ffmpeg([...PICTURE, ...H264, out]);
  await writeFile(join(dir, 'talk.en.srt'), srt(TALK_EN));
  await writeFile(join(dir, 'talk.de.srt'), srt(TALK_DE));
  return out;
}
