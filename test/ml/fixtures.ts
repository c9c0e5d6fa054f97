/**
 * Media fixtures for the model tests and the model benchmark: text frames drawn by ffmpeg's drawtext
 * and English speech from espeak-ng, all generated on the fly in a temp directory.
 */
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { defaultTools } from '../../src/media/binaries.js';
import type { RgbFrame } from '../../src/ml/ocr/index.js';

const run = promisify(execFile);

/**
 * Debian's fonts-dejavu-core sans font, used for every drawn line unless a spec names another.
 * @example
 * const spec: TextSpec = { text: 'Hi', size: 48, font: FONT };
 */
export const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

/**
 * One line of drawn text; x/y are the top-left of the text box (default: centred).
 * @example
 * const line: TextSpec = { text: 'Agenda', size: 64, color: 'white', x: 100, y: 80 };
 */
export interface TextSpec {
  text: string;
  size: number;
  color?: string;
  x?: number | string;
  y?: number | string;
  font?: string;
  /** A black outline this many pixels wide (drawtext borderw), as captions over pictures have. */
  border?: number;
}

/**
 * A solid frame with text lines on it.
 * @example
 * const spec: FrameSpec = { width: 640, height: 360, background: 'blue', lines: [{ text: 'Hi', size: 32 }] };
 */
export interface FrameSpec {
  width: number;
  height: number;
  background: string;
  lines: TextSpec[];
  /** Turn the finished frame upside down (180°). */
  upsideDown?: boolean;
  /** A lavfi source drawn instead of the solid `background` (a busy picture, e.g. `mandelbrot`); the frame size is added to its options. */
  source?: string;
  /** Pass the frame through a lossy codec first, as frames decoded from real videos are: H.264 (CRF 28, 4:2:0) or JPEG (q 2). */
  codec?: 'h264' | 'jpeg';
}

/**
 * A scratch directory under os.tmpdir(); remove it with `dispose`.
 * @example
 * const dir = await scratchDir(); … await dir.dispose();
 */
export async function scratchDir(): Promise<{ path: string; dispose(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), 'vidx-ml-'));
  return { path, dispose: () => rm(path, { recursive: true, force: true }) };
}

let textFiles = 0;

function backgroundSource(spec: FrameSpec): string {
  const size = `${spec.width}x${spec.height}`;
  if (!spec.source) return `color=c=${spec.background}:s=${size}`;
  return `${spec.source}${spec.source.includes('=') ? ':' : '='}s=${size}`;
}

async function drawFilter(dir: string, spec: FrameSpec): Promise<string> {
  const parts: string[] = [];
  for (const line of spec.lines) {
    // textfile + expansion=none: no escaping of ':' '%' or quotes inside the text.
    const file = join(dir, `text-${process.pid}-${textFiles++}.txt`);
    await writeFile(file, line.text, 'utf8');
    parts.push(
      `drawtext=fontfile=${line.font ?? FONT}:textfile=${file}:expansion=none:fontcolor=${line.color ?? 'white'}` +
        `:fontsize=${line.size}:x=${line.x ?? '(w-text_w)/2'}:y=${line.y ?? '(h-text_h)/2'}` +
        (line.border ? `:borderw=${line.border}:bordercolor=black` : ''),
    );
  }
  if (spec.upsideDown) parts.push('hflip,vflip');
  return parts.length > 0 ? parts.join(',') : 'null';
}

/**
 * Renders a frame and returns it decoded (raw RGB from ffmpeg) as an `RgbFrame`.
 * @example
 * const frame = await renderFrame(dir, { width: 1280, height: 720, background: 'blue', lines: [{ text: 'Hi', size: 64 }] });
 */
