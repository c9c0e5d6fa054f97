/**
 * One worker key is one worker: a key is fixed to one worker id (when it is made, else by its first
 * heartbeat), that id is no other key's (compared without case: `WA` is `wa`) and never starts with
 * `local` (the server's own workers are `local`), and the jobs at once it may announce are capped per key.
 */
import { type Message, msg } from '../../messages/index.js';
import type { KeyRepository, KeyRow } from '../../store/keys.js';
import type { JobHolder } from '../../store/jobs.js';
import { Problem } from '../errors.js';
import { LOCAL_WORKER } from './local-worker.js';

/** The most jobs at once a worker key may announce unless its key says otherwise (`vidx keys create --worker --max-concurrency N`). */
export const DEFAULT_WORKER_CONCURRENCY = 8;

/** The highest cap a key may be given: what a heartbeat may announce at all. */
export const MAX_WORKER_CONCURRENCY = 64;

/** A worker's name: letters, digits, `.`, `_` and `-`, at most 64. */
export const WORKER_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/**
 * The start no remote worker's id may have: the server's own workers are `local` in task views, `/workers`
 * and job records, and `local-1`, `LOCAL` or `localhost` would read as one of them there.
 */
export const RESERVED_PREFIX = LOCAL_WORKER;

/**
 * Why `id` cannot be a remote worker's id, or null when it can.
 * @example
 * reservedWorkerId('Local-2'); // msg('worker_id_reserved', { id: 'Local-2', prefix: 'local' })
 */
export function reservedWorkerId(id: string): Message | null {
  return id.toLowerCase().startsWith(RESERVED_PREFIX) ? msg('worker_id_reserved', { id, prefix: RESERVED_PREFIX }) : null;
}

/**
 * Whether two worker ids name the same worker: ids are compared without case (ASCII letters only, as
 * WORKER_ID allows), so `WA` cannot stand beside `wa` in `/workers`.
 * @example
 * sameWorker('Desk-1', 'desk-1'); // true
 */
export function sameWorker(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/**
 * The worker keys of a server, as the job endpoints check them.
 * @example
 * const keys = new WorkerKeys(store.keys);
 * keys.claim('key_1a2b', 'desk-1a2b'); // fixes the key to desk-1a2b the first time, { cap: 8, … }
 * keys.holder('key_1a2b', 'other');    // throws 403 worker_id_mismatch
 */
export class WorkerKeys {
  constructor(private readonly keys: KeyRepository) {}

  /**
   * A heartbeat's check: the key's worker is `workerId` (fixed now if the key was not yet) and may announce
   * `concurrency`. The key comes back with the id as it was fixed (its case), which is the worker's id from then on.
   */
  claim(keyId: string, workerId: string, concurrency: number): { key: KeyRow & { worker_id: string }; cap: number } {
    const reserved = reservedWorkerId(workerId);
    if (reserved) throw new Problem('forbidden', reserved, [{ field: 'id', message: msg('reserved') }], 'worker_id_reserved');
    let key = this.key(keyId);
    if (key.worker_id === null) {
      if (!this.keys.bindWorker(keyId, workerId) && this.keys.byWorker(workerId, keyId)) {
        throw new Problem('conflict', msg('worker_id_taken', { id: workerId }), [{ field: 'id', message: msg('taken') }], 'worker_id_taken');
      }
      key = this.key(keyId);
    }
    this.same(key, workerId, 'id');
    const cap = key.worker_concurrency ?? DEFAULT_WORKER_CONCURRENCY;
    if (concurrency > cap) {
      throw new Problem('invalid', msg('concurrency_over_cap', { concurrency, cap }), [{ field: 'concurrency', message: msg('at_most_for_key', { cap }) }], 'concurrency_over_cap');
    }
    return { key: key as KeyRow & { worker_id: string }, cap };
  }

  /**
   * A job call's check (start, progress, delivery): the worker named is the one the key is fixed to (without
   * `workerId`: whoever that is, for checks made before a request's body is read). The holder carries the id
   * as it was fixed.
   */
  holder(keyId: string, workerId?: string): JobHolder {
    const key = this.key(keyId);
    if (key.worker_id === null) throw new Problem('conflict', msg('worker_not_announced'), [], 'worker_not_announced');
    const reserved = reservedWorkerId(key.worker_id);
    if (reserved) throw new Problem('forbidden', reserved, [{ field: 'worker', message: msg('reserved') }], 'worker_id_reserved');
    if (workerId !== undefined) this.same(key, workerId, 'worker');
    return { key: keyId, worker: key.worker_id };
  }

  /** The name of a key (`/workers` shows which key each worker uses), or null when it is gone. */
  name(keyId: string): string | null {
    return this.keys.get(keyId)?.name ?? null;
  }

  private key(keyId: string): KeyRow {
    const key = this.keys.get(keyId);
    if (!key) throw new Problem('unauthorized', msg('key_unknown_or_revoked'));
    return key;
  }

  private same(key: KeyRow, workerId: string, field: string): void {
    if (key.worker_id === null || !sameWorker(key.worker_id, workerId)) {
      throw new Problem('forbidden', msg('worker_id_mismatch', { bound: key.worker_id ?? '', given: workerId }), [{ field, message: msg('not_this_keys_worker') }], 'worker_id_mismatch');
    }
  }
}
