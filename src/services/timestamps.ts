/**
 * The current time as the ISO-8601 text stored in every timestamp column.
 * @example
 * row.created_at = nowIso();
 */
export function nowIso(): string {
  return new Date().toISOString();
}
