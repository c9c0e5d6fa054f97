import { readdir } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import { normalizeLanguage, sameLanguage } from './languages.js';
import type { SubtitleFormat } from './subtitles.js';

/** A subtitle file found next to a video. */
export interface SidecarSubtitle {
  path: string;
  format: SubtitleFormat;
  /** The language part of the name as written (`de`, `en-US`, `eng`), absent for `name.srt`. */
  language?: string;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * All subtitle files beside `videoPath` that belong to it: `name.srt`, `name.vtt`,
 * `name.<lang>.srt|vtt` (lang like `de`, `en-US`, `pt_BR`, `eng`), also with the video's extension
 * kept (`name.mp4.srt`). Matching is case-insensitive on the extension only. Sorted by name, .srt
 * before .vtt.
 * @example
 * await listSidecarSubtitles('/media/talk.mp4');
 * // [{ path: '/media/talk.de.srt', format: 'srt', language: 'de' }, { path: '/media/talk.srt', format: 'srt' }]
 */
export async function listSidecarSubtitles(videoPath: string): Promise<SidecarSubtitle[]> {
  const dir = dirname(videoPath);
  const full = basename(videoPath);
  const stem = full.slice(0, full.length - extname(full).length) || full;
  const pattern = new RegExp(`^(?:${escapeRe(full)}|${escapeRe(stem)})(?:\\.([A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*))?\\.(srt|vtt)$`, 'i');
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const found: SidecarSubtitle[] = [];
  for (const name of names.sort()) {
    const m = pattern.exec(name);
    if (!m || name === full) continue;
    found.push({ path: join(dir, name), format: m[2].toLowerCase() as SubtitleFormat, ...(m[1] ? { language: m[1] } : {}) });
  }
  return found.sort((a, b) => (a.format === b.format ? 0 : a.format === 'srt' ? -1 : 1));
}

/**
 * The best of a video's subtitle files: one in `language` (any of its forms: `de`, `de-DE`, `deu`, `ger`),
 * else one without a language in its name, else the first other one; undefined when the list is empty.
 * @example
 * chooseSidecar(await listSidecarSubtitles('/media/talk.mp4'), 'de'); // { path: '/media/talk.de.srt', format: 'srt', language: 'de' }
 */
export function chooseSidecar(all: readonly SidecarSubtitle[], language?: string): SidecarSubtitle | undefined {
  const want = normalizeLanguage(language);
  return (want ? all.find((s) => sameLanguage(s.language, want)) : undefined) ?? all.find((s) => !s.language) ?? all[0];
}

/**
 * The best subtitle file beside a video ({@link chooseSidecar}); null when none exists.
 * @example
 * await findSidecarSubtitles('/media/talk.mp4', { language: 'de' }); // { path: '/media/talk.de.srt', format: 'srt', language: 'de' }
 */
export async function findSidecarSubtitles(videoPath: string, opts: { language?: string } = {}): Promise<SidecarSubtitle | null> {
  return chooseSidecar(await listSidecarSubtitles(videoPath), opts.language) ?? null;
}
