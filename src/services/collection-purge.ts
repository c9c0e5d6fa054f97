import type { Repos } from '../store/index.js';
import { inTransaction } from '../store/connection.js';

/**
 * Removes one batch of a deleted collection's rows that no foreign key reaches (vectors, FTS) inside a
 * transaction of its own; returns true while more remains (it is then called again).
 */
export type CollectionCleanup = (collectionPk: number) => boolean;

/** Items removed per transaction while a collection is purged. */
const ITEM_BATCH = 200;

/** A purge runs transactions for at least this long, at most MAX_SLICE_MS, before it lets requests in. */
const SLICE_MS = 10;
const MAX_SLICE_MS = 50;

/**
 * Purges collections already marked deleted (hidden): the cleanup hooks' batches, then the items, each a
 * short transaction, in slices that yield to requests between them, then the collection row and its files.
 * A purge cut short (stop, crash) leaves the collection marked; it is started again at the next start.
 * @example
 * const purger = new CollectionPurger(store);
 * purger.cleanups.push((pk) => searchIndex.removeCollection(pk));
 * purger.start(collectionPk);
 * await purger.idle();
 */
export class CollectionPurger {
  readonly cleanups: CollectionCleanup[] = [];
  onError: (err: unknown) => void = (err) => console.error('collection purge failed', err);
  private readonly running = new Set<Promise<void>>();
  private stopping = false;

  constructor(
    private readonly store: Repos<'collections' | 'db' | 'items' | 'storage'>,
  ) {}

  /** Purges in the background; errors go to `onError` (the collection stays marked for the next start). */
  start(pk: number): void {
    if (this.stopping) return;
    const p: Promise<void> = this.purge(pk)
      .catch((err) => this.onError(err))
      .finally(() => this.running.delete(p));
    this.running.add(p);
  }

  /** Resolves when no purge is running. */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  /** Stops after the current slice. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.idle();
  }

  private async purge(pk: number): Promise<void> {
    const tick = () => new Promise((r) => setImmediate(r));
    // Each step is one short transaction that returns true while more remains.
    const steps: (() => boolean)[] = [
      ...this.cleanups.map((cleanup) => () => cleanup(pk)),
      () => this.store.items.deleteSome(pk, ITEM_BATCH) > 0,
    ];
    // A slice is SLICE_MS, or a quarter of the time requests just had (up to MAX_SLICE_MS): under a flood
    // of requests the purge still gets about a fifth of the thread instead of starving.
    let slice = SLICE_MS;
    for (const step of steps) {
      for (let more = true; more; ) {
        if (this.stopping) return;
        const t0 = performance.now();
        do more = inTransaction(this.store.db, step);
        while (more && performance.now() - t0 < slice);
        const t1 = performance.now();
        await tick();
        slice = Math.min(MAX_SLICE_MS, Math.max(SLICE_MS, (performance.now() - t1) / 4));
      }
    }
    inTransaction(this.store.db, () => {
      // Anything written meanwhile (an index task finishing into the deleted collection) goes too.
      for (const cleanup of this.cleanups) while (cleanup(pk));
      this.store.collections.delete(pk);
    });
    this.store.storage.removeCollection(pk);
  }
}
