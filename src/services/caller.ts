/** Who is calling: the key's id (the owner of what it creates) and its role. */
export interface Caller {
  id: string;
  name: string;
  role: 'admin' | 'user';
}

/**
 * Whether the caller may see or change something owned by `owner`.
 * @example
 * if (!ownsOrAdmin(caller, row.owner)) throw notFound('webhook', id);
 */
export function ownsOrAdmin(caller: Caller, owner: string): boolean {
  return caller.role === 'admin' || caller.id === owner;
}
