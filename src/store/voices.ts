import type { Db } from './connection.js';
import { prepared } from './statements.js';

/** A voice_tracks row: one speaker of one item, their voiceprint and the person they joined. */
export interface VoiceTrackRow {
  pk: number;
  collection_pk: number;
  item_pk: number;
  person_pk: number | null;
  speaker: number;
  seconds: number;
  pitch: number | null;
  /** JSON array of the MFCC means. */
  timbre: string;
  /** JSON `{model, vector, sameCosine}`: the print of the pulled speaker embedder, where one made it. */
  embedding?: string | null;
}

/** A person's running voice centre. */
export interface VoiceCentreRow {
  pk: number;
  person_id: string;
  voice: string;
  voice_weight: number;
}

/** A voice track with its item and person, for a person's voices and an item's speakers. */
export interface VoiceTrackView extends VoiceTrackRow {
  media_id: string;
  title: string | null;
  person_id: string | null;
  name: string | null;
}

const VIEW = `SELECT v.*, i.media_id, i.title, p.person_id, p.name FROM voice_tracks v JOIN items i ON i.pk = v.item_pk LEFT JOIN people p ON p.pk = v.person_pk`;

/**
 * The voice_tracks table, the people's voice centres and the collections' `voices` setting.
 * @example
 * new VoiceRepository(db).tracksOfItem(item.pk);
 */
export class VoiceRepository {
  constructor(private readonly db: Db) {}

  enabled(collectionPk: number): boolean {
    const row = prepared(this.db, 'SELECT voices FROM collections WHERE pk = ?').get(collectionPk) as { voices: number } | undefined;
    return row?.voices === 1;
  }

  setEnabled(collectionPk: number, on: boolean): void {
    prepared(this.db, 'UPDATE collections SET voices = ? WHERE pk = ?').run(on ? 1 : 0, collectionPk);
  }

  /** Every voiceprint of a collection goes: its tracks and its people's voice centres (names stay). */
  clearCollection(collectionPk: number): void {
    prepared(this.db, 'DELETE FROM voice_tracks WHERE collection_pk = ?').run(collectionPk);
    prepared(this.db, 'UPDATE people SET voice = NULL, voice_weight = 0 WHERE collection_pk = ?').run(collectionPk);
    // A person known by voice alone goes with it.
    prepared(this.db, 'DELETE FROM people WHERE collection_pk = ? AND length(vector) = 0 AND NOT EXISTS (SELECT 1 FROM face_tracks t WHERE t.person_pk = people.pk)').run(collectionPk);
  }

  centres(collectionPk: number): VoiceCentreRow[] {
    return prepared(this.db, 'SELECT pk, person_id, voice, voice_weight FROM people WHERE collection_pk = ? AND voice IS NOT NULL ORDER BY pk').all(collectionPk) as VoiceCentreRow[];
  }

  setCentre(personPk: number, voice: string | null, weight: number): void {
    prepared(this.db, 'UPDATE people SET voice = ?, voice_weight = ? WHERE pk = ?').run(voice, weight, personPk);
  }

  insertTrack(row: Omit<VoiceTrackRow, 'pk'>): number {
    const info = prepared(
      this.db,
      'INSERT INTO voice_tracks (collection_pk, item_pk, person_pk, speaker, seconds, pitch, timbre, embedding) VALUES (@collection_pk, @item_pk, @person_pk, @speaker, @seconds, @pitch, @timbre, @embedding)',
    ).run({ embedding: null, ...row });
    return Number(info.lastInsertRowid);
  }

  tracksOfItem(itemPk: number): VoiceTrackView[] {
    return prepared(this.db, `${VIEW} WHERE v.item_pk = ? ORDER BY v.speaker`).all(itemPk) as VoiceTrackView[];
  }

  tracksOfPerson(personPk: number): VoiceTrackView[] {
    return prepared(this.db, `${VIEW} WHERE v.person_pk = ? ORDER BY i.media_id, v.speaker`).all(personPk) as VoiceTrackView[];
  }

  /** The voice tracks of a collection among `pks`, by pk (others' and unknown ones are left out). */
  tracks(collectionPk: number, pks: readonly number[]): VoiceTrackView[] {
    const stmt = prepared(this.db, `${VIEW} WHERE v.collection_pk = ? AND v.pk = ?`);
    return pks.flatMap((pk) => (stmt.get(collectionPk, pk) as VoiceTrackView | undefined) ?? []);
  }

