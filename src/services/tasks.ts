import type { TaskRepository, TaskRow, TaskStatus } from '../store/tasks.js';
import { ownsOrAdmin, type Caller } from './caller.js';
import { notFound, Problem } from './errors.js';
import type { TaskEngine } from './task-engine.js';
import type { TaskFailure } from './task-failure.js';
import type { TaskKind } from './task-kinds.js';
import { describeStage, type StageItem, type TaskStep } from './task-steps.js';
import { type Lang, msg } from '../messages/index.js';
import { nowIso } from './timestamps.js';

/** How long DELETE waits for a running task's handler to stop before the task goes anyway (see TaskService.delete). */
export const DELETE_WAIT_MS = 5_000;
/** What a task deleted while it ran says it ended with. */
const CANCELLED = 'cancelled: the task was deleted';

/** A task as the API shows it (SPEC 2.4); the output is always under `result`. */
export interface TaskView {
  id: string;
  task_id: string;
  /** vidx extra: what the task does (index, analyze, folder_scan, reindex, clusters, suggestions). */
  kind: TaskKind;
  /** The path of the endpoint that made the task (SPEC 2.4), as the HTTP layer names it. */
  endpoint: string;
  status: TaskStatus;
  data: unknown;
  progress: number;
  /** What it is doing now, in English ("3/12 beach.mp4: on-screen text"). */
  stage: string | null;
  /** vidx extra: the same as a code and the item it is on, for a page to say in its own language. */
  step: TaskStep | null;
  result: unknown;
  /** Why it failed: a message naming the user's file, a code, and whether a retry may help; null unless failed. */
  error: TaskFailure | null;
  attempts: number;
  /** vidx extra: the worker that took the task's latest analysis job (`local`: the server's own); null for none. */
  worker: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  finished_at: string | null;
}

/** Task data as callers see it: an upload by its file name and size, never where the server keeps it. */
function publicData(data: unknown): unknown {
  const upload = (data as { upload?: Record<string, unknown> | null } | null)?.upload;
  if (!upload) return data;
  return { ...(data as object), upload: { filename: upload.filename, size: upload.size } };
}

function stageOf(row: TaskRow): { stage: string | null; step: TaskStep | null } {
  const { text, step } = describeStage(row.stage, row.stage_item ? (JSON.parse(row.stage_item) as StageItem) : null);
  return { stage: text, step };
}

/** Names the endpoint path of a task from its kind and input; the HTTP layer supplies it (services know no paths). */
export type TaskEndpoints = (kind: TaskKind, data: unknown) => string;

/** A failed row's failure: its words, code, whether a retry may help, and its message's parameters if any. */
function failureOf(row: TaskRow & { error: string }): TaskFailure {
  const failure: TaskFailure = { message: row.error, code: row.error_code ?? 'internal', retryable: row.error_retryable !== 0 };
  return row.error_params ? { ...failure, params: JSON.parse(row.error_params) as Record<string, string> } : failure;
}

/**
 * Row → API shape.
 * @example
 * taskView(repo.get(id)!, (kind) => `/${kind}`).status; // 'queued'
 */
export function taskView(row: TaskRow, endpointOf: TaskEndpoints): TaskView {
  const data = JSON.parse(row.data) as unknown;
  const kind = row.kind as TaskKind;
  return {
    id: row.id,
    task_id: row.id,
    kind,
    endpoint: endpointOf(kind, data),
    status: row.status,
    data: publicData(data),
    progress: row.progress,
    ...stageOf(row),
    result: row.result === null ? null : (JSON.parse(row.result) as unknown),
    error: row.error === null ? null : failureOf({ ...row, error: row.error }),
    attempts: row.attempts,
    worker: row.worker ?? null,
    created_at: row.created_at,
    updated_at: row.updated_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
  };
}

/**
 * Turns rows into API objects: the endpoint path from the HTTP layer's naming, and a kind's stored result
 * rewritten for display where it needs it (for example data-dir paths into signed links, which expire and
 * so are not stored, and keyed warnings into words in the reader's language: English where no reader asked,
 * as for webhooks).
 * @example
 * const presenter = new TaskPresenter(taskEndpoint);
 * presenter.register('analyze', (r) => withLinks(r));
 * presenter.view(row).result;
 */
export class TaskPresenter {
  private readonly byKind = new Map<TaskKind, (result: unknown, row: TaskRow, lang: Lang) => unknown>();

  constructor(private readonly endpointOf: TaskEndpoints = (kind) => `/${kind}`) {}

