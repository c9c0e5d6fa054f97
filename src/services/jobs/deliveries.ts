import { msg } from '../../messages/index.js';
import { once } from 'node:events';
import { copyFileSync, createReadStream, createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { AnalysisCache, StoredAnalysis } from '../../analysis/cache.js';
import type { RunOutcome } from '../analysis/runner.js';
import type { AnalysisJobRepository, AnalysisJobRow, JobHolder } from '../../store/jobs.js';
import type { TaskRepository } from '../../store/tasks.js';
import { TimeSlices } from '../../tools/time-slices.js';
import { Problem } from '../errors.js';
import { nowIso } from '../timestamps.js';
import type { AttachedJobs } from './attached.js';
import { addItems, deliveryLines, type AddLine } from './delivery-lines.js';
import { LOCAL_WORKER } from './local-worker.js';
import { DELIVERED_FILE, fromWireAnalysisInSlices, namedFiles, parseJobId, type DeliveryAnswer } from './wire.js';

/** The file a delivered analysis waits in, in its cache folder, until its task takes it: JSON lines (delivery-lines.ts). */
const deliveredName = (task: string) => `delivered-${task}.jsonl`;

/** Where a delivery of a version before JSON lines waits (one JSON object): still taken after an upgrade. */
const oldDeliveredName = (task: string) => `delivered-${task}.json`;

/** Moves a file into place (a copy where the two lie on different file systems). */
async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    copyFileSync(from, to);
    rmSync(from, { force: true });
  }
}

/** Writes a delivery's lines to `file` (through a temp file renamed, so a crash leaves none or all of it). */
async function writeLines(file: string, wire: StoredAnalysis, files: string[], slices: TimeSlices): Promise<void> {
  const temp = `${file}.${process.pid}.tmp`;
  const out = createWriteStream(temp, { mode: 0o600 });
  out.on('error', () => {});
  try {
    for (const line of deliveryLines({ worker: '', files }, wire)) {
      if (out.errored) throw out.errored;
      if (!out.write(`${line}\n`)) await once(out, 'drain');
      await slices.pause();
    }
    out.end();
    await once(out, 'close');
    if (out.errored) throw out.errored;
    renameSync(temp, file);
  } catch (err) {
    out.destroy();
    rmSync(temp, { force: true });
    throw err;
  }
}

/** A delivery read back from its lines, one line at a time. */
async function readLines(file: string, slices: TimeSlices): Promise<StoredAnalysis | null> {
  let analysis: StoredAnalysis | null = null;
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) {
    if (!line.trim()) continue;
    const value = JSON.parse(line) as { analysis: StoredAnalysis } | AddLine;
    if (analysis) addItems(analysis, value as AddLine);
    else analysis = (value as { analysis: StoredAnalysis }).analysis;
    await slices.pause();
  }
  return analysis;
}

/** Whether the server's own workers ran the job: only their analyses may serve other owners from the cache. */
const byServer = (row: AnalysisJobRow) => row.holder_key === LOCAL_WORKER;

/** A delivery as the broker hands it over: its analysis, its files in `dir`, and its checked lines when it came over HTTP. */
export interface Delivery {
  wire: StoredAnalysis;
  /** The folder its files (`files`, by name) lie in; they are moved away from there when it commits. */
  dir: string;
  files: string[];
  /** Its lines as read (moved into place as they are); without them they are written from `wire`. */
  lines?: string;
}

/**
 * Workers' results, committed once per job and only from the key holding the job: the files go into the
 * analysis cache folder of the job's key (a remote worker's into a folder of its job's own there, so they
 * never mix with a shared entry), the analysis beside them as JSON lines, then the job is marked delivered
 * in SQLite (the commit). The task waiting for the job gets it at once; a task that is not waiting yet (the
 * server restarted while the job ran) finds it when it asks for the job again, read back line by line. A
 * job already delivered commits nothing. Everything that grows with the delivery runs in slices.
 * @example
 * const answer = await deliveries.accept(jobId, { key: 'key_1a2b', worker: 'desk-1a2b' }, { wire, dir, files: ['ep-0.jpg'] });
 * answer.status; // 'committed', then 'duplicate' for the same job again
 */
export class Deliveries {
  /** Jobs whose delivery is being written now: a second one at the same time waits. */
  private readonly busy = new Set<string>();

  constructor(
    private readonly cache: AnalysisCache,
    private readonly jobs: AnalysisJobRepository,
    private readonly tasks: TaskRepository,
    private readonly attached: AttachedJobs,
  ) {}

  /**
   * What a delivery gets before any of it is read: throws 403 `job_not_held` for another key's job; the
   * answer itself when none of it would be taken (an unknown job, one delivered already, one whose task
   * ended, one being committed now); null when it is to be read.
   */
  before(jobId: string, holder: JobHolder): DeliveryAnswer | null {
    const row = this.held(jobId, holder);
    if (!row) return { status: 'gone', reason: 'no such job on this server' };
    if (row.delivered_at) {
      this.jobs.markDelivered(jobId, holder.worker, nowIso());
      return { status: 'duplicate', reason: `already delivered by ${row.worker ?? 'a worker'}; nothing was committed` };
    }
    if (!taskWaits(this.tasks, row.task_id)) return { status: 'gone', reason: 'the task of this job was deleted or has ended' };
    if (this.busy.has(jobId)) return { status: 'wait', reason: 'another delivery of this job is being committed' };
    return null;
  }

