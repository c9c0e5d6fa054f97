import { describe, expect, it } from 'vitest';
import { ocrSlips } from '../../src/services/explore/ocr-slips.js';
import { mayBeSlipOf } from '../../src/tools/ocr-slip.js';

describe('OCR slips', () => {
  it('are one lost diacritic, or one letter in a longer word, away', () => {
    expect(mayBeSlipOf('konigssee', 'königssee')).toBe(true);
    expect(mayBeSlipOf('muller', 'müller')).toBe(true);
    expect(mayBeSlipOf('strasse', 'straße')).toBe(true);
    expect(mayBeSlipOf('reviev', 'review')).toBe(true);
    expect(mayBeSlipOf('car', 'cat')).toBe(false);
    expect(mayBeSlipOf('rain', 'rhein')).toBe(false);
    expect(mayBeSlipOf('review', 'review')).toBe(false);
  });

  it('are words shown once that a better-read word explains: said, read in more items, or with the diacritics', () => {
    const shown = (text: string, item: string) => ({ shown: text, other: '', item });
    const said = (text: string, item: string) => ({ shown: '', other: text, item });
    // Said in the subtitles, OCR lost the umlaut.
    expect(ocrSlips([shown('Konigssee', 'a'), said('The boat crosses the Königssee.', 'b')])).toEqual(new Set(['konigssee']));
    // Read right in two items, once with a slip.
    expect(ocrSlips([shown('Budget review', 'a'), shown('Budget review', 'b'), shown('Budget reviev', 'c')])).toEqual(new Set(['reviev']));
    // Read once each: OCR drops umlauts and never adds them, so the spelling with one is the better reading.
    expect(ocrSlips([shown('Konigssee', 'a'), shown('Königssee', 'b')])).toEqual(new Set(['konigssee']));
    // Two words read once each, a letter apart: neither is known to be the better reading.
    expect(ocrSlips([shown('Harbour', 'a'), shown('Harbor', 'b')])).toEqual(new Set());
    // Shown twice in one item is still once; a copy counts as its original's item.
    expect(ocrSlips([shown('Konigssee', 'a'), shown('Konigssee', 'a'), said('Königssee', 'b')])).toEqual(new Set(['konigssee']));
    // A word that is said is no slip, whatever it looks like.
    expect(ocrSlips([said('Harbor', 'a'), said('Harbour', 'b')])).toEqual(new Set());
  });
});
