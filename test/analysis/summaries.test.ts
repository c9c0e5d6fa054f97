import { describe, expect, it } from 'vitest';
import { episodeSummary, templateWords } from '../../src/analysis/phrases.js';
import { VIDEO_SUMMARY_LIMITS, videoSummary } from '../../src/analysis/summarize.js';
import { guessLanguage, sentences } from '../../src/analysis/text-stats.js';

describe('video summary', () => {
  it('takes one sentence from each part, not only the most central ones', async () => {
    const parts = [
      ['Welcome to the cooking show. Today we bake fresh bread with flour, water and yeast.'],
      ['Iceland sits on the boundary of two tectonic plates. Volcanoes and geysers shape the island.'],
      ['The football academy trains young players every morning. Coaches teach passing and shooting drills.'],
    ];
    const summary = await videoSummary(parts, null);
    const chosen = sentences(summary);
    expect(chosen).toHaveLength(3);
    parts.forEach((p, i) => {
      expect(sentences(p[0])).toContain(chosen[i]);
    });
  });

  it('keeps a sentence for every part of a short video even when its sentences are long, in English and German', async () => {
    const long = (topic: string) => `${topic} ${'and then a long stretch of words about it '.repeat(6)}until the end.`;
    for (const topics of [['Bread baking', 'Iceland volcanoes', 'Football academy', 'Garden tomatoes', 'Bicycle repair'], ['Apfelkuchen backen', 'Wetter in Berlin', 'Fahrrad reparieren', 'Tomaten gießen', 'Geburtstag feiern']]) {
      const summary = await videoSummary(topics.map((t) => [long(t)]), null);
      const at = topics.map((t) => summary.indexOf(t));
      expect(at.every((p) => p >= 0), summary).toBe(true);
      expect([...at].sort((a, b) => a - b)).toEqual(at);
      expect(summary.length).toBeLessThanOrEqual(VIDEO_SUMMARY_LIMITS.totalChars);
    }
  });

  it('speaks for the most distinct parts of a long video, in order', async () => {
    const topics = ['Bread dough rests in a warm kitchen.', 'Volcanoes erupt on Iceland every few years.', 'The goalkeeper saves a penalty shot.', 'Tomato plants need water in summer.', 'A flat bicycle tyre is easy to patch.', 'Grandma lights the birthday candles.', 'Whales swim past the northern coast.', 'The choir sings an old folk song.'];
    // Twenty parts, most of them repeating the first topic: the summary must not spend itself on repeats.
    const parts = Array.from({ length: 20 }, (_, i) => [i % 3 === 0 || i >= topics.length * 2 ? topics[0] : topics[Math.floor(i / 2) % topics.length]]);
    const summary = await videoSummary(parts, null);
    const chosen = sentences(summary);
    expect(chosen.length).toBe(VIDEO_SUMMARY_LIMITS.sentences);
    expect(new Set(chosen).size).toBe(chosen.length);
    const order = chosen.map((c) => parts.findIndex((p) => p[0] === c));
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('stays within its bounds for a long video', async () => {
    const long = 'This sentence goes on and on about the weather, the mountains, the rivers, the towns along the valley and the people who live there all year round.';
    const parts = Array.from({ length: 40 }, (_, i) => [`${long.replace('weather', `weather ${i}`)} Part ${i} talks about topic number ${i} at length.`]);
    const summary = await videoSummary(parts, null);
    expect(summary.length).toBeLessThanOrEqual(VIDEO_SUMMARY_LIMITS.totalChars);
    expect(sentences(summary).length).toBeLessThanOrEqual(VIDEO_SUMMARY_LIMITS.sentences);
    expect(await videoSummary([[], []], null)).toBe('');
  });
});

describe('episode summaries and template words', () => {
  it('says nothing rather than something false when nothing was recognised', () => {
    expect(episodeSummary([], [], [], 'en')).toBe('');
    expect(episodeSummary([], ['Quarterly budget'], [], 'en')).toBe('“Quarterly budget”');
    expect(episodeSummary([], ['Wetter in Berlin'], [], 'de')).toBe('„Wetter in Berlin“');
  });

  it('knows the words of its labels in both languages', () => {
    const words = templateWords();
    for (const w of ['screen', 'seen', 'text', 'bild', 'zu', 'sehen', 'said', 'gesagt']) expect(words.has(w), w).toBe(true);
  });

  it('tells English from German by stop words', () => {
    expect(guessLanguage(['Morgen gibt es viel Schnee in Berlin.', 'Die Temperaturen fallen unter null Grad.'])).toBe('de');
    expect(guessLanguage(['The football academy trains young players every morning, and the coaches watch.'])).toBe('en');
    expect(guessLanguage(['Berlin'])).toBeNull();
  });
});
