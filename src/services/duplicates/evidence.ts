/**
 * What the other senses say about a pair whose frames line up: the words read on screen and the sound.
 * Each says `agree`, `differ`, or nothing (null) when it has too little to tell; one `differ` is enough to
 * keep two items apart, and an `agree` is needed where the frames alone say little (slides, title cards).
 */
import { compareSound, type SoundFrames } from '../../media/sound-print.js';
import { mayBeSlipOf, SLIP_LENGTH } from '../../tools/ocr-slip.js';

/** What one sense says of a pair. */
export type Verdict = 'agree' | 'differ' | null;

function foundIn(word: string, words: Set<string>): boolean {
  if (words.has(word)) return true;
  for (const other of words) if (mayBeSlipOf(word, other)) return true;
  return false;
}

/**
 * Whether two items' on-screen words agree: the share of the smaller set's words that the other shows
 * too (a trimmed or smaller copy reads fewer words, never other ones), an OCR slip forgiven (a lost umlaut, or one letter in longer words).
 * One word of five letters or more is enough to differ ("brot backen" and "marienplatz").
 * @example
 * wordsVerdict(new Set(['brot', 'backen']), new Set(['marienplatz'])); // 'differ'
 * wordsVerdict(new Set(['budget', 'review']), new Set(['budget', 'reviev', 'solar'])); // 'agree'
 */
export function wordsVerdict(a: Set<string>, b: Set<string>): Verdict {
  if (!a.size || !b.size) return null;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let found = 0;
  for (const w of small) if (foundIn(w, large)) found++;
  const share = found / small.size;
  const sayable = small.size >= 2 || [...small][0]!.length >= SLIP_LENGTH;
  if (!sayable) return null;
  if (share >= 0.6) return 'agree';
  return share <= 0.25 ? 'differ' : null;
}

/** Changing bits up to this share: the same sound (a re-encode moves 1–12 %). */
const SAME_SOUND = 0.2;
/** From this share of changing bits on: other sound (unrelated speech differs in 34–39 %)… */
const OTHER_SOUND = 0.3;
/** …when the shape bits differ this much too (unrelated speech 34–46 %; a steady tone and its MP3 copy 25 %). */
const OTHER_SHAPE = 0.28;

/**
 * Whether two items sound the same where B's time is A's plus `offset` seconds. Steady sound (a hum, a tone)
 * has change bits of noise: it is called other only when the spectrum's shape differs as well.
 * @example
 * soundVerdict(original, reencoded, 0); // 'agree'
 * soundVerdict(slideWithOneVoice, slideWithAnother, 0); // 'differ'
 */
export function soundVerdict(a: SoundFrames | null, b: SoundFrames | null, offset: number): Verdict {
  if (!a || !b) return null;
  const { change, shape } = compareSound(a, b, offset);
  if (change === null || shape === null) return null;
  if (change <= SAME_SOUND) return 'agree';
  return change >= OTHER_SOUND && shape >= OTHER_SHAPE ? 'differ' : null;
}
