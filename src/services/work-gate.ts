/**
 * One bound for all heavy work (analyses of index, analyze, re-index and every folder scan's files), shared
 * fairly between owners: slots are handed out in turn, owner by owner, so one owner's 2,000-file scan takes
 * every other slot at most while another owner's upload waits. A unit holds its slot to its end, and an
 * analysis can take minutes, so a gate may also have a spare slot, lent only to an owner with nothing
 * running while other owners fill every slot: another owner's 10-second clip starts at once instead of
 * waiting for someone's hour-long film. p-queue and p-limit bound work but know no owners, hence this small
 * gate.
 */

/** What `GET /health` shows of the gate (`work`). */
export interface WorkCounts {
  /** Slots in all (VIDX_TASK_CONCURRENCY; with the job queue, what its live workers take at once). */
  limit: number;
  /** Units of work holding a slot now. */
  running: number;
  /** Units waiting for a slot. */
  queued: number;
  /** The most that ever held a slot at once since the server started; never above the largest `limit` it had plus `spare`. */
  peak: number;
  /** Slots beyond `limit`, lent only to an owner with nothing running while others fill every slot. */
  spare: number;
}

interface Waiter {
  grant: (release: () => void) => void;
  fail: (reason: unknown) => void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

/**
 * A counting semaphore with one queue per owner: a free slot goes to the waiting owner served longest ago
 * (round-robin, counting the units that got a slot without waiting); a free spare slot to such an owner
 * among those with nothing running.
 * @example
 * const gate = new WorkGate(1, 1);
 * const release = await gate.acquire('owner-a', signal);
 * try { await analyse(); } finally { release(); }
 */
export class WorkGate {
  private running = 0;
  private peak = 0;
  /** Owners with waiting units, each with its waiters in arrival order. */
  private readonly waiting = new Map<string, Waiter[]>();
  /** When each owner last got a slot (a counter, not a time); owners never served count as 0. */
  private readonly lastServed = new Map<string, number>();
  /** Units holding a slot, by owner. */
  private readonly runningBy = new Map<string, number>();
  private grants = 0;

  constructor(
    private slots: number,
    private readonly spare = 0,
  ) {
    if (!Number.isInteger(slots) || slots < 1) throw new Error(`a work gate needs at least one slot, got ${slots}`);
    if (!Number.isInteger(spare) || spare < 0) throw new Error(`a work gate cannot have ${spare} spare slots`);
  }

  /** Slots in all. */
  get limit(): number {
    return this.slots;
  }

  /**
   * Sets the number of slots: with the job queue, what the live workers take at once (0 while none is
   * there or Redis is away, so units wait). Fewer slots take none away from running units; more hand
   * free ones out at once.
   * @example
   * gate.resize(workers.capacity()); // 3
   */
  resize(slots: number): void {
    if (!Number.isInteger(slots) || slots < 0) throw new Error(`a work gate cannot have ${slots} slots`);
    this.slots = slots;
    this.next();
  }

  /**
   * Waits for a slot for one unit of `owner`'s work; resolves with its release (call it once, when the unit
   * ends). Rejects with the signal's reason if it fires while waiting.
   */
  acquire(owner: string, signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.waiting.size === 0 && this.mayStart(owner)) return Promise.resolve(this.take(owner));
    return new Promise((grant, fail) => {
      const waiter: Waiter = { grant, fail, signal };
      if (signal) {
        waiter.onAbort = () => {
          this.forget(owner, waiter);
          fail(signal.reason);
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      const queue = this.waiting.get(owner);
      if (queue) queue.push(waiter);
      else this.waiting.set(owner, [waiter]);
      // Others may be waiting only for regular slots while this owner may take the spare.
      this.next();
    });
  }

  /**
   * Runs `work` holding a slot for `owner`.
   * @example
   * const analysis = await gate.run(owner, () => analyzer.run(video), signal);
   */
  async run<T>(owner: string, work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const release = await this.acquire(owner, signal);
    try {
      return await work();
    } finally {
      release();
    }
  }

  counts(): WorkCounts {
    let queued = 0;
    for (const q of this.waiting.values()) queued += q.length;
    return { limit: this.slots, running: this.running, queued, peak: this.peak, spare: this.spare };
  }

  /** Whether a unit of `owner` may start now: a regular slot is free, or a spare one and the owner runs nothing. */
  private mayStart(owner: string): boolean {
    if (this.running < this.slots) return true;
    return this.running < this.slots + this.spare && !this.runningBy.get(owner);
  }

  private take(owner: string): () => void {
    this.lastServed.set(owner, ++this.grants);
    this.running++;
    this.runningBy.set(owner, (this.runningBy.get(owner) ?? 0) + 1);
    this.peak = Math.max(this.peak, this.running);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running--;
      const left = (this.runningBy.get(owner) ?? 1) - 1;
      if (left > 0) this.runningBy.set(owner, left);
      else this.runningBy.delete(owner);
      this.next();
    };
  }

  /** Hands free slots out, each to the waiting owner served longest ago who may start (see mayStart). */
  private next(): void {
    while (this.waiting.size > 0) {
      let owner: string | null = null;
      let oldest = Infinity;
      for (const candidate of this.waiting.keys()) {
        const served = this.lastServed.get(candidate) ?? 0;
        if (served < oldest && this.mayStart(candidate)) [owner, oldest] = [candidate, served];
      }
      if (owner === null) return;
      const queue = this.waiting.get(owner)!;
      const waiter = queue.shift()!;
      if (queue.length === 0) this.waiting.delete(owner);
      if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener('abort', waiter.onAbort);
      waiter.grant(this.take(owner));
    }
  }

  private forget(owner: string, waiter: Waiter): void {
    const queue = this.waiting.get(owner);
    if (!queue) return;
    const i = queue.indexOf(waiter);
    if (i >= 0) queue.splice(i, 1);
    if (queue.length === 0) this.waiting.delete(owner);
  }
}
