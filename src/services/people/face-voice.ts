/**
 * Suggestions to link a named face with an unnamed voice: where a face is on screen again and again while a
 * voice speaks, the two are likely one person. vidx only suggests; a person links them with a merge.
 */
import type { PersonSummary } from '../../store/faces.js';

/** At least this many recordings where the face is on screen while the voice speaks. */
const LEAST_RECORDINGS = 2;
/** And for at least this share of the voice's speech in those recordings. */
const LEAST_SHARE = 0.5;

/** One suggestion: the voice's person may be the face's person. */
export interface LinkSuggestion {
  /** The person known by this voice alone (unnamed). */
  voice_person_id: string;
  /** The named person whose face is on screen while the voice speaks. */
  face_person_id: string;
  name: string;
  /** Recordings where both meet. */
  recordings: number;
  /** The share of the voice's speech in those recordings during which the face is on screen. */
  share: number;
}

/**
 * The suggestions from how long each face is on screen while each voice speaks (VoiceRepository.voiceOverFaces),
 * for unnamed people heard but never seen and named people seen; the best face for each voice.
 * @example
 * suggestLinks(store.voices.voiceOverFaces(c.pk), store.faces.summaries(c.pk), voiceCounts);
 * // [{ voice_person_id: 'person-…', face_person_id: 'person-…', name: 'Eileen', recordings: 3, share: 0.82 }]
 */
export function suggestLinks(
  overlaps: readonly { voice_pk: number; face_pk: number; item_pk: number; seconds: number; spoken: number }[],
  people: readonly PersonSummary[],
): LinkSuggestion[] {
  const byPk = new Map(people.map((p) => [p.pk, p]));
  const pairs = new Map<string, { voice: PersonSummary; face: PersonSummary; items: Set<number>; seconds: number; spoken: number }>();
  for (const o of overlaps) {
    const voice = byPk.get(o.voice_pk);
    const face = byPk.get(o.face_pk);
    if (!voice || !face || voice.name !== null || voice.face_count > 0 || face.name === null || face.face_count === 0 || o.seconds <= 0) continue;
    const key = `${o.voice_pk}:${o.face_pk}`;
    const pair = pairs.get(key) ?? { voice, face, items: new Set<number>(), seconds: 0, spoken: 0 };
    pair.items.add(o.item_pk);
    pair.seconds += o.seconds;
    pair.spoken += o.spoken;
    pairs.set(key, pair);
  }
  const best = new Map<number, LinkSuggestion>();
  for (const p of pairs.values()) {
    const share = p.spoken > 0 ? Math.min(1, p.seconds / p.spoken) : 0;
    if (p.items.size < LEAST_RECORDINGS || share < LEAST_SHARE) continue;
    const s = { voice_person_id: p.voice.person_id, face_person_id: p.face.person_id, name: p.face.name!, recordings: p.items.size, share: Math.round(share * 100) / 100 };
    const had = best.get(p.voice.pk);
    if (!had || s.share > had.share) best.set(p.voice.pk, s);
  }
  return [...best.values()];
}
