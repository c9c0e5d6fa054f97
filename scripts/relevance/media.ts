/**
 * Renders the judged collection with ffmpeg: each medium an MP4 of a plain colour (slides drawn with
 * DejaVu fonts) and a quiet tone, subtitles as a sidecar beside it (`<id>.srt`, German `<id>.de.srt`, as
 * people name them). Small pictures and few frames per second keep the 60-minute lecture cheap to make.
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runTool } from '../../src/media/run.js';
import { toSrt } from '../make-test-corpus.js';
import type { MediaSpec } from './types.js';

const FONT_BOLD = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
const COLOURS = ['0x224466', '0x7a4b00', '0x1e5e3a', '0x6a1b4d'];

async function ff(args: string[]): Promise<void> {
  await runTool('ffmpeg', ['-hide_banner', '-nostdin', '-nostats', '-v', 'error', '-y', ...args]);
}

const tone = (seconds: number): string[] => ['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=16000:duration=${seconds}`];
const encode = ['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '32k', '-ac', '1', '-shortest'];

/** Long media are one encoded minute repeated: joining copies costs nothing, encoding an hour of sound ~15 s. */
const CHUNK_SEC = 60;

async function renderPlain(m: MediaSpec, out: string, colour: string, dir: string): Promise<void> {
  if (m.durationSec <= 300 || m.durationSec % CHUNK_SEC !== 0) {
    await ff(['-f', 'lavfi', '-i', `color=c=${colour}:s=320x180:r=5:d=${m.durationSec}`, ...tone(m.durationSec), ...encode, out]);
    return;
  }
  // One frame a second: the picture never changes, so more frames would only cost time.
  const chunk = join(dir, `${m.id}-chunk.mp4`);
  await ff(['-f', 'lavfi', '-i', `color=c=${colour}:s=320x180:r=1:d=${CHUNK_SEC}`, ...tone(CHUNK_SEC), ...encode, chunk]);
  const list = join(dir, `${m.id}-chunks.txt`);
  await writeFile(list, `file '${chunk}'\n`.repeat(m.durationSec / CHUNK_SEC));
  await ff(['-f', 'concat', '-safe', '0', '-i', list, '-c', 'copy', '-movflags', '+faststart', out]);
  await rm(chunk);
  await rm(list);
}

async function renderSlides(m: MediaSpec, out: string, dir: string): Promise<void> {
  const inputs: string[] = [];
  const filters: string[] = [];
  for (const [i, s] of m.slides.entries()) {
    const textFile = join(dir, `${m.id}-slide${i}.txt`);
    await writeFile(textFile, s.text);
    inputs.push('-f', 'lavfi', '-i', `color=c=${COLOURS[i % COLOURS.length]}:s=640x360:r=5:d=${s.end - s.start}`);
    filters.push(`[${i}:v]drawtext=fontfile=${FONT_BOLD}:textfile=${textFile}:fontsize=44:fontcolor=white:x=(w-text_w)/2:y=(h-text_h)/2[v${i}]`);
  }
  filters.push(`${m.slides.map((_, i) => `[v${i}]`).join('')}concat=n=${m.slides.length}:v=1:a=0[v]`);
  await ff([...inputs, ...tone(m.durationSec), '-filter_complex', filters.join(';'), '-map', '[v]', '-map', `${m.slides.length}:a`, ...encode, out]);
}

/**
 * The file names a medium is written to inside `dir`.
 * @example
 * mediaFiles('/tmp/m', wanderung); // { video: '/tmp/m/wanderung.mp4', subtitles: '/tmp/m/wanderung.de.srt' }
 */
export function mediaFiles(dir: string, m: MediaSpec): { video: string; subtitles: string } {
  return { video: join(dir, `${m.id}.mp4`), subtitles: join(dir, m.language === 'de' ? `${m.id}.de.srt` : `${m.id}.srt`) };
}

/**
 * Writes one medium (video, and its sidecar subtitles when it has lines) into `dir`.
 * @example
 * await renderMedia('/tmp/m', CORPUS[0]);
 */
export async function renderMedia(dir: string, m: MediaSpec, index = 0): Promise<void> {
  const files = mediaFiles(dir, m);
  if (m.slides.length) await renderSlides(m, files.video, dir);
  else await renderPlain(m, files.video, COLOURS[index % COLOURS.length], dir);
  if (m.lines.length) await writeFile(files.subtitles, toSrt(m.lines));
}

/**
 * Renders every medium, two at a time (two cores).
 * @example
 * await renderAll('/tmp/m', CORPUS);
 */
export async function renderAll(dir: string, media: MediaSpec[]): Promise<void> {
  let next = 0;
  await Promise.all(
    [0, 1].map(async () => {
      while (next < media.length) {
        const i = next++;
        await renderMedia(dir, media[i], i);
      }
    }),
  );
}
