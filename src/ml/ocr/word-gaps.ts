import type { CtcResult } from './ctc.js';
import { greyOf, inkTest } from './ink.js';

/**
 * Blank column runs inside one line crop, and the height of its ink, in rec-input pixels.
 * @example
 * const { gaps, inkHeight }: InkProfile = inkProfile(tensor, 0, 48, 320, 290);
 */
export interface InkProfile {
  /** Runs of columns without ink between the first and last inked column, `[start, end)`. */
  gaps: { start: number; end: number }[];
  /** Rows from the topmost to the lowest inked row; 0 when the crop has no clear text. */
  inkHeight: number;
}

/**
 * Splits a line crop (one slot of the recogniser's normalised BGR tensor) into ink and background with
 * Otsu's threshold; the background is the class that holds most of the crop's border. A crop whose two
 * classes are too close (busy or faint backgrounds) yields no gaps, so nothing is guessed from it.
 * @example
 * const profile = inkProfile(tensor, slot, 48, tensorW, outW);
 */
export function inkProfile(tensor: Float32Array, slot: number, outH: number, tensorW: number, outW: number): InkProfile {
  const none: InkProfile = { gaps: [], inkHeight: 0 };
  const grey = greyOf(tensor, slot, outH, tensorW, outW);
  const ink = inkTest(grey, outW, outH);
  if (!ink) return none;
  const colInk = new Uint16Array(outW);
  let top = outH;
  let bottom = -1;
  for (let y = 0; y < outH; y++) {
    for (let x = 0; x < outW; x++) {
      if (!ink(grey[y * outW + x])) continue;
      colInk[x]++;
      if (y < top) top = y;
      bottom = y;
    }
  }
  if (bottom < top) return none;
  let first = 0;
  while (first < outW && colInk[first] === 0) first++;
  let last = outW - 1;
  while (last > first && colInk[last] === 0) last--;
  const gaps: InkProfile['gaps'] = [];
  for (let x = first; x <= last; x++) {
    if (colInk[x] !== 0) continue;
    const start = x;
    while (x <= last && colInk[x] === 0) x++;
    gaps.push({ start, end: x });
  }
  return { gaps, inkHeight: bottom - top + 1 };
}

/**
 * Puts a space wherever the crop shows a blank gap at least `minGap` ink heights wide between two
 * characters the recogniser read without one. PP-OCRv4 often drops spaces in small or compressed text
 * ("SUNSETOVERTHELAKE"); the pixels still show where one word ends. Spaces the model emitted are kept.
 * @example
 * withWordSpaces(result, profile, 8); // 'SUNSET OVER THE LAKE'
 */
export function withWordSpaces(result: CtcResult, profile: InkProfile, stepWidth: number, minGap = WORD_GAP): string {
  const digit = /\p{N}/u;
  const { chars } = result;
  if (profile.inkHeight === 0 || chars.length < 2) return result.text;
  const centre = (i: number) => (chars[i].step + 0.5) * stepWidth;
  const spaceAfter = new Set<number>();
  const widths = profile.gaps.map((g) => (g.end - g.start) / profile.inkHeight);
  // Monospaced faces leave wide gaps inside words ("th ree"): a word gap must also stand out from the
  // line's own letter gaps. Measured: word gaps are 2.6–7.8 times the median letter gap, letter gaps at most 2.0.
  const narrow = widths.filter((w) => w < minGap).sort((a, b) => a - b);
  const letterGap = narrow.length ? narrow[narrow.length >> 1] : 0;
  for (const [k, g] of profile.gaps.entries()) {
    const width = widths[k];
    if (width < minGap || width < RELATIVE_GAP * letterGap) continue;
    const mid = (g.start + g.end) / 2;
    // The last character whose centre lies left of the gap's middle ends the word.
    let i = -1;
    while (i + 1 < chars.length && centre(i + 1) < mid) i++;
    if (i < 0 || i >= chars.length - 1) continue;
    if (chars[i].char === ' ' || chars[i + 1].char === ' ') continue;
    // Chinese and Japanese are written without spaces; a gap there is only a wide character's inside.
    if (CJK.test(chars[i].char) || CJK.test(chars[i + 1].char)) continue;
    // Digits such as "1" carry wide side bearings: "11" shows a gap of up to 0.37 ink heights.
    if (digit.test(chars[i].char) && digit.test(chars[i + 1].char) && width < DIGIT_GAP) continue;
    spaceAfter.add(i);
  }
  if (spaceAfter.size === 0) return result.text;
  return chars.map((c, i) => (spaceAfter.has(i) ? `${c.char} ` : c.char)).join('');
}

/**
 * Blank width, in ink heights, that separates words. Measured on 192 H.264 slides (8 fonts from DejaVu,
 * Liberation and FreeFont, 24–60 px): word gaps 0.26–1.03, gaps inside words 0.06–0.29 (0.37 between two "1",
 * 0.32 between "h" and "r" in DejaVu Sans Mono).
 * @example
 * withWordSpaces(result, profile, 8, WORD_GAP);
 */
export const WORD_GAP = 0.3;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
/** How many times the median letter gap of its line a word gap must be. */
const RELATIVE_GAP = 2.3;
/** Between two digits a word gap is at least a space plus side bearings, about 0.58 ink heights. */
const DIGIT_GAP = 0.45;
