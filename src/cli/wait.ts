/**
 * Waiting for a task: polls GET /tasks/{id} and shows its stage and progress on stderr, as a bar redrawn in
 * place on a terminal and as one line per stage otherwise (logs, CI), so stdout stays clean for `--json`.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Schemas, VidxClient } from '../client/index.js';

/** The task as the CLI reads it (GET /tasks/{task_id}; `kind` tells the shape of its data and result). */
export type TaskView = Schemas['Task'];

/** Where progress goes, and whether to draw it at all. */
export interface WaitOptions {
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  quiet?: boolean;
  intervalMs?: number;
}

const WIDTH = 24;

/**
 * One progress line: `[#########-----------]  45%  running: on-screen text  12s`.
 * @example
 * progressBar({ status: 'running', progress: 0.5, stage: 'ocr' } as TaskView, 3000); // '[############…'
 */
export function progressBar(t: Pick<TaskView, 'status' | 'progress' | 'stage'>, elapsedMs: number): string {
  const p = Math.max(0, Math.min(1, t.progress || 0));
  const filled = Math.round(p * WIDTH);
  const pct = `${Math.floor(p * 100)}%`.padStart(4);
  const stage = t.stage ? `: ${t.stage}` : '';
  return `[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${pct}  ${t.status}${stage}  ${Math.round(elapsedMs / 1000)}s`;
}

async function poll(api: VidxClient, id: string, opts: WaitOptions): Promise<TaskView> {
  const started = Date.now();
  const tty = Boolean(opts.stderr.isTTY);
  let lastLine = '';
  let lastStage = '';
  for (;;) {
    const t = await api.GET('/tasks/{task_id}', { params: { path: { task_id: id } } });
    const done = t.status === 'completed' || t.status === 'failed';
    if (!opts.quiet) {
      const line = progressBar(done && t.status === 'completed' ? { ...t, progress: 1 } : t, Date.now() - started);
      if (tty) {
        const cols = opts.stderr.columns || 80; // 0 on a pty without a size
        opts.stderr.write(`\r${line.slice(0, cols - 1).padEnd(Math.min(lastLine.length, cols - 1))}`);
        lastLine = line;
        if (done) opts.stderr.write('\n');
      } else {
        const stage = `${t.status}:${t.stage ?? ''}`;
        if (stage !== lastStage || done) opts.stderr.write(`${line}\n`);
        lastStage = stage;
      }
    }
    if (done) return t;
    await delay(opts.intervalMs ?? 500);
  }
}

/**
 * Polls the task until it completes or fails and returns its last state; progress is drawn on `opts.stderr`.
 * Ctrl-C stops the waiting (exit 130), not the task, and says how to follow it again.
 * @example
 * const task = await waitForTask(apiClient(client), taskId, { stderr: process.stderr });
 * if (task.status === 'failed') console.error(task.error);
 */
export async function waitForTask(api: VidxClient, id: string, opts: WaitOptions): Promise<TaskView> {
  const onInterrupt = () => {
    opts.stderr.write(`\nvidx: stopped waiting; task ${id} goes on in the server (vidx tasks show ${id} --wait)\n`);
    process.exit(130);
  };
  process.once('SIGINT', onInterrupt);
  try {
    return await poll(api, id, opts);
  } finally {
    process.off('SIGINT', onInterrupt);
  }
}
