/**
 * `m:ss` (or `h:mm:ss`) for a time in seconds, as people read times in a video; '' for no time (null, NaN).
 * The one clock of the server, the CLI, the MCP tools and the web page.
 * @example
 * clock(75.4); // '1:15'
 * clock(3725); // '1:02:05'
 */
export function clock(seconds: number | null | undefined): string {
  if (seconds == null || !Number.isFinite(seconds)) return '';
  const total = Math.max(0, Math.floor(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const sec = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}
