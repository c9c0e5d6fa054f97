import { describe, expect, it } from 'vitest';
import { screenLines } from '../../src/analysis/screen-lines.js';
import type { OcrLine, Quad } from '../../src/ml/ocr/types.js';

const box: Quad = [[0, 0], [10, 0], [10, 10], [0, 10]];
const line = (text: string, confidence = 0.97): OcrLine => ({ text, confidence, box });

describe('screenLines: OCR lines as on-screen text, noise dropped', () => {
  it('drops lines of one letter or digit, whatever the confidence', () => {
    expect(screenLines([line('Apfelkuchen Rezept'), line('O', 0.99), line('5'), line(' x ')])).toEqual(['Apfelkuchen Rezept']);
  });

  it('drops short scraps read with low confidence, keeps short text read with confidence', () => {
    expect(screenLines([line('Penalty shot'), line('Ni', 0.55), line('+|', 0.61), line('OK', 0.95), line('B12', 0.9)])).toEqual(['Penalty shot', 'OK', 'B12']);
    // A longer line stays even when OCR is unsure: it still carries words.
    expect(screenLines([line('Quarterly results', 0.6)])).toEqual(['Quarterly results']);
  });

  it('drops letters of a script foreign to the rest of the frame', () => {
    expect(screenLines([line('Apfelkuchen Rezept'), line('文', 0.95), line('一', 0.62)])).toEqual(['Apfelkuchen Rezept']);
    expect(screenLines([line('Café 文 Müller')])).toEqual(['Café Müller']);
    // A frame written in another script keeps it: the Latin scrap is the foreign one there.
    expect(screenLines([line('東京タワー'), line('営業中'), line('ab', 0.97)])).toEqual(['東京タワー', '営業中']);
    expect(screenLines([line('Москва'), line('Weg')])).toEqual(['Москва']);
  });

  it('keeps digits and punctuation with the words they stand by, and answers nothing for nothing', () => {
    expect(screenLines([line('FINAL 2024 – 3:1')])).toEqual(['FINAL 2024 – 3:1']);
    expect(screenLines([])).toEqual([]);
    expect(screenLines([line('   ')])).toEqual([]);
  });
});
