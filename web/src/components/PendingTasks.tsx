/** Index tasks of one collection that are not done yet, as cards with their progress (polled every 2 s). */
import { useEffect, useState } from 'preact/hooks';
import type { Task } from '../api.js';
import { useSession } from '../context.js';
import { t } from '../i18n.js';
import { stepText, taskFileName } from '../task-words.js';

/** Views that change a task (retry, delete, a new upload) say so, and every polling view looks at once. */
export const TASKS_CHANGED = 'vidx:tasks-changed';

/**
 * Asks every task list on the page to refresh now.
 * @example
 * api.retryTask(id).then(tasksChanged);
 */
export function tasksChanged(): void {
  dispatchEvent(new Event(TASKS_CHANGED));
}

/**
 * Polls GET /tasks while mounted (and at once after `tasksChanged()`); calls `onFinished` when a task it saw running is gone from the running ones.
 * @example
 * const tasks = usePolledTasks(() => items.reload());
 */
export function usePolledTasks(onFinished?: () => void, everyMs = 2000): Task[] {
  const { api } = useSession();
  const [tasks, setTasks] = useState<Task[]>([]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: one poller per mount; it keeps the callback it started with (callers pass a ref's current reload) and its period.
  useEffect(() => {
    let stop = false;
    let timer: ReturnType<typeof setTimeout>;
    let open = new Set<string>();
    const tick = async () => {
      try {
        const { tasks: list } = await api.tasks();
        if (stop) return;
        const nowOpen = new Set(list.filter((x) => x.status === 'queued' || x.status === 'running').map((x) => x.id));
        if ([...open].some((id) => !nowOpen.has(id))) onFinished?.();
        open = nowOpen;
        setTasks(list);
      } catch {
        // The next tick tries again; a signed-out key ends at the sign-in form anyway.
      }
      // One timer at a time, also when a refresh on demand overlapped a scheduled tick.
      clearTimeout(timer);
      if (!stop) timer = setTimeout(tick, everyMs);
    };
    void tick();
    const now = () => void tick();
    addEventListener(TASKS_CHANGED, now);
    return () => { stop = true; clearTimeout(timer); removeEventListener(TASKS_CHANGED, now); };
  }, [api]);
  return tasks;
}

/**
 * A grid card for an item still being indexed: its title, stage and progress.
 * @example
 * <PendingCard task={task} />
 */
export function PendingCard({ task }: { task: Task }) {
  const title = task.data.video?.title || taskFileName(task) || task.id;
  const pct = Math.round((task.progress ?? 0) * 100);
  return (
    <li class="card item pending">
      <div class="thumb"><span class="ph" /></div>
      <div class="stack tight">
        <h3>{title}</h3>
        <p class="muted">{task.status === 'queued' ? t('queued') : `${t('indexing')} · ${stepText(task)}`}</p>
        <progress max={100} value={pct} aria-label={`${t('progress')}: ${title}`}>{pct}%</progress>
      </div>
    </li>
  );
}
