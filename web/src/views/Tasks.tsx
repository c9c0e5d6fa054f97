/** Tasks with live progress and stage (polled), retry of failed ones, delete with a confirmation. */
import type { Task } from '../api.js';
import { tasksChanged, usePolledTasks } from '../components/PendingTasks.js';
import { useSession } from '../context.js';
import { t, useLang } from '../i18n.js';

function name(task: Task): string {
  const v = task.data.video;
  return v?.title || v?.media_id || v?.content || task.data.collection || task.id;
}

const STATUS = { queued: 'queued', running: 'running', completed: 'completed', failed: 'failed' } as const;

/**
 * The tasks view, newest first, refreshed every 1.5 s and at once after an action.
 * @example
 * <Tasks />
 */
export function Tasks() {
  const { api, notify } = useSession();
  const tasks = usePolledTasks(undefined, 1500);
  const lang = useLang();
  const act = (p: Promise<unknown>) => p.then(tasksChanged, (e: Error) => notify(t('error', e.message), 'error'));
  return (
    <div class="stack">
      <h2>{t('tasks')}</h2>
      {!tasks.length && <p class="muted">{t('noTasks')}</p>}
      <ul class="tasks">
        {tasks.map((task) => {
          const pct = Math.round((task.progress ?? 0) * 100);
          return (
            <li key={task.id} class={`card task ${task.status}`} data-task={task.id}>
              <div class="row between wrap">
                <strong>{name(task)}</strong>
                <span class="muted">{task.endpoint}{task.data.collection ? ` → ${task.data.collection}` : ''} · <time dateTime={task.created_at}>{new Date(task.created_at).toLocaleString(lang === 'de' ? 'de-DE' : 'en-GB')}</time></span>
                <span class={`pill ${task.status}`} data-status={task.status}>{t(STATUS[task.status])}</span>
              </div>
              <div class="row wrap">
                <progress max={100} value={pct} aria-label={`${t('progress')}: ${name(task)}`}>{pct}%</progress>
                {task.stage && <span class="muted">{t('stage')}: {task.stage}</span>}
                {task.status === 'failed' && task.error?.retryable !== false && (
                  <button type="button" aria-label={`${t('retry')}: ${name(task)}`} onClick={() => act(api.retryTask(task.id))}>{t('retry')}</button>
                )}
                <button type="button" class="danger" aria-label={`${t('delete')}: ${name(task)}`}
                  onClick={() => confirm(t('confirmDeleteTask')) && act(api.deleteTask(task.id))}>{t('delete')}</button>
              </div>
              {task.error && <p class="error">{task.error.message}</p>}
            </li>
          );
        })}
      </ul>
    </div>
  );
}
