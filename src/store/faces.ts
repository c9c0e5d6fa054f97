import type { Db } from './connection.js';
import { prepared } from './statements.js';

/** A people row. */
export interface PersonRow {
  pk: number;
  collection_pk: number;
  person_id: string;
  name: string | null;
  /** The face centre; empty for a person known by voice alone. */
  vector: Buffer;
  weight: number;
  created_at: string;
  /** The voice centre (JSON `{pitch, timbre}`), null without voice tracks (voices.ts). */
  voice?: string | null;
  voice_weight?: number;
}

/** A face_tracks row. */
export interface FaceTrackRow {
  pk: number;
  collection_pk: number;
  item_pk: number;
  person_pk: number | null;
  start: number;
  end: number;
  box_x: number;
  box_y: number;
  box_w: number;
  box_h: number;
  score: number;
  thumbnail: string | null;
  vector: Buffer | null;
}

/** A person with what the people list shows. */
export interface PersonSummary extends PersonRow {
  face_count: number;
  media_count: number;
  cover: string | null;
}

/** A track with its item's media_id and title, for a person's moments. */
export interface MomentRow extends FaceTrackRow {
  media_id: string;
  title: string | null;
  person_id: string | null;
}

/**
 * The people and face_tracks tables, and the collections' `faces` setting.
 * @example
 * new FaceRepository(db).people(collection.pk);
 */
export class FaceRepository {
  constructor(private readonly db: Db) {}

  enabled(collectionPk: number): boolean {
    const row = prepared(this.db, 'SELECT faces FROM collections WHERE pk = ?').get(collectionPk) as { faces: number } | undefined;
    return row?.faces === 1;
  }

  setEnabled(collectionPk: number, on: boolean): void {
    prepared(this.db, 'UPDATE collections SET faces = ? WHERE pk = ?').run(on ? 1 : 0, collectionPk);
  }

  /** Every crop file of the collection's tracks (to delete with the rows). */
  thumbnailsOfCollection(collectionPk: number): string[] {
    return (prepared(this.db, 'SELECT thumbnail FROM face_tracks WHERE collection_pk = ? AND thumbnail IS NOT NULL').all(collectionPk) as { thumbnail: string }[]).map((r) => r.thumbnail);
  }

  clearCollection(collectionPk: number): void {
    prepared(this.db, 'DELETE FROM face_tracks WHERE collection_pk = ?').run(collectionPk);
    // A person also known by voice stays, with no face centre; the others go.
    prepared(this.db, 'DELETE FROM people WHERE collection_pk = ? AND voice IS NULL').run(collectionPk);
    prepared(this.db, "UPDATE people SET vector = x'', weight = 0 WHERE collection_pk = ?").run(collectionPk);
  }

  people(collectionPk: number): PersonRow[] {
    return prepared(this.db, 'SELECT * FROM people WHERE collection_pk = ? ORDER BY pk').all(collectionPk) as PersonRow[];
  }

  summaries(collectionPk: number): PersonSummary[] {
    return prepared(
      this.db,
      `SELECT p.*, COUNT(t.pk) AS face_count, COUNT(DISTINCT t.item_pk) AS media_count,
        (SELECT thumbnail FROM face_tracks c WHERE c.person_pk = p.pk ORDER BY c.box_w * c.score DESC LIMIT 1) AS cover
       FROM people p LEFT JOIN face_tracks t ON t.person_pk = p.pk
       WHERE p.collection_pk = ? GROUP BY p.pk ORDER BY face_count DESC, p.pk`,
    ).all(collectionPk) as PersonSummary[];
  }

  person(collectionPk: number, personId: string): PersonRow | undefined {
    return prepared(this.db, 'SELECT * FROM people WHERE collection_pk = ? AND person_id = ?').get(collectionPk, personId) as PersonRow | undefined;
  }

  /** People whose name appears in `text` as whole words (case-insensitive), for search. */
  peopleNamedIn(collectionPks: number[], text: string): PersonRow[] {
    const words = ` ${text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `;
    if (collectionPks.length === 0 || words.trim() === '') return [];
    const named = prepared(this.db, 'SELECT * FROM people WHERE collection_pk = ? AND name IS NOT NULL');
    return collectionPks.flatMap((pk) => named.all(pk) as PersonRow[]).filter((p) => {
      const name = (p.name ?? '').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
      return name !== '' && words.includes(` ${name} `);
    });
  }

