/**
 * Incremental grouping of an item's voices into a collection's people, as faces are grouped (grouping.ts):
 * each speaker's voiceprint joins the person whose voice centre is nearest, if near enough, or starts a new
 * person. Nothing is regrouped from scratch, so person ids and names stay across rescans and re-indexing.
 * Two speakers of one recording were told apart there, so they never join one person.
 */
import { v7 as uuid7 } from 'uuid';
import { SAME_VOICE_ACROSS, voiceNearness, type VoiceEmbedding, type VoicePrint } from '../../analysis/speakers.js';
import type { FaceRepository } from '../../store/faces.js';
import type { VoiceRepository } from '../../store/voices.js';
import { nowIso, systemClock, type WallClock } from '../timestamps.js';

/** A centre stops moving much after this many voices, so one odd recording cannot drag a known voice away. */
const MAX_WEIGHT = 50;

/** A voice centre as a person keeps it (people.voice): the MFCC print's, and the embedder's where one made it. */
export interface VoiceCentre {
  pitch: number | null;
  timbre: number[];
  embedding?: VoiceEmbedding;
}

/**
 * The mean of two centres by weight (a voice without pitch keeps the other's). Embeddings of one model are
 * blended into a unit vector; of two models, the first centre's stays (its model made most of the person).
 * @example
 * blendVoices({ pitch: 5, timbre: [1] }, 1, { pitch: 5.2, timbre: [3] }, 1); // { pitch: 5.1, timbre: [2] }
 */
export function blendVoices(a: VoiceCentre, wa: number, b: VoiceCentre, wb: number): VoiceCentre {
  const mix = (x: number, y: number) => (x * wa + y * wb) / (wa + wb);
  const pitch = a.pitch === null ? b.pitch : b.pitch === null ? a.pitch : mix(a.pitch, b.pitch);
  const embedding = blendEmbeddings(a.embedding, b.embedding, mix);
  return { pitch, timbre: a.timbre.map((x, i) => mix(x, b.timbre[i] ?? x)), ...(embedding ? { embedding } : {}) };
}

function blendEmbeddings(a: VoiceEmbedding | undefined, b: VoiceEmbedding | undefined, mix: (x: number, y: number) => number): VoiceEmbedding | undefined {
  if (!a || !b || a.model !== b.model) return a ?? b;
  const vector = a.vector.map((x, i) => mix(x, b.vector[i] ?? 0));
  const norm = Math.hypot(...vector) || 1;
  return { ...a, vector: vector.map((x) => x / norm) };
}

/** Rounded so the stored JSON stays short; far finer than one voice's spread. */
export function centreText(c: VoiceCentre): string {
  const r = (x: number) => Math.round(x * 1e4) / 1e4;
  const embedding = c.embedding ? { ...c.embedding, vector: c.embedding.vector.map(r) } : undefined;
  return JSON.stringify({ pitch: c.pitch === null ? null : r(c.pitch), timbre: c.timbre.map(r), ...(embedding ? { embedding } : {}) });
}

/** A print as a person's first centre. */
function centreOfPrint(print: VoicePrint): VoiceCentre {
  return { pitch: print.pitch, timbre: print.timbre, ...(print.embedding ? { embedding: print.embedding } : {}) };
}

/** A person as voice grouping sees them: a key, a voice centre and how many voices made it. */
export interface VoicePerson {
  key: number;
  centre: VoiceCentre;
  weight: number;
}

/**
 * Which person each print of one recording joins: the nearest one voice away (voiceNearness: the embedder's
 * print where both have one, else the MFCC print within `same`) that no other speaker of the recording
 * joined, else a new one (`newPerson` gives its key). The people's centres move as prints
 * join; new people are added to `people`.
 * @example
 * const joined = joinVoices(people, analysis.voices, () => nextKey++); // joined[i]: the person of prints[i]
 */
export function joinVoices(people: VoicePerson[], prints: readonly VoicePrint[], newPerson: (print: VoicePrint) => number, same = SAME_VOICE_ACROSS): VoicePerson[] {
  const joined = new Array<VoicePerson>(prints.length);
  const taken = new Set<number>();
  // The longest speakers choose first: theirs are the surest prints.
  const order = prints.map((_, i) => i).sort((a, b) => prints[b]!.seconds - prints[a]!.seconds);
  for (const i of order) {
    const print = prints[i]!;
    let person: VoicePerson | null = null;
    let best = 1;
    for (const p of people) {
      if (taken.has(p.key)) continue;
      const d = voiceNearness(print, p.centre, same);
      if (d <= best) [best, person] = [d, p];
    }
    if (person) {
      person.centre = blendVoices(person.centre, person.weight, print, 1);
      person.weight = Math.min(MAX_WEIGHT, person.weight + 1);
    } else {
      person = { key: newPerson(print), centre: centreOfPrint(print), weight: 1 };
      people.push(person);
    }
    taken.add(person.key);
    joined[i] = person;
  }
  return joined;
}

/**
 * Stores an item's voiceprints and gives each a person. Call inside the transaction that stores the item.
 * @example
 * storeVoiceTracks({ voices: store.voices, faces: store.faces }, collection.pk, item.pk, analysis.voices);
 */
export function storeVoiceTracks(
  repos: { voices: VoiceRepository; faces: FaceRepository },
  collectionPk: number,
  itemPk: number,
  prints: readonly VoicePrint[],
  time: WallClock = systemClock,
): void {
  const people = repos.voices.centres(collectionPk).map((p) => ({ key: p.pk, centre: JSON.parse(p.voice) as VoiceCentre, weight: p.voice_weight }));
  const newPerson = () => repos.faces.insertPerson({ collection_pk: collectionPk, person_id: `person-${uuid7()}`, name: null, vector: Buffer.alloc(0), weight: 0, created_at: nowIso(time) });
  joinVoices(people, prints, newPerson).forEach((person, i) => {
    const print = prints[i]!;
    repos.voices.setCentre(person.key, centreText(person.centre), person.weight);
    repos.voices.insertTrack({
      collection_pk: collectionPk, item_pk: itemPk, person_pk: person.key, speaker: print.speaker, seconds: print.seconds, pitch: print.pitch,
      timbre: JSON.stringify(print.timbre), embedding: print.embedding ? JSON.stringify(print.embedding) : null,
    });
  });
}

/**
 * A person's voice centre made again from the voice tracks they have now (after a split or a reassignment);
 * none left clears it.
 * @example
 * recentreVoice(store.voices, person.pk);
 */
export function recentreVoice(voices: VoiceRepository, personPk: number): void {
  const tracks = voices.tracksOfPerson(personPk);
  if (tracks.length === 0) {
    voices.setCentre(personPk, null, 0);
    return;
  }
  const centres = tracks.map((t): VoiceCentre => ({ pitch: t.pitch, timbre: JSON.parse(t.timbre) as number[], ...(t.embedding ? { embedding: JSON.parse(t.embedding) as VoiceEmbedding } : {}) }));
  let centre = centres[0]!;
  centres.slice(1).forEach((c, i) => {
    centre = blendVoices(centre, i + 1, c, 1);
  });
  voices.setCentre(personPk, centreText(centre), Math.min(MAX_WEIGHT, tracks.length));
}
