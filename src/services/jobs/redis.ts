/**
 * The Redis side of the job queue: the connection settings BullMQ gets for a `redis://` or `rediss://`
 * URL, the URL with its password hidden for logs and pages, and a watch that knows, without asking
 * Redis on a request, whether Redis is reachable now.
 */
import { Redis } from 'ioredis';
import type { ConnectionOptions } from 'bullmq';

/** Reconnect quickly at first, then every 2 s, for as long as it takes. */
const retryStrategy = (times: number): number => Math.min(times * 250, 2_000);

/**
 * BullMQ's connection for a queue URL: commands wait while Redis is away and go out when it is back.
 * @example
 * new Queue(name, { connection: redisConnection('redis://127.0.0.1:6379') });
 */
export function redisConnection(url: string): ConnectionOptions {
  return { url, maxRetriesPerRequest: null, retryStrategy };
}

/**
 * The URL without its password, for logs, `/health` and `GET /workers`.
 * @example
 * redactRedisUrl('redis://:s3cret@nas:6379/2'); // 'redis://:***@nas:6379/2'
 */
export function redactRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString().replace(/\/$/, '');
  } catch {
    return 'redis://…';
  }
}

/**
 * Watches one connection to Redis: `up` says whether it is ready now; `onChange` hears each change.
 * @example
 * const watch = new RedisWatch(url, (up) => log(up ? 'queue reachable' : 'queue unreachable'));
 * watch.up; // false until the first connect
 * await watch.close();
 */
export class RedisWatch {
  private ready = false;
  private since = Date.now();
  private lastError: string | null = null;
  private readonly client: Redis;

  constructor(url: string, private readonly onChange: (up: boolean) => void = () => {}) {
    this.client = new Redis(url, { maxRetriesPerRequest: null, retryStrategy, lazyConnect: false });
    this.client.on('ready', () => this.set(true));
    this.client.on('close', () => this.set(false));
    this.client.on('end', () => this.set(false));
    // Errors come with every failed reconnect; the reason is kept for /health, the change is what is told.
    this.client.on('error', (err: Error) => {
      this.lastError = err.message;
    });
  }

  get up(): boolean {
    return this.ready;
  }

  /** Since when Redis has been up (or down), and the last error while down. */
  state(): { up: boolean; since: string; error: string | null } {
    return { up: this.ready, since: new Date(this.since).toISOString(), error: this.ready ? null : this.lastError };
  }

  async close(): Promise<void> {
    this.client.disconnect();
  }

  private set(up: boolean): void {
    if (up === this.ready) return;
    this.ready = up;
    this.since = Date.now();
    if (up) this.lastError = null;
    this.onChange(up);
  }
}
