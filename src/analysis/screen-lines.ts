/**
 * The one place where recognised lines of a frame become on-screen text for analysis: what OCR reads in
 * background clutter (a lone "O", a two-letter scrap it is unsure of, a "文" among Latin letters) is noise,
 * and would otherwise reach chapters, search results and the index.
 */
import type { OcrLine } from '../ml/ocr/types.js';

/** Scripts told apart; Chinese, Japanese and Korean share one group (Japanese mixes kanji and kana). */
const SCRIPTS: { name: string; re: RegExp }[] = [
  { name: 'latin', re: /\p{Script=Latin}/u },
  { name: 'cjk', re: /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}]/u },
  { name: 'cyrillic', re: /\p{Script=Cyrillic}/u },
  { name: 'greek', re: /\p{Script=Greek}/u },
  { name: 'arabic', re: /\p{Script=Arabic}/u },
  { name: 'hebrew', re: /\p{Script=Hebrew}/u },
];

/** A line with at most this many letters and digits is a scrap unless OCR is sure of it. */
const SCRAP_CHARS = 3;
/** How sure OCR must be of a scrap ("OK", "EU", "B12") for it to stay. */
const SCRAP_CONFIDENCE = 0.8;

/** Script of a letter; null for anything shared by all scripts (digits, punctuation, the kana length mark "ー"). */
function scriptOf(char: string): string | null {
  if (!/\p{L}/u.test(char) || /[\p{Script=Common}\p{Script=Inherited}]/u.test(char)) return null;
  return SCRIPTS.find((s) => s.re.test(char))?.name ?? 'other';
}

/** The script most letters of the frame are written in; null when it has no letters. */
function mainScript(lines: OcrLine[]): string | null {
  const counts = new Map<string, number>();
  for (const line of lines) {
    for (const char of line.text) {
      const script = scriptOf(char);
      if (script) counts.set(script, (counts.get(script) ?? 0) + 1);
    }
  }
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/** The line without letters of other scripts than `script`, spaces tidied. */
function inScript(text: string, script: string | null): string {
  const kept = [...text].filter((char) => {
    const s = scriptOf(char);
    return s === null || s === script;
  });
  return kept.join('').replace(/\s+/g, ' ').trim();
}

/**
 * The on-screen text of one frame's OCR lines, noise dropped: letters of a script foreign to the rest of the
 * frame, lines of a single letter or digit, and short scraps read with low confidence.
 * @example
 * screenLines([
 *   { text: 'Apfelkuchen Rezept', confidence: 0.97, box },
 *   { text: 'O', confidence: 0.9, box },
 *   { text: '文', confidence: 0.95, box },
 *   { text: 'Ni', confidence: 0.55, box },
 * ]); // ['Apfelkuchen Rezept']
 */
export function screenLines(lines: OcrLine[]): string[] {
  const script = mainScript(lines);
  const out: string[] = [];
  for (const line of lines) {
    const text = inScript(line.text, script);
    const chars = text.match(/[\p{L}\p{N}]/gu)?.length ?? 0;
    if (chars < 2) continue;
    if (chars <= SCRAP_CHARS && line.confidence < SCRAP_CONFIDENCE) continue;
    out.push(text);
  }
  return out;
}