  insertPerson(row: Omit<PersonRow, 'pk'>): number {
    const info = prepared(
      this.db,
      'INSERT INTO people (collection_pk, person_id, name, vector, weight, created_at) VALUES (@collection_pk, @person_id, @name, @vector, @weight, @created_at)',
    ).run(row);
    return Number(info.lastInsertRowid);
  }

  updatePerson(pk: number, fields: { name?: string | null; vector?: Buffer; weight?: number }): void {
    const cur = prepared(this.db, 'SELECT * FROM people WHERE pk = ?').get(pk) as PersonRow;
    prepared(this.db, 'UPDATE people SET name = ?, vector = ?, weight = ? WHERE pk = ?').run(
      fields.name === undefined ? cur.name : fields.name,
      fields.vector ?? cur.vector,
      fields.weight ?? cur.weight,
      pk,
    );
  }

  deletePerson(pk: number): void {
    prepared(this.db, 'DELETE FROM people WHERE pk = ?').run(pk);
  }

  /** Unnamed people left without a track (after a reindex or a split): nothing to show for them. */
  dropEmptyPeople(collectionPk: number): void {
    prepared(
      this.db,
      `DELETE FROM people WHERE collection_pk = ? AND name IS NULL AND NOT EXISTS (SELECT 1 FROM face_tracks t WHERE t.person_pk = people.pk)
       AND NOT EXISTS (SELECT 1 FROM voice_tracks v WHERE v.person_pk = people.pk)`,
    ).run(collectionPk);
  }

  insertTrack(row: Omit<FaceTrackRow, 'pk'>): number {
    const info = prepared(
      this.db,
      `INSERT INTO face_tracks (collection_pk, item_pk, person_pk, start, end, box_x, box_y, box_w, box_h, score, thumbnail, vector)
       VALUES (@collection_pk, @item_pk, @person_pk, @start, @end, @box_x, @box_y, @box_w, @box_h, @score, @thumbnail, @vector)`,
    ).run(row);
    return Number(info.lastInsertRowid);
  }

  tracksOfItem(itemPk: number): Array<FaceTrackRow & { person_id: string | null }> {
    return prepared(
      this.db,
      'SELECT t.*, p.person_id FROM face_tracks t LEFT JOIN people p ON p.pk = t.person_pk WHERE t.item_pk = ? ORDER BY t.start, t.box_x',
    ).all(itemPk) as Array<FaceTrackRow & { person_id: string | null }>;
  }

  tracksOfPerson(personPk: number): FaceTrackRow[] {
    return prepared(this.db, 'SELECT * FROM face_tracks WHERE person_pk = ? ORDER BY pk').all(personPk) as FaceTrackRow[];
  }

  track(collectionPk: number, trackPk: number): FaceTrackRow | undefined {
    return prepared(this.db, 'SELECT * FROM face_tracks WHERE collection_pk = ? AND pk = ?').get(collectionPk, trackPk) as FaceTrackRow | undefined;
  }

  moveTracks(fromPersonPk: number, toPersonPk: number): void {
    prepared(this.db, 'UPDATE face_tracks SET person_pk = ? WHERE person_pk = ?').run(toPersonPk, fromPersonPk);
  }

  moveTrack(trackPk: number, toPersonPk: number): void {
    prepared(this.db, 'UPDATE face_tracks SET person_pk = ? WHERE pk = ?').run(toPersonPk, trackPk);
  }

  /** Episodes a person is seen in (largest, surest sightings first), optionally of one item. */
  episodesOfPerson(personPk: number, itemPk: number | null): number[] {
    const rows = prepared(
      this.db,
      `SELECT e.pk AS pk, MAX(t.box_w * t.score) AS weight FROM face_tracks t JOIN episodes e ON e.item_pk = t.item_pk AND e.start < t.end AND e.end > t.start
       WHERE t.person_pk = ? AND (? IS NULL OR t.item_pk = ?) GROUP BY e.pk ORDER BY weight DESC, e.pk`,
    ).all(personPk, itemPk, itemPk) as { pk: number }[];
    return rows.map((r) => r.pk);
  }

  moments(personPk: number): MomentRow[] {
    return prepared(
      this.db,
      `SELECT t.*, i.media_id, i.title, p.person_id FROM face_tracks t JOIN items i ON i.pk = t.item_pk JOIN people p ON p.pk = t.person_pk
       WHERE t.person_pk = ? ORDER BY i.media_id, t.start`,
    ).all(personPk) as MomentRow[];
  }
}
