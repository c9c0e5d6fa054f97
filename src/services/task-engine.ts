import pTimeout from 'p-timeout';
import { randomUUID } from 'node:crypto';
import PQueue from 'p-queue';
import type { TaskRepository, TaskRow } from '../store/tasks.js';
import { nowIso, systemClock, type WallClock } from './timestamps.js';
import { describeFailure, TaskEnded, type TaskFailure } from './task-failure.js';
import { isTaskKind, TASK_KINDS, type TaskKind } from './task-kinds.js';
import type { StageItem } from './task-steps.js';
import type { WorkGate } from './work-gate.js';

/** The three events of SPEC part 6. */
export type TaskEvent = 'task.started' | 'task.completed' | 'task.failed';

/** What a handler gets: its input, a signal that fires on cancel or shutdown, and a progress reporter. */
export interface TaskContext<D = unknown> {
  id: string;
  owner: string;
  data: D;
  /** The collection the task is bound to (its internal key), or null; a handler writes only there. */
  collectionPk: number | null;
  signal: AbortSignal;
  /**
   * Progress in 0..1, an optional stage name and, for a task that goes through many items, the item it is
   * on; cheap to call often (writes are throttled).
   */
  progress(fraction: number, stage?: string, item?: StageItem): void;
  /**
   * Runs one unit of heavy work (an analysis) under the server's one bound, in its owner's turn. A task of a
   * kind that holds a slot for its whole run ({@link WHOLE_TASK_KINDS}) already has it: the unit just runs.
   */
  work<T>(unit: () => Promise<T>): Promise<T>;
}

/** Does the work of one kind of task; its return value (JSON) becomes the task's result. */
export type TaskHandler<D = unknown> = (ctx: TaskContext<D>) => Promise<unknown>;

/** Why a running task was told to stop: deleted, the server stopping, or ended for a reason it fails with. */
type StopReason = 'cancel' | 'shutdown' | { fail: TaskFailure };

/** The reason a task of a deleted collection fails with, and why its retry is refused. */
export const COLLECTION_DELETED = 'collection deleted';

/**
 * What a handler throws when the collection it was made for is gone.
 * @example
 * if (!collection) throw collectionDeleted();
 */
export function collectionDeleted(): TaskEnded {
  return new TaskEnded('collection_deleted', COLLECTION_DELETED);
}

/**
 * Whether a task's signal fired because the server is stopping: its task is queued again for the next
 * start, so work it handed elsewhere (a queued analysis job) is left running, not cancelled.
 * @example
 * if (!stoppedForShutdown(ctx.signal)) cancelTheJob();
 */
export function stoppedForShutdown(signal: AbortSignal): boolean {
  return signal.aborted && signal.reason === ('shutdown' satisfies StopReason);
}

interface Running {
  controller: AbortController;
  settled: Promise<void>;
}

/**
 * Kinds whose whole run is one unit of heavy work: they wait in the queue for a slot of the work gate and
 * hold it while they run. Folder scans and re-index take a slot per file or item instead (`ctx.work`), so
 * other owners' work gets its turn between them; the rest (model pulls, explore jobs) are light.
 */
export const WHOLE_TASK_KINDS: ReadonlySet<TaskKind> = new Set(['index', 'analyze']);

/** Tasks that are not whole units of heavy work (scans, re-index, pulls, explore jobs) running at once. */
const COORDINATORS = 4;

/** A task that ran this many times without finishing (the server died each time) is failed, not requeued. */
const MAX_INTERRUPTED_RUNS = 3;
const PROGRESS_WRITE_MS = 250;

/**
 * Runs persisted tasks through p-queue: one handler per kind (each kind must have exactly one when the
 * engine starts), state in SQLite so a restart resumes queued work and never leaves a task stuck in `running`.
 * @example
 * engine.register('analyze', async (ctx) => analyze(ctx.data, ctx.signal, ctx.progress));
 * engine.start();
 * engine.create(owner, 'analyze', { video });
 */
export class TaskEngine {
  private readonly handlers = new Map<TaskKind, TaskHandler>();
  private readonly running = new Map<string, Running>();
  private readonly queue: PQueue;
  private started = false;
  private stopped = false;
  /** Every task scheduled and not yet over, whether waiting at the gate, queued or running. */
  private readonly scheduled = new Set<Promise<void>>();

