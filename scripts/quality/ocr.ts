/**
 * OCR quality on slides with known text: English word spacing and German letters.
 * Slides are drawn by ffmpeg (drawtext) and passed through H.264 like frames of a real video, then read by the
 * real OCR engine (PP-OCRv4, plus the Tesseract `deu` second pass when it is installed).
 *
 *   npx tsx scripts/quality/ocr.ts [--small]     # the last line printed is one JSON object
 *
 * `scripts/bench-quality.ts` imports {@link measureOcrQuality}; test/quality/ocr.test.ts runs {@link readSlides}.
 */
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { createOcr, germanTesseract } from '../../src/ml/ocr/index.js';
import { guessEszett } from '../../src/ml/ocr/german.js';
import { tesseractLines } from '../../src/ml/ocr/tesseract.js';
import { renderFrame, scratchDir, type FrameSpec } from '../../test/ml/fixtures.js';
import { ENGLISH, ENGLISH_LOOKS, FONTS, GERMAN, GERMAN_LOOKS, type Look } from './ocr-slides.js';

/**
 * One slide read back. `variants` holds other readings of the same frame, for comparison.
 * @example
 * const r: SlideReading = (await readSlides(slides))[0]; r.text === r.truth;
 */
export interface SlideReading {
  language: 'en' | 'de';
  look: string;
  busy: boolean;
  truth: string;
  text: string;
  ms: number;
  variants: Record<string, { text: string; ms: number }>;
}

function spec(look: Look, text: string): FrameSpec {
  return {
    width: look.width, height: look.height, background: look.background, source: look.source, codec: 'h264',
    lines: [{ text, size: look.size, font: `${FONTS}/${look.font}`, color: look.color, border: look.border }],
  };
}

/**
 * Renders each (text, look) pair and reads it with the OCR engine, in the slide's language. With `compare`,
 * German slides are also read without the German pass (PP-OCRv4 alone, and with only ß guessed) and, with
 * `compare: 'all'`, by Tesseract alone on PP-OCRv4's boxes.
 * @example
 * const readings = await readSlides([{ language: 'en', text: 'NIGHT FALLS', look: ENGLISH_LOOKS[0] }]);
 */
export async function readSlides(
  slides: { language: 'en' | 'de'; text: string; look: Look }[],
  opts: { compare?: 'ppocr' | 'all' } = {},
): Promise<SlideReading[]> {
  const dir = await scratchDir();
  const ocr = createOcr();
  const plain = createOcr({ tesseractPath: null });
  const tesseract = germanTesseract().path;
  const out: SlideReading[] = [];
  try {
    for (const s of slides) {
      const frame = await renderFrame(dir.path, spec(s.look, s.text));
      let t = performance.now();
      const lines = await ocr.recognize(frame, { language: s.language });
      const ms = performance.now() - t;
      const variants: SlideReading['variants'] = {};
      if (opts.compare && s.language === 'de') {
        t = performance.now();
        const raw = await plain.recognize(frame, { language: 'en' });
        const rawMs = performance.now() - t;
        const rawText = raw.map((l) => l.text).join(' ');
        variants.ppocr = { text: rawText, ms: rawMs };
        variants.ppocr_eszett = { text: guessEszett(rawText), ms: rawMs };
        if (tesseract && opts.compare === 'all') {
          t = performance.now();
          const second = await tesseractLines(tesseract, frame, raw.map((l) => l.box), { language: 'deu' });
          variants.tesseract_on_boxes = { text: second.join(' '), ms: rawMs + performance.now() - t };
        }
      }
      out.push({ language: s.language, look: s.look.name, busy: !!s.look.source, truth: s.text, text: lines.map((l) => l.text).join(' '), ms, variants });
    }
  } finally {
    await ocr.close();
    await plain.close();
    await dir.dispose();
  }
  return out;
}

/**
 * How many words of `truth` the reading holds exactly (case and letters), each read word used once.
 * A run-together "THELAKE" counts as two misses.
 * @example
 * wordsRight('SUNSET OVER THE LAKE', 'SUNSET OVER THELAKE'); // 2
 */
export function wordsRight(truth: string, text: string): number {
  const read = text.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  let right = 0;
  for (const w of truth.split(/[^\p{L}\p{N}]+/u).filter(Boolean)) {
    const at = read.indexOf(w);
    if (at < 0) continue;
    read.splice(at, 1);
    right++;
  }
  return right;
}

const GERMAN_LETTER = /[äöüÄÖÜß]/;
const wordCount = (s: string) => s.split(/[^\p{L}\p{N}]+/u).filter(Boolean).length;
const round = (v: number, digits = 3) => Math.round(v * 10 ** digits) / 10 ** digits;

/**
 * Share of truth words read exactly over a set of readings; `only` narrows to some words (e.g. umlaut words).
 * @example
 * wordRate(readings, (r) => r.text); // 0.97
 */
