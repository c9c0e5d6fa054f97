/**
 * Media for search by picture and duplicates (issue 26): ffmpeg's lavfi sources as videos, their
 * re-encodes, rescales and trims, slide videos that share one template but say other things, and photos from
 * Debian's python3-skimage with resized and recompressed copies.
 */
import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
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
export async function copyVideo(src: string, out: string, opts: { width?: number; crf?: number; from?: number; to?: number; sound?: boolean }): Promise<void> {
  const trim = [...(opts.from !== undefined ? ['-ss', String(opts.from)] : []), ...(opts.to !== undefined ? ['-to', String(opts.to)] : [])];
  const scale = opts.width ? ['-vf', `scale=${opts.width}:-2`] : [];
  const sound = opts.sound ? ['-c:a', 'aac', '-b:a', '64k'] : ['-an'];
  await ffmpeg(['-i', src, ...trim, ...scale, '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', String(opts.crf ?? 23), '-pix_fmt', 'yuv420p', ...sound, out]);
}

/**
 * A title card as people make them for home videos: one flat colour, a caption in the middle, and a
 * voice (espeak-ng, in `lang`) saying `speech` over it, for `seconds`. Two of these with other colours,
 * words and voices look alike in grey and are no copies.
 * @example
 * await narratedSlide('/tmp/m/brot.mp4', { colour: '0x8B5A2B', caption: 'Brot backen', speech: 'Heute backen wir Brot.', lang: 'de' });
 */
export async function narratedSlide(out: string, o: { colour: string; caption: string; speech: string; lang?: string; seconds?: number }): Promise<void> {
  const wav = `${out}.wav`;
  await run('espeak-ng', ['-v', o.lang ?? 'en', '-w', wav, o.speech]);
  const text = `drawtext=fontfile=${FONT}:text='${o.caption.replace(/'/g, '')}':fontsize=40:fontcolor=white:x=(w-tw)/2:y=(h-th)/2`;
  await ffmpeg(['-f', 'lavfi', '-i', `color=c=${o.colour}:s=640x360:r=25`, '-i', wav, '-vf', text, '-t', String(o.seconds ?? 8), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-af', 'apad', out]);
  await rm(wav, { force: true });
}

/**
 * A short clip of one flat colour with a small caption at the bottom and a steady tone: a folder of such
 * clips in other colours, captions and tones holds no copies.
 * @example
 * await captionClip('/tmp/m/clip-red.mp4', { colour: 'red', caption: 'Clip 1', tone: 330 });
 */
export async function captionClip(out: string, o: { colour: string; caption: string; tone: number; seconds?: number }): Promise<void> {
  const text = `drawtext=fontfile=${FONT}:text='${o.caption.replace(/'/g, '')}':fontsize=24:fontcolor=white:x=20:y=h-40`;
  const seconds = String(o.seconds ?? 6);
  await ffmpeg(['-f', 'lavfi', '-i', `color=c=${o.colour}:s=640x360:r=25`, '-f', 'lavfi', '-i', `sine=f=${o.tone}:d=${seconds}`, '-vf', text, '-t', seconds, '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', out]);
}

/**
 * A lavfi test pattern (`testsrc2`, `smptebars`, …) with its hue turned by `hue` degrees: the same pattern in
 * other colours, which grey hashes cannot tell apart.
 * @example
 * await recolouredPattern('/tmp/m/bars-green.mp4', 'smptebars', 120);
 */
export async function recolouredPattern(out: string, source: string, hue: number, seconds = 6): Promise<void> {
  await ffmpeg(['-f', 'lavfi', '-i', `${source}=s=640x360:r=10`, '-vf', `hue=h=${hue}`, '-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', out]);
}

/**
 * `seconds` of black, then a video: its own sound, or a steady `tone` (Hz) under it when it has none. Two
 * videos behind one black intro are no copies.
 * @example
 * await blackIntro(src, '/tmp/m/intro.mp4', 3, 440);
 */
export async function blackIntro(src: string, out: string, seconds: number, tone?: number): Promise<void> {
  const sound = tone ? `sine=f=${tone}:r=44100:d=3600[s];[s]aformat=channel_layouts=mono[a]` : '[0:a]aresample=44100,aformat=channel_layouts=mono[a]';
  const graph = `color=c=black:s=640x360:r=25:d=${seconds}[k];anullsrc=r=44100:cl=mono:d=${seconds}[q];[0:v]scale=640:360,fps=25,setsar=1[v];${sound};[k][q][v][a]concat=n=2:v=1:a=1[ov][oa]`;
  await ffmpeg(['-i', src, '-filter_complex', graph, '-map', '[ov]', '-map', '[oa]', '-shortest', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', out]);
}

/** Real footage with its own sound (imageio's cockatoo: 14 s, 1280×720, from Debian's python3-imageio). */
export const REAL_FOOTAGE = '/usr/lib/python3/dist-packages/imageio/resources/images/cockatoo.mp4';

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
