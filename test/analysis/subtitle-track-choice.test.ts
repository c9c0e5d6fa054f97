import { describe, expect, it } from 'vitest';
import { otherSubtitleTracks, trackLanguage, type FoundTrack } from '../../src/analysis/subtitle-tracks.js';

const lines = (n: number, text: string) => Array.from({ length: n }, (_, i) => ({ start: i * 3, end: i * 3 + 2, text }));
const track = (tag: string | undefined, n: number, text = 'x', source: FoundTrack['source'] = 'embedded'): FoundTrack => ({ tag, source, segments: lines(n, text) });

describe('which other subtitle tracks an analysis keeps', () => {
  it('keeps one track per language besides the transcript: the one with the most lines, sidecars first among equals', () => {
    const got = otherSubtitleTracks('en', [
      track('deu', 2, 'Hilfe!', 'sidecar'), // a "forced" track: only a few lines
      track('ger', 10, 'Am Abend wird es regnen.'),
      track('eng', 12, 'An English SDH track'), // the transcript's language: not kept twice
      track('fre', 8, 'Il va pleuvoir ce soir.', 'sidecar'),
      track('fr-CA', 8, 'Il va pleuvoir ce soir.'),
    ]);
    expect(got.languages).toEqual(['en', 'de', 'fr']);
    expect(got.tracks.map((t) => [t.language, t.source, t.segments.length])).toEqual([['de', 'embedded', 10], ['fr', 'sidecar', 8]]);
  });

  it('names an untagged track by its stop words, else und; a tag that is no language code counts as none', () => {
    const got = otherSubtitleTracks('de', [
      track(undefined, 3, 'The weather is nice and the sun is out, and we are at the lake.'),
      track('Forced', 2, '♪ ♪ ♪'),
    ]);
    expect(got.languages).toEqual(['de', 'en', 'und']);
    expect(trackLanguage('ger')).toBe('de');
    expect(trackLanguage('pt_BR')).toBe('pt');
    expect(trackLanguage('und')).toBeUndefined();
    expect(trackLanguage('English subtitles')).toBeUndefined();
  });

  it('keeps nothing when the only other track is in the transcript\'s language', () => {
    expect(otherSubtitleTracks('en', [track('en-GB', 4)])).toEqual({ languages: ['en'], tracks: [] });
  });
});
