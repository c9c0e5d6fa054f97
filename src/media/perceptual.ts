/**
 * Perceptual fingerprints of pictures (video keyframes, photos, query images): what stays the same when a
 * picture is re-encoded, rescaled or recompressed, and changes when it shows something else. No model:
 *
 * - `hash`: a 64-bit DCT hash (pHash) of the picture in grey at 32×32: the signs of its 8×8 lowest
 *   frequencies against their median. Near copies differ in a few bits, unrelated pictures in about 32.
 * - `detail`: the same over 64×64 with 16×16 frequencies (256 bits): finer structure, such as where the
 *   lines of text on a slide run, so two slides of one template with other words tell apart better.
 * - `colour`: a 4×4 layout of mean colours (48 bytes, RGB), which grey hashes do not see.
 *
 * Written here rather than taken from a package: the npm pHash packages decode files themselves (through
 * sharp or jimp) while vidx already holds the decoded frames; the DCT and the bit counting are a few lines.
 */

/** A decoded picture: RGB, 3 bytes a pixel, rows top to bottom. */
export interface RgbPicture {
  data: Uint8Array;
  width: number;
  height: number;
}

/** The fingerprint of one picture; the hashes as hex text (JSON-safe, compact). */
export interface FramePrint {
  /** 64-bit DCT hash, 16 hex digits. */
  hash: string;
  /** 256-bit DCT hash, 64 hex digits. */
  detail: string;
  /** 4×4 mean colours, RGB, row by row (48 values 0..255). */
  colour: number[];
}

const SIDE = 64;

/**
 * Mean RGB of each cell of a 64×64 grid over the picture. Pictures much larger than the grid are read on a
 * lattice of every `step`-th row and column, which still leaves a cell at least 16 samples (a 1280×720 frame
 * reads a quarter of its pixels): a keyframe print cost 7 ms before, a noticeable share of indexing.
 */
function shrink(p: RgbPicture): Float32Array {
  const step = Math.max(1, Math.floor(Math.min(p.width, p.height) / (SIDE * 4)));
  // Integer sums (a cell of a 4K frame sums below 2^32) and a cell offset per sampled column: the loop runs
  // over the pixels of every keyframe, so it stays plain.
  const sums = new Uint32Array(SIDE * SIDE * 3);
  const counts = new Uint32Array(SIDE * SIDE);
  const xs: number[] = [];
  for (let x = 0; x < p.width; x += step) xs.push(x);
  const xcell = Uint32Array.from(xs, (x) => Math.min(SIDE - 1, Math.floor((x * SIDE) / p.width)));
  const xoff = Uint32Array.from(xs, (x) => x * 3);
  const data = p.data;
  for (let y = 0; y < p.height; y += step) {
    const row = Math.min(SIDE - 1, Math.floor((y * SIDE) / p.height)) * SIDE;
    const o = y * p.width * 3;
    for (let i = 0; i < xoff.length; i++) {
      const cell = row + xcell[i]!;
      const c = cell * 3;
      const at = o + xoff[i]!;
      sums[c] += data[at]!;
      sums[c + 1] += data[at + 1]!;
      sums[c + 2] += data[at + 2]!;
      counts[cell]!++;
    }
  }
  const out = new Float32Array(SIDE * SIDE * 3);
  for (let cell = 0; cell < SIDE * SIDE; cell++) {
    const n = Math.max(1, counts[cell]!);
    out[cell * 3] = sums[cell * 3]! / n;
    out[cell * 3 + 1] = sums[cell * 3 + 1]! / n;
    out[cell * 3 + 2] = sums[cell * 3 + 2]! / n;
  }
  return out;
}

/** Grey (Rec. 601 luma) of an RGB grid, averaged down by `factor` on each side. */
function grey(rgb: Float32Array, factor: number): Float32Array {
  const side = SIDE / factor;
  const out = new Float32Array(side * side);
  for (let y = 0; y < SIDE; y++) {
    for (let x = 0; x < SIDE; x++) {
      const o = (y * SIDE + x) * 3;
      out[Math.floor(y / factor) * side + Math.floor(x / factor)] += (0.299 * rgb[o]! + 0.587 * rgb[o + 1]! + 0.114 * rgb[o + 2]!) / (factor * factor);
    }
  }
  return out;
}

