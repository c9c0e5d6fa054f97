import type { Worker } from 'node:worker_threads';
import type { Logger } from '../../../logger.js';
import type { Caller } from '../../caller.js';
import { startThread, type ThreadSource } from '../../threads/entry.js';
import type { WallClock } from '../../timestamps.js';
import type { SearchAnswer } from '../answer.js';
import type { Searcher, SearchRequest, SearchService } from '../search.js';
import { failureError, toFailure, type AskCalls, type AskName, type FromSearchThread, type SearchThreadSettings, type ToSearchThread } from './protocol.js';

/** What the request thread answers a search thread's asks with. */
export type AskHandlers = { [K in AskName]: (...args: AskCalls[K]['args']) => AskCalls[K]['answer'] | Promise<AskCalls[K]['answer']> };

/** How the search threads start and whom they ask. */
export interface SearchThreadsOptions {
  /** Threads at most; 0 answers every search on the request thread. */
  threads: number;
  /** Where the thread's module is (null: none here, e.g. a binary without the bundle); asked on first need. */
  source: () => ThreadSource | null;
  settings: SearchThreadSettings;
  /** The request thread's search: searches by picture or moment, and any search while no thread is ready. */
  local: SearchService;
  asks: AskHandlers;
  /** The base of signed file links once the server listens, sent with each search. */
  linkBase: () => string;
  time: WallClock;
  log: Logger;
}

/** Threads that die before they are ready, after which searches stay on the request thread (a broken entry). */
const FAILED_STARTS_ALLOWED = 3;

interface Waiting {
  caller: Caller;
  req: SearchRequest;
  /** Asked as JSON text (searchText). */
  text: boolean;
  resolve: (answer: SearchAnswer | string) => void;
  reject: (err: Error) => void;
}

interface SearchThread {
  worker: Worker;
  ready: boolean;
  /** Settles once the thread is ready or has ended. */
  started: Promise<void>;
  waiting: Map<number, Waiting>;
}

/**
 * Searches by words answered on a few threads, each with its own read-only connection (WAL lets them read
 * beside the writer) and its own SearchService: searches that arrive together run side by side, and none
 * waits for a write. What only the request thread has is asked of it: the query embedder, the nearest-vector
 * indexes, the gazetteer of `near` and the collection's copies. Searches by picture or moment, and every
 * search while no thread is ready yet (the first moments after start), are answered on the request thread.
 *
 * Threads start with `warm()` (the server calls it before it listens), else on the first search, and are
 * kept. Each commit that changes a collection's text or items is told to every thread (`changed`), before any
 * later search reaches it: a thread never answers from a cache older than a write that landed before the
 * search. A thread that dies is replaced on the next search, and the searches it had are answered on the
 * request thread.
 * @example
 * const threads = new SearchThreads({ threads: 2, source, settings, local: search, asks, linkBase, time, log });
 * const answer = await threads.search(caller, { query: 'penalty', collection: 'matches', limit: 10, threshold: 0 });
 */
export class SearchThreads implements Searcher {
  private readonly threads: SearchThread[] = [];
  private nextId = 1;
  private failedStarts = 0;
  private answered = 0;
  private closed = false;
  private pendingChanges = new Set<number>();

  constructor(private readonly opts: SearchThreadsOptions) {}

  async search(caller: Caller, req: SearchRequest): Promise<SearchAnswer> {
    return (await this.answer(caller, req, false)) as SearchAnswer;
  }

  async searchText(caller: Caller, req: SearchRequest): Promise<string> {
    return (await this.answer(caller, req, true)) as string;
  }

  private answer(caller: Caller, req: SearchRequest, text: boolean): Promise<SearchAnswer | string> {
    const local = () => (text ? this.opts.local.searchText(caller, req) : this.opts.local.search(caller, req));
    // A picture's bytes and a moment's vectors stay where the picture prints and the vector indexes are.
    if (req.image || req.like) return local();
    const thread = this.pick();
    if (!thread) return local();
    const id = this.nextId++;
    return new Promise<SearchAnswer | string>((resolve, reject) => {
      thread.waiting.set(id, { caller, req, text, resolve, reject });
      this.send(thread, { kind: 'search', id, caller, req, now: this.opts.time.now().getTime(), linkBase: this.opts.linkBase(), text });
    });
  }

  /**
   * Tells the threads that a collection's stored text or items changed. Called inside the writer's
   * transaction; sent once the current synchronous stretch (the commit) is over, before any later search.
   */
  changed(collectionPk: number): void {
    if (this.threads.length === 0) return;
    if (this.pendingChanges.size === 0) queueMicrotask(() => this.flushChanges());
    this.pendingChanges.add(collectionPk);
  }

