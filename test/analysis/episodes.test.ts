import { describe, expect, it } from 'vitest';
import { cutEpisodes } from '../../src/analysis/episodes.js';
import { belongsTo } from '../../src/analysis/spans.js';

describe('cutEpisodes on the cuts', () => {
  // Speech pauses 1.9 s before each slide change and resumes just after it: the pause lies 0.9 s before the cut.
  const transcript = [
    { start: 0.5, end: 8.1, text: 'Morgen gibt es viel Schnee in Berlin. Die Temperaturen fallen unter null Grad.' },
    { start: 10.15, end: 18.2, text: 'Für den Apfelkuchen brauchen wir Mehl, Butter und Zucker. Der Kuchen backt eine Stunde.' },
    { start: 20.25, end: 28, text: 'Ein platter Reifen lässt sich leicht flicken. Dann sucht man das Loch mit Wasser.' },
  ];
  const shots = [{ time: 10, score: 1 }, { time: 20.1, score: 1 }];

  it('puts a boundary on a shot change within 1.5 s of the chosen point', () => {
    const eps = cutEpisodes({ duration: 30, shots, transcript, textChanges: shots.map((s) => s.time) });
    const bounds = eps.slice(1).map(([start]) => start);
    for (const cut of shots) expect(Math.min(...bounds.map((b) => Math.abs(b - cut.time))), JSON.stringify(eps)).toBeLessThan(0.01);
  });

  it('does not snap into a sentence', () => {
    // The shot change at 12 s falls inside the second sentence: the boundary stays in the pause.
    const eps = cutEpisodes({ duration: 30, shots: [{ time: 12, score: 1 }], transcript, textChanges: [] });
    for (const [start] of eps.slice(1)) expect(transcript.some((t) => t.start < start - 0.05 && t.end > start + 0.05), JSON.stringify(eps)).toBe(false);
  });
});

describe('belongsTo', () => {
  it('keeps a shot’s text with the episode it mostly lies in', () => {
    expect(belongsTo({ start: 0, end: 8 }, { start: 7.25, end: 16 })).toBe(false);
    expect(belongsTo({ start: 0, end: 8 }, { start: 0, end: 7.25 })).toBe(true);
    expect(belongsTo({ start: 0, end: 100 }, { start: 40, end: 60 })).toBe(true);
  });
});