  constructor(
    private readonly repo: TaskRepository,
    /** The one bound of heavy work, shared fairly between owners. */
    private readonly gate: WorkGate,
    private readonly emit: (event: TaskEvent, row: TaskRow) => void,
    private readonly log: (msg: string, fields?: Record<string, unknown>) => void = () => {},
    /** Rewrites a failure's message before callers see it (the server removes its own folder paths). */
    private readonly redact: (message: string) => string = (m) => m,
    /** What stamps a task's times (queued, started, finished): the app's clock. */
    private readonly time: WallClock = systemClock,
  ) {
    this.queue = new PQueue({ concurrency: COORDINATORS });
  }

  /** Registers the handler of a kind; a second handler for the same kind is a programming error. */
  register<D>(kind: TaskKind, handler: TaskHandler<D>): void {
    if (this.started) throw new Error(`task handler for ${kind} registered after start`);
    if (this.handlers.has(kind)) throw new Error(`task handler for ${kind} registered twice`);
    this.handlers.set(kind, handler as TaskHandler);
  }

  hasHandler(kind: TaskKind): boolean {
    return this.handlers.has(kind);
  }

  /**
   * Checks that every kind has its handler, recovers tasks a crash left `running`, then queues everything
   * waiting, oldest first.
   */
  start(): void {
    const missing = TASK_KINDS.filter((k) => !this.handlers.has(k));
    if (missing.length) throw new Error(`no task handler registered for ${missing.join(', ')}`);
    this.started = true;
    const at = nowIso(this.time);
    for (const row of this.repo.listRunning()) {
      if (row.attempts >= MAX_INTERRUPTED_RUNS) {
        const message = `interrupted ${row.attempts} times: the server stopped while this task ran; it can be retried`;
        this.repo.fail(row.id, { message, code: 'interrupted', retryable: true }, at);
        this.emit('task.failed', this.repo.get(row.id)!);
      } else {
        this.repo.requeue(row.id, 'requeued after restart', at);
      }
    }
    for (const row of this.repo.listQueued()) this.schedule(row.id);
  }

  /** Queues a task; `collectionPk` binds it to the collection it works on (see {@link endCollectionTasks}). */
  create(owner: string, kind: TaskKind, data: unknown, collectionPk: number | null = null): TaskRow {
    const at = nowIso(this.time);
    const row: TaskRow = {
      id: randomUUID(),
      owner,
      kind,
      status: 'queued',
      data: JSON.stringify(data),
      progress: 0,
      stage: 'queued',
      result: null,
      error: null,
      attempts: 0,
      created_at: at,
      updated_at: at,
      started_at: null,
      finished_at: null,
      collection_pk: collectionPk,
    };
    this.repo.insert(row);
    if (this.started) this.schedule(row.id);
    return row;
  }

  /** Puts a failed task back in the queue. The caller checked the status. */
  requeue(id: string): void {
    this.repo.requeue(id, 'queued for retry', nowIso(this.time));
    if (this.started) this.schedule(id);
  }

  /**
   * Stops a running task and waits for its handler to return, at most `waitMs`.
   * Returns false when the handler did not stop in time (the task is left to finish or fail by itself).
   */
  async cancel(id: string, waitMs = 15_000): Promise<boolean> {
    const run = this.running.get(id);
    if (!run) return true;
    run.controller.abort('cancel' satisfies StopReason);
    return settledWithin(run.settled, waitMs);
  }

  /**
   * Ends every queued and running task of a collection that is being deleted: each fails with `reason`
   * (a running handler is stopped first), so nothing it does can land in a later collection of that id.
   */
  endCollectionTasks(collectionPk: number): void {
    const failure = describeFailure(collectionDeleted());
    for (const t of this.repo.unfinishedForCollection(collectionPk)) {
      const run = this.running.get(t.id);
      if (run) run.controller.abort({ fail: failure } satisfies StopReason);
      else this.failNow(t.id, failure);
    }
  }

  isRunning(id: string): boolean {
    return this.running.has(id);
  }

