/**
 * The analysis's warnings as data: a key of the message catalogue (src/messages) and its parameters, so the
 * same warning is said in English or German where it leaves the server (task results, the MCP tools), in the
 * reader's language. Analyses from before keep their warnings as English words: they are said as they are.
 */
import { z } from 'zod';
import { en, type Lang, type Message, type MessageArgs, msg, render } from '../messages/index.js';

/**
 * The catalogue keys a step may warn with: one per thing a step could not do. A new warning adds its key
 * here and its English and German text to src/messages (en.ts, de.ts).
 * @example
 * WARNING_KEYS.includes('analysis_no_transcript'); // true
 */
export const WARNING_KEYS = [
  'analysis_no_visual_tags',
  'analysis_no_text_vectors',
  'analysis_speech_not_transcribed',
  'analysis_no_transcript',
  'analysis_faces_not_grouped',
  'analysis_subtitle_cues_cut',
  'analysis_subtitle_lines_cut',
  'analysis_subtitle_file_unread',
  'analysis_subtitle_tracks_one_read',
  'analysis_subtitle_tracks_unread',
  // Read by the index task beside the analysis (media/capture-info.ts), shown in its warnings.
  'analysis_exif_unreadable',
] as const satisfies readonly (keyof typeof en)[];

/** A key of {@link WARNING_KEYS}. */
export type WarningKey = (typeof WARNING_KEYS)[number];

/**
 * The schema of one warning, its characters bounded by `text`: a keyed message (a parameter may itself be
 * a message of the catalogue, such as a source error's), or plain words from an analysis made before keys.
 * @example
 * z.array(warningSchema(20_000)).parse([{ key: 'analysis_no_transcript' }, 'an old warning']);
 */
export function warningSchema(text: number) {
  const Word = z.union([z.string().max(text), z.number()]);
  const Inner = z.object({ key: z.string().max(100).refine((k) => Object.hasOwn(en, k), 'not a message key'), params: z.record(z.string().max(100), Word).optional() });
  const Keyed = z.object({ key: z.enum(WARNING_KEYS), params: z.record(z.string().max(100), z.union([Word, Inner])).optional() });
  return z.union([z.string().max(text), Keyed]);
}

/** One warning of an analysis: a keyed message, or plain English words (analyses made before keys). */
export type AnalysisWarning = z.infer<ReturnType<typeof warningSchema>>;

/**
 * A warning from its key and parameters (a string parameter may be a message, such as a SourceError's `text`).
 * @example
 * warnings.push(warning('analysis_subtitle_cues_cut', { name: 'talk.srt', cues: 9000, kept: 500 }));
 */
export function warning<K extends WarningKey>(key: K, ...params: MessageArgs<K>): AnalysisWarning {
  const m = msg(key, ...params);
  // msg's parameters are typed per key; as data they are the schema's record of words and messages.
  return m.params === undefined ? { key } : { key, params: m.params as Record<string, string | number | Message> };
}

/**
 * Whether a warning is the given keyed one (plain words of old analyses never are).
 * @example
 * warnings.some((w) => isWarning(w, 'analysis_speech_not_transcribed'));
 */
export function isWarning(w: AnalysisWarning, key: WarningKey): boolean {
  return typeof w !== 'string' && w.key === key;
}

/**
 * A warning in words, in the reader's language; plain words of an older analysis stay as they are.
 * @example
 * sayWarning(warning('analysis_no_transcript'), 'de'); // 'Kein Transkript: keine Untertitel und keine Sprache gefunden'
 */
export function sayWarning(w: AnalysisWarning, lang: Lang): string {
  if (typeof w === 'string') return w;
  // The schema let only catalogue keys in; the parameters are the ones the key's text reads.
  return render(w as Message, lang);
}

// Built once: every task shown checks its stored warnings with it. Stored results were bounded when made.
const STORED = warningSchema(Number.MAX_SAFE_INTEGER);

/**
 * A stored list of warnings (a task result's, read back as JSON) in words: anything that is neither words nor
 * a keyed warning of the catalogue is passed over rather than shown as "[object Object]".
 * @example
 * sayWarnings(JSON.parse(row.result).warnings, 'en'); // ['no transcript: no subtitles and no speech found']
 */
export function sayWarnings(list: unknown, lang: Lang): string[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((w) => {
    const read = STORED.safeParse(w);
    return read.success ? [sayWarning(read.data, lang)] : [];
  });
}
