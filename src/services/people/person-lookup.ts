import type { FaceRepository, PersonRow } from '../../store/faces.js';
import { notFound, Problem } from '../errors.js';
import { msg } from '../../messages/index.js';

/**
 * A person of a collection, or the error for a missing one: 404 for the path's person, 422 naming `field`
 * for one given in a body.
 * @example
 * const p = personIn(store.faces, c.pk, 'person-0193…');
 */
export function personIn(faces: FaceRepository, collectionPk: number, personId: string, field?: string): PersonRow {
  const p = faces.person(collectionPk, personId);
  if (p) return p;
  if (field) throw new Problem('invalid', msg('not_found', { what: 'person', id: personId }), [{ field, message: msg('no_such_person') }]);
  throw notFound('person', personId);
}
