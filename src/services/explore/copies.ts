/**
 * Each item that has copies (by media_id) with the media_id of the copy its group keeps (see
 * DuplicateService.copyGroups): plain data, so it goes into a thread job as it is. Items without copies are
 * not in it.
 */
export type CopyGroups = Readonly<Record<string, string>>;

/**
 * The item an item counts as: the kept copy of its group, or itself.
 * @example
 * copyKey({ 'beach-small': 'beach-hd' }, 'beach-small'); // 'beach-hd'
 */
export function copyKey(copies: CopyGroups, mediaId: string): string {
  return copies[mediaId] ?? mediaId;
}

/**
 * The rows of one item per group of copies (the kept copy when it is among them, else the first one met),
 * so the same words in three copies count once.
 * @example
 * onePerCopy([{ media_id: 'beach-small' }, { media_id: 'beach-hd' }], { 'beach-small': 'beach-hd' }); // [{ media_id: 'beach-hd' }]
 */
export function onePerCopy<T extends { media_id: string }>(rows: T[], copies: CopyGroups): T[] {
  const chosen = new Map<string, string>();
  for (const r of rows) {
    const key = copyKey(copies, r.media_id);
    if (r.media_id === key || !chosen.has(key)) chosen.set(key, r.media_id);
  }
  return rows.filter((r) => chosen.get(copyKey(copies, r.media_id)) === r.media_id);
}
