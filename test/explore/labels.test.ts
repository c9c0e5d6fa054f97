import { describe, expect, it } from 'vitest';
import { clusterLine } from '../../src/services/explore/cluster-line.js';
import { describeCluster, resultText } from '../../src/services/explore/clusters.js';
import type { SearchResult } from '../../src/services/search/index.js';
import { contentWords } from '../../src/analysis/text-stats.js';

function hit(content: string, over: Partial<SearchResult> = {}): SearchResult {
  return {
    audio: [{ start: 1, end: 4, text: content }], computer_vision: [{ start: 0, end: 8, summary: 'Text im Bild: „Wetter in Berlin“.' }],
    content, episode_id: 0, image_url: '', media_id: 'wetter', media_type: 'video', title: null, captured_at: null, captured_at_source: null, place: null, score: 1, src: '', start_time: 1, ...over,
  };
}

describe('cluster answers', () => {
  it('never repeat the label in the line ("Morgen gibt es viel: Morgen gibt es viel Schnee…")', () => {
    const group = [hit('Morgen gibt es viel Schnee in Berlin.'), hit('Morgen gibt es viel Schnee in Berlin.', { media_id: 'kopie' })];
    const other = hit('Am Abend gibt es leichten Regen.', { media_id: 'regen' });
    const texts = [...group, other].map(resultText);
    const el = describeCluster(group, 0, texts, [0, 1], 'Schnee', 'de');
    const words = contentWords(el.answer);
    expect(new Set(words).size, el.answer).toBe(words.length);
    expect(el.answer).toContain('Schnee');
    expect(el.additional_info).toMatch(/^2 Momente in 2 Videos: /);
  });

  it('quote content without the labels of visual summaries', () => {
    const text = resultText(hit('Schnee.'));
    expect(text).toContain('Wetter in Berlin');
    expect(text).not.toMatch(/Text im Bild|„/);
  });
});

describe('cluster lines', () => {
  it('name a moment past the first hour as h:mm:ss, as every other time vidx writes (not 62:05)', () => {
    const line = clusterLine([hit('Schnee in Berlin.', { title: 'Wetterchronik', start_time: 3725.4 })], {}, 'de');
    expect(line).toMatch(/: Wetterchronik 1:02:05$/);
  });
});
