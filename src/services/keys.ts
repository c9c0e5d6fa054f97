import { createHash, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { join } from 'node:path';
import type { StorageRepository } from '../store/storage.js';
import type { KeyRepository, KeyRole, KeyRow } from '../store/keys.js';
import type { Caller } from './caller.js';
import { nowIso, systemClock, type WallClock } from './timestamps.js';
import { notFound, Problem } from './errors.js';
import { DEFAULT_WORKER_CONCURRENCY, MAX_WORKER_CONCURRENCY, RESERVED_PREFIX, reservedWorkerId, WORKER_ID } from './jobs/worker-keys.js';
import { msg } from '../messages/index.js';

/** A key as shown to admins: never the key or its hash. */
export interface KeyInfo {
  id: string;
  name: string;
  role: KeyRole;
  created_at: string;
  last_used_at: string | null;
  /** A worker key's worker id (fixed when made, else by its first heartbeat); null for other keys and until then. */
  worker_id: string | null;
  /** The most jobs at once a worker key may announce; null for other keys. */
  max_concurrency: number | null;
}

/** What a worker key may be made with: its worker id fixed at once, and its own cap. */
export interface WorkerKeyOptions {
  workerId?: string;
  maxConcurrency?: number;
}

/** Where the admin key came from at start, for the start-up banner and the sign-in hint (GET /health on loopback). */
export type AdminKeySource = { kind: 'env' } | { kind: 'file'; path: string; created: boolean } | { kind: 'existing' };

const ENV_KEY_ID = 'key_env_admin';

function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

function toInfo(row: KeyRow): KeyInfo {
  const worker = row.role === 'worker';
  return {
    id: row.id, name: row.name, role: row.role, created_at: row.created_at, last_used_at: row.last_used_at,
    worker_id: worker ? row.worker_id : null, max_concurrency: worker ? (row.worker_concurrency ?? DEFAULT_WORKER_CONCURRENCY) : null,
  };
}

/** The worker fields of a new key, checked: only worker keys have them, the id is free and not reserved, the cap in range. */
function workerFields(repo: KeyRepository, role: KeyRole, o: WorkerKeyOptions): Pick<KeyRow, 'worker_id' | 'worker_concurrency'> {
  const { workerId, maxConcurrency } = o;
  if ((workerId !== undefined || maxConcurrency !== undefined) && role !== 'worker') throw new Problem('invalid', msg('worker_fields_need_worker_role'), [{ field: 'role', message: msg('must_be_worker') }]);
  if (workerId !== undefined) {
    const why = !WORKER_ID.test(workerId) ? msg('must_match', { pattern: WORKER_ID.source }) : reservedWorkerId(workerId) ? msg('reserved_for_own_workers', { prefix: RESERVED_PREFIX }) : repo.byWorker(workerId) ? msg('belongs_to_another_key') : null;
    if (why) throw new Problem('invalid', msg('worker_id_refused', { id: workerId, reason: why }), [{ field: 'worker_id', message: why }]);
  }
  if (maxConcurrency !== undefined && !(Number.isInteger(maxConcurrency) && maxConcurrency >= 1 && maxConcurrency <= MAX_WORKER_CONCURRENCY)) {
    throw new Problem('invalid', msg('max_concurrency_range', { max: MAX_WORKER_CONCURRENCY }), [{ field: 'max_concurrency', message: msg('from_1_to', { max: MAX_WORKER_CONCURRENCY }) }]);
  }
  return { worker_id: workerId ?? null, worker_concurrency: maxConcurrency ?? null };
}

/**
 * API keys: created with a random secret shown once, stored as SHA-256, checked in constant time.
 * @example
 * const { key } = keys.create('laptop', 'user');
 * keys.verify(key); // → { id, name, role }
 */
export class KeyService {
  constructor(
    private readonly repo: KeyRepository,
    /** Where a first start writes the admin key file. */
    private readonly storage: Pick<StorageRepository, 'exists' | 'writeSecret'>,
    private readonly time: WallClock = systemClock,
  ) {}

  /** A new key; a worker key may be fixed to its worker id at once and given its own cap of jobs at once. */
  create(name: string, role: KeyRole, worker: WorkerKeyOptions = {}): KeyInfo & { key: string } {
    const fields = workerFields(this.repo, role, worker);
    const key = `vidx_${randomBytes(24).toString('base64url')}`;
    const row = { id: `key_${randomUUID().replace(/-/g, '').slice(0, 16)}`, name, role, hash: hashKey(key), created_at: nowIso(this.time), ...fields };
    this.repo.insert(row);
    return { ...toInfo({ ...row, last_used_at: null }), key };
  }

  list(): KeyInfo[] {
    return this.repo.list().map(toInfo);
  }

  /** Revokes a key; refuses to remove the last admin key so the server never locks itself out. */
  revoke(id: string): KeyInfo {
    const row = this.repo.get(id);
    if (!row) throw notFound('key', id);
    if (row.role === 'admin' && this.repo.list().filter((k) => k.role === 'admin').length === 1) {
      throw new Problem('conflict', msg('last_admin_key'));
    }
    this.repo.delete(id);
    return toInfo(row);
  }

  /** The caller a key belongs to, or null for an unknown key. */
  verify(key: string): Caller | null {
    const hash = hashKey(key);
    const row = this.repo.findByHash(hash);
    // The lookup is by hash, so timing reveals nothing about the key; the compare guards against
    // a collation or index surprise returning a near miss.
    if (!row || !timingSafeEqual(Buffer.from(row.hash, 'hex'), Buffer.from(hash, 'hex'))) return null;
    return { id: row.id, name: row.name, role: row.role };
  }

  /** Marks a key as used now; called at most once a minute per key by the auth middleware. */
  touch(id: string): void {
    this.repo.touch(id, nowIso(this.time));
  }

  /**
   * Makes sure an admin can get in: VIDX_ADMIN_KEY becomes an admin key, or a first start
   * with no keys writes a new admin key to `<dataDir>/admin.key` (mode 0600). Either key is named "admin":
   * a key's name is what the page shows as the person signed in, and a setting's name is no person's.
   */
  bootstrap(adminKey: string | undefined, dataDir: string): AdminKeySource {
    if (adminKey) {
      this.repo.upsert({ id: ENV_KEY_ID, name: 'admin', role: 'admin', hash: hashKey(adminKey), created_at: nowIso(this.time) });
      return { kind: 'env' };
    }
    const path = join(dataDir, 'admin.key');
    if (this.repo.count() > 0) return this.storage.exists(path) ? { kind: 'file', path, created: false } : { kind: 'existing' };
    const { key } = this.create('admin', 'admin');
    this.storage.writeSecret(path, `${key}\n`);
    return { kind: 'file', path, created: true };
  }
}
