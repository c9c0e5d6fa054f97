/**
 * Tasks in a person's words, in the page's language: what a task does ("Indexing “Beach.mp4” into
 * Family"), the step it is on (from the server's stage codes) and why it failed (from the error's code),
 * each naming the user's file.
 */
import type { ScanResult, Task } from './api.js';
import { CATALOGUES, type Message, type MessageKey, render } from '../../src/messages/index.js';
import { lang, t, type TextKey } from './i18n.js';

/** The name of the file a task works on, as the user knows it: the upload's name, the path's or URL's last part. */
export function taskFileName(task: Task): string {
  const v = task.data.video;
  const last = (s: string) => decodeURIComponent(s.split(/[/?#]/).filter(Boolean).pop() ?? s);
  if (task.data.upload?.filename) return task.data.upload.filename;
  if (v?.path) return last(v.path);
  if (v?.url) {
    try {
      return last(new URL(v.url).pathname) || new URL(v.url).hostname;
    } catch {
      return v.url;
    }
  }
  return v?.title ?? v?.media_id ?? '';
}

/**
 * What a task does, in words.
 * @example
 * taskTitle(task, (id) => names.get(id) ?? id); // 'Indexing “Beach.mp4” into Family'
 */
export function taskTitle(task: Task, collectionName: (id: string) => string): string {
  const c = collectionName(task.data.collection ?? '');
  switch (task.kind) {
    case 'index': return t('taskIndex', taskFileName(task), c);
    case 'analyze': return t('taskAnalyze', taskFileName(task));
    case 'folder_scan': return t('taskScan', task.data.path ? (task.data.path.split('/').filter(Boolean).pop() ?? task.data.path) : '', c);
    case 'reindex': return task.data.media_ids ? t('taskReindex', t('itemCount', task.data.media_ids.length), c) : t('taskReindexAll', c);
    case 'model_pull': return t('taskModelPull', task.data.model_id ?? '');
    case 'clusters': return t('taskClusters', (task.data as { request?: { query?: string } }).request?.query ?? '', c);
    case 'suggestions': return t('taskSuggestions', c);
    default: return task.endpoint;
  }
}

/**
 * The step a running task is on, in words ("3/12 beach.mp4: reading on-screen text").
 * @example
 * stepText(task); // '2/7 Beach day: finding shots'
 */
export function stepText(task: Task): string {
  const step = task.step;
  if (!step) return task.stage ?? '';
  const key = `stage_${step.code}` as TextKey;
  const words = step.code === 'other' ? (task.stage ?? '') : t(key);
  return step.item ? `${step.item.n}/${step.item.total} ${step.item.name}: ${words}` : words;
}

/**
 * Why a task failed, in words that name the user's file; the server's own words when no code fits.
 * @example
 * failureText(task); // '“Hochzeit.mp4” is not a video, audio file or picture vidx can read.'
 * failureText(pull); // 'Der Modell-Hub unter https://huggingface.co ist nicht erreichbar (ENOTFOUND): …' on the German page
 */
export function failureText(task: Task): string {
  if (!task.error) return '';
  const { code, params } = task.error;
  // A failure that carries its message's parameters is said from the server's own tables, in the page's language.
  if (params && code in CATALOGUES.en) return asSentence(render({ key: code as MessageKey, params } as Message, lang()));
  try {
    return t(`err_${task.error.code}` as TextKey, taskFileName(task));
  } catch {
    // A code the page has no words for: the server's own message (in German when it has one).
    return task.error.message;
  }
}

/**
 * Why a model install failed, said where it was started: on the Models page a hub out of reach points to the
 * Import button below on that page, not to the Models page; elsewhere as {@link failureText}.
 * @example
 * pullFailureText(pull, 'models'); // 'Cannot reach the model hub at https://huggingface.co (ENOTFOUND): … with “Import a model…” below.'
 */
export function pullFailureText(task: Task, where: 'models' | 'elsewhere'): string {
  const p = task.error?.params;
  if (where === 'models' && task.error?.code === 'hub_unreachable' && p?.hub && p.id && p.repo) return t('hubOfflineHere', p.hub, p.reason ?? '', p.id, p.repo);
  return failureText(task);
}

/** A server message (lower-case, no full stop) as a sentence on the page. */
function asSentence(text: string): string {
  const capital = text.charAt(0).toUpperCase() + text.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}

/**
 * A folder scan's counts in words, as the Folders list and Tasks both show them.
 * @example
 * scanCounts(result); // 'found 3 · added 1 · changed 0 · moved 0 · removed 0 · unchanged 0 · skipped 1 · failed 1'
 */
export function scanCounts(r: ScanResult): string {
  return t('scanCounts', r.found, r.added, r.changed, r.moved, r.removed, r.unchanged, r.skipped, r.failed.length);
}

/**
 * The result of a completed folder scan task (the counts a folder's `last_scan_result` has), else null.
 * @example
 * scanResultOf(task)?.added; // 1
 */
export function scanResultOf(task: Task): ScanResult | null {
  if (task.kind !== 'folder_scan' || task.status !== 'completed') return null;
  const r = task.result as Partial<ScanResult> | null | undefined;
  return r && typeof r.found === 'number' && Array.isArray(r.failed) ? (r as ScanResult) : null;
}

/**
 * Why a folder's file failed or was skipped, in words that name it; the server's words when no code fits.
 * @example
 * problemText({ path: 'trips/kaputt.mp4', reason: '…', code: 'not_media' }); // '“kaputt.mp4” is not a video, …'
 */
export function problemText(p: { path: string; reason: string; code?: string }): string {
  if (!p.code) return p.reason;
  try {
    return t(`err_${p.code}` as TextKey, p.path.split('/').pop() ?? p.path);
  } catch {
    return p.reason;
  }
}