  /** Takes a delivery; its files are moved away from `d.dir` when it commits. */
  async accept(jobId: string, holder: JobHolder, d: Delivery): Promise<DeliveryAnswer> {
    const early = this.before(jobId, holder);
    if (early) return early;
    const row = this.jobs.get(jobId)!;
    this.busy.add(jobId);
    try {
      const slices = new TimeSlices();
      const folder = this.folderOf(row);
      const present = new Set<string>();
      for (const name of new Set(d.files)) {
        if (!DELIVERED_FILE.test(name) || !existsSync(join(d.dir, name))) continue;
        await moveFile(join(d.dir, name), join(folder, name));
        present.add(name);
        await slices.pause();
      }
      // Names of files that were not delivered stay in the lines; taking the analysis drops them (fromWireAnalysis).
      const kept = join(this.cache.folder(row.cache_key), deliveredName(row.task_id));
      if (d.lines) await moveFile(d.lines, kept);
      else await writeLines(kept, d.wire, d.files, slices);
      if (!this.jobs.markDelivered(jobId, holder.worker, nowIso())) return { status: 'duplicate', reason: 'already delivered; nothing was committed' };
      this.tasks.setWorker(row.task_id, holder.worker);
      // The waiting task gets the analysis as it is in memory; its lines are then of no more use.
      if (this.attached.get(jobId)) {
        const analysis = await fromWireAnalysisInSlices(d.wire, folder, present, slices);
        if (this.attached.settle(jobId, { analysis, shared: byServer(row) })) rmSync(kept, { force: true });
      }
      return { status: 'committed' };
    } finally {
      this.busy.delete(jobId);
    }
  }

  /**
   * The job's row when `holder` holds it (started it, and no other key started it since); undefined for a
   * job this server does not know. Throws 403 `job_not_held` for any other key: only the key that started
   * a job reports its progress and delivers it.
   */
  held(jobId: string, holder: JobHolder): AnalysisJobRow | undefined {
    const row = parseJobId(jobId) ? this.jobs.get(jobId) : undefined;
    if (row && row.holder_key !== holder.key) {
      const holder = row.holder_key === null ? msg('job_not_started') : msg('job_held_by_other_worker');
      throw new Problem('forbidden', msg('job_not_held', { holder }), [], 'job_not_held');
    }
    return row;
  }

  /** Where a job's delivered files lie: the cache entry's folder for the server's own workers, a folder of the job's own for a remote worker. */
  private folderOf(row: AnalysisJobRow): string {
    const shared = this.cache.folder(row.cache_key);
    if (byServer(row)) return shared;
    const own = join(shared, `job-${row.task_id}`);
    mkdirSync(own, { recursive: true });
    return own;
  }

  /**
   * The delivered analysis of a job, once: its file is removed as it is taken (faces are biometric data,
   * and a cache entry of the analysis is written by the analyzer where it may keep one). Null when the job
   * was not delivered, or its analysis was taken before. Read line by line, in slices.
   */
  async take(jobId: string): Promise<RunOutcome | null> {
    const row = this.jobs.get(jobId);
    if (!row?.delivered_at) return null;
    const slices = new TimeSlices();
    const dir = this.cache.folder(row.cache_key);
    const file = join(dir, deliveredName(row.task_id));
    const old = join(dir, oldDeliveredName(row.task_id));
    let stored: StoredAnalysis | null = null;
    try {
      if (existsSync(file)) stored = await readLines(file, slices);
      else if (existsSync(old)) stored = JSON.parse(readFileSync(old, 'utf8')) as StoredAnalysis;
    } catch {
      stored = null;
    }
    if (!stored) return null;
    await Promise.all([rm(file, { force: true }), rm(old, { force: true })]);
    const folder = this.folderOf(row);
    const analysis = await fromWireAnalysisInSlices(stored, folder, new Set(namedFiles(stored).filter((n) => existsSync(join(folder, n)))), slices);
    return { analysis, shared: byServer(row) };
  }

  /** At start: the records and waiting analyses of jobs whose tasks have ended (or are gone). */
  prune(): number {
    const ended = this.jobs.ofEndedTasks();
    for (const row of ended) {
      for (const name of [deliveredName(row.task_id), oldDeliveredName(row.task_id)]) rmSync(join(this.cache.folder(row.cache_key), name), { force: true });
      this.jobs.delete(row.job_id);
    }
    return ended.length;
  }
}

/**
 * Whether a task may still want its job: queued (it runs again after a restart) or running.
 * @example
 * if (!taskWaits(store.tasks, task)) return { status: 'gone', reason: 'the task has ended' };
 */
export function taskWaits(tasks: Pick<TaskRepository, 'get'>, task: string): boolean {
  const status = tasks.get(task)?.status;
  return status === 'queued' || status === 'running';
}