  moveTracks(fromPersonPk: number, toPersonPk: number): void {
    prepared(this.db, 'UPDATE voice_tracks SET person_pk = ? WHERE person_pk = ?').run(toPersonPk, fromPersonPk);
  }

  moveTrack(trackPk: number, toPersonPk: number): void {
    prepared(this.db, 'UPDATE voice_tracks SET person_pk = ? WHERE pk = ?').run(toPersonPk, trackPk);
  }

  /** How many voice tracks each person of a collection has, by person pk, and the items they are seen or heard in. */
  counts(collectionPk: number): Map<number, { voices: number; media: number; seconds: number }> {
    const rows = prepared(
      this.db,
      `SELECT v.person_pk, COUNT(*) AS voices, SUM(v.seconds) AS seconds,
         (SELECT COUNT(*) FROM (SELECT item_pk FROM voice_tracks a WHERE a.person_pk = v.person_pk UNION SELECT item_pk FROM face_tracks f WHERE f.person_pk = v.person_pk)) AS media
       FROM voice_tracks v WHERE v.collection_pk = ? AND v.person_pk IS NOT NULL GROUP BY v.person_pk`,
    ).all(collectionPk) as { person_pk: number; voices: number; media: number; seconds: number }[];
    return new Map(rows.map((r) => [r.person_pk, { voices: r.voices, media: r.media, seconds: r.seconds }]));
  }

  /** The speaker numbers of these people, by item: which lines of each item are theirs. */
  labelsOf(personPks: readonly number[]): Map<number, Set<number>> {
    const stmt = prepared(this.db, 'SELECT item_pk, speaker FROM voice_tracks WHERE person_pk = ?');
    const out = new Map<number, Set<number>>();
    for (const person of personPks) {
      for (const r of stmt.all(person) as { item_pk: number; speaker: number }[]) out.set(r.item_pk, (out.get(r.item_pk) ?? new Set()).add(r.speaker));
    }
    return out;
  }

  /**
   * For each voice of a person and each other person's face in the same item: the seconds that face is on
   * screen while that voice speaks (its turns in item_analysis.speakers against the face tracks).
   */
  voiceOverFaces(collectionPk: number): { voice_pk: number; face_pk: number; item_pk: number; seconds: number; spoken: number }[] {
    return prepared(
      this.db,
      `SELECT v.person_pk AS voice_pk, f.person_pk AS face_pk, v.item_pk AS item_pk, v.seconds AS spoken,
         SUM(MAX(0, MIN(json_extract(j.value, '$.end'), f.end) - MAX(json_extract(j.value, '$.start'), f.start))) AS seconds
       FROM voice_tracks v
       JOIN item_analysis a ON a.item_pk = v.item_pk
       JOIN json_each(a.speakers) j ON json_extract(j.value, '$.speaker') = v.speaker
       JOIN face_tracks f ON f.item_pk = v.item_pk AND f.person_pk IS NOT NULL AND f.person_pk <> v.person_pk
       WHERE v.collection_pk = ? AND v.person_pk IS NOT NULL AND a.speakers IS NOT NULL
       GROUP BY v.pk, f.person_pk`,
    ).all(collectionPk) as { voice_pk: number; face_pk: number; item_pk: number; seconds: number; spoken: number }[];
  }

  /** Episodes where one of the people speaks (a transcript line of theirs), longest speech first; optionally of one item. */
  episodesSpokenBy(personPks: readonly number[], itemPk: number | null): number[] {
    const stmt = prepared(
      this.db,
      `SELECT s.episode_pk AS pk, SUM(s.end - s.start) AS said FROM voice_tracks v
       JOIN episodes e ON e.item_pk = v.item_pk JOIN segments s ON s.episode_pk = e.pk AND s.kind = 'audio' AND s.speaker = v.speaker
       WHERE v.person_pk = ? AND (? IS NULL OR v.item_pk = ?) GROUP BY s.episode_pk`,
    );
    const said = new Map<number, number>();
    for (const person of personPks) for (const r of stmt.all(person, itemPk, itemPk) as { pk: number; said: number }[]) said.set(r.pk, (said.get(r.pk) ?? 0) + r.said);
    return [...said].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([pk]) => pk);
  }
}
