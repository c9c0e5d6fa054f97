import { describe, expect, it } from 'vitest';
import { looksLikeMediaHead } from '../../src/media/media-signature.js';

describe('looksLikeMediaHead', () => {
  it('knows containers by their first bytes and never takes text for media', () => {
    const head = (hex: string, ascii = '') => Buffer.concat([Buffer.from(hex, 'hex'), Buffer.from(ascii, 'latin1')]);
    expect(looksLikeMediaHead(head('00000020', 'ftypisom'))).toBe(true);
    expect(looksLikeMediaHead(head('00000018', 'ftypheic'))).toBe(true);
    expect(looksLikeMediaHead(head('1a45dfa3'))).toBe(true);
    expect(looksLikeMediaHead(Buffer.from('OggS\0\x02'))).toBe(true);
    expect(looksLikeMediaHead(Buffer.from('ID3\x04'))).toBe(true);
    expect(looksLikeMediaHead(head('fff15080'))).toBe(true);
    expect(looksLikeMediaHead(head('ffd8ffe0'))).toBe(true);
    expect(looksLikeMediaHead(Buffer.from('2026-11-27 09:00:00 INFO started\n'))).toBe(false);
    expect(looksLikeMediaHead(Buffer.from('1\n00:00:00,000 --> 00:00:03,000\n'))).toBe(false);
    expect(looksLikeMediaHead(Buffer.from('{"a":1}'))).toBe(false);
  });
});
