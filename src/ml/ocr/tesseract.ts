import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { defaultTools, type MediaTools } from '../../media/binaries.js';
import { runTool } from '../../media/run.js';
import { sampleQuad } from './crop.js';
import { quadSize } from './geometry.js';
import { greyOf, inkTest } from './ink.js';
import type { Quad, RgbFrame } from './types.js';

/** Height of the line images handed to Tesseract: its LSTM reads best with ~30–40 px letters. */
const LINE_H = 64;
/** White margin around each line image; Tesseract misses glyphs that touch the edge. */
const MARGIN = 12;

/**
 * How a line crop is turned into Tesseract's input: `binary` draws the Otsu ink black on white (grey when the
 * crop has no clear split), `grey` only turns light-on-dark text dark-on-light.
 * @example
 * const prep: LinePrep = 'binary';
 */
export type LinePrep = 'binary' | 'grey';

/**
 * Reads line boxes another detector found with the `tesseract` CLI (`--psm 7`: one line per image), all
 * lines of a frame in one run through a list file. Returns one string per quad, '' where nothing was read.
 * @example
 * const texts = await tesseractLines('/usr/bin/tesseract', frame, boxes, { language: 'deu' }); // ['Grüße aus München']
 */
export async function tesseractLines(
  path: string,
  frame: RgbFrame,
  quads: Quad[],
  opts: { language: string; prep?: LinePrep; signal?: AbortSignal },
): Promise<string[]> {
  if (quads.length === 0) return [];
  const dir = await mkdtemp(join(tmpdir(), 'vidx-tess-'));
  try {
    const files: string[] = [];
    for (const [i, q] of quads.entries()) {
      const file = join(dir, `line${i}.png`);
      await writeFile(file, await lineImage(frame, q, opts.prep ?? 'binary'));
      files.push(file);
    }
    const list = join(dir, 'lines.txt');
    await writeFile(list, `${files.join('\n')}\n`);
    const { stdout } = await runTool({ path }, [list, 'stdout', '-l', opts.language, '--psm', '7'], {
      signal: opts.signal,
      // Tesseract's OpenMP threads fight ONNX Runtime's for the same cores; one is as fast here.
      env: { OMP_THREAD_LIMIT: '1' },
    });
    // Pages (here: lines) are separated by form feeds.
    const pages = stdout.toString('utf8').split('\f');
    return quads.map((_, i) => (pages[i] ?? '').replace(/\s+/g, ' ').trim());
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * Tesseract with its German model, checked once per executable: the executable, or why it cannot be used.
 * @example
 * const { path, reason } = germanTesseract(); // { path: '/usr/bin/tesseract', version: 'tesseract 5.3.0' }
 */
export interface GermanTesseract {
  path: string | null;
  version?: string;
  reason?: string;
}

const INSTALL = 'install it with `apt-get install tesseract-ocr tesseract-ocr-deu` (or set TESSERACT_PATH)';
/**
 * What each Tesseract executable answered, by its path: a pure memo of an installed file, shared by every
 * server of the process (two servers with different TESSERACT_PATH each get their own answer).
 */
const checked = new Map<string, GermanTesseract>();

/**
 * Finds Tesseract (TESSERACT_PATH, then PATH) and checks it lists the `deu` language.
 * @example
 * if (germanTesseract(tools).path) await tesseractLines(germanTesseract(tools).path!, frame, boxes, { language: 'deu' });
 */
export function germanTesseract(tools: MediaTools = defaultTools): GermanTesseract {
  const { path } = tools.locateTesseract();
  if (!path) return { path: null, reason: `tesseract not found: ${INSTALL}` };
  let hit = checked.get(path);
  if (!hit) {
    hit = checkGermanTesseract(path);
    checked.set(path, hit);
  }
  return hit;
}

/** Runs tesseract to learn its version and whether it has the German model (once per executable, see germanTesseract). */
function checkGermanTesseract(path: string): GermanTesseract {
  try {
    const opts = { encoding: 'utf8' as const, timeout: 10_000, stdio: ['ignore', 'pipe', 'pipe'] as ['ignore', 'pipe', 'pipe'] };
    const version = execFileSync(path, ['--version'], opts).split('\n')[0].trim();
    const langs = execFileSync(path, ['--list-langs'], opts).split('\n').map((l) => l.trim());
    if (!langs.includes('deu')) return { path: null, version, reason: `${path} has no German model (deu): ${INSTALL}` };
    return { path, version };
  } catch (err) {
    return { path: null, reason: `${path} does not run (${(err as Error).message.split('\n')[0]}): ${INSTALL}` };
  }
}

/**
 * Runs germanTesseract's two checks without blocking (they take ~0.1–0.2 s of spawning), so the first task
 * or /health finds the answer cached. Started with the server.
 * @example
 * void primeGermanTesseract(tools);
 */
export async function primeGermanTesseract(tools: MediaTools = defaultTools): Promise<void> {
  const { path } = tools.locateTesseract();
  if (!path || checked.has(path)) return;
  try {
    const run = (arg: string) => promisify(execFile)(path, [arg], { encoding: 'utf8', timeout: 10_000 }).then((r) => r.stdout);
    const [version, langs] = await Promise.all([run('--version'), run('--list-langs')]);
    if (checked.has(path)) return;
    const v = version.split('\n')[0].trim();
    const found: GermanTesseract = langs.split('\n').map((l) => l.trim()).includes('deu') ? { path, version: v } : { path: null, version: v, reason: `${path} has no German model (deu): ${INSTALL}` };
    checked.set(path, found);
  } catch {
    // germanTesseract checks again, and says why, when asked.
  }
}

/** One upright line as a PNG: dark text on white with a margin. */
async function lineImage(frame: RgbFrame, q: Quad, prep: LinePrep): Promise<Buffer> {
  const { width, height } = quadSize(q);
  const w = Math.max(1, Math.ceil(LINE_H * (width / Math.max(1, height))));
  const tensor = new Float32Array(3 * LINE_H * w);
  sampleQuad(frame, q, tensor, 0, LINE_H, w);
  const grey = greyOf(tensor, 0, LINE_H, w, w);
  const ink = inkTest(grey, w, LINE_H);
  const W = w + 2 * MARGIN;
  const H = LINE_H + 2 * MARGIN;
  const out = new Uint8Array(W * H).fill(255);
  // Light text on a dark ground is inverted; without a clear split the mean border level decides.
  const invert = ink ? ink(1) : borderMean(grey, w, LINE_H) < 0;
  for (let y = 0; y < LINE_H; y++) {
    for (let x = 0; x < w; x++) {
      const v = grey[y * w + x];
      const level = prep === 'binary' && ink ? (ink(v) ? 0 : 255) : Math.round(((invert ? -v : v) + 1) * 127.5);
      out[(y + MARGIN) * W + x + MARGIN] = Math.max(0, Math.min(255, level));
    }
  }
  return sharp(out, { raw: { width: W, height: H, channels: 1 } }).png({ compressionLevel: 1 }).toBuffer();
}

function borderMean(grey: Float32Array, w: number, h: number): number {
  let sum = 0;
  for (let x = 0; x < w; x++) sum += grey[x] + grey[(h - 1) * w + x];
  return sum / (2 * w);
}
