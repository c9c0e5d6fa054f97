/**
 * People of a collection (vidx extra, issue 17): list, name, merge, split a track off, delete, moments, and
 * the collection's faces setting. Deleting a person or turning faces off removes the face rows and crops.
 */
import { inTransaction } from '../../store/connection.js';
import type { FaceTrackRow, PersonRow, PersonSummary } from '../../store/faces.js';
import type { VoiceRepository } from '../../store/voices.js';
import { recentreVoice } from './voice-grouping.js';
import { suggestLinks, type LinkSuggestion } from './face-voice.js';
import type { Repos } from '../../store/index.js';
import { v7 as uuid7 } from 'uuid';
import type { Caller } from '../caller.js';
import type { CollectionService, Lookup } from '../collections.js';
import { notFound, Problem } from '../errors.js';
import { nowIso } from '../timestamps.js';
import type { FileLinks } from '../file-links.js';
import { blend, fromBlob, toBlob } from './vectors.js';
import { meanVector } from '../../analysis/face-tracks.js';
import { personIn } from './person-lookup.js';
import { msg } from '../../messages/index.js';

/** One person as the API shows them. */
export interface PersonView {
  person_id: string;
  name: string | null;
  face_count: number;
  media_count: number;
  /** Signed link to the best crop of the person. */
  cover_url: string | null;
  /** Voices of theirs (one per recording they speak in), when the collection groups voices. */
  voice_count: number;
  /** Seconds they speak across those recordings. */
  voice_seconds: number;
}

/** One face entry of an episode (SPEC `episodic_summary[].faces`, filled by vidx). */
export interface EpisodeFace {
  person_id: string | null;
  start: number;
  end: number;
  box: { x: number; y: number; width: number; height: number };
  score: number;
  /** Signed link to the crop. */
  thumbnail: string | null;
}

/** One moment a person is seen. */
export interface MomentView {
  media_id: string;
  title: string | null;
  /** The face track (to split it off with POST …/split). */
  track_id: number;
  start: number;
  end: number;
  box: { x: number; y: number; width: number; height: number };
  score: number;
  thumbnail_url: string | null;
}

/**
 * Everything about people in a collection.
 * @example
 * people.rename(caller, 'family', 'person-0193…', 'Grandma');
 */
export class PeopleService {
  constructor(
    private readonly store: Repos<'db' | 'faces' | 'search' | 'storage' | 'voices'>,
    private readonly collections: CollectionService,
    private readonly links: FileLinks,
  ) {}

  faces(caller: Caller, collectionId: string, enabled: boolean): { collection_id: string; faces: boolean } {
    const c = this.collections.writable(caller, collectionId);
    if (!enabled) this.removeAll(c.pk);
    this.store.faces.setEnabled(c.pk, enabled);
    return { collection_id: c.collection_id, faces: enabled };
  }

  /**
   * The people of a collection, with what is missing for faces to be found: `unscanned_items` counts items
   * whose analysis did not look for faces (indexed before faces were on, or while the model was missing).
   */
  list(caller: Caller, collectionId: string, opts: Lookup = {}): { collection_id: string; faces: boolean; voices: boolean; unscanned_items: number; people: PersonView[]; suggestions: LinkSuggestion[] } {
    const c = this.collections.readable(caller, collectionId, opts);
    const voices = this.store.voices.counts(c.pk);
    const summaries = this.store.faces.summaries(c.pk);
    // A voice heard while a named face is on screen, again and again: offered to be linked, never linked here.
    const suggestions = voices.size && this.store.faces.enabled(c.pk) ? suggestLinks(this.store.voices.voiceOverFaces(c.pk), summaries) : [];
    const people = summaries
      .filter((p) => p.face_count > 0 || voices.has(p.pk) || p.name !== null)
      .map((p) => this.shown(p, voices))
      // Most seen or heard first.
      .sort((a, b) => b.face_count + b.voice_count - (a.face_count + a.voice_count));
    return { collection_id: c.collection_id, faces: this.store.faces.enabled(c.pk), voices: this.store.voices.enabled(c.pk), unscanned_items: this.store.search.unscannedForFaces(c.pk), people, suggestions };
  }

  rename(caller: Caller, collectionId: string, personId: string, name: string | null): PersonView {
    const c = this.collections.writable(caller, collectionId);
    const p = this.person(c.pk, personId);
    this.store.faces.updatePerson(p.pk, { name: name === null ? null : name.trim() || null });
    return this.view(c.pk, personId);
  }

