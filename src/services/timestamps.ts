/**
 * What tells services the time. The app hands one down (the system's), so a test can give one that stands
 * still until it moves it on: a share's week passes without a week of waiting.
 * @example
 * const time: WallClock = systemClock;
 * time.now().toISOString();
 */
export interface WallClock {
  now(): Date;
}

/** The system's time. */
export const systemClock: WallClock = { now: () => new Date() };

/**
 * The current time as the ISO-8601 text stored in every timestamp column.
 * @example
 * row.created_at = nowIso();
 * row.created_at = nowIso(this.time);
 */
export function nowIso(time: WallClock = systemClock): string {
  return time.now().toISOString();
}
