import { describe, expect, it } from 'vitest';
import { keyPhrases, phraseCorpus } from '../../src/services/explore/keyphrases.js';
import { nounPhrases } from '../../src/services/explore/noun-phrases.js';
import { readsWhole } from '../../src/services/explore/reads-whole.js';
import { suggestFromEpisodes } from '../../src/services/explore/suggestions.js';
import { ENGLISH, GERMAN, stored } from './transcripts.js';

const found = (text: string, language: 'en' | 'de') => nounPhrases(text, language).map((c) => c.words.join(' '));

describe('noun phrases of one text', () => {
  it('keep only the nouns of the cut clauses users saw', () => {
    expect(found('Tomatoes need water every', 'en')).toEqual(['Tomatoes', 'water']);
    expect(found('Kuchen kommt fuer vierzig', 'de')).toEqual(['Kuchen']);
    expect(found('Keep your eyes', 'en')).toEqual(['eyes']);
    expect(found('Now blow', 'en')).toEqual([]);
  });

  it('read English nouns in context: compounds whole, imperatives and verbs after their subject left out', () => {
    expect(found('Water the tomato plants every morning.', 'en')).toEqual(['tomato', 'tomato plants', 'plants', 'morning']);
    expect(found('The goalkeeper dives to the left during penalty shot training.', 'en')).toEqual(
      expect.arrayContaining(['goalkeeper', 'penalty shot', 'penalty shot training']),
    );
    expect(found('Mix the flour and sugar.', 'en')).toEqual(['flour', 'sugar']);
    expect(found('Anna blows out the candles on her birthday cake.', 'en')).toEqual(['Anna', 'candles', 'birthday', 'birthday cake', 'cake']);
    expect(found('The sun sets slowly over the quiet lake.', 'en')).toEqual(['sun', 'quiet lake', 'lake']);
    expect(found('We need twenty minutes and forty eggs.', 'en')).toEqual(['eggs']);
  });

  it('read German nouns by their capital letter, not the capital that opens a sentence', () => {
    expect(found('Heute scheint die Sonne.', 'de')).toEqual(['Sonne']);
    expect(found('Morgen gibt es viel Schnee in Berlin.', 'de')).toEqual(['Schnee', 'Berlin']);
    // A greeting is said to someone, about nothing: no topic, and no question ("Was wird zu „Guten Morgen“ gesagt?").
    expect(found('Guten Morgen aus Berlin.', 'de')).toEqual(['Berlin']);
    expect(found('Good evening from the harbour.', 'en')).toEqual(['harbour']);
    expect(found('Kommt der Kuchen? Gießen Sie die Tomatenpflanzen. Behaltet den Ball im Auge.', 'de')).toEqual(['Kuchen', 'Tomatenpflanzen', 'Ball', 'Auge']);
    expect(found('Am Abend gibt es leichten Regen.', 'de')).toEqual(['Abend', 'leichten Regen', 'Regen']);
    // After an article a noun ends its phrase ("jeden Morgen | Wasser"); a verb before its adjective-looking object is no adjective.
    expect(found('Die Tomatenpflanzen brauchen jeden Morgen Wasser.', 'de')).toEqual(['Tomatenpflanzen', 'Morgen', 'Wasser']);
    expect(found('Wir backen leckeren Apfelkuchen.', 'de')).toEqual(['Apfelkuchen']);
    expect(found('Der Kuchen kommt für zwanzig Minuten in den heißen Ofen.', 'de')).toEqual(['Kuchen', 'heißen Ofen', 'Ofen']);
  });

  it('take the language of each sentence, the whole text or the caller, in that order', () => {
    const mixed = nounPhrases('Apfelkuchen Rezept\nDer Kuchen kommt in den Ofen. Today we bake an apple cake.', 'en');
    expect(mixed.map((c) => `${c.words.join(' ')}/${c.language}`)).toEqual(
      expect.arrayContaining(['Kuchen/de', 'Ofen/de', 'apple cake/en']),
    );
    expect(nounPhrases('Apfelkuchen Rezept', 'de').every((c) => c.language === 'de')).toBe(true);
  });
});

describe('readsWhole', () => {
  it('refuses cut clauses, function and number words at either end, verbs inside', () => {
    for (const p of ['Tomatoes need water every', 'Keep your eyes', 'Now blow', 'water every', 'twenty candles', 'the cake', 'Sunset over the Lake', 'happy', 'goalkeeper dives left', 'forty minutes'])
      expect(readsWhole(p, 'en'), p).toBe(false);
    for (const p of ['Kuchen kommt fuer vierzig', 'Kuchen kommt', 'fuer Kuchen', 'Äpfel und', 'der Kuchen', 'zwei Äpfel', 'vierzig Minuten', 'zweiundzwanzig Kerzen', 'Uebung fuer', 'Kuchen lecker', 'frische'])
      expect(readsWhole(p, 'de'), p).toBe(false);
  });

  it('accepts noun phrases', () => {
    for (const p of ['tomato plants', 'Penalty shot', 'apple cake recipe', 'eyes', 'Anna', 'quiet lake', 'New York', 'Birthday cake'])
      expect(readsWhole(p, 'en'), p).toBe(true);
    for (const p of ['Apfelkuchen', 'Tomatenpflanzen', 'Elfmeter', 'frische Äpfel', 'Leichten Regen', 'Bäckerei Müller', 'rotes Fahrrad'])
      expect(readsWhole(p, 'de'), p).toBe(true);
  });
});

