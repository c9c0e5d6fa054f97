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

describe('cutEpisodes: a chapter opens with its content', () => {
  // A narrated slide talk: the slide changes at 12 s while the sentence before runs on to 12.5 s; the
  // sentence about the new slide starts at 13 s.
  const talk = [
    { start: 1, end: 5.5, text: 'Welcome to the budget review of the community hall.' },
    { start: 6.5, end: 12.5, text: 'Spending went up this year because the old heating broke down.' },
    { start: 13, end: 17.5, text: 'Solar panels on the roof made more power than we used.' },
    { start: 18.5, end: 23, text: 'The extra power went back into the grid every sunny afternoon.' },
  ];
  const signals = { duration: 24, shots: [{ time: 12, score: 1 }], transcript: talk, textChanges: [12] };

  it('starts the chapter at a slide change in the last moments of the sentence before', () => {
    const starts = cutEpisodes(signals).map(([start]) => start);
    expect(starts).toContain(12);
  });

  it('starts a chapter that opens in a pause at the line after it, never in the pause', () => {
    const eps = cutEpisodes(signals);
    for (const [start] of eps.slice(1)) expect(start === 12 || talk.some((t) => t.start === start), JSON.stringify(eps)).toBe(true);
  });

  it('still keeps a slide change in the middle of a sentence out of it', () => {
    // At 9 s the sentence has 3.5 s to go: the boundary moves to an edge of it.
    const eps = cutEpisodes({ ...signals, shots: [{ time: 9, score: 1 }], textChanges: [9] });
    for (const [start] of eps.slice(1)) expect(talk.some((t) => t.start < start - 0.05 && t.end > start + 0.05), JSON.stringify(eps)).toBe(false);
  });
});

describe('belongsTo', () => {
  it('keeps a shot’s text with the episode it mostly lies in', () => {
    expect(belongsTo({ start: 0, end: 8 }, { start: 7.25, end: 16 })).toBe(false);
    expect(belongsTo({ start: 0, end: 8 }, { start: 0, end: 7.25 })).toBe(true);
    expect(belongsTo({ start: 0, end: 100 }, { start: 40, end: 60 })).toBe(true);
  });
});
