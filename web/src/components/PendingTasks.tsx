/** Index tasks of one collection that are not done yet, as cards with their progress (from the page's task store). */
import type { Task } from '../api.js';
import { t } from '../i18n.js';
import { stepText, taskFileName } from '../task-words.js';

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
