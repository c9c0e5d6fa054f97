import type { KeyRole } from '../store/keys.js';

/** Who is calling: the key's id (the owner of what it creates) and its role (a `worker` key reaches only the job endpoints). */
export interface Caller {
  id: string;
  name: string;
  role: KeyRole;
}

/**
 * Whether the caller may see or change something owned by `owner`.
 * @example
 * if (!ownsOrAdmin(caller, row.owner)) throw notFound('webhook', id);
 */
export function ownsOrAdmin(caller: Caller, owner: string): boolean {
  return caller.role === 'admin' || caller.id === owner;
}
