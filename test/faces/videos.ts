/**
 * Test videos made with ffmpeg from Debian's skimage photos (see test/ml/face-photos.ts): shots that pan a
 * photo across a grey 1280×720 frame, joined with hard cuts.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { defaultTools } from '../../src/media/binaries.js';
import { SKIMAGE_DATA } from '../ml/face-photos.js';

const run = promisify(execFile);

/**
 * One shot: `file` scaled by `scale`, sliding from x0 to x1 over `seconds`.
 * @example
 * const shot: Shot = { file: 'camera.png', scale: 0.6, x0: 100, x1: 300, y: 120, seconds: 4 };
 */
export interface Shot {
  file: string;
  scale: number;
  x0: number;
  x1: number;
  y: number;
  seconds: number;
}

/**
 * Writes an H.264 MP4 of the shots, one after the other, and returns its path.
 * @example
 * const path = await makeShotsVideo(dir, 'family.mp4', [shotA, shotB]);
 */
export async function makeShotsVideo(dir: string, name: string, shots: Shot[]): Promise<string> {
  const ffmpeg = defaultTools.ffmpeg();
  const args = ['-y', '-v', 'error'];
  const filters: string[] = [];
  shots.forEach((s, i) => {
    args.push('-f', 'lavfi', '-i', `color=c=gray:s=1280x720:r=10:d=${s.seconds}`, '-loop', '1', '-t', String(s.seconds), '-i', join(SKIMAGE_DATA, s.file));
    const speed = (s.x1 - s.x0) / s.seconds;
    filters.push(`[${2 * i + 1}:v]scale=iw*${s.scale}:-2,format=rgb24[p${i}]`);
    filters.push(`[${2 * i}:v][p${i}]overlay=x='${s.x0}+t*${speed}':y=${s.y}:shortest=1,format=yuv420p,setsar=1[s${i}]`);
  });
  filters.push(`${shots.map((_, i) => `[s${i}]`).join('')}concat=n=${shots.length}:v=1:a=0[out]`);
  const out = join(dir, name);
  await run(ffmpeg, [...args, '-filter_complex', filters.join(';'), '-map', '[out]', '-c:v', 'libx264', '-preset', 'veryfast', '-g', '20', '-r', '10', out]);
  return out;
}
