import type { MessagePort } from 'node:worker_threads';
import type { SearchAnswer } from '../answer.js';
import type { SearchService } from '../search.js';
import { failureError, toFailure, type AskCalls, type AskName, type FromSearchThread, type ToSearchThread } from './protocol.js';

/**
 * The search thread's side of its asks to the request thread: each call posts an `ask` and waits for its
 * `answered` (a Problem comes back as a Problem).
 * @example
 * const asks = new RequestThreadAsks(port);
 * const near = await asks.call('nearFilter', 'Lisbon', undefined);
 */
export class RequestThreadAsks {
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor(private readonly port: MessagePort) {}

  call<K extends AskName>(name: K, ...args: AskCalls[K]['args']): Promise<AskCalls[K]['answer']> {
    const ask = this.next++;
    return new Promise((resolve, reject) => {
      this.waiting.set(ask, { resolve: resolve as (v: unknown) => void, reject });
      this.port.postMessage({ kind: 'ask', ask, name, args } satisfies FromSearchThread);
    });
  }

  /** An `answered` message from the request thread. */
  answered(m: Extract<ToSearchThread, { kind: 'answered' }>): void {
    const w = this.waiting.get(m.ask);
    if (!w) return;
    this.waiting.delete(m.ask);
    if ('failure' in m) w.reject(failureError(m.failure));
    else w.resolve(m.value);
  }
}

/** What a search thread does with what it hears besides asks' answers. */
export interface SearchThreadParts {
  search: SearchService;
  asks: RequestThreadAsks;
  /** A committed change to these collections: forget what is cached of them. */
  changed: (collectionPks: number[]) => void;
  /** The request thread's time and link base, as sent with each search. */
  heardRequest: (now: number, linkBase: string) => void;
}

/**
 * Answers the request thread's messages on a search thread's port, then says it is ready.
 * @example
 * serveSearches(parentPort, { search, asks, changed, heardRequest });
 */
export function serveSearches(port: MessagePort, parts: SearchThreadParts): void {
  const post = (m: FromSearchThread) => port.postMessage(m);
  port.on('message', (m: ToSearchThread) => {
    if (m.kind === 'answered') return parts.asks.answered(m);
    if (m.kind === 'changed') return parts.changed(m.collectionPks);
    parts.heardRequest(m.now, m.linkBase);
    // As text, the request thread neither reads the answer back into objects nor writes its JSON.
    (m.text ? parts.search.searchText(m.caller, m.req) : parts.search.search(m.caller, m.req)).then(
      (answer: SearchAnswer | string) => post({ kind: 'answer', id: m.id, answer }),
      (err: unknown) => post({ kind: 'failed', id: m.id, failure: toFailure(err) }),
    );
  });
  post({ kind: 'ready' });
}
