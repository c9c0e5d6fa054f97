/**
 * vidx's messages to a caller as data: a key and its parameters (`Message`), said in English or German from
 * one table per language (en.ts, de.ts). The server renders them in its error answers; the web page may
 * import the same tables. No node: imports here, so every layer and web/ can use it.
 */
import { de } from './de.js';
import { type Catalogue, en, type MessageKey, type MessageParams } from './en.js';

export { de } from './de.js';
export { type Catalogue, en, type MessageKey, type MessageParams, type Noun } from './en.js';

/**
 * The languages vidx speaks, indexes in and answers in (SPEC: index_language, search_language).
 * @example
 * LANGS.includes(value as Lang); // whether a flag names one
 */
export const LANGS = ['en', 'de'] as const;

/** One of vidx's languages: the one type for them in the server, the CLI, the MCP tools and the page. */
export type Lang = (typeof LANGS)[number];

/**
 * The tables by language.
 * @example
 * CATALOGUES.de.key_unknown(undefined); // 'Diesen API-Schlüssel kennt der Server nicht'
 */
export const CATALOGUES: Record<Lang, Catalogue> = { en, de };

/** A message as data: its key and its parameters, where a string parameter may itself be a message. */
export interface Message<K extends MessageKey = MessageKey> {
  key: K;
  params: MessageParams<K>;
}

/** A key's parameters as `msg` takes them: a string parameter may be another message, said in the same language. */
export type MessageArgs<K extends MessageKey> = MessageParams<K> extends undefined
  ? []
  : [{ [P in keyof MessageParams<K>]: MessageParams<K>[P] extends string ? MessageParams<K>[P] | Message : MessageParams<K>[P] }];

/**
 * A message from its key and parameters.
 * @example
 * msg('not_found', { what: 'task', id });
 * msg('path_problem', { reason: msg('path_missing', { path }) });
 */
export function msg<K extends MessageKey>(key: K, ...params: MessageArgs<K>): Message<K> {
  return { key, params: params[0] as MessageParams<K> };
}

/**
 * Whether a value is a message (a key of the tables with its parameters).
 * @example
 * if (isMessage(issue.params?.message)) render(issue.params.message, 'de');
 */
export function isMessage(value: unknown): value is Message {
  return typeof value === 'object' && value !== null && typeof (value as { key?: unknown }).key === 'string' && (value as { key: string }).key in en;
}

/**
 * A message's text in a language; parameters that are messages are said in that language first.
 * @example
 * render(msg('not_found', { what: 'collection', id: 'trips' }), 'de'); // 'Sammlung „trips“ nicht gefunden'
 */
export function render(message: Message, lang: Lang): string {
  const params = message.params as Record<string, unknown> | undefined;
  const said = params && Object.fromEntries(Object.entries(params).map(([k, v]) => [k, isMessage(v) ? render(v, lang) : v]));
  return (CATALOGUES[lang][message.key] as (p: unknown) => string)(said);
}

/**
 * A message's English text: what logs and `Error.message` carry.
 * @example
 * english(msg('key_unknown')); // 'unknown API key'
 */
export function english(message: Message): string {
  return render(message, 'en');
}
