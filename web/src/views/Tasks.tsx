/**
 * Tasks in words ("Indexing “Beach.mp4” into Family"), with live progress, the step in the page's language
 * and the worker it runs on; Retry where a retry may help; delete after an in-page confirmation. Admins see
 * the job queue's workers above them.
 */
import type { ScanProblem, Task } from '../api.js';
import { useCollections } from '../collection-names.js';
import { Coded } from '../components/Coded.js';
import { Workers } from '../components/Workers.js';
import { ask } from '../components/Dialog.js';
import { tasksChanged } from '../tasks-store.js';
import { useTasks } from '../use-tasks.js';
import { useSession } from '../context.js';
import { dateTime } from '../format.js';
import { t, useLang } from '../i18n.js';
import { failureText, problemText, scanCounts, scanResultOf, stepText, taskTitle } from '../task-words.js';

const STATUS = { queued: 'queued', running: 'running', completed: 'completed', failed: 'failed' } as const;

/** The files a completed folder scan could not index (its result's `failed`); none for other tasks. */
function failedFiles(task: Task): ScanProblem[] {
  return scanResultOf(task)?.failed ?? [];
}

/**
 * The step line: where a running task is, and for a finished one that it is done, a folder scan with its
 * counts ("done: found 3 · added 1 · …").
 */
function StepLine({ task }: { task: Task }) {
  if (task.status === 'running') return <span class="muted" data-step>{stepText(task)}</span>;
  if (task.status !== 'completed') return null;
  const scan = scanResultOf(task);
  return <span class="muted" data-step>{scan ? `${t('stage_done')}: ${scanCounts(scan)}` : t('stage_done')}</span>;
}

/** A task's status in words: a scan that completed with failed files says so, with their count. */
function StatusPill({ task, failed }: { task: Task; failed: number }) {
  if (failed) return <span class="pill partial" data-status="completed_with_failures">{t('completedWithFailures', failed)}</span>;
  return <span class={`pill ${task.status}`} data-status={task.status}>{t(STATUS[task.status])}</span>;
}

/**
 * The tasks view, newest first, refreshed with the page's task store (every 1.5 s while tasks are open) and at once after an action.
 * @example
 * <Tasks />
 */
export function Tasks() {
  const { api, notify, me } = useSession();
  const { name: collectionName } = useCollections(api);
  const tasks = useTasks();
  const lang = useLang();
  const act = (p: Promise<unknown>) => p.then(tasksChanged, (e: Error) => notify(t('error', e.message), 'error'));
  const remove = async (task: Task) => {
    if (await ask({ title: t('deleteTaskTitle'), body: t('deleteTaskBody'), confirm: t('delete'), danger: true })) act(api.deleteTask(task.id));
  };
  return (
    <div class="stack">
      <h2>{t('tasks')}</h2>
      {me.role === 'admin' && <Workers />}
      {!tasks.length && <p class="empty">{t('noTasks')}</p>}
      <ul class="tasks">
        {tasks.map((task) => {
          const pct = Math.round((task.progress ?? 0) * 100);
          const title = taskTitle(task, collectionName);
          const failed = failedFiles(task);
          return (
            <li key={task.id} class={`card task ${task.status}`} data-task={task.id} data-kind={task.kind}>
              <div class="row between wrap">
                <strong data-title>{title}</strong>
                <span class="row wrap">
                  <time class="muted" dateTime={task.created_at}>{dateTime(task.created_at, lang)}</time>
                  <StatusPill task={task} failed={failed.length} />
                </span>
              </div>
              <div class="row wrap">
                <progress max={100} value={pct} aria-label={`${t('progress')}: ${title}`}>{pct}%</progress>
                <StepLine task={task} />
                {task.worker && <span class="muted" data-worker>{t('onWorker', task.worker === 'local' ? t('workerLocal') : task.worker)}</span>}
                {task.status === 'failed' && task.error?.retryable !== false && (
                  <button type="button" aria-label={`${t('retry')}: ${title}`} onClick={() => act(api.retryTask(task.id))}>{t('retry')}</button>
                )}
                <button type="button" class="danger" aria-label={`${t('delete')}: ${title}`} onClick={() => remove(task)}>{t('delete')}</button>
              </div>
              {task.status === 'failed' && task.error && <p class="error" data-error><Coded text={failureText(task)} /></p>}
              {failed.length > 0 && (
                <details class="scan-failed" data-failed-files open={failed.length <= 3}>
                  <summary>{t('failedFiles')} ({failed.length})</summary>
                  <ul>{failed.map((f) => <li key={f.path}><code>{f.path}</code>: {problemText(f)}</li>)}</ul>
                </details>
              )}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