const cosines = new Map<string, Float64Array>();

/** cos((2x+1)uπ / 2n) for u < k, x < n. */
function cosTable(n: number, k: number): Float64Array {
  const key = `${n}:${k}`;
  let t = cosines.get(key);
  if (!t) {
    t = new Float64Array(k * n);
    for (let u = 0; u < k; u++) for (let x = 0; x < n; x++) t[u * n + x] = Math.cos(((2 * x + 1) * u * Math.PI) / (2 * n));
    cosines.set(key, t);
  }
  return t;
}

/** The k×k lowest frequencies of the 2-D DCT-II of an n×n grid. */
function lowDct(f: Float32Array, n: number, k: number): Float64Array {
  const c = cosTable(n, k);
  const rows = new Float64Array(k * n);
  for (let u = 0; u < k; u++) {
    for (let y = 0; y < n; y++) {
      let s = 0;
      for (let x = 0; x < n; x++) s += c[u * n + x]! * f[y * n + x]!;
      rows[u * n + y] = s;
    }
  }
  const out = new Float64Array(k * k);
  for (let u = 0; u < k; u++) {
    for (let v = 0; v < k; v++) {
      let s = 0;
      for (let y = 0; y < n; y++) s += c[v * n + y]! * rows[u * n + y]!;
      out[v * k + u] = s;
    }
  }
  return out;
}

/** Bits of the frequencies above the median of all but the first (the mean brightness), as hex. */
function bitsAboveMedian(coefs: Float64Array): string {
  const ac = [...coefs.subarray(1)].sort((a, b) => a - b);
  const median = (ac[(ac.length - 1) >> 1]! + ac[ac.length >> 1]!) / 2;
  let hex = '';
  for (let i = 0; i < coefs.length; i += 4) {
    let nibble = 0;
    for (let b = 0; b < 4; b++) nibble = (nibble << 1) | (i + b > 0 && coefs[i + b]! > median ? 1 : 0);
    hex += nibble.toString(16);
  }
  return hex;
}

/**
 * The 64-bit DCT hash of a 32×32 grey picture (one byte or float a pixel, row by row): what `hash` of
 * {@link framePrint} is, for frames that arrive already small and grey (the dense sequence of a video).
 * @example
 * greyHash(new Uint8Array(32 * 32).fill(128)); // '0000000000000000'
 */
export function greyHash(grey32: Uint8Array | Float32Array): string {
  if (grey32.length !== 32 * 32) throw new Error('greyHash: needs 32×32 values');
  return bitsAboveMedian(lowDct(grey32 instanceof Float32Array ? grey32 : Float32Array.from(grey32), 32, 8));
}

/** Bytes of a {@link frameLook}: the structure, then the mean Y, Cb and Cr of each quarter (top left, top right, bottom left, bottom right). */
export const LOOK_BYTES = 13;

/**
 * How much a small frame shows and its colours, for frames of a video's dense sequence: the frame's
 * structure (the mean difference of neighbouring pixels in grey, ×10, at most 255: a flat colour with a
 * caption is about 5, a slide with a heading 11–18, a filmed scene 100 and more) and the mean colour of
 * its four quarters. The 64-bit hash of a nearly flat frame is decided by noise and a few letters, so
 * two such frames look alike to it; the structure says how far to trust the hash, the colours tell a
 * brown slide from a blue one.
 * @example
 * frameLook(yuv32); // Uint8Array [52, 120, 118, 80, 82, 128, 127, 131, 130, 140, 141, 126, 125]
 */