  /** Stops taking work, asks running handlers to stop and puts their tasks back in the queue for the next start. */
  async stop(waitMs = 10_000): Promise<void> {
    this.stopped = true;
    this.queue.pause();
    this.queue.clear();
    const runs = [...this.running.values()];
    for (const run of runs) run.controller.abort('shutdown' satisfies StopReason);
    await Promise.all(runs.map((r) => settledWithin(r.settled, waitMs)));
  }

  /** Resolves when nothing is queued or running (tests and graceful shutdown). */
  async idle(): Promise<void> {
    while (this.scheduled.size > 0) await Promise.allSettled([...this.scheduled]);
  }

  private schedule(id: string): void {
    const row = this.repo.get(id);
    if (!row) return;
    const over: Promise<void> =
      isTaskKind(row.kind) && WHOLE_TASK_KINDS.has(row.kind)
        ? // Queued until its owner's turn at the gate; the slot is held for the whole run.
          this.gate.acquire(row.owner).then((release) => this.run(id, true).finally(release))
        : this.queue.add(() => this.run(id, false));
    this.scheduled.add(over);
    void over.finally(() => this.scheduled.delete(over));
  }

  private async run(id: string, holdsSlot: boolean): Promise<void> {
    if (this.stopped || !this.repo.markRunning(id, nowIso(this.time))) return; // stopping, deleted or already taken
    const row = this.repo.get(id)!;
    const controller = new AbortController();
    let resolveSettled!: () => void;
    const settled = new Promise<void>((r) => (resolveSettled = r));
    this.running.set(id, { controller, settled });
    this.emit('task.started', row);
    this.log('task started', { task_id: id, kind: row.kind });
    try {
      const handler = isTaskKind(row.kind) ? this.handlers.get(row.kind) : undefined;
      if (!handler) throw new Error(`no handler for tasks of kind ${row.kind} in this vidx build`);
      const result = await handler({
        id,
        owner: row.owner,
        data: JSON.parse(row.data) as unknown,
        collectionPk: row.collection_pk,
        signal: controller.signal,
        progress: this.progressWriter(id),
        work: holdsSlot ? (unit) => unit() : (unit) => this.gate.run(row.owner, unit, controller.signal),
      });
      if (controller.signal.aborted) throw new Error('stopped');
      this.repo.complete(id, JSON.stringify(result ?? null), nowIso(this.time));
      this.emitIfPresent('task.completed', id);
      this.log('task completed', { task_id: id });
    } catch (err) {
      const reason = controller.signal.aborted ? (controller.signal.reason as StopReason) : null;
      if (reason === 'shutdown') {
        this.repo.requeue(id, 'interrupted by shutdown', nowIso(this.time));
      } else if (reason !== 'cancel') {
        const failure = reason ? reason.fail : describeFailure(err);
        this.failNow(id, { ...failure, message: this.redact(failure.message) });
      }
    } finally {
      this.running.delete(id);
      resolveSettled();
    }
  }

  private failNow(id: string, failure: TaskFailure): void {
    this.repo.fail(id, failure, nowIso(this.time));
    this.emitIfPresent('task.failed', id);
    this.log('task failed', { task_id: id, error: failure.message, code: failure.code });
  }

  private emitIfPresent(event: TaskEvent, id: string): void {
    const row = this.repo.get(id);
    if (row) this.emit(event, row);
  }

  private progressWriter(id: string): (fraction: number, stage?: string, item?: StageItem) => void {
    let lastWrite = 0;
    let lastStage: string | undefined;
    return (fraction, stage, item) => {
      const now = Date.now();
      const key = item ? `${item.n}|${stage}` : stage;
      if (key === lastStage && now - lastWrite < PROGRESS_WRITE_MS) return;
      lastWrite = now;
      lastStage = key ?? lastStage;
      this.repo.setProgress(id, Math.min(1, Math.max(0, fraction)), stage ?? null, item ? JSON.stringify(item) : null, nowIso(this.time));
    };
  }
}

/** Whether `p` settled within `ms`. */
function settledWithin(p: Promise<void>, ms: number): Promise<boolean> {
  return pTimeout(p.then(() => true), { milliseconds: ms, fallback: () => false });
}
