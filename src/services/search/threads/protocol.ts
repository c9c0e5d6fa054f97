import type { Caller } from '../../caller.js';
import { problemFromWire, problemToWire, type WireProblem } from '../../errors.js';
import type { SearchAnswer } from '../answer.js';
import type { AskedVectors, SearchRequest } from '../search.js';
import type { NearFilter } from '../../../store/item-filter.js';
import type { CopyOf } from '../../duplicates/service.js';

/**
 * What a search thread starts with (its workerData): plain data naming the files it reads, and which helpers
 * the request thread offers, so the thread's SearchService searches exactly as the request thread's does.
 */
export interface SearchThreadSettings {
  /** Tells the single binary's one thread bundle to run a search thread. */
  role: 'search';
  /** The database file (opened read-only). */
  dbFile: string;
  dataDir: string;
  /** Where pulled models are (what the answer's notices say is missing). */
  modelsDir: string;
  manifestPath?: string;
  /** Whether the request thread embeds queries (a thread without asks for no vectors, as the request thread would). */
  embedder: boolean;
  /** The single binary's unpacked folder, where a binary thread loads the native addons from. */
  nativeRoot?: string;
}

/** The calls a search thread makes to the request thread, with their arguments and answers. */
export interface AskCalls {
  vectors: { args: [query: string, spaceIds: number[], collectionPk: number, limit: number | null]; answer: AskedVectors };
  nearFilter: { args: [near: string, km: number | undefined]; answer: NearFilter };
  copies: { args: [collectionPk: number]; answer: ReadonlyMap<number, CopyOf> };
}

/** The name of a call a search thread makes to the request thread. */
export type AskName = keyof AskCalls;

/** A failure as it crosses threads: a Problem as data, or any other error's message. */
export type WireFailure = { problem: WireProblem } | { message: string };

/**
 * Request thread → search thread: a search to answer (with the request thread's time and link base), the
 * news that a collection's stored text or items changed (committed), or the answer to one of its asks.
 */
export type ToSearchThread =
  | { kind: 'search'; id: number; caller: Caller; req: SearchRequest; now: number; linkBase: string; text: boolean }
  | { kind: 'changed'; collectionPks: number[] }
  | { kind: 'answered'; ask: number; value: unknown }
  | { kind: 'answered'; ask: number; failure: WireFailure };

/** Search thread → request thread: ready to search, a search's answer (as JSON text when asked so) or failure, or an ask. */
export type FromSearchThread =
  | { kind: 'ready' }
  | { kind: 'answer'; id: number; answer: SearchAnswer | string }
  | { kind: 'failed'; id: number; failure: WireFailure }
  | { kind: 'ask'; ask: number; name: AskName; args: unknown[] };

/**
 * An error for the wire: a Problem as data, anything else as its message.
 * @example
 * post({ kind: 'failed', id, failure: toFailure(err) });
 */
export function toFailure(err: unknown): WireFailure {
  const problem = problemToWire(err);
  return problem ? { problem } : { message: err instanceof Error ? err.message : String(err) };
}

/**
 * The error again on this side of the wire.
 * @example
 * reject(failureError(m.failure));
 */
export function failureError(f: WireFailure): Error {
  return 'problem' in f ? problemFromWire(f.problem) : new Error(f.message);
}
