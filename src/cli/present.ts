/**
 * Human-readable text for tasks and their results, shared by `index`, `analyze` and `tasks show`
 * (`--json` prints the objects themselves instead).
 */
import type { Schemas } from '../client/index.js';
import type { TaskView } from './wait.js';
import { clock } from '../tools/clock.js';

/** `m:ss` for a time in seconds; the CLI's tests and commands read it from here. */
export { clock };

function warnings(list: string[] | undefined): string {
  return (list ?? []).map((w) => `warning: ${w}\n`).join('');
}

/**
 * A completed /analyze result: duration, transcript source, subtitle languages, summary and one line per episode.
 * @example
 * process.stdout.write(describeAnalyzeResult(task.result));
 */
export function describeAnalyzeResult(r: Schemas['AnalyzeResult']): string {
  // A list or field missing from the result prints as empty or unknown instead of failing the command.
  const eps = r.episodic_summary ?? [];
  let out = `${r.media_type ?? 'media'}, ${clock(r.video_duration ?? 0)}, language ${r.language ?? 'unknown'}, transcript: ${r.transcript_source ?? 'none'}, ${eps.length} episode(s)\n`;
  // Other subtitle languages are in the result (subtitle_tracks, --json); this says they are there.
  const languages = r.subtitle_languages ?? [];
  if (languages.length > 1) out += `subtitles: ${languages[0]} (the transcript), ${languages.slice(1).join(', ')}\n`;
  if (r.video_summary) out += `summary: ${r.video_summary}\n`;
  for (const e of eps) out += `  [${clock(e.start.seconds)}-${clock(e.end.seconds)}] ${e.summary ?? ''}\n`;
  return out + warnings(r.warnings);
}

/**
 * A completed /index result: what was stored where, or why it was skipped.
 * @example
 * process.stdout.write(describeIndexResult(task.result)); // 'indexed talk-1 into trips: 3 episode(s), 1:30, transcript: embedded'
 */
export function describeIndexResult(r: Schemas['IndexResult']): string {
  if (r.status === 'skipped') return `skipped ${r.media_id} in ${r.collection}: ${r.reason ?? 'already indexed'}\n`;
  const duration = r.duration == null ? 'no duration' : clock(r.duration);
  return `${r.status} ${r.media_id} into ${r.collection}: ${r.episodes} episode(s), ${duration}, transcript: ${r.transcript_source ?? 'none'}\n${warnings(r.warnings)}`;
}

/**
 * A completed folder scan: the counts, then each skipped and failed file, and each file read with a warning, with its reason.
 * @example
 * describeScanResult(task.result); // 'scanned 120 file(s): 3 added, 1 changed, 2 moved, 0 removed, 114 unchanged, 0 skipped, 0 failed'
 */
export function describeScanResult(r: Schemas['ScanResult']): string {
  let out = `scanned ${r.found} file(s): ${r.added} added, ${r.changed} changed, ${r.moved} moved, ${r.removed} removed, ${r.unchanged} unchanged, ${r.skipped} skipped, ${r.failed.length} failed\n`;
  for (const s of r.skipped_files) out += `  skipped ${s.path}: ${s.reason}\n`;
  for (const f of r.failed) out += `  failed  ${f.path}: ${f.reason}\n`;
  for (const w of r.warnings ?? []) out += `  warning ${w.path}: ${w.reason}\n`;
  return out;
}

/**
 * A task's status in words: a folder scan that completed with files that failed says how many.
 * @example
 * statusText(scanTask); // 'completed, 1 file failed'
 */
export function statusText(t: TaskView): string {
  const failed = t.kind === 'folder_scan' && t.status === 'completed' && t.result ? t.result.failed.length : 0;
  return failed ? `completed, ${failed} file${failed === 1 ? '' : 's'} failed` : t.status;
}

/**
 * A task's state, plus its result once completed (summarised for /index and /analyze).
 * @example
 * process.stdout.write(describeTask(task));
 */
export function describeTask(t: TaskView): string {
  let out = `task ${t.id}\n  endpoint  ${t.endpoint}\n  status    ${statusText(t)}${t.stage ? ` (${t.stage})` : ''}, ${Math.round(t.progress * 100)}%\n`;
  out += `  attempts  ${t.attempts}\n  created   ${t.created_at}\n`;
  if (t.started_at) out += `  started   ${t.started_at}\n`;
  if (t.finished_at) out += `  finished  ${t.finished_at}\n`;
  if (t.error) out += `  error     ${t.error.message} (${t.error.code}${t.error.retryable ? ', may pass on a retry' : ', retrying cannot help'})\n`;
  if (t.status === 'completed') {
    const text =
      t.kind === 'index' && t.result ? describeIndexResult(t.result)
      : t.kind === 'analyze' && t.result ? describeAnalyzeResult(t.result)
      : t.kind === 'folder_scan' && t.result ? describeScanResult(t.result)
      : `${JSON.stringify(t.result, null, 2)}\n`;
    out += `result:\n${text.replace(/^/gm, '  ').replace(/ +$/, '')}`;
  }
  return out;
}
