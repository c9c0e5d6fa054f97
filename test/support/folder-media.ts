import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { lstatSync, lutimesSync, mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import sharp from 'sharp';
import { runTool } from '../../src/media/run.js';

const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';

async function withTextFile<T>(text: string, fn: (file: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'vidx-text-'));
  try {
    const file = join(dir, 'text.txt');
    await writeFile(file, text);
    return await fn(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A short MP4 (H.264 + AAC tone) showing `text` in large letters; `tags` become container metadata
 * (creation_time, location).
 * @example
 * await makeVideo('/tmp/f/a.mp4', 'Lighthouse', 2, { creation_time: '2021-06-01T10:00:00Z' });
 */
export async function makeVideo(out: string, text: string, seconds = 2, tags: Record<string, string> = {}, color = 'navy'): Promise<void> {
  await withTextFile(text, (tf) =>
    runTool('ffmpeg', [
      '-hide_banner', '-v', 'error', '-y',
      '-f', 'lavfi', '-i', `color=${color}:s=640x360:r=10:d=${seconds}`,
      '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`,
      '-vf', `drawtext=fontfile=${FONT}:textfile=${tf}:fontsize=64:fontcolor=white:x=(w-text_w)/2:y=(h-text_h)/2,format=yuv420p`,
      '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest',
      ...Object.entries(tags).flatMap(([k, v]) => ['-metadata', `${k}=${v}`]),
      out,
    ]),
  );
}

/**
 * A video whose picture cuts halfway to another background while the same `text` stays on screen: two
 * shots (two episodes) that read the same.
 * @example
 * await makeTwoShotVideo('/tmp/f/cake.mp4', 'Birthday cake', 10);
 */
export async function makeTwoShotVideo(out: string, text: string, seconds = 10): Promise<void> {
  const half = seconds / 2;
  await withTextFile(text, (tf) =>
    runTool('ffmpeg', [
      '-hide_banner', '-v', 'error', '-y',
      '-f', 'lavfi', '-i', `color=navy:s=640x360:r=10:d=${half}`,
      '-f', 'lavfi', '-i', `color=darkred:s=640x360:r=10:d=${half}`,
      '-filter_complex', `[0:v][1:v]concat=n=2:v=1:a=0,drawtext=fontfile=${FONT}:textfile=${tf}:fontsize=40:fontcolor=white:x=(w-text_w)/2:y=(h-text_h)/2,format=yuv420p[v]`,
      '-map', '[v]', '-c:v', 'libx264', '-preset', 'ultrafast', out,
    ]),
  );
}

/**
 * Spoken English (espeak-ng) as an M4A voice memo.
 * @example
 * await makeSpeech('/tmp/f/memo.m4a', 'Remember to buy oat milk');
 */
export async function makeSpeech(out: string, text: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'vidx-speech-'));
  try {
    const wav = join(dir, 'speech.wav');
    await promisify(execFile)('espeak-ng', ['-v', 'en', '-s', '150', '-w', wav, text]);
    // Plain ffmpeg, not runTool: a server running in this process would hold its file-access rule over runTool.
    await promisify(execFile)('ffmpeg', ['-hide_banner', '-v', 'error', '-y', '-i', wav, '-c:a', 'aac', '-b:a', '64k', out]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A JPEG photo showing `text`, stored rotated by 90° with EXIF orientation 6 (as phones do), with EXIF
 * DateTimeOriginal and GPS (written by exiftool) when given.
 * @example
 * await makePhoto('/tmp/f/sign.jpg', 'BAKERY', { dateTimeOriginal: '2019:07:14 09:30:00', latitude: 38.72, longitude: -9.14 });
 */
export async function makePhoto(out: string, text: string, exif: { dateTimeOriginal?: string; latitude?: number; longitude?: number } = {}): Promise<void> {
  const png = await withTextFile(text, async (tf) => {
    const { stdout } = await runTool('ffmpeg', [
      '-hide_banner', '-v', 'error', '-f', 'lavfi', '-i', 'color=white:s=800x300',
      '-vf', `drawtext=fontfile=${FONT}:textfile=${tf}:fontsize=90:fontcolor=black:x=(w-text_w)/2:y=(h-text_h)/2`,
      '-frames:v', '1', '-f', 'image2pipe', '-c:v', 'png', 'pipe:1',
    ]);
    return stdout;
  });
  // Stored turned 90° counter-clockwise; orientation 6 tells viewers to turn it back.
  await sharp(png)
    .rotate(-90)
    .withExif(exif.dateTimeOriginal ? { IFD2: { DateTimeOriginal: exif.dateTimeOriginal } } : {})
    .withMetadata({ orientation: 6 })
    .jpeg({ quality: 90 })
    .toFile(out);
  if (exif.latitude !== undefined && exif.longitude !== undefined) await promisify(execFile)('exiftool', ['-q', '-overwrite_original', ...gpsArgs(exif.latitude, exif.longitude), out]);
}

/** exiftool's arguments for a GPS point (its references say the hemisphere). */
function gpsArgs(latitude: number, longitude: number): string[] {
  return [
    `-GPSLatitude=${Math.abs(latitude)}`, `-GPSLatitudeRef=${latitude < 0 ? 'S' : 'N'}`,
    `-GPSLongitude=${Math.abs(longitude)}`, `-GPSLongitudeRef=${longitude < 0 ? 'W' : 'E'}`,
  ];
}

/**
 * Writes an HEIC photo (HEVC-coded HEIF, as an iPhone does) showing `text`, with EXIF date and GPS written
 * by exiftool. Needs heif-enc (libheif-examples) and exiftool (libimage-exiftool-perl). `exifBy`:
 * `exiftool` adds the EXIF to the HEIC afterwards (exiftool lays the item out in one piece at its own
 * place); `libheif` writes it into the JPEG heif-enc converts, so libheif copies it into the HEIC as it
 * does for every converted photo (TIFF header at offset 0, placed by iloc's base offset).
 * @example
 * await makeHeic('/tmp/harbour.heic', 'HARBOUR', { dateTimeOriginal: '2018:05:20 16:45:00', latitude: 38.7223, longitude: -9.1393 });
 */
export async function makeHeic(
  out: string,
  text: string,
  exif: { dateTimeOriginal: string; latitude: number; longitude: number },
  size = '800x300',
  exifBy: 'exiftool' | 'libheif' = 'exiftool',
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'vidx-heic-'));
  const exifArgs = [
    '-q', '-overwrite_original', `-DateTimeOriginal=${exif.dateTimeOriginal}`, ...gpsArgs(exif.latitude, exif.longitude),
  ];
  try {
    const picture = join(dir, exifBy === 'libheif' ? 'source.jpg' : 'source.png');
    await withTextFile(text, (tf) =>
      runTool('ffmpeg', [
        '-hide_banner', '-v', 'error', '-f', 'lavfi', '-i', `color=white:s=${size}`,
        '-vf', `drawtext=fontfile=${FONT}:textfile=${tf}:fontsize=90:fontcolor=black:x=(w-text_w)/2:y=(h-text_h)/2`,
        '-frames:v', '1', ...(exifBy === 'libheif' ? ['-q:v', '2'] : []), picture,
      ]),
    );
    if (exifBy === 'libheif') await promisify(execFile)('exiftool', [...exifArgs, picture]);
    await promisify(execFile)('heif-enc', ['-q', '85', '-o', out, picture]);
    if (exifBy === 'exiftool') await promisify(execFile)('exiftool', [...exifArgs, out]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Makes files look as an archive's do: last written an hour ago, so a scan reads them at once instead of
 * waiting for them to hold still (its stability window). `path` is a file or a folder (every file under it).
 * @example
 * agedFiles(join(media, 'trips'));
 */
export function agedFiles(path: string): void {
  const then = new Date(Date.now() - 3_600_000);
  const st = lstatSync(path);
  if (st.isDirectory()) for (const name of readdirSync(path)) agedFiles(join(path, name));
  else if (st.isSymbolicLink()) lutimesSync(path, then, then);
  else utimesSync(path, then, then);
}
