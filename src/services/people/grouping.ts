/**
 * Incremental grouping of face tracks into a collection's people: each new track joins the person whose
 * running centre is closest, if close enough, or starts a new person. Nothing is regrouped from scratch, so
 * person ids (and the names people were given) stay put across rescans and reindexing: a person's centre
 * outlives the reindex that briefly removes their tracks.
 */
import { v7 as uuid7 } from 'uuid';
import type { FaceRepository } from '../../store/faces.js';
import type { FaceTrack } from '../../analysis/faces.js';
import { cosine } from '../../analysis/face-tracks.js';
import { DEFAULT_SAME_PERSON } from '../../ml/face/embed.js';
import { blend, fromBlob, toBlob } from './vectors.js';
import { nowIso } from '../timestamps.js';

/** A centre stops moving much after this many tracks, so one odd track cannot drag a well-known person away. */
const MAX_WEIGHT = 50;

/**
 * Stores an item's tracks (crops already in place at `thumbnails[i]`) and assigns each embedded track to a
 * person: the one whose centre is closest, when at least `samePerson` (the embedder's threshold) close.
 * Call inside the transaction that stores the item. Tracks without a vector are kept ungrouped.
 * @example
 * storeFaceTracks(store.faces, collection.pk, item.pk, analysis.faces, thumbs);
 */
export function storeFaceTracks(
  repo: FaceRepository,
  collectionPk: number,
  itemPk: number,
  tracks: FaceTrack[],
  thumbnails: Array<string | null>,
  samePerson = DEFAULT_SAME_PERSON,
): FaceTrack[] {
  const people = repo.people(collectionPk).filter((p) => p.vector.length > 0).map((p) => ({ pk: p.pk, personId: p.person_id, centre: Array.from(fromBlob(p.vector)), weight: p.weight }));
  const out: FaceTrack[] = [];
  tracks.forEach((t, i) => {
    let person: (typeof people)[number] | null = null;
    if (t.vector) {
      let best = samePerson;
      for (const p of people) {
        const c = cosine(t.vector, p.centre);
        if (c >= best) [best, person] = [c, p];
      }
      if (person) {
        person.centre = blend(person.centre, person.weight, t.vector, 1);
        person.weight = Math.min(MAX_WEIGHT, person.weight + 1);
        repo.updatePerson(person.pk, { vector: toBlob(person.centre), weight: person.weight });
      } else {
        const personId = `person-${uuid7()}`;
        const pk = repo.insertPerson({ collection_pk: collectionPk, person_id: personId, name: null, vector: toBlob(t.vector), weight: 1, created_at: nowIso() });
        person = { pk, personId, centre: t.vector, weight: 1 };
        people.push(person);
      }
    }
    repo.insertTrack({
      collection_pk: collectionPk, item_pk: itemPk, person_pk: person?.pk ?? null, start: t.start, end: t.end,
      box_x: t.box.x, box_y: t.box.y, box_w: t.box.width, box_h: t.box.height, score: t.score,
      thumbnail: thumbnails[i] ?? null, vector: t.vector ? toBlob(t.vector) : null,
    });
    out.push({ ...t, thumbnail: thumbnails[i] ?? null, personId: person?.personId ?? null });
  });
  repo.dropEmptyPeople(collectionPk);
  return out;
}
