import { describe, expect, it } from 'vitest';
import type { VoicePrint } from '../../src/analysis/speakers.js';
import { blendVoices, joinVoices, type VoicePerson } from '../../src/services/people/voice-grouping.js';

const timbre = (shift: number) => Array.from({ length: 12 }, (_, i) => i + shift);
const print = (speaker: number, shift: number, vector?: number[], model = 'embedder-a'): VoicePrint => ({
  speaker, seconds: 10, pitch: 5, timbre: timbre(shift), ...(vector ? { embedding: { model, vector, sameCosine: 0.5 } } : {}),
});

describe('voice grouping with the embedder\'s prints', () => {
  it('lets the embedder decide where both prints carry one model\'s, and the MFCC print elsewhere', () => {
    const people: VoicePerson[] = [];
    let next = 1;
    const join = (prints: VoicePrint[]) => joinVoices(people, prints, () => next++).map((p) => p.key);
    expect(join([print(1, 0, [1, 0])])).toEqual([1]);
    // The same MFCCs, a voice the embedder hears as another (cosine 0): a new person.
    expect(join([print(1, 0, [0, 1])])).toEqual([2]);
    // MFCCs far apart (beyond SAME_VOICE_ACROSS), the embedder's print close (cosine 0.98): the first person.
    expect(join([print(1, 40, [0.98, 0.199])])).toEqual([1]);
    // Another model's print cannot be compared: the MFCC print decides, and it is close to both: the nearest joins.
    expect(join([print(1, 0, [1, 0], 'embedder-b')])).toHaveLength(1);
    // No embedding at all: MFCCs decide; far from everyone's, a new person.
    expect(join([print(1, 90)])).toEqual([3]);
  });

  it('blends one model\'s embeddings into a unit vector and keeps a centre\'s own model over another\'s', () => {
    const a = { pitch: 5, timbre: [1], embedding: { model: 'm', vector: [1, 0], sameCosine: 0.3 } };
    const blended = blendVoices(a, 1, { pitch: 5, timbre: [1], embedding: { model: 'm', vector: [0, 1], sameCosine: 0.3 } }, 1);
    for (const x of blended.embedding!.vector) expect(x).toBeCloseTo(Math.SQRT1_2, 6);
    expect(blendVoices(a, 1, { pitch: 5, timbre: [1], embedding: { model: 'other', vector: [0, 1], sameCosine: 0.3 } }, 1).embedding).toEqual(a.embedding);
    expect(blendVoices({ pitch: 5, timbre: [1] }, 1, a, 1).embedding).toEqual(a.embedding);
  });
});
