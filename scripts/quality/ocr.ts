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

const FONTS = '/usr/share/fonts/truetype';

/**
 * English slide texts of 2–6 words. Capital I is left out: in sans fonts it is the same glyph as l.
 * @example
 * ENGLISH[0]; // 'SUNSET OVER THE LAKE'
 */
export const ENGLISH = [
  'SUNSET OVER THE LAKE', 'Quarterly budget review', 'NIGHT FALLS', 'Welcome to the cooking show',
  'Morning run in the park', 'RED FOX JUMPS HIGH', 'Geology lecture part two', 'Harbour lights at dusk',
  'Team meeting notes', 'Fresh bread every morning', 'Mountain trail closed today', 'Final score three to one',
];

/**
 * German slide texts: 21 words with ä ö ü Ä Ö Ü or ß among 38 words.
 * @example
 * GERMAN[0]; // 'Grüße aus München'
 */
export const GERMAN = [
  'Grüße aus München', 'Schöne Straße am Fluss', 'Frische Brötchen vom Bäcker', 'Öffnungszeiten der Bäckerei',
  'Äpfel und Käse', 'Fußball für Männer', 'Übung macht den Meister', 'Frühstück mit Gemüse',
  'Der Schlüssel liegt unter der Tür', 'Größe und Gewicht', 'Weiße Wände',
];

/**
 * A way to draw a slide: font, size, colours, frame size, background.
 * @example
 * const look: Look = { name: 'x', width: 640, height: 360, font: 'dejavu/DejaVuSans.ttf', size: 24, color: 'white', background: 'blue' };
 */
export interface Look {
  name: string;
  width: number;
  height: number;
  font: string;
  size: number;
  color: string;
  background: string;
  /** A busy lavfi picture instead of the solid background. */
  source?: string;
  border?: number;
}

/**
 * Eight looks for English slides: DejaVu, Liberation and FreeFont faces, 24–60 px, light and dark text, 640 and 1280 wide.
 * @example
 * ENGLISH_LOOKS.map((l) => l.name); // ['dejavu-sans-24', …]
 */
export const ENGLISH_LOOKS: Look[] = [
  { name: 'dejavu-sans-24', width: 640, height: 360, font: 'dejavu/DejaVuSans.ttf', size: 24, color: 'white', background: '0x224466' },
  { name: 'dejavu-serif-34', width: 640, height: 360, font: 'dejavu/DejaVuSerif.ttf', size: 34, color: 'black', background: 'white' },
  { name: 'dejavu-bold-44', width: 1280, height: 720, font: 'dejavu/DejaVuSans-Bold.ttf', size: 44, color: 'yellow', background: '0x202020' },
  { name: 'dejavu-mono-40', width: 1280, height: 720, font: 'dejavu/DejaVuSansMono.ttf', size: 40, color: 'white', background: '0x880000' },
  { name: 'liberation-serif-40', width: 1280, height: 720, font: 'liberation2/LiberationSerif-Regular.ttf', size: 40, color: 'white', background: '0x224466' },
  { name: 'liberation-sans-26', width: 640, height: 360, font: 'liberation2/LiberationSans-Regular.ttf', size: 26, color: '0x103010', background: '0xe0e0c0' },
  { name: 'free-serif-60', width: 1280, height: 720, font: 'freefont/FreeSerif.ttf', size: 60, color: 'black', background: '0xc0d0ff' },
  { name: 'free-sans-bold-30', width: 640, height: 360, font: 'freefont/FreeSansBold.ttf', size: 30, color: 'white', background: 'darkgreen' },
];

/**
 * Four looks for German slides: two clean, two busy (a fractal and ffmpeg's test pattern under outlined captions).
 * @example
 * GERMAN_LOOKS.filter((l) => l.source).length; // 2
 */
export const GERMAN_LOOKS: Look[] = [
  { name: 'clean-dark', width: 1280, height: 720, font: 'dejavu/DejaVuSans-Bold.ttf', size: 44, color: 'white', background: '0x224466' },
  { name: 'clean-light', width: 1280, height: 720, font: 'liberation2/LiberationSerif-Regular.ttf', size: 40, color: 'black', background: 'white' },
  { name: 'busy-fractal', width: 1280, height: 720, font: 'freefont/FreeSansBold.ttf', size: 44, color: 'white', background: 'black', source: 'mandelbrot', border: 2 },
  { name: 'busy-pattern', width: 1280, height: 720, font: 'dejavu/DejaVuSans.ttf', size: 40, color: 'white', background: 'black', source: 'testsrc2', border: 2 },
];

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
