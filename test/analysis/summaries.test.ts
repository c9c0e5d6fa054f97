import { describe, expect, it } from 'vitest';
import { episodeSummary, templateWords } from '../../src/services/analysis/phrases.js';
import { VIDEO_SUMMARY_LIMITS, videoSummary } from '../../src/services/analysis/summarize.js';
import { guessLanguage, sentences } from '../../src/services/analysis/text.js';

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
    parts.forEach((p, i) => expect(sentences(p[0])).toContain(chosen[i]));
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