  /** Moves every track of `otherId` to `personId`; the other person is gone afterwards. */
  merge(caller: Caller, collectionId: string, personId: string, otherId: string): PersonView {
    const c = this.collections.writable(caller, collectionId);
    if (personId === otherId) throw new Problem('invalid', msg('person_self_merge'), [{ field: 'person_id', message: msg('must_differ_from_path_person') }]);
    const keep = this.person(c.pk, personId);
    const gone = this.person(c.pk, otherId, 'person_id');
    inTransaction(this.store.db, () => {
      this.store.faces.moveTracks(gone.pk, keep.pk);
      this.store.voices.moveTracks(gone.pk, keep.pk);
      // A person known by voice alone has no face centre: the other's is kept as it is.
      const faced = [keep, gone].filter((p) => p.vector.length > 0);
      const centre = faced.length === 2 ? toBlob(blend(fromBlob(keep.vector), keep.weight, fromBlob(gone.vector), gone.weight)) : (faced[0]?.vector ?? keep.vector);
      this.store.faces.updatePerson(keep.pk, { vector: centre, weight: Math.min(50, keep.weight + gone.weight), name: keep.name ?? gone.name });
      this.store.faces.deletePerson(gone.pk);
      recentreVoice(this.store.voices, keep.pk);
    });
    return this.view(c.pk, personId);
  }

  /** Takes one wrongly grouped face track, or one voice (`voice_id`), away from a person into a new person of its own. */
  split(caller: Caller, collectionId: string, personId: string, what: { track_id?: number; voice_id?: number }): PersonView {
    const c = this.collections.writable(caller, collectionId);
    const from = this.person(c.pk, personId);
    if ((what.track_id === undefined) === (what.voice_id === undefined)) throw new Problem('invalid', msg('split_one_of'), [{ field: 'track_id', message: msg('split_one_of') }]);
    if (what.voice_id !== undefined) return this.splitVoice(c.pk, from, what.voice_id);
    const trackId = what.track_id!;
    const track = this.store.faces.track(c.pk, trackId);
    if (!track || track.person_pk !== from.pk) throw new Problem('not_found', msg('track_not_of_person', { track: String(trackId), person: personId }), [{ field: 'track_id', message: msg('not_a_track_of_person') }]);
    const newId = `person-${uuid7()}`;
    inTransaction(this.store.db, () => {
      const vector = track.vector ?? from.vector;
      const pk = this.store.faces.insertPerson({ collection_pk: c.pk, person_id: newId, name: null, vector, weight: 1, created_at: nowIso() });
      this.store.faces.moveTrack(track.pk, pk);
      this.recentre(from);
    });
    return this.view(c.pk, newId);
  }

  /** A voice of one person moved to a new person of its own. */
  private splitVoice(collectionPk: number, from: PersonRow, voiceId: number): PersonView {
    const voice = this.store.voices.tracks(collectionPk, [voiceId])[0];
    if (!voice || voice.person_pk !== from.pk) throw new Problem('not_found', msg('voice_not_of_person', { voice: String(voiceId), person: from.person_id }), [{ field: 'voice_id', message: msg('not_a_track_of_person') }]);
    const newId = `person-${uuid7()}`;
    inTransaction(this.store.db, () => {
      const pk = this.store.faces.insertPerson({ collection_pk: collectionPk, person_id: newId, name: null, vector: Buffer.alloc(0), weight: 0, created_at: nowIso() });
      this.store.voices.moveTrack(voice.pk, pk);
      recentreVoice(this.store.voices, pk);
      recentreVoice(this.store.voices, from.pk);
    });
    return this.view(collectionPk, newId);
  }

  /**
   * Gives many voices (speakers of recordings, `voice_id` from …/voices) to one person in one call; an id of
   * no voice of the collection is a 422 that names it, and nothing moves.
   */
  reassignVoices(caller: Caller, collectionId: string, personId: string, voiceIds: number[]): PersonView {
    const c = this.collections.writable(caller, collectionId);
    const to = this.person(c.pk, personId);
    const found = this.store.voices.tracks(c.pk, voiceIds);
    const missing = voiceIds.filter((id) => !found.some((v) => v.pk === id));
    if (missing.length) throw new Problem('invalid', msg('no_such_voices', { ids: missing.join(', ') }), [{ field: 'voice_ids', message: msg('no_such_voices', { ids: missing.join(', ') }) }]);
    const from = new Set(found.map((v) => v.person_pk).filter((pk): pk is number => pk !== null && pk !== to.pk));
    inTransaction(this.store.db, () => {
      for (const v of found) this.store.voices.moveTrack(v.pk, to.pk);
      recentreVoice(this.store.voices, to.pk);
      for (const pk of from) recentreVoice(this.store.voices, pk);
      this.store.faces.dropEmptyPeople(c.pk);
    });
    return this.view(c.pk, personId);
  }

