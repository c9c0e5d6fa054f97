import { describe, expect, it } from 'vitest';
import { ANALYSIS } from '../../src/analysis/schema.js';
import { sayWarning, sayWarnings, warning, warningSchema, WARNING_KEYS } from '../../src/analysis/warnings.js';
import { de, en, msg } from '../../src/messages/index.js';

describe('keyed analysis warnings', () => {
  it('keeps a warning as its key and parameters, and leaves out parameters a key has none of', () => {
    expect(warning('analysis_subtitle_cues_cut', { name: 'talk.srt', cues: 9000, kept: 500 })).toEqual({ key: 'analysis_subtitle_cues_cut', params: { name: 'talk.srt', cues: 9000, kept: 500 } });
    expect(JSON.stringify(warning('analysis_no_transcript'))).toBe('{"key":"analysis_no_transcript"}');
  });

  it('says it in English as before, and in German from the same catalogue', () => {
    const cut = warning('analysis_subtitle_lines_cut', { name: 'talk.srt', lines: 3, chars: 2000 });
    expect(sayWarning(cut, 'en')).toBe('subtitles cut: 3 lines of talk.srt are longer than 2000 characters and were shortened');
    expect(sayWarning(cut, 'de')).toBe('Untertitel gekürzt: 3 Zeilen von talk.srt sind länger als 2000 Zeichen und wurden gekürzt');
    expect(sayWarning(warning('analysis_no_transcript'), 'en')).toBe('no transcript: no subtitles and no speech found');
  });

  it('says a parameter that is itself a message in the same language', () => {
    const unread = warning('analysis_subtitle_file_unread', { reason: msg('path_missing', { path: '/m/a.srt' }) });
    expect(sayWarning(unread, 'en')).toBe('subtitle file path "/m/a.srt" does not exist');
    expect(sayWarning(unread, 'de')).toBe('Untertiteldatei nicht gelesen: Den Pfad „/m/a.srt“ gibt es nicht');
  });

  it('reads analyses of before keys: their words stay as they are', () => {
    const old = 'subtitles cut: talk.srt has 9000 cues, more than a recording of this length holds; the first 500 are kept';
    expect(ANALYSIS.MediaAnalysis.shape.warnings.parse([old, { key: 'analysis_no_transcript' }])).toHaveLength(2);
    expect(sayWarning(old, 'de')).toBe(old);
    expect(sayWarnings([old, { key: 'analysis_no_transcript' }], 'de')).toEqual([old, 'Kein Transkript: keine Untertitel und keine Sprache gefunden']);
  });

  it('refuses keys that are no warning, and passes over what is neither words nor a warning when showing', () => {
    expect(warningSchema(100).safeParse({ key: 'not_found', params: { what: 'task', id: 'x' } }).success).toBe(false);
    expect(warningSchema(100).safeParse({ key: 'made_up' }).success).toBe(false);
    expect(sayWarnings([{ key: 'made_up' }, 42, 'words'], 'en')).toEqual(['words']);
    expect(sayWarnings(undefined, 'en')).toEqual([]);
  });

  it('has English and German for every warning key', () => {
    for (const key of WARNING_KEYS) {
      expect(typeof en[key]).toBe('function');
      expect(typeof de[key]).toBe('function');
    }
  });
});
