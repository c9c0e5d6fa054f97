/**
 * `m:ss` (or `h:mm:ss`) for a time in seconds, as people read times in a video.
 * @example
 * clock(75.4); // '1:15'
 */
export function clock(s: number): string {
  const total = Math.max(0, Math.floor(s));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}