  /** Removes the person and every face track of theirs, crops included. */
  delete(caller: Caller, collectionId: string, personId: string): { collection_id: string; person_id: string } {
    const c = this.collections.writable(caller, collectionId);
    const p = this.person(c.pk, personId);
    const crops = this.store.faces.tracksOfPerson(p.pk).map((t) => t.thumbnail);
    this.store.faces.deletePerson(p.pk);
    this.store.storage.removeFiles(crops);
    return { collection_id: c.collection_id, person_id: personId };
  }

  moments(caller: Caller, collectionId: string, personId: string, opts: Lookup = {}): { person: PersonView; moments: MomentView[] } {
    const c = this.collections.readable(caller, collectionId, opts);
    const p = this.person(c.pk, personId);
    return { person: this.view(c.pk, personId), moments: this.store.faces.moments(p.pk).map((m) => ({ media_id: m.media_id, title: m.title, ...this.track(m) })) };
  }

  /**
   * An item's face tracks as the SPEC's episode `faces` entries, by episode span; null when faces are off.
   * @example
   * people.episodeFaces(item.collection_pk, item.pk)?.(0, 12); // [{ person_id, start, end, box, score, thumbnail }]
   */
  episodeFaces(collectionPk: number, itemPk: number): ((start: number, end: number) => EpisodeFace[]) | null {
    if (!this.store.faces.enabled(collectionPk)) return null;
    const tracks = this.store.faces.tracksOfItem(itemPk);
    return (start, end) =>
      tracks.filter((t) => t.start < end && t.end > start).map((t) => {
        const { box, score, thumbnail_url } = this.track(t);
        return { person_id: t.person_id, start: Math.max(t.start, start), end: Math.min(t.end, end), box, score, thumbnail: thumbnail_url };
      });
  }

  /** Turns the faces off for a collection's data: every face row, person and crop goes. */
  private removeAll(collectionPk: number): void {
    const crops = this.store.faces.thumbnailsOfCollection(collectionPk);
    inTransaction(this.store.db, () => this.store.faces.clearCollection(collectionPk));
    this.store.storage.removeFiles(crops);
  }


  private recentre(p: PersonRow): void {
    const vectors = this.store.faces.tracksOfPerson(p.pk).flatMap((t) => (t.vector ? [fromBlob(t.vector)] : []));
    const centre = meanVector(vectors);
    if (centre) this.store.faces.updatePerson(p.pk, { vector: toBlob(centre), weight: Math.min(50, vectors.length) });
  }

  private person(collectionPk: number, personId: string, field?: string): PersonRow {
    return personIn(this.store.faces, collectionPk, personId, field);
  }

  private view(collectionPk: number, personId: string): PersonView {
    const p = this.store.faces.summaries(collectionPk).find((s) => s.person_id === personId);
    if (!p) throw notFound('person', personId);
    return this.shown(p, this.store.voices.counts(collectionPk));
  }

  private shown(p: PersonSummary, voices: ReturnType<VoiceRepository['counts']>): PersonView {
    const heard = voices.get(p.pk);
    return {
      person_id: p.person_id, name: p.name, face_count: p.face_count,
      // Recordings they are seen or heard in.
      media_count: heard?.media ?? p.media_count,
      cover_url: p.cover ? this.links.file(p.cover) : null,
      voice_count: heard?.voices ?? 0, voice_seconds: Math.round((heard?.seconds ?? 0) * 10) / 10,
    };
  }

  private track(t: FaceTrackRow): Omit<MomentView, 'media_id' | 'title'> {
    return { track_id: t.pk, start: t.start, end: t.end, box: { x: t.box_x, y: t.box_y, width: t.box_w, height: t.box_h }, score: t.score, thumbnail_url: t.thumbnail ? this.links.file(t.thumbnail) : null };
  }
}