export function frameLook(yuv32: Uint8Array): Uint8Array {
  const side = 32;
  const plane = side * side;
  if (yuv32.length !== 3 * plane) throw new Error('frameLook: needs a 32×32 frame of three planes');
  let edges = 0;
  for (let y = 0; y < side - 1; y++) {
    for (let x = 0; x < side - 1; x++) {
      const p = yuv32[y * side + x]!;
      edges += Math.abs(p - yuv32[y * side + x + 1]!) + Math.abs(p - yuv32[(y + 1) * side + x]!);
    }
  }
  const out = new Uint8Array(LOOK_BYTES);
  out[0] = Math.min(255, Math.round((10 * edges) / ((side - 1) * (side - 1) * 2)));
  const half = side / 2;
  for (let q = 0; q < 4; q++) {
    const [x0, y0] = [(q % 2) * half, (q >> 1) * half];
    for (let c = 0; c < 3; c++) {
      let sum = 0;
      for (let y = y0; y < y0 + half; y++) for (let x = x0; x < x0 + half; x++) sum += yuv32[c * plane + y * side + x]!;
      out[1 + q * 3 + c] = Math.round(sum / (half * half));
    }
  }
  return out;
}

/**
 * The fingerprint of a picture.
 * @example
 * const print = framePrint({ data: rgb, width: 1280, height: 720 });
 * print.hash; // 'c3a1…' (16 hex digits)
 */
export function framePrint(p: RgbPicture): FramePrint {
  if (p.width < 1 || p.height < 1 || p.data.length < p.width * p.height * 3) throw new Error('framePrint: not an RGB picture of its size');
  const rgb = shrink(p);
  const colour: number[] = [];
  for (let by = 0; by < 4; by++) {
    for (let bx = 0; bx < 4; bx++) {
      for (let k = 0; k < 3; k++) {
        let s = 0;
        for (let y = by * 16; y < by * 16 + 16; y++) for (let x = bx * 16; x < bx * 16 + 16; x++) s += rgb[(y * SIDE + x) * 3 + k]!;
        colour.push(Math.round(s / 256));
      }
    }
  }
  return { hash: bitsAboveMedian(lowDct(grey(rgb, 2), 32, 8)), detail: bitsAboveMedian(lowDct(grey(rgb, 1), 64, 16)), colour };
}

/**
 * Set bits of a 32-bit number.
 * @example
 * popcount(0xff); // 8
 */
export function popcount(n: number): number {
  n -= (n >>> 1) & 0x55555555;
  n = (n & 0x33333333) + ((n >>> 2) & 0x33333333);
  return (((n + (n >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * Differing bits of two hex hashes of one length.
 * @example
 * hammingHex('ff00', 'f0f0'); // 8
 */
export function hammingHex(a: string, b: string): number {
  let d = 0;
  for (let i = 0; i < a.length; i += 8) d += popcount((parseInt(a.slice(i, i + 8), 16) ^ parseInt(b.slice(i, i + 8), 16)) >>> 0);
  return d;
}

/**
 * How alike two pictures look from their differences: differing bits of the 64-bit and the 256-bit hash, and
 * the summed absolute difference of the 48 colour values. The one formula behind {@link printSimilarity}, for
 * callers that count the bits on their own arrays (the search's print index).
 * @example
 * similarityOf(0, 0, 0); // 1
 */
export function similarityOf(hashBits: number, detailBits: number, colourDiff: number): number {
  const distance = 0.4 * (hashBits / 64) + 0.4 * (detailBits / 256) + 0.2 * Math.min(1, colourDiff / 48 / 128);
  return Math.max(0, Math.min(1, 1 - 2 * distance));
}

/**
 * How alike two pictures look, 0..1: 1 for the same picture, about 0.9 and more for a re-encoded or rescaled
 * copy, around 0 for unrelated pictures (half their bits differ). Weighs the coarse hash, the detail hash
 * and the colour layout.
 * @example
 * printSimilarity(framePrint(frame), framePrint(rescaled)); // 0.95
 */
export function printSimilarity(a: FramePrint, b: FramePrint): number {
  let colour = 0;
  for (let i = 0; i < a.colour.length; i++) colour += Math.abs(a.colour[i]! - b.colour[i]!);
  return similarityOf(hammingHex(a.hash, b.hash), hammingHex(a.detail, b.detail), colour);
}
