import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/store/connection.js';
import { TextIndexRepository } from '../../src/store/text-index.js';
import { parseQuery } from '../../src/services/search/query.js';
import { indexText } from '../../src/services/search/stems.js';
import { allowedEdits, TypoCorrector } from '../../src/services/search/typos.js';

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
    db.close();
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