const THEMES = {
  en: { rows: ENGLISH, expected: { cooking: 'apple cake', garden: 'tomato plants', football: 'penalty shot', birthday: 'birthday' } },
  de: { rows: GERMAN, expected: { backen: 'apfelkuchen', garten: 'tomatenpflanzen', fussball: 'elfmeter', geburtstag: 'geburtstag' } },
} as const;

describe.each(['en', 'de'] as const)('phrases of realistic transcripts (%s)', (language) => {
  const { rows, expected } = THEMES[language];
  const corpus = phraseCorpus(rows.map(stored), language);

  it.each(Object.entries(expected))('name the %s episodes by “%s”, and every phrase reads whole', (media, topic) => {
    const group = rows.flatMap((r, i) => (r.media_id === media ? [i] : []));
    const phrases = keyPhrases(corpus, group, 6);
    expect(phrases.length).toBeGreaterThanOrEqual(3);
    for (const p of phrases) expect(readsWhole(p.surface, p.language), p.surface).toBe(true);
    expect(phrases.slice(0, 3).map((p) => p.phrase), JSON.stringify(phrases.map((p) => p.surface))).toContainEqual(expect.stringContaining(topic));
  });

  it('suggest topics that all read whole, among them the expected ones', () => {
    const topics = [...suggestFromEpisodes(rows.map((r) => ({ ...r, text: stored(r), spoken: r.text, shown: r.screen, tags: '[]', media_type: 'video' as const, title: null })), language, 8)].filter((e) => e.completion.type === 'topic').map((e) => e.completion.text);
    expect(topics.length).toBeGreaterThanOrEqual(4);
    for (const t of topics) expect(readsWhole(t, language), t).toBe(true);
    const all = topics.join(' | ').toLowerCase();
    expect(Object.values(expected).filter((t) => all.includes(t)).length, all).toBeGreaterThanOrEqual(2);
  });
});

/** Topics a new user met in a home archive (issue 34): adverbs, scraps and a closing sentence. */
describe('topics with content', () => {
  const row = (media_id: string, idx: number, spoken: string, shown = '', title: string | null = null) =>
    ({ media_id, idx, start: idx * 10, end: idx * 10 + 10, spoken, shown, tags: '[]', media_type: 'video' as const, title, text: `${shown} [] ${spoken}` });
  const topicsOf = (rows: ReturnType<typeof row>[], language: 'en' | 'de') =>
    [...suggestFromEpisodes(rows, language, 8)].filter((e) => e.completion.type === 'topic').map((e) => e.completion);

  it('are never adverbs, fragments or scraps', () => {
    for (const p of ['Ni', 'Hoch', 'Oben', 'Ganze Zeit', 'Herzlich', 'Unten', 'Zeit']) expect(readsWhole(p, 'de'), p).toBe(false);
    for (const p of ['TV', 'ox']) expect(readsWhole(p, 'en'), p).toBe(false);
    const rows = [
      row('berg', 0, 'Oben auf dem Berg war es kalt. Hoch oben liegt noch Schnee. Die ganze Zeit hat es geschneit.', 'Ni\nOben', 'Bergtour'),
      row('berg', 1, 'Herzlich willkommen auf der Hütte. Oben gab es Kaffee und Kuchen.', 'Hoch', 'Bergtour'),
      ...GERMAN.map((e) => row(e.media_id, e.idx, e.text, e.screen, null)),
    ];
    const topics = topicsOf(rows, 'de').map((t) => t.text);
    expect(topics.length).toBeGreaterThanOrEqual(4);
    for (const t of topics) expect(['Ni', 'Hoch', 'Oben', 'Ganze Zeit', 'Herzlich'], topics.join(' | ')).not.toContain(t);
  });

  it('name an item by what its moments and title repeat, not by its closing sentence', () => {
    const vlog = [
      row('vlog', 0, 'Welcome back to my kitchen. Today we bake an apple cake with fresh apples.', '', 'Apple cake vlog'),
      row('vlog', 1, 'Peel the apples and cut the apples into slices for the cake.', '', 'Apple cake vlog'),
      row('vlog', 2, 'The apple cake bakes in the oven for forty minutes.', '', 'Apple cake vlog'),
      row('vlog', 3, 'Our cake is ready. Next week I will show you my tart recipe.', '', 'Apple cake vlog'),
    ];
    const rows = [...vlog, ...ENGLISH.filter((e) => e.media_id !== 'cooking').map((e) => row(e.media_id, e.idx, e.text, e.screen, e.media_id))];
    const topics = topicsOf(rows, 'en');
    const first = topics.find((t) => t.media_ids.includes('vlog'));
    expect(first?.text.toLowerCase(), topics.map((t) => t.text).join(' | ')).toContain('apple cake');
    const tart = topics.findIndex((t) => t.text.toLowerCase().includes('tart'));
    if (tart >= 0) expect(tart).toBeGreaterThan(topics.indexOf(first!));
  });

  it('ask what was said about spoken phrases and when shown phrases were shown', () => {
    const rows = [
      row('shop', 0, 'Herzlich willkommen in der Bäckerei Müller.', '', 'Laden'),
      row('cake', 0, '', 'Apfelkuchen Rezept', 'Backen'),
    ];
    const els = [...suggestFromEpisodes(rows, 'de', 8)].map((e) => e.completion);
    const question = (word: string) => els.find((e, i) => i > 0 && e.type === 'question' && els[i - 1].text.includes(word))?.text;
    expect(question('Bäckerei'), JSON.stringify(els)).toMatch(/^Was wird zu „Bäckerei[^“]*“ gesagt\?$/);
    expect(question('Apfelkuchen'), JSON.stringify(els)).toMatch(/^Wann wird „Apfelkuchen Rezept“ gezeigt\?$/);
  });
});
