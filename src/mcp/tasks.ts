/**
 * Tasks as the task tools show them: waiting for one (with MCP progress notifications when the client
 * asked for them) and a compact view whose analysis result fits an agent's context window.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { z } from 'zod';
import type { Schemas } from '../client/index.js';
import { clock } from '../tools/clock.js';
import type { VidxApi } from './api.js';
import type { ToolExtra } from './tool.js';
import { transcriptPage, type Timed } from './transcript.js';

/** The task as the tools read it (`kind` tells the shape of its data and result). */
export type Task = Schemas['Task'];

const POLL_MS = 500;

/**
 * Reads a task (404 for one the key may not see).
 * @example
 * const t = await readTask(api, id);
 */
export async function readTask(api: VidxApi, id: string): Promise<Task> {
  return api.GET('/tasks/{task_id}', { params: { path: { task_id: id } } });
}

/**
 * Polls the task until it ends, `seconds` pass, the client cancels or the server stops; returns its last state.
 * @example
 * const t = await waitForTask(api, id, 60, extra);
 */
export async function waitForTask(api: VidxApi, id: string, seconds: number, extra: ToolExtra, stopping?: AbortSignal): Promise<Task> {
  const until = Date.now() + seconds * 1000;
  const token = extra._meta?.progressToken;
  let sent = -1;
  for (;;) {
    const t = await readTask(api, id);
    if (t.status === 'completed' || t.status === 'failed' || Date.now() >= until || extra.signal.aborted || stopping?.aborted) return t;
    // MCP wants each progress notification to report more than the one before.
    if (token !== undefined && t.progress > sent) {
      sent = t.progress;
      const message = `${t.status}${t.stage ? `: ${t.stage}` : ''}`;
      await extra.sendNotification({ method: 'notifications/progress', params: { progressToken: token, progress: t.progress, total: 1, message } });
    }
    await delay(Math.min(POLL_MS, Math.max(0, until - Date.now())));
  }
}

/**
 * An /analyze result, cut to about `maxChars`: summary, episodes, then as much transcript as fits. A list or
 * field missing from the result reads as empty or null instead of failing the tool.
 */
function analyzeView(r: Schemas['AnalyzeResult'], maxChars: number) {
  const episodes = (r.episodic_summary ?? []).map((e, i) => ({
    episode_id: e.episode_id ?? i,
    time: `${clock(e.start.seconds)}–${clock(e.end.seconds)}`,
    summary: e.summary.length > 400 ? `${e.summary.slice(0, 399)}…` : e.summary,
  }));
  const head = { video_duration: r.video_duration, video_summary: r.video_summary, language: r.language ?? null, transcript_source: r.transcript_source ?? null, subtitle_languages: r.subtitle_languages ?? [], warnings: r.warnings ?? [], episodes };
  const segments: Timed[] = (r.audio_summary ?? []).map((a) => ({ start: a.segment.start.seconds, end: a.segment.end.seconds, text: a.text }));
  const room = Math.max(500, maxChars - JSON.stringify(head).length);
  const page = transcriptPage(segments, { maxChars: room });
  const transcript = page.next === null ? page.lines : [...page.lines, `… ${segments.length - page.lines.length} more lines (call get_task with a larger max_chars)`];
  return { ...head, transcript };
}

/**
 * What a task tool answers: id, status and progress; the result once completed (an analysis cut to
 * `maxChars`), the reason once failed, and what to do next while it runs.
 * @example
 * return taskView(await readTask(api, id), 8000);
 */
export function taskView(t: Task, maxChars: number) {
  const base = { task_id: t.id, endpoint: t.endpoint, status: t.status, progress: t.progress, stage: t.stage };
  if (t.status === 'failed') return { ...base, error: t.error };
  if (t.status !== 'completed') return { ...base, note: 'Not finished yet: call get_task with this task_id (wait_seconds waits for it).' };
  const result = t.kind === 'analyze' && t.result ? analyzeView(t.result, maxChars) : t.result;
  return { ...base, result };
}

/**
 * The answer of the task tools (get_task, index_video, analyze_video, reindex), as their output shape: a
 * queued task's id and note, or {@link taskView}'s fields.
 * @example
 * defineTool({ name: 'get_task', output: taskOutput, … });
 */
export const taskOutput = {
  task_id: z.string(),
  status: z.enum(['queued', 'running', 'completed', 'failed']),
  endpoint: z.string().optional().describe('What the task runs: /index, /analyze, a scan, a reindex'),
  progress: z.number().optional().describe('0..1'),
  stage: z.string().nullable().optional(),
  note: z.string().optional().describe('What to do next while it runs'),
  error: z.looseObject({ message: z.string(), code: z.string() }).nullable().optional().describe('Why it failed'),
  result: z.unknown().optional().describe("Once completed: the task's result (an analysis is cut to max_chars: summary, episodes, timed transcript)"),
};
