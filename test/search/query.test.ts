import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { fuse } from '../../src/services/search/fusion.js';
import { bestMoment, matchTerms, snippet } from '../../src/services/search/moments.js';
import { parseQuery } from '../../src/services/search/query.js';
import { distinctWords, metadataText } from '../../src/tools/normalise.js';
import { indexText } from '../../src/services/search/stems.js';
import { signBits } from '../../src/tools/vectors.js';

describe('query parsing', () => {
  it('turns anything typed into quoted terms FTS5 accepts', () => {
    const db = new Database(':memory:');
    db.exec(`CREATE VIRTUAL TABLE t USING fts5(a, b, tokenize = 'unicode61 remove_diacritics 2');
             CREATE VIRTUAL TABLE g USING fts5(a, b, tokenize = 'trigram remove_diacritics 1');
             INSERT INTO t VALUES ('the penalty shot', 'x'); INSERT INTO g VALUES ('penalty shot', 'x');`);
    const inputs = ['"penalty" OR (shot* NEAR/2 -x) col:foo', 'a:b', '"', '""', '" "', 'NEAR(a b)', '^x', 'x AND', 'OR', '-', '*', "it's", 'a"b"c', '{a b}: c', 'ü ß ẞ', '\u0000', '😀 penalty'];
    for (const input of inputs) {
      const q = parseQuery(input);
      for (const [table, expr] of [['t', q.all], ['t', q.any], ['g', q.allTrigram], ['g', q.anyTrigram]] as const) {
        if (expr) expect(() => db.prepare(`SELECT rowid FROM ${table} WHERE ${table} MATCH ?`).all(expr), `${input} → ${expr}`).not.toThrow();
      }
    }
  });

  it('keeps balanced quotes as phrases and drops stopwords and operator words', () => {
    const q = parseQuery('"penalty shot" AND the captain NOT x*');
    expect(q.phrases).toEqual([['penalty', 'shot']]);
    expect(q.terms.map((t) => t.word)).toEqual(['captain', 'x']);
    // Each word as every stem it may be indexed as: English, then German.
    expect(q.all).toBe('("penalti shot" OR "penalty shot") AND "captain" AND "x"');
    expect(q.any).toBe('("penalti shot" OR "penalty shot") OR "captain" OR "x"');
    expect(q.allTrigram).toBe('"captain" AND "penalty" AND "shot"');
    expect(parseQuery('the and of').all).toBeNull();
    expect(parseQuery('penalty').any).toBeNull();
  });
});

describe('index text', () => {
  it('adds transliterations of umlaut words and keeps distinct words for trigrams', () => {
    expect(indexText('Bäckerei in München', 'de')).toBe('backerei in munch baeckerei muench');
    expect(indexText('Wanderungen und Regen', 'de')).toBe('wander und reg');
    expect(indexText('Baking apples', 'en')).toBe('bake appl');
    expect(distinctWords('Der Käse und der Käse, Straße!')).toBe('käse kaese straße strasse');
    expect(metadataText({ place: 'Bodensee', people: ['Anna', { name: 'Ben' }], n: 3, empty: null })).toBe('Bodensee Anna Ben 3');
  });
});

describe('moments and snippets', () => {
  const terms = matchTerms(parseQuery('Kuchen penalties'));
  it('prefers the segment matching most terms, then the earliest', () => {
    const best = bestMoment(
      [
        { start: 3, text: 'nothing here' },
        { start: 9, text: 'Apfelkuchen' },
        { start: 12, text: 'Apfelkuchen and a penalty' },
        { start: 20, text: 'Apfelkuchen and a penalty again' },
      ],
      terms,
    );
    expect(best?.candidate.start).toBe(12);
    expect(bestMoment([{ start: 1, text: 'no match' }], terms)).toBeNull();
  });

  it('cuts long text around the first match at word boundaries', () => {
    const long = `${'word '.repeat(100)}the penalty was taken ${'more '.repeat(100)}`;
    const s = snippet(long, terms, 60);
    expect(s.startsWith('…')).toBe(true);
    expect(s.endsWith('…')).toBe(true);
    expect(s).toContain('penalty');
    expect(s.length).toBeLessThanOrEqual(62);
  });
});

describe('fusion and vectors', () => {
  it('scores 1 for first place everywhere and orders by fused rank', () => {
    const f = fuse([
      { name: 'a', weight: 1, pks: [1, 2, 3] },
      { name: 'b', weight: 1, pks: [1, 3] },
    ]);
    expect(f.map((x) => x.pk)).toEqual([1, 3, 2]);
    expect(f[0].score).toBe(1);
    expect(f[0].via).toEqual(['a', 'b']);
    expect(f[2].score).toBeLessThan(0.5);
    expect(fuse([])).toEqual([]);
  });

  it('packs sign bits the way sqlite-vec does', () => {
    const db = new Database(':memory:');
    const v = new Float32Array([0.1, -0.2, 0.3, 0, -1, 2, -3, 0.9, 1, 1, -1, -1, 0, 0, 0, 0.5]);
    return import('sqlite-vec').then((vec) => {
      vec.load(db);
      const theirs = db.prepare('SELECT vec_quantize_binary(?) AS b').get(Buffer.from(v.buffer)) as { b: Buffer };
      expect(signBits(v).equals(theirs.b)).toBe(true);
    });
  });
});
