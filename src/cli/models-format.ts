/** Text helpers for `vidx models`: tables, a progress line, free space (sizes: src/tools/bytes.ts). */
import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import { formatBytes } from '../tools/bytes.js';

/**
 * Left-aligned columns separated by two spaces.
 * @example
 * table([['ID', 'SIZE'], ['a', '1 B']]); // 'ID  SIZE\na   1 B'
 */
export function table(rows: string[][]): string {
  const widths: number[] = [];
  for (const r of rows) {
    r.forEach((c, i) => {
      widths[i] = Math.max(widths[i] ?? 0, c.length);
    });
  }
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]))).join('  ')).join('\n');
}

/**
 * A one-line bar: `[#########-----------]  45%  62.1 MB / 139.9 MB  label`.
 * @example
 * progressLine(50, 100, 'whisper-base'); // '[##########----------]  50%  50 B / 100 B  whisper-base'
 */
export function progressLine(done: number, total: number, label: string, width = 20): string {
  const frac = total > 0 ? Math.min(1, done / total) : 0;
  const filled = Math.round(frac * width);
  const pct = `${Math.floor(frac * 100)}%`.padStart(4);
  return `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${pct}  ${formatBytes(done)} / ${formatBytes(total)}  ${label}`;
}

/**
 * Free bytes on the filesystem that holds `dir` (or its nearest existing parent); null if unknown.
 * @example
 * await freeBytes('/data/models'); // 20_123_456_789
 */
export async function freeBytes(dir: string): Promise<number | null> {
  let d = dir;
  for (;;) {
    try {
      const s = await statfs(d);
      return s.bavail * s.bsize;
    } catch {
      const parent = dirname(d);
      if (parent === d) return null;
      d = parent;
    }
  }
}
