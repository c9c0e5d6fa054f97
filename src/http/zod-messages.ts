/**
 * vidx's own messages inside zod schemas (a pattern's "must match …", "exactly one of path, url or
 * content …"), kept as message keys so the error handler can say them in German from src/messages.
 * A rule such as `.regex(re, text)` keeps only a string (and must stay a regex, so the API document shows
 * the pattern): such texts are looked up by their exact English text, which `zodText` records when the
 * schema is built. A custom issue carries its message in `params` instead.
 */
import { english, isMessage, type Message, type MessageArgs, type MessageKey, msg } from '../messages/index.js';

/** The English texts of vidx's schema rules, and their messages. Filled once, as the schemas are built. */
const BY_TEXT = new Map<string, Message>();

/**
 * A message's English text for a zod rule, remembered so the text can be said in German later.
 * @example
 * z.string().regex(ID_PATTERN, zodText('must_match', { pattern: ID_PATTERN.source }));
 */
export function zodText<K extends MessageKey>(key: K, ...params: MessageArgs<K>): string {
  const message = msg(key, ...params);
  const text = english(message);
  BY_TEXT.set(text, message);
  return text;
}

/**
 * A custom zod issue carrying a message: English as its text, the key and parameters in `params`.
 * @example
 * ctx.addIssue(customIssue(msg('one_video_source'), []));
 */
export function customIssue(message: Message, path?: PropertyKey[]): { code: 'custom'; message: string; params: { message: Message }; path?: PropertyKey[] } {
  return { code: 'custom', message: english(message), params: { message }, ...(path ? { path } : {}) };
}

/**
 * The message behind a zod issue that vidx wrote, or undefined for zod's own wording.
 * @example
 * issueMessage(issue); // { key: 'must_match', params: { pattern: '^[A-Za-z0-9_-]+$' } }
 */
export function issueMessage(issue: { code: string; message: string; params?: Record<string, unknown> }): Message | undefined {
  const carried = issue.code === 'custom' ? issue.params?.message : undefined;
  return isMessage(carried) ? carried : BY_TEXT.get(issue.message);
}
