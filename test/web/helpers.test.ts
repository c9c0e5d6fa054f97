/** The page's pure helpers (web/src), run under node: time format, query marking, routes, share links, grid listings, picture search. */
import { describe, expect, it } from 'vitest';
import { VidxError } from '../../src/client/errors.js';
import { formatBytes } from '../../src/tools/bytes.js';
import { clock, dateText, dateTime, daysText, fieldSentence, highlightParts, queryWords, stripFragment } from '../../web/src/format.js';
import { DEFAULT_LISTING, parseListing } from '../../web/src/listing.js';
import { likeOf, likeParams, pictureProblem } from '../../web/src/picture-query.js';
import { href, parseRoute, sharedToken } from '../../web/src/router.js';
import { correctedQuery, joinSaid, NOTHING_SAID } from '../../web/src/search-said.js';
import { currentIndex, transcriptLines, webVtt } from '../../web/src/transcript-lines.js';
import { datePattern, readDay, showDay } from '../../web/src/typed-date.js';

describe('web page helpers', () => {
  it('formats times as m:ss and h:mm:ss', () => {
    expect([clock(0), clock(9.7), clock(75.4), clock(3725), clock(null), clock(Number.NaN)]).toEqual(['0:00', '0:09', '1:15', '1:02:05', '', '']);
  });

  it('writes sizes with one formatter in both languages: SI units, the language’s decimal mark (issue 42)', () => {
    expect([formatBytes(512), formatBytes(45_300), formatBytes(1_800_000), formatBytes(152_000_000), formatBytes(2_500_000_000)]).toEqual(['512 B', '45.3 kB', '1.8 MB', '152 MB', '2.5 GB']);
    expect([formatBytes(45_300, 'de'), formatBytes(99_700, 'de'), formatBytes(1_000_000, 'de')]).toEqual(['45,3 kB', '99,7 kB', '1,0 MB']);
  });

  it('writes the days a search understood as short as they allow, in both languages', () => {
    expect(daysText('2019-01-01', '2019-12-31', 'en')).toBe('2019');
    expect(daysText('2019-01-01', '2021-12-31', 'de')).toBe('2019 – 2021');
    expect(daysText('2024-05-01', '2024-05-31', 'en')).toBe('May 2024');
    expect(daysText('2024-02-01', '2024-02-29', 'de')).toBe('Februar 2024');
    expect(daysText('2019-07-14', '2019-07-14', 'de')).toBe('14. Juli 2019');
    // The range as the language writes it (ICU's spaces around the dash vary with its version).
    expect(daysText('2022-12-24', '2022-12-26', 'en').replace(/\s/g, ' ')).toMatch(/^24 ?– ?26 Dec 2022$/);
    expect(daysText('2022-12-01', '2023-02-28', 'de').replace(/\s/g, ' ')).toBe('1. Dez. 2022 – 28. Feb. 2023');
    // The joined result knows what the first collection that understood something read.
    const understood = { place: 'Lisbon', from: null, to: null, words: '' };
    expect(joinSaid(NOTHING_SAID, { ...NOTHING_SAID, understood }).understood).toEqual(understood);
    expect(joinSaid(NOTHING_SAID, NOTHING_SAID)).not.toHaveProperty('understood');
  });

  it('writes a day one way across the page, with the time where it matters, in both languages (issue 42)', () => {
    const noon = '2026-11-29T12:28:52Z';
    expect(dateText(noon, 'en')).toBe('29 Nov 2026');
    expect(dateText(noon, 'de')).toBe('29. Nov. 2026');
    expect(dateTime(noon, 'en')).toMatch(/^29 Nov 2026, \d\d:28$/);
    expect(dateTime(noon, 'de')).toMatch(/^29\. Nov\. 2026, \d\d:28$/);
    expect([dateText('not a date', 'en'), dateTime('', 'de')]).toEqual(['', '']);
  });

  it('marks query words (and longer forms of them) in a passage, case-insensitively, across umlauts', () => {
    const words = queryWords('The penalty SHOT über');
    expect(words).toEqual(['the', 'penalty', 'shot', 'über']);
    const parts = highlightParts('Penalty shots über Bälle', words);
    expect(parts.filter((p) => p.hit).map((p) => p.text)).toEqual(['Penalty', 'shots', 'über']);
    expect(parts.map((p) => p.text).join('')).toBe('Penalty shots über Bälle');
    expect(highlightParts('nothing here', [])).toEqual([{ text: 'nothing here', hit: false }]);
    expect(queryWords('a of 7')).toEqual(['7']);
  });

  it('shows the query as corrected, and each notice and correction of several answers once', () => {
    expect(correctedQuery('Sandpapper grit', [{ from: 'sandpapper', to: 'sandpaper' }])).toBe('sandpaper grit');
    expect(correctedQuery('Straße', [{ from: 'strase', to: 'strasse' }])).toBe('strasse');
    const notice = { code: 'image_text_missing' as const, message: 'No image–text model.' };
    const fix = { from: 'sandpapper', to: 'sandpaper' };
    const joined = joinSaid(joinSaid(NOTHING_SAID, { notices: [notice], corrected: [fix] }), { notices: [notice], corrected: [fix, { from: 'gritt', to: 'grit' }] });
    expect(joined).toEqual({ notices: [notice], corrected: [fix, { from: 'gritt', to: 'grit' }] });
    // The speech notice of two collections names the items of both, counted together.
    const speech = (id: string, count: number) => ({ code: 'speech_missing' as const, message: '…', items: [{ media_id: id, title: id }], item_count: count });
    expect(joinSaid({ notices: [speech('memo', 1)], corrected: [] }, { notices: [speech('talk', 4)], corrected: [] }).notices).toEqual([
      { ...speech('memo', 5), items: [{ media_id: 'memo', title: 'memo' }, { media_id: 'talk', title: 'talk' }] },
    ]);
  });

  it('writes the transcript as WebVTT for the player’s captions, escaped (issue 42)', () => {
    expect(webVtt([{ start: 1, end: 3.5, text: 'Good morning.', speaker: null }, { start: 3725.25, end: 3725.25, text: 'A <b> & C --> D\n\nE', speaker: null }])).toBe(
      'WEBVTT\n\n00:00:01.000 --> 00:00:03.500\nGood morning.\n\n01:02:05.250 --> 01:02:06.250\nA &lt;b> &amp; C → D\nE\n',
    );
    expect(webVtt([])).toBe('WEBVTT\n');
  });

  it('drops the #t= fragment of a signed link', () => {
    expect(stripFragment('http://127.0.0.1:8484/files/a.mp4?exp=1&sig=x#t=12')).toBe('http://127.0.0.1:8484/files/a.mp4?exp=1&sig=x');
    expect(stripFragment('/files/a.mp4')).toBe('/files/a.mp4');
  });

  it('parses and builds hash routes, deep links included', () => {
    const r = parseRoute('#/c/trips%201/play/clip_2?t=42.5&pub=1');
    expect(r).toMatchObject({ view: 'play', collection: 'trips 1', mediaId: 'clip_2' });
    expect(r.params.get('t')).toBe('42.5');
    expect(parseRoute('').view).toBe('collections');
    expect(parseRoute('#/tasks').view).toBe('tasks');
    expect(parseRoute('#/c/x/search?q=a%20b').params.get('q')).toBe('a b');
    expect(href('c', 'trips 1', 'play', 'clip', { t: 42, pub: undefined })).toBe('#/c/trips%201/play/clip?t=42');
    expect(parseRoute(href('c', 'x', 'search', { q: 'apple cake' })).params.get('q')).toBe('apple cake');
  });

  it('carries "more like this" in the route, and tells which files can be searched by', () => {
    const route = parseRoute(href('c', 'trips', 'search', likeParams('clip_2', 12.54)));
    expect(route.view).toBe('search');
    expect(likeOf(route.params)).toEqual({ media_id: 'clip_2', start_time: 12.5 });
    expect(likeOf(new URLSearchParams('like=a&at=oops'))).toEqual({ media_id: 'a', start_time: 0 });
    expect(likeOf(new URLSearchParams('q=cake'))).toBeUndefined();
    expect(parseRoute('#/c/trips/duplicates')).toMatchObject({ view: 'duplicates', collection: 'trips' });
    expect(pictureProblem({ type: 'image/png', size: 1000 })).toBeNull();
    expect(pictureProblem({ type: 'image/svg+xml', size: 1000 })).toBe('notAPicture');
    expect(pictureProblem({ type: 'image/jpeg', size: 33 * 1024 * 1024 })).toBe('pictureTooLarge');
  });

  it('reads the token of a share link, and nothing else', () => {
    expect(sharedToken('#/s/AbC_12-xyz0')).toBe('AbC_12-xyz0');
    expect(sharedToken('#/s/AbC123?x=1')).toBe('AbC123');
    expect(sharedToken('#/c/trips')).toBeNull();
    expect(sharedToken('#/s/')).toBeNull();
    expect(sharedToken('')).toBeNull();
  });

  it('reads a stored grid listing back, replacing what it does not know', () => {
    expect(parseListing('{"sort":"name","order":"desc","type":"image"}')).toEqual({ sort: 'name', order: 'desc', type: 'image' });
    // An unknown order takes the sort's natural one (names A to Z, durations longest first).
    expect(parseListing('{"sort":"duration"}')).toEqual({ sort: 'duration', order: 'desc', type: '' });
    expect(parseListing('{"sort":"size","order":"up","type":"pdf"}')).toEqual(DEFAULT_LISTING);
    expect(parseListing(null)).toEqual(DEFAULT_LISTING);
    expect(parseListing('not json')).toEqual(DEFAULT_LISTING);
  });
  it('sorts the transcript once and finds the line playing by binary search', () => {
    const lines = transcriptLines([
      { audio: [{ start: 4, end: 6, text: 'c', speaker: null }, { start: 2, end: 4, text: 'b', speaker: null }] },
      { audio: [{ start: 0, end: 2, text: 'a', speaker: null }, { start: 9, end: 10, text: 'd', speaker: null }] },
    ]);
    expect(lines.map((l) => l.text)).toEqual(['a', 'b', 'c', 'd']);
    const at = (now: number) => currentIndex(lines, now);
    expect([at(-1), at(0), at(1.9), at(1.96), at(2), at(5), at(8.9), at(9), at(99)]).toEqual([-1, 0, 0, 1, 1, 2, 2, 3, 3]);
    expect(currentIndex([], 5)).toBe(-1);
    // The same answer as walking the whole list, on a long transcript.
    const many = Array.from({ length: 500 }, (_, i) => ({ start: i * 1.5 }));
    for (const now of [0, 0.7, 1.45, 100, 374.99, 749, 800]) {
      let walked = -1;
      for (let i = 0; i < many.length; i++) if (many[i].start <= now + 0.05) walked = i;
      expect(currentIndex(many, now)).toBe(walked);
    }
  });

  it('reads dates as the page’s language writes them, and refuses days that do not exist', () => {
    expect([readDay('1.5.2024', 'de'), readDay('01.05.2024', 'de'), readDay('2024-05-01', 'de'), readDay('  ', 'de')]).toEqual(['2024-05-01', '2024-05-01', '2024-05-01', '']);
    expect([readDay('1/5/2024', 'en'), readDay('2024-5-1', 'en')]).toEqual(['2024-05-01', '2024-05-01']);
    expect([readDay('31.02.2024', 'de'), readDay('29.02.2023', 'de'), readDay('1.5.2024', 'en'), readDay('05/13/2024', 'en'), readDay('gestern', 'de')]).toEqual([null, null, null, null, null]);
    expect(readDay('29.02.2024', 'de')).toBe('2024-02-29');
    expect([showDay('2024-05-01', 'de'), showDay('2024-05-01', 'en'), showDay('', 'de')]).toEqual(['01.05.2024', '01/05/2024', '']);
    expect([datePattern('de'), datePattern('en')]).toEqual(['TT.MM.JJJJ', 'dd/mm/yyyy']);
  });

  it('says a refusal of one field as a sentence for beside it', () => {
    const refused = new VidxError(422, 'validation_error', 'path: the folder "/etc" is outside the configured media roots (VIDX_MEDIA_ROOTS)', {
      errors: [{ field: 'path', message: 'the folder "/etc" is outside the configured media roots (VIDX_MEDIA_ROOTS)' }],
    });
    expect(fieldSentence(refused, 'path')).toBe('The folder "/etc" is outside the configured media roots (VIDX_MEDIA_ROOTS).');
    // Another field, or no field at all: the whole detail.
    expect(fieldSentence(refused, 'name')).toBe(refused.message);
    expect(fieldSentence(new Error('network down'), 'path')).toBe('network down');
  });
});
