import { guessEszett, mayHoldGermanLetters, mergeGermanLetters } from './german.js';
import { tesseractLines } from './tesseract.js';
import type { OcrLine, Quad, RgbFrame } from './types.js';
import type { Lang } from '../../messages/index.js';

/**
 * The German second pass over PP-OCRv4's lines: with `language: 'de'` every line, otherwise only lines that
 * look German, are re-read by Tesseract (`deu`) from their upright boxes, and its German letters are merged
 * in word by word. Without Tesseract (or when it fails) German lines only get ß back where PP-OCRv4 wrote "B".
 * @example
 * const lines = await addGermanLetters(frame, ppLines, uprightBoxes, { language: 'de', tesseractPath: '/usr/bin/tesseract' });
 */
export async function addGermanLetters(
  frame: RgbFrame,
  lines: OcrLine[],
  uprightBoxes: Quad[],
  opts: { language?: Lang; tesseractPath: string | null; signal?: AbortSignal },
): Promise<OcrLine[]> {
  const german = opts.language === 'de';
  const pick = lines.map((_, i) => i).filter((i) => german || mayHoldGermanLetters(lines[i].text));
  if (pick.length === 0) return lines;
  let second: string[] | null = null;
  if (opts.tesseractPath) {
    try {
      second = await tesseractLines(opts.tesseractPath, frame, pick.map((i) => uprightBoxes[i]), { language: 'deu', signal: opts.signal });
    } catch (err) {
      // A failing optional tool costs the German letters, never the text PP-OCRv4 read.
      if (opts.signal?.aborted) throw err;
    }
  }
  const out = [...lines];
  pick.forEach((i, k) => {
    const merged = second ? mergeGermanLetters(lines[i].text, second[k]) : lines[i].text;
    out[i] = { ...lines[i], text: german ? guessEszett(merged) : merged };
  });
  return out;
}