  /** How many threads there may be, how many answer searches now, and how many searches they answered (GET /health). */
  counts(): { threads: number; ready: number; answered: number } {
    return { threads: this.enabled() ? this.opts.threads : 0, ready: this.threads.filter((t) => t.ready).length, answered: this.answered };
  }

  /** The request thread's own search (scripts/compare-search-threads.ts asks both and compares). */
  local(): SearchService {
    return this.opts.local;
  }

  /** The running threads (a test ends one to see its searches answered and the thread replaced). */
  threadHandles(): readonly Worker[] {
    return this.threads.map((t) => t.worker);
  }

  /** Starts the threads (they otherwise start on the first search) and waits until each is ready or gone. */
  async warm(): Promise<void> {
    this.pick();
    await Promise.all(this.threads.map((t) => t.started));
  }

  /** Ends the threads; their searches are answered on the request thread. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.threads.splice(0).map(async (t) => {
      await t.worker.terminate();
      this.answerLocally(t);
    }));
  }

  private enabled(): boolean {
    return !this.closed && this.opts.threads > 0 && this.failedStarts < FAILED_STARTS_ALLOWED;
  }

  /** The ready thread with the fewest searches, starting threads up to the pool's size; null: none is ready. */
  private pick(): SearchThread | null {
    if (!this.enabled()) return null;
    while (this.threads.length < this.opts.threads) if (!this.start()) break;
    let best: SearchThread | null = null;
    for (const t of this.threads) if (t.ready && (!best || t.waiting.size < best.waiting.size)) best = t;
    return best;
  }

  private start(): boolean {
    const source = this.opts.source();
    if (!source) {
      this.failedStarts = FAILED_STARTS_ALLOWED;
      return false;
    }
    const worker = startThread(source, { workerData: this.opts.settings, name: 'vidx search' });
    const started = new Promise<void>((done) => {
      worker.on('message', (m: FromSearchThread) => m.kind === 'ready' && done());
      worker.once('exit', () => done());
    });
    const thread: SearchThread = { worker, ready: false, started, waiting: new Map() };
    this.threads.push(thread);
    thread.worker.on('message', (m: FromSearchThread) => this.heard(thread, m));
    thread.worker.on('error', (err) => this.opts.log(`a search thread failed: ${err.message}`, { error: err.message }));
    thread.worker.on('exit', () => this.ended(thread));
    return true;
  }

  private heard(thread: SearchThread, m: FromSearchThread): void {
    if (m.kind === 'ready') thread.ready = true;
    else if (m.kind === 'ask') void this.answerAsk(thread, m.ask, m.name, m.args);
    else {
      const waiting = thread.waiting.get(m.id);
      if (!waiting) return;
      thread.waiting.delete(m.id);
      this.answered++;
      if (m.kind === 'answer') waiting.resolve(m.answer);
      else waiting.reject(failureError(m.failure));
    }
  }

  private async answerAsk(thread: SearchThread, ask: number, name: AskName, args: unknown[]): Promise<void> {
    const handler = this.opts.asks[name] as (...a: unknown[]) => unknown;
    try {
      this.send(thread, { kind: 'answered', ask, value: await handler(...args) });
    } catch (err) {
      this.send(thread, { kind: 'answered', ask, failure: toFailure(err) });
    }
  }

  /** A thread that ended: its searches are answered here, and the next search starts another. */
  private ended(thread: SearchThread): void {
    const at = this.threads.indexOf(thread);
    if (at >= 0) this.threads.splice(at, 1);
    if (!thread.ready) this.failedStarts++;
    if (!this.closed) this.opts.log(`a search thread ended${thread.waiting.size ? `; its ${thread.waiting.size} search(es) are answered on the request thread` : ''}`, { searches: thread.waiting.size });
    this.answerLocally(thread);
  }

  private answerLocally(thread: SearchThread): void {
    for (const w of thread.waiting.values()) (w.text ? this.opts.local.searchText(w.caller, w.req) : this.opts.local.search(w.caller, w.req)).then(w.resolve, w.reject);
    thread.waiting.clear();
  }

  private flushChanges(): void {
    const collectionPks = [...this.pendingChanges];
    this.pendingChanges.clear();
    for (const t of this.threads) this.send(t, { kind: 'changed', collectionPks });
  }

  private send(thread: SearchThread, m: ToSearchThread): void {
    // Changes not yet sent go first: a search must not overtake a write committed before it.
    if (m.kind === 'search' && this.pendingChanges.size) this.flushChanges();
    thread.worker.postMessage(m);
  }
}
