import type { AnalysisJob, RunOutcome } from '../analysis/runner.js';
import type { JobFile } from './wire.js';

/** A job a task is waiting for on this server: what a worker may read for it, and how to answer the task. */
export interface Attachment {
  id: string;
  job: AnalysisJob;
  /** The queue the job was put in (named after the server's model set then). */
  queue: string;
  /** The media, then the subtitle files beside a path source: what the job's signed links open. */
  files: JobFile[];
  progress: (fraction: number, stage: string) => void;
  /** Settles the task's wait with the delivered analysis or the job's failure. */
  resolve(outcome: RunOutcome): void;
  reject(err: Error): void;
  done: Promise<RunOutcome>;
}

/**
 * The jobs tasks wait for now, by job id. A job has at most one attachment: a second wait for the same job
 * (the same inputs twice in one scan) shares the first one's answer.
 * @example
 * const a = attached.attach(id, () => ({ job, queue, files, progress }));
 * attached.settle(id, { analysis, shared: true }); // the task's wait ends with it
 */
export class AttachedJobs {
  private readonly byId = new Map<string, Attachment>();

  /** The attachment of `id`: the one already there, else a new one from `make`. */
  attach(id: string, make: () => Omit<Attachment, 'id' | 'resolve' | 'reject' | 'done'>): { attachment: Attachment; fresh: boolean } {
    const existing = this.byId.get(id);
    if (existing) return { attachment: existing, fresh: false };
    let resolve!: (a: RunOutcome) => void;
    let reject!: (e: Error) => void;
    const done = new Promise<RunOutcome>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    // Whoever waits handles the failure; an attachment nobody waits for any more must not crash the process.
    done.catch(() => {});
    const attachment: Attachment = { id, ...make(), resolve, reject, done };
    this.byId.set(id, attachment);
    return { attachment, fresh: true };
  }

  get(id: string): Attachment | undefined {
    return this.byId.get(id);
  }

  /** Ends the wait of `id` with its analysis; false when no task waits for it. */
  settle(id: string, outcome: RunOutcome): boolean {
    const a = this.byId.get(id);
    if (!a) return false;
    this.byId.delete(id);
    a.resolve(outcome);
    return true;
  }

  /** Ends the wait of `id` with a failure. */
  fail(id: string, err: Error): void {
    const a = this.byId.get(id);
    if (!a) return;
    this.byId.delete(id);
    a.reject(err);
  }

  /** Forgets `id` (its task stopped waiting). */
  detach(id: string): void {
    this.byId.delete(id);
  }

  all(): Attachment[] {
    return [...this.byId.values()];
  }
}
