/**
 * Media for search by picture and duplicates (issue 26): ffmpeg's lavfi sources as videos, their
 * re-encodes, rescales and trims, slide videos that share one template but say other things, and photos from
 * Debian's python3-skimage with resized and recompressed copies.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { SKIMAGE_DATA } from '../ml/face-photos.js';

const run = promisify(execFile);
const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';

async function ffmpeg(args: string[]): Promise<void> {
  await run('ffmpeg', ['-hide_banner', '-v', 'error', '-y', ...args]);
}

/**
 * A video of a lavfi source (`mandelbrot`, `life`, `testsrc2`, …), 640×360 at 10 fps, H.264.
 * @example
 * await lavfiVideo('/tmp/m/mandelbrot.mp4', 'mandelbrot', 8);
 */
export async function lavfiVideo(out: string, source: string, seconds: number): Promise<void> {
  const input = source === 'life' ? 'life=s=640x360:mold=10:r=10:ratio=0.1:death_color=#C83232:life_color=#00ff00' : `${source}=s=640x360:r=10`;
  await ffmpeg(['-f', 'lavfi', '-i', input, '-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '20', '-pix_fmt', 'yuv420p', out]);
}

/**
 * A copy of a video: re-encoded at low quality, rescaled, and/or trimmed to [from, to) seconds.
 * @example
 * await copyVideo(src, '/tmp/m/small.mp4', { width: 320, crf: 35 });
 */
export async function copyVideo(src: string, out: string, opts: { width?: number; crf?: number; from?: number; to?: number }): Promise<void> {
  const trim = [...(opts.from !== undefined ? ['-ss', String(opts.from)] : []), ...(opts.to !== undefined ? ['-to', String(opts.to)] : [])];
  const scale = opts.width ? ['-vf', `scale=${opts.width}:-2`] : [];
  await ffmpeg(['-i', src, ...trim, ...scale, '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', String(opts.crf ?? 23), '-pix_fmt', 'yuv420p', '-an', out]);
}

/**
 * A slide video on one template (navy with an orange header bar): each title shown for `seconds`, a hard cut
 * between them. Two videos with other titles look alike but are not copies.
 * @example
 * await slideVideo('/tmp/m/q1.mp4', ['Quarterly results', 'Sales by region'], 5);
 */
export async function slideVideo(out: string, titles: string[], seconds: number): Promise<void> {
  const parts = titles.map((t, i) => `[${i}:v]drawbox=x=0:y=0:w=640:h=60:color=orange:t=fill,drawtext=fontfile=${FONT}:text='${t.replace(/'/g, '')}':fontsize=40:fontcolor=white:x=40:y=150[s${i}]`);
  const inputs = titles.flatMap(() => ['-f', 'lavfi', '-t', String(seconds), '-i', 'color=c=navy:s=640x360:r=10']);
  await ffmpeg([...inputs, '-filter_complex', `${parts.join(';')};${titles.map((_, i) => `[s${i}]`).join('')}concat=n=${titles.length}:v=1:a=0,format=yuv420p[v]`, '-map', '[v]', '-c:v', 'libx264', '-preset', 'ultrafast', out]);
}

/**
 * One frame of a video as a JPEG at `width` px, as someone would screenshot it.
 * @example
 * await screenshot(src, 3, '/tmp/m/shot.jpg', 400);
 */
export async function screenshot(src: string, at: number, out: string, width = 400): Promise<void> {
  await ffmpeg(['-ss', String(at), '-i', src, '-frames:v', '1', '-vf', `scale=${width}:-2`, '-q:v', '5', out]);
}

/**
 * A skimage photo written as JPEG, optionally resized and at another quality.
 * @example
 * await photo('astronaut.png', '/tmp/m/astronaut-small.jpg', { width: 256, quality: 40 });
 */
export async function photo(name: string, out: string, opts: { width?: number; quality?: number } = {}): Promise<void> {
  let img = sharp(join(SKIMAGE_DATA, name)).removeAlpha();
  if (opts.width) img = img.resize({ width: opts.width });
  await img.jpeg({ quality: opts.quality ?? 90 }).toFile(out);
}
