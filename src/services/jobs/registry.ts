import { modelSetDifference } from './model-set.js';
import type { ModelSet } from '../../ml/model-set.js';

/** What a worker says of itself with each heartbeat. */
export interface WorkerAnnouncement {
  id: string;
  host: string;
  version: string;
  /** Jobs it runs at once. */
  concurrency: number;
  /** Its capabilities and models; its queue is named after them. */
  models: ModelSet;
  queue: string;
  /** Ids of the jobs it runs now. */
  jobs: string[];
}

/** The worker key a remote worker uses: its id and name, never the key itself. */
export interface WorkerKeyRef {
  id: string;
  name: string;
}

/** A worker as `GET /workers` shows it. */
export interface WorkerView extends Omit<WorkerAnnouncement, 'models'> {
  models: ModelSet;
  /** True for the server's own workers (VIDX_LOCAL_WORKERS). */
  local: boolean;
  /** The worker key it uses; null for the server's own workers. */
  key: WorkerKeyRef | null;
  /** Whether it takes this server's jobs: its model set is the server's. */
  takes_jobs: boolean;
  /** Why it takes none: how its models differ from the server's. */
  reason: string | null;
  last_seen_at: string;
}

interface Known extends WorkerAnnouncement {
  key: WorkerKeyRef | null;
  seen: number;
}

/**
 * The workers this server heard from lately: remote ones by their heartbeats, the server's own by a beat of
 * their own. A worker is live until it missed a few heartbeats; the live ones on the server's queue make up
 * the capacity the server dispatches jobs for.
 * @example
 * registry.beat({ id: 'desk-1a2b', host: 'desk', version, concurrency: 2, models, queue, jobs: [] }, { id: 'key_1a2b', name: 'desk' });
 * registry.capacity(serverQueue); // 2
 */
export class WorkerRegistry {
  private readonly known = new Map<string, Known>();

  constructor(private readonly liveMs: number) {}

  /** Records a heartbeat of a remote worker with its key (the server's own workers beat with no key, as `local`). */
  beat(w: WorkerAnnouncement, key: WorkerKeyRef | null): void {
    this.known.set(w.id, { ...w, key, seen: Date.now() });
  }

  /** The live workers, longest known first; the silent ones are forgotten. */
  live(): Known[] {
    const cutoff = Date.now() - this.liveMs;
    for (const [id, w] of this.known) if (w.seen < cutoff) this.known.delete(id);
    return [...this.known.values()];
  }

  /** The jobs at once the live worker of a key announced, or null when none of its workers is live. */
  concurrencyOfKey(keyId: string): number | null {
    const mine = this.live().filter((w) => w.key?.id === keyId);
    return mine.length ? Math.max(...mine.map((w) => w.concurrency)) : null;
  }

  /** Jobs at once the live workers on `queue` take. */
  capacity(queue: string): number {
    return this.live()
      .filter((w) => w.queue === queue)
      .reduce((n, w) => n + w.concurrency, 0);
  }

  /** The live workers as `GET /workers` shows them, against the server's queue and models. */
  views(queue: string, models: ModelSet): WorkerView[] {
    return this.live().map((w) => {
      const takes = w.queue === queue;
      const differs = takes ? [] : modelSetDifference(models, w.models);
      return {
        id: w.id, host: w.host, version: w.version, local: w.key === null, key: w.key, concurrency: w.concurrency, models: w.models, queue: w.queue, jobs: w.jobs,
        takes_jobs: takes,
        reason: takes ? null : differs.length ? `its models differ from the server's (${differs.join('; ')}): it takes none of this server's jobs` : 'it listens on another queue (another vidx version)',
        last_seen_at: new Date(w.seen).toISOString(),
      };
    });
  }
}
