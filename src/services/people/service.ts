/**
 * People of a collection (vidx extra, issue 17): list, name, merge, split a track off, delete, moments, and
 * the collection's faces setting. Deleting a person or turning faces off removes the face rows and crops.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { inTransaction } from '../../store/connection.js';
import type { FaceTrackRow, PersonRow } from '../../store/faces.js';
import type { Store, Repos } from '../../store/index.js';
import { v7 as uuid7 } from 'uuid';
import type { Caller } from '../caller.js';
import type { CollectionService, Lookup } from '../collections.js';
import { notFound, Problem } from '../errors.js';
import { nowIso } from '../timestamps.js';
import type { FileLinks } from '../file-links.js';
import { blend, fromBlob, toBlob } from './vectors.js';
import { meanVector } from '../../analysis/face-tracks.js';
import { msg } from '../../messages/index.js';

/** One person as the API shows them. */
export interface PersonView {
  person_id: string;
  name: string | null;
  face_count: number;
  media_count: number;
  /** Signed link to the best crop of the person. */
  cover_url: string | null;
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
    private readonly store: Repos<'db' | 'faces' | 'search'>,
    private readonly collections: CollectionService,
    private readonly links: FileLinks,
    private readonly dataDir: string,
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
  list(caller: Caller, collectionId: string, opts: Lookup = {}): { collection_id: string; faces: boolean; unscanned_items: number; people: PersonView[] } {
    const c = this.collections.readable(caller, collectionId, opts);
    const people = this.store.faces
      .summaries(c.pk)
      .filter((p) => p.face_count > 0 || p.name !== null)
      .map((p) => ({ person_id: p.person_id, name: p.name, face_count: p.face_count, media_count: p.media_count, cover_url: p.cover ? this.links.file(p.cover) : null }));
    return { collection_id: c.collection_id, faces: this.store.faces.enabled(c.pk), unscanned_items: this.store.search.unscannedForFaces(c.pk), people };
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
      const centre = blend(fromBlob(keep.vector), keep.weight, fromBlob(gone.vector), gone.weight);
      this.store.faces.updatePerson(keep.pk, { vector: toBlob(centre), weight: Math.min(50, keep.weight + gone.weight), name: keep.name ?? gone.name });
      this.store.faces.deletePerson(gone.pk);
    });
    return this.view(c.pk, personId);
  }

  /** Takes one wrongly grouped track away from a person into a new person of its own. */
  split(caller: Caller, collectionId: string, personId: string, trackId: number): PersonView {
    const c = this.collections.writable(caller, collectionId);
    const from = this.person(c.pk, personId);
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

  /** Removes the person and every face track of theirs, crops included. */
  delete(caller: Caller, collectionId: string, personId: string): { collection_id: string; person_id: string } {
    const c = this.collections.writable(caller, collectionId);
    const p = this.person(c.pk, personId);
    const crops = this.store.faces.tracksOfPerson(p.pk).map((t) => t.thumbnail);
    this.store.faces.deletePerson(p.pk);
    this.removeFiles(crops);
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
    this.removeFiles(crops);
  }

  private removeFiles(paths: Array<string | null>): void {
    for (const p of paths) if (p) rmSync(join(this.dataDir, p), { force: true });
  }

  private recentre(p: PersonRow): void {
    const vectors = this.store.faces.tracksOfPerson(p.pk).flatMap((t) => (t.vector ? [fromBlob(t.vector)] : []));
    const centre = meanVector(vectors);
    if (centre) this.store.faces.updatePerson(p.pk, { vector: toBlob(centre), weight: Math.min(50, vectors.length) });
  }

  private person(collectionPk: number, personId: string, field?: string): PersonRow {
    const p = this.store.faces.person(collectionPk, personId);
    if (!p) {
      if (field) throw new Problem('invalid', msg('not_found', { what: 'person', id: personId }), [{ field, message: msg('no_such_person') }]);
      throw notFound('person', personId);
    }
    return p;
  }

  private view(collectionPk: number, personId: string): PersonView {
    const p = this.store.faces.summaries(collectionPk).find((s) => s.person_id === personId);
    if (!p) throw notFound('person', personId);
    return { person_id: p.person_id, name: p.name, face_count: p.face_count, media_count: p.media_count, cover_url: p.cover ? this.links.file(p.cover) : null };
  }

  private track(t: FaceTrackRow): Omit<MomentView, 'media_id' | 'title'> {
    return { track_id: t.pk, start: t.start, end: t.end, box: { x: t.box_x, y: t.box_y, width: t.box_w, height: t.box_h }, score: t.score, thumbnail_url: t.thumbnail ? this.links.file(t.thumbnail) : null };
  }
}