export function wordRate(readings: SlideReading[], text: (r: SlideReading) => string | undefined, only?: (word: string) => boolean): number {
  let right = 0;
  let total = 0;
  for (const r of readings) {
    const got = text(r);
    if (got === undefined) continue;
    const truthWords = r.truth.split(' ').filter((w) => !only || only(w));
    total += truthWords.length;
    right += wordsRight(truthWords.join(' '), got);
  }
  return total ? right / total : 0;
}

/**
 * The OCR figures of the quality suite: English exact-word and exact-line rates over 96 slides (12 texts ×
 * 8 looks), German word accuracy over 44 slides (11 texts × 4 looks) with what each alternative would score,
 * and milliseconds per frame with and without the German pass. `small` reads a quarter of the slides.
 * @example
 * const q = await measureOcrQuality(); // { ocr_en_exact_word_rate: 0.99, ocr_de_word_accuracy: 0.9, … }
 */
export async function measureOcrQuality(opts: { small?: boolean; onReading?: (r: SlideReading) => void } = {}): Promise<Record<string, number>> {
  const step = opts.small ? 4 : 1;
  const en = ENGLISH.flatMap((text, i) => ENGLISH_LOOKS.filter((_, j) => (i + j) % step === 0).map((look) => ({ language: 'en' as const, text, look })));
  const de = GERMAN.flatMap((text, i) => GERMAN_LOOKS.filter((_, j) => (i + j) % step === 0).map((look) => ({ language: 'de' as const, text, look })));
  const enRead = await readSlides(en);
  const deRead = await readSlides(de, { compare: 'all' });
  for (const r of [...enRead, ...deRead]) opts.onReading?.(r);
  const clean = deRead.filter((r) => !r.busy);
  const busy = deRead.filter((r) => r.busy);
  const umlaut = (w: string) => GERMAN_LETTER.test(w);
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const variant = (name: string) => (r: SlideReading) => r.variants[name]?.text;
  const tesseract = germanTesseract().path ? 1 : 0;
  return {
    ocr_en_slides: enRead.length,
    ocr_en_words: enRead.reduce((n, r) => n + wordCount(r.truth), 0),
    ocr_en_exact_word_rate: round(wordRate(enRead, (r) => r.text)),
    ocr_en_exact_line_rate: round(enRead.filter((r) => r.text === r.truth).length / Math.max(1, enRead.length)),
    ocr_en_ms_per_frame: Math.round(mean(enRead.map((r) => r.ms))),
    ocr_de_tesseract: tesseract,
    ocr_de_slides: deRead.length,
    ocr_de_words: deRead.reduce((n, r) => n + wordCount(r.truth), 0),
    ocr_de_word_accuracy: round(wordRate(deRead, (r) => r.text)),
    ocr_de_umlaut_word_accuracy: round(wordRate(deRead, (r) => r.text, umlaut)),
    ocr_de_clean_word_accuracy: round(wordRate(clean, (r) => r.text)),
    ocr_de_busy_word_accuracy: round(wordRate(busy, (r) => r.text)),
    ocr_de_ms_per_frame: Math.round(mean(deRead.map((r) => r.ms))),
    ocr_de_ppocr_word_accuracy: round(wordRate(deRead, variant('ppocr'))),
    ocr_de_ppocr_umlaut_word_accuracy: round(wordRate(deRead, variant('ppocr'), umlaut)),
    ocr_de_ppocr_eszett_word_accuracy: round(wordRate(deRead, variant('ppocr_eszett'))),
    ocr_de_ppocr_ms_per_frame: Math.round(mean(deRead.map((r) => r.variants.ppocr?.ms ?? 0))),
    ...(tesseract
      ? {
          ocr_de_tesseract_only_word_accuracy: round(wordRate(deRead, variant('tesseract_on_boxes'))),
          ocr_de_tesseract_only_clean_word_accuracy: round(wordRate(clean, variant('tesseract_on_boxes'))),
          ocr_de_tesseract_only_busy_word_accuracy: round(wordRate(busy, variant('tesseract_on_boxes'))),
          ocr_de_ppocr_busy_word_accuracy: round(wordRate(busy, variant('ppocr'))),
        }
      : {}),
  };
}

async function main(): Promise<void> {
  const small = process.argv.includes('--small');
  const started = performance.now();
  // Every misread slide, for the record; the figures are the last line.
  const onReading = (r: SlideReading) => {
    if (r.text !== r.truth) console.log(`${r.language} ${r.look}: ${JSON.stringify(r.truth)} read as ${JSON.stringify(r.text)}`);
  };
  const figures = await measureOcrQuality({ small, onReading });
  console.log(JSON.stringify({ ...figures, seconds: Math.round((performance.now() - started) / 1000) }));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