export async function renderFrame(dir: string, spec: FrameSpec): Promise<RgbFrame> {
  const filter = await drawFilter(dir, spec);
  let input = ['-f', 'lavfi', '-i', backgroundSource(spec), '-vf', filter];
  if (spec.codec) {
    const file = join(dir, `frame-${process.pid}-${textFiles++}.${spec.codec === 'h264' ? 'mp4' : 'jpg'}`);
    const codec = spec.codec === 'h264'
      ? ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '28', '-pix_fmt', 'yuv420p']
      : ['-q:v', '2'];
    await run(defaultTools.ffmpeg(), ['-v', 'error', '-y', ...input, '-frames:v', '1', ...codec, file]);
    input = ['-i', file];
  }
  const { stdout } = await run(
    defaultTools.ffmpeg(),
    ['-v', 'error', ...input, '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  return { data: new Uint8Array(stdout.buffer, stdout.byteOffset, stdout.byteLength), width: spec.width, height: spec.height };
}

/**
 * Renders a frame to an encoded file (format from the extension, e.g. .png or .jpg) and returns its path.
 * @example
 * const png = await renderFile(dir, spec, 'slide.png');
 */
export async function renderFile(dir: string, spec: FrameSpec, name: string): Promise<string> {
  const filter = await drawFilter(dir, spec);
  const out = join(dir, name);
  await run(defaultTools.ffmpeg(), ['-v', 'error', '-y', '-f', 'lavfi', '-i', backgroundSource(spec),
    '-vf', filter, '-frames:v', '1', '-q:v', '2', out]);
  return out;
}

/**
 * Speaks English text with espeak-ng and decodes it with ffmpeg to 16 kHz mono float32 samples.
 * @example
 * const pcm = await speech(dir, 'Hello there'); // Float32Array at 16 kHz
 */
export async function speech(dir: string, text: string): Promise<Float32Array> {
  const wav = join(dir, `speech-${process.pid}-${textFiles++}.wav`);
  await run('espeak-ng', ['-v', 'en', '-w', wav, text]);
  return decodePcm(wav);
}

/**
 * Decodes any audio file with ffmpeg to 16 kHz mono float32 samples.
 * @example
 * const pcm = await decodePcm('talk.wav');
 */
export async function decodePcm(file: string): Promise<Float32Array> {
  const { stdout } = await run(defaultTools.ffmpeg(), ['-v', 'error', '-i', file, '-ac', '1', '-ar', '16000', '-f', 'f32le', '-'], {
    encoding: 'buffer',
    maxBuffer: 1024 * 1024 * 1024,
  });
  const out = new Float32Array(stdout.byteLength / 4);
  new Uint8Array(out.buffer).set(stdout);
  return out;
}

/**
 * Starts ffmpeg decoding `file` to 16 kHz mono f32le on stdout, for streaming tests.
 * @example
 * const bytes = decodePcmStream('long.wav'); for await (const b of bytes) …
 */
export function decodePcmStream(file: string): AsyncIterable<Uint8Array> {
  const child = spawn(defaultTools.ffmpeg(), ['-v', 'error', '-i', file, '-ac', '1', '-ar', '16000', '-f', 'f32le', '-'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return child.stdout;
}

/**
 * Writes 16 kHz mono float32 samples as a WAV file (IEEE float) that ffmpeg can read back.
 * @example
 * await writeWav(join(dir, 'track.wav'), pcm);
 */
export async function writeWav(file: string, samples: Float32Array): Promise<void> {
  const header = Buffer.alloc(44);
  const bytes = samples.length * 4;
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + bytes, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(3, 20); // IEEE float
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(16000, 24);
  header.writeUInt32LE(16000 * 4, 28);
  header.writeUInt16LE(4, 32);
  header.writeUInt16LE(32, 34);
  header.write('data', 36);
  header.writeUInt32LE(bytes, 40);
  await writeFile(file, Buffer.concat([header, Buffer.from(samples.buffer, samples.byteOffset, bytes)]));
}

/**
 * First and last 10 ms frame louder than -40 dBFS, in seconds: where the speech really is inside
 * a clip, without espeak-ng's own leading and trailing quiet.
 * @example
 * const [start, end] = loudExtent(pcm);
 */
export function loudExtent(samples: Float32Array, sampleRate = 16000): [number, number] {
  const frame = sampleRate / 100;
  let first = -1;
  let last = -1;
  for (let i = 0; i < samples.length; i += frame) {
    const end = Math.min(i + frame, samples.length);
    let energy = 0;
    for (let j = i; j < end; j++) energy += samples[j] * samples[j];
    if (Math.sqrt(energy / (end - i)) > 0.01) {
      if (first < 0) first = i;
      last = end;
    }
  }
  if (first < 0) throw new Error('no audible samples');
  return [first / sampleRate, last / sampleRate];
}

/**
 * Concatenates clips and stretches of silence (numbers, in seconds) into one 16 kHz track.
 * Returns the track and the start offset (seconds) of every clip.
 * @example
 * const { track, offsets } = assemble([2, clipA, 3, clipB, 2]);
 */
export function assemble(parts: Array<number | Float32Array>, sampleRate = 16000): { track: Float32Array; offsets: number[] } {
  const lengths = parts.map((p) => (typeof p === 'number' ? Math.round(p * sampleRate) : p.length));
  const track = new Float32Array(lengths.reduce((a, b) => a + b, 0));
  const offsets: number[] = [];
  let at = 0;
  parts.forEach((p, i) => {
    if (typeof p !== 'number') {
      track.set(p, at);
      offsets.push(at / sampleRate);
    }
    at += lengths[i];
  });
  return { track, offsets };
}