  register(kind: TaskKind, present: (result: unknown, row: TaskRow, lang: Lang) => unknown): void {
    this.byKind.set(kind, present);
  }

  view(row: TaskRow, lang: Lang = 'en'): TaskView {
    const v = taskView(row, this.endpointOf);
    const present = this.byKind.get(v.kind);
    if (present && v.result !== null) v.result = present(v.result, row, lang);
    return v;
  }
}

/**
 * The task API: reading, counting, deleting (cancelling) and retrying, scoped to the caller.
 * @example
 * tasks.retry(caller, id).status; // 'queued'
 */
export class TaskService {
  private readonly deleteHooks: ((task: TaskView) => void)[] = [];

  constructor(
    private readonly repo: TaskRepository,
    private readonly engine: TaskEngine,
    private readonly presenter: TaskPresenter,
    /** Whether the collection a task is bound to still exists (not deleted, not being deleted). */
    private readonly collectionLive: (collectionPk: number) => boolean = () => true,
  ) {}

  /**
   * Runs after a task is deleted, for what it owned outside the table (for example its upload). The hook
   * gets the task with its data as stored, which keeps what the caller's view leaves out.
   */
  onDelete(hook: (task: TaskView) => void): void {
    this.deleteHooks.push(hook);
  }

  /** Queues a task for the caller; `collectionPk` binds it to the collection it works on. */
  create(caller: Caller, kind: TaskKind, data: unknown, collectionPk: number | null = null): TaskView {
    return this.presenter.view(this.engine.create(caller.id, kind, data, collectionPk));
  }

  /** A page of the caller's tasks; results in `lang`, the reader's language (their warnings are words in it). */
  list(caller: Caller, f: { status?: TaskStatus; kind?: TaskKind; limit: number; offset: number }, lang: Lang = 'en'): { tasks: TaskView[]; total: number } {
    const { rows, total } = this.repo.list({ owner: caller.role === 'admin' ? null : caller.id, ...f });
    return { tasks: rows.map((r) => this.presenter.view(r, lang)), total };
  }

  count(caller: Caller): Record<TaskStatus | 'total', number> {
    const by = this.repo.countByStatus(caller.role === 'admin' ? null : caller.id);
    const counts = { queued: by.queued ?? 0, running: by.running ?? 0, completed: by.completed ?? 0, failed: by.failed ?? 0 };
    return { ...counts, total: counts.queued + counts.running + counts.completed + counts.failed };
  }

  /** A stored task as the API shows it (for services that found it themselves). */
  view(row: TaskRow): TaskView {
    return this.presenter.view(row);
  }

  get(caller: Caller, id: string, lang: Lang = 'en'): TaskView {
    return this.presenter.view(this.row(caller, id), lang);
  }

  /**
   * Deletes a task; a running one is cancelled first. The delete always lands: its handler is told to stop and
   * waited for up to {@link DELETE_WAIT_MS}; a handler that has not stopped by then commits nothing (a task
   * checks for the cancel before it stores) and its thread is ended by the pool, so the row goes anyway, and a
   * restart never runs it again. The answer shows the task as it ended: `failed`, `cancelled`.
   */
  async delete(caller: Caller, id: string, lang: Lang = 'en'): Promise<TaskView> {
    const row = this.row(caller, id);
    let final = row;
    if (row.status === 'running' || this.engine.isRunning(id)) {
      await this.engine.cancel(id, DELETE_WAIT_MS);
      const now = this.repo.get(id) ?? row;
      final = now.status === 'completed' ? now : { ...now, status: 'failed', error: CANCELLED, error_code: 'cancelled', error_retryable: 0, finished_at: nowIso() };
    }
    const last = this.presenter.view(final, lang);
    this.repo.delete(id);
    for (const hook of this.deleteHooks) hook({ ...last, data: JSON.parse(final.data) as unknown });
    return last;
  }

  retry(caller: Caller, id: string): TaskView {
    const row = this.row(caller, id);
    if (row.status !== 'failed') throw new Problem('conflict', msg('task_retry_not_failed', { id, status: row.status }));
    if (row.collection_pk !== null && !this.collectionLive(row.collection_pk)) {
      throw new Problem('conflict', msg('task_retry_collection_deleted', { id }));
    }
    this.engine.requeue(id);
    return this.presenter.view(this.repo.get(id)!);
  }

  private row(caller: Caller, id: string): TaskRow {
    const row = this.repo.get(id);
    if (!row || !ownsOrAdmin(caller, row.owner)) throw notFound('task', id);
    return row;
  }
}
