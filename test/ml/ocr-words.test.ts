import { describe, expect, it } from 'vitest';
import type { CtcResult } from '../../src/ml/ocr/ctc.js';
import { guessEszett, mayHoldGermanLetters, mergeGermanLetters } from '../../src/ml/ocr/german.js';
import { inkProfile, withWordSpaces } from '../../src/ml/ocr/word-gaps.js';

/** A CTC reading with one character every `pitch` steps, spaces kept as read. */
function reading(text: string, stepOf: (i: number) => number): CtcResult {
  const chars = [...text].map((char, i) => ({ char, step: stepOf(i) }));
  return { text, confidence: 0.9, chars };
}

/** A 1-slot, 48-row tensor of width `w`: white ink columns (value 1) on black (-1) where `inkAt(x)`, rows 10..37. */
function tensorWith(w: number, inkAt: (x: number) => boolean): Float32Array {
  const t = new Float32Array(3 * 48 * w).fill(-1);
  for (let c = 0; c < 3; c++) {
    for (let y = 10; y < 38; y++) for (let x = 0; x < w; x++) if (inkAt(x)) t[c * 48 * w + y * w + x] = 1;
  }
  return t;
}

describe('word spacing from blank gaps in the crop', () => {
  // Glyphs 12 px wide with 2 px between letters and 14 px (half the 28 px ink height) between words.
  const layout = (words: number[]) => {
    const spans: [number, number][] = [];
    let x = 8;
    for (const n of words) {
      for (let i = 0; i < n; i++) {
        spans.push([x, x + 12]);
        x += 14;
      }
      x += 12;
    }
    return { spans, width: x + 8 };
  };

  it('puts a space into a run-together reading where the crop shows a word gap', () => {
    const { spans, width } = layout([6, 4, 3, 4]);
    const profile = inkProfile(tensorWith(width, (x) => spans.some(([a, b]) => x >= a && x < b)), 0, 48, width, width);
    expect(profile.inkHeight).toBe(28);
    // The model read every letter but no space; each letter's step sits at its glyph (8 px per step).
    const r = reading('SUNSETOVERTHELAKE', (i) => Math.floor((spans[i][0] + 6) / 8));
    expect(withWordSpaces(r, profile, 8)).toBe('SUNSET OVER THE LAKE');
  });

  it('keeps spaces the model read and adds none inside words or between close digits', () => {
    const { spans, width } = layout([6, 4]);
    const profile = inkProfile(tensorWith(width, (x) => spans.some(([a, b]) => x >= a && x < b)), 0, 48, width, width);
    const withSpace = reading('SUNSET OVER', (i) => Math.floor((spans[i < 6 ? i : i - 1][0] + 6) / 8));
    expect(withWordSpaces(withSpace, profile, 8)).toBe('SUNSET OVER');
    // "11" in serif fonts: a 10 px (0.36 ink heights) gap between the digits is not a word gap.
    const ones = inkProfile(tensorWith(60, (x) => (x >= 10 && x < 20) || (x >= 30 && x < 40)), 0, 48, 60, 60);
    expect(withWordSpaces(reading('11', (i) => [2, 4][i]), ones, 8)).toBe('11');
    // Chinese has no spaces, however wide the gap between two characters.
    const wide = inkProfile(tensorWith(80, (x) => (x >= 10 && x < 30) || (x >= 50 && x < 70)), 0, 48, 80, 80);
    expect(withWordSpaces(reading('川川', (i) => [2, 7][i]), wide, 8)).toBe('川川');
    expect(withWordSpaces(reading('AB', (i) => [2, 7][i]), wide, 8)).toBe('A B');
  });

  it('guesses nothing from a crop without clear ink (flat or busy)', () => {
    const flat = new Float32Array(3 * 48 * 100).fill(0.2);
    expect(inkProfile(flat, 0, 48, 100, 100)).toEqual({ gaps: [], inkHeight: 0 });
    expect(withWordSpaces(reading('AB', (i) => i * 4), { gaps: [], inkHeight: 0 }, 8)).toBe('AB');
  });
});

describe('German letters merged into PP-OCRv4 lines', () => {
  it('takes the second reading word by word when it differs only in German letters', () => {
    expect(mergeGermanLetters('GruBe aus Munchen', 'Grüße aus München')).toBe('Grüße aus München');
    expect(mergeGermanLetters('FuSball fur Manner', 'Fußball für Männer')).toBe('Fußball für Männer');
    // PP-OCRv4 sometimes reads ü as "ui".
    expect(mergeGermanLetters('Der Schluissel', 'Der Schlüssel')).toBe('Der Schlüssel');
  });

  it('keeps PP-OCRv4 words where the second reading merged or garbled them (busy backgrounds)', () => {
    expect(mergeGermanLetters('GruBe aus Munchen', 'Grüßefäus München')).toBe('GruBe aus München');
    expect(mergeGermanLetters('Der Schlussel liegt unter der Tur', 'BeErSchlüssel liegt unter der Tüg')).toBe('Der Schlussel liegt unter der Tur');
    expect(mergeGermanLetters('Frische Brotchen,', 'Frische Brötchen')).toBe('Frische Brötchen,');
  });

  it('restores ß from "B" between lower-case letters, and says which lines look German', () => {
    expect(guessEszett('Schone StraBe am Fluss')).toBe('Schone Straße am Fluss');
    expect(guessEszett('BBC News')).toBe('BBC News');
    expect(mayHoldGermanLetters('GroBe und Gewicht')).toBe(true);
    expect(mayHoldGermanLetters('Bäckerei')).toBe(true);
    expect(mayHoldGermanLetters('Quarterly Results 2024')).toBe(false);
  });
});
