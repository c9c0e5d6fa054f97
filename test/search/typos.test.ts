import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/connection.js';
import { TextIndexRepository } from '../../src/store/text-index.js';
import { parseQuery } from '../../src/services/search/query.js';
import { indexText } from '../../src/services/search/stems.js';
import { allowedEdits, TypoCorrector } from '../../src/services/search/typos.js';
import { isCommonWord, readCommonWords, type WordList } from '../../src/tools/common-words.js';
import { startTestApp } from '../support/app.js';
import type { TestServer } from '../support/server.js';
import { buildAnalysis, fixtureItem } from './fixtures.js';

/** An episode's text as the indexer writes it, with everything in the transcript. */
const episode = (transcript: string) => {
  const empty = { title: '', transcript: '', screen_text: '', tags: '', summary: '', metadata: '' };
  return { text: { ...empty, transcript: indexText(transcript, 'en') }, words: { ...empty, transcript } };
};

/** Made-up words that are all different: a vocabulary of any size. */
const nonsense = (n: number) => Array.from({ length: n }, (_, i) => `zq${i.toString(36)}x`).join(' ');

describe('typo correction', () => {
  it('allows one edit for 4–7 letters, two from 8, none for short words or numbers', () => {
    expect([allowedEdits('cat'), allowedEdits('cake'), allowedEdits('cinamon'), allowedEdits('sandpapper'), allowedEdits('part77')]).toEqual([0, 1, 1, 2, 0]);
  });

  it('corrects to the most frequent nearest word and never a word the collection holds', () => {
    const db = openDatabase(':memory:');
    const text = new TextIndexRepository(db);
    const add = (pk: number, t: string) => text.insertText(1, pk, episode(t).text, episode(t).words);
    add(1, 'Take the sandpaper and smooth the edges.');
    add(2, 'More sandpaper, and paint.');
    add(3, 'A sandpiper on the beach.');
    const typos = new TypoCorrector(text);
    const fixed = typos.correct(parseQuery('sandpapper'), 1);
    expect(fixed.corrections).toEqual([{ from: 'sandpapper', stems: ['sandpap'] }]);
    expect(fixed.query.all).toBe('"sandpap"');
    expect(typos.correct(parseQuery('sandpiper paint'), 1).corrections).toEqual([]);
    // A word part the collection holds ("and" inside "sandpaper") is no typo either.
    expect(typos.correct(parseQuery('edges'), 1).corrections).toEqual([]);
    // Never read as a stop word: "andd" is one edit from "and", which the collection holds.
    expect(typos.correct(parseQuery('andd'), 1).corrections).toEqual([]);
    // Nor is a word of English or German read as another: "beech" stays, though "bench" and "beach" are one edit away.
    add(4, 'A bench in the park.');
    expect(new TypoCorrector(text).correct(parseQuery('beech'), 1).corrections).toEqual([]);
    const noWords = { en: { has: () => false }, de: { has: () => false } };
    expect(new TypoCorrector(text, noWords).correct(parseQuery('beech'), 1).corrections.map((c) => c.stems.sort())).toEqual([['beach', 'bench']]);
    db.close();
  });

  it('knows English words from the wink lexicon and German words from FrequencyWords, not typos', () => {
    expect(['landing', 'cake', 'helicopter', 'password', 'und', 'über', 'kuchen', 'hubschrauber', 'landung', 'geburtstag'].filter((w) => !isCommonWord(w))).toEqual([]);
    expect(['bugdet', 'soalr', 'sandpapper', 'cinamon', 'penallty', 'kuchem', 'geburtstga'].filter((w) => isCommonWord(w))).toEqual([]);
  });

  it('reads both word lists at once when a search thread starts, not at its first misspelt query', () => {
    const asked: string[] = [];
    const list = (lang: string): WordList => ({
      has: () => {
        asked.push(lang);
        return true;
      },
    });
    readCommonWords({ en: list('en'), de: list('de') });
    expect(asked).toEqual(['en', 'de']);
  });

  it('reads a large vocabulary in slices while searches go on, then corrects', async () => {
    const db = openDatabase(':memory:');
    const text = new TextIndexRepository(db);
    const big = `${nonsense(45_000)} sandpaper`;
    text.insertText(1, 1, episode(big).text, episode(big).words);
    const typos = new TypoCorrector(text);
    // The first ask starts the reading and finds nothing yet; the search goes on uncorrected.
    expect(typos.correct(parseQuery('sandpapper'), 1).corrections).toEqual([]);
    for (let i = 0; i < 50 && typos.correct(parseQuery('sandpapper'), 1).corrections.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(typos.correct(parseQuery('sandpapper'), 1).corrections).toEqual([{ from: 'sandpapper', stems: ['sandpap'] }]);
    db.close();
  });
});

type Line = [number, number, string];
/** One episode per line, 8 s each. */
const episodesOf = (lines: string[]) => lines.map((text, i) => ({ start: i * 8, end: (i + 1) * 8, summary: '', audio: [[i * 8 + 1, i * 8 + 6, text]] as Line[] }));

describe('typo correction through POST /search (issue 42)', () => {
  let s: TestServer;
  const search = async (query: string, extra: Record<string, unknown> = {}) => {
    const r = await s.call('POST', '/search', { json: { collection: 'home', query, ...extra } });
    expect(r.status, query).toBe(200);
    return r.body as { results: { media_id: string; content: string }[]; corrected: { from: string; to: string }[]; searched_query: string | null; original_query: string | null };
  };

  beforeAll(async () => {
    s = await startTestApp();
    expect((await s.call('POST', '/collections', { json: { collection_id: 'home', name: 'Home' } })).status).toBe(201);
    const pk = s.vidx.store.collections.findById('home')!.pk;
    const store = (mediaId: string, lines: string[]) =>
      s.vidx.searchIndex.storeItem(pk, fixtureItem(s.vidx, s.dataDir, 'home', mediaId, { title: null }), buildAnalysis({ language: 'en', summary: '', episodes: episodesOf(lines) }), { replace: false });
    store('orchard', ['We pick an apple from the old tree.', 'The helicopter flies over the orchard and the lake.']);
    store('bread', ['Grandpa is baking bread today.', 'Then we go and buy flour.']);
    store('workshop', ['Take the sandpaper and smooth the edges.']);
    store('money', ['The budget for the solar panels is tight.']);
  });
  afterAll(() => s.close());

  it('leaves real words alone: apple cake is not apple baking, helicopter landing is not helicopter and', async () => {
    const cake = await search('apple cake');
    expect(cake.corrected).toEqual([]);
    expect(cake.searched_query).toBeNull();
    expect(cake.results.map((r) => r.media_id)).not.toContain('bread');
    const landing = await search('helicopter landing');
    expect(landing.corrected).toEqual([]);
    expect(landing.results[0]?.media_id).toBe('orchard');
    expect(landing.results.map((r) => r.media_id)).not.toContain('bread');
  });

  it('keeps the words as typed when a correction would find no more than they do', async () => {
    // "sandpapr" alone is read as sandpaper; beside "helicopter", sandpaper finds no moment that holds both.
    expect((await search('sandpapr')).corrected).toEqual([{ from: 'sandpapr', to: 'sandpaper' }]);
    const mixed = await search('helicopter sandpapr');
    expect(mixed.corrected).toEqual([]);
    expect(mixed.results[0]?.media_id).toBe('orchard');
  });

  it('counts two swapped letters as one edit: bugdet and soalr find budget and solar', async () => {
    for (const [typo, word] of [['bugdet', 'budget'], ['soalr', 'solar'], ['buget', 'budget']]) {
      const found = await search(typo);
      expect(found.corrected, typo).toEqual([{ from: typo, to: word }]);
      expect(found.results[0]?.media_id, typo).toBe('money');
    }
  });

  it('says the query searched and the query typed, and searches the typed words on request', async () => {
    const fixed = await search('Bugdet solar');
    expect(fixed).toMatchObject({ searched_query: 'budget solar', original_query: 'Bugdet solar' });
    const asTyped = await search('Bugdet solar', { correct_typos: false });
    expect(asTyped).toMatchObject({ corrected: [], searched_query: null, original_query: null });
    expect(asTyped.results.every((r) => !/budget/i.test(r.content) || /solar/i.test(r.content))).toBe(true);
    const plain = await search('solar');
    expect(plain).toMatchObject({ corrected: [], searched_query: null, original_query: null });
  });
});
