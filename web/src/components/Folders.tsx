/**
 * Folders bound to a collection (the folders API): add one by its path on the server, follow its scan's
 * progress and stage, scan again, remove it. A self-contained part of the Add view.
 */
import { useState } from 'preact/hooks';
import type { Folder } from '../api.js';
import { useSession } from '../context.js';
import { t } from '../i18n.js';
import { useLoad } from '../load.js';
import { tasksChanged, usePolledTasks } from './PendingTasks.js';

export function Folders({ collection }: { collection: string }) {
  const { api, notify } = useSession();
  const folders = useLoad(() => api.folders(collection), [api, collection]);
  const tasks = usePolledTasks(() => folders.reload());
  const [path, setPath] = useState('');
  const [recursive, setRecursive] = useState(true);
  const [watch, setWatch] = useState(true);
  const fail = (e: Error) => notify(t('error', e.message), 'error');
  const add = (e: Event) => {
    e.preventDefault();
    api.addFolder(collection, { path: path.trim(), recursive, watch }).then(() => { setPath(''); folders.reload(); tasksChanged(); }, fail);
  };
  const scanState = (f: Folder) => {
    const task = tasks.find((x) => x.id === f.scan_task_id);
    if (!task) return { text: f.last_scan ? t('scanned', new Date(f.last_scan).toLocaleString()) : '', pct: f.last_scan ? 100 : 0 };
    const pct = Math.round((task.progress ?? 0) * 100);
    if (task.status === 'completed') {
      const r = task.result as { found?: number; added?: number; failed?: unknown[] } | null;
      return { text: t('scanDone', r?.found ?? 0, r?.added ?? 0, r?.failed?.length ?? 0), pct: 100 };
    }
    if (task.status === 'failed') return { text: `${t('failed')}: ${task.error?.message ?? ''}`, pct };
    return { text: `${t(task.status)} · ${task.stage ?? ''}`, pct };
  };
  return (
    <section class="card stack" aria-labelledby="folders-h">
      <h3 id="folders-h">{t('folders')}</h3>
      <form class="stack" onSubmit={add}>
        <label for="folder-path">{t('folderPath')}</label>
        <input id="folder-path" required value={path} placeholder="/home/me/Videos" onInput={(e) => setPath(e.currentTarget.value)} />
        <div class="row wrap">
          <label class="check"><input type="checkbox" checked={recursive} onChange={(e) => setRecursive(e.currentTarget.checked)} /> {t('recursive')}</label>
          <label class="check"><input type="checkbox" checked={watch} onChange={(e) => setWatch(e.currentTarget.checked)} /> {t('watchFolder')}</label>
          <button type="submit" class="primary">{t('addFolder')}</button>
        </div>
      </form>
      <ul class="uploads">
        {folders.value?.folders.map((f) => {
          const s = scanState(f);
          return (
            <li key={f.folder_id} class="row between wrap" data-folder={f.path}>
              <strong>{f.path}</strong>
              <span class="muted" data-state>{s.text}</span>
              <progress max={100} value={s.pct} aria-label={`${t('progress')}: ${f.path}`}>{s.pct}%</progress>
              <button type="button" aria-label={`${t('scanNow')}: ${f.path}`} onClick={() => api.scanFolder(collection, f.folder_id).then(() => { folders.reload(); tasksChanged(); }, fail)}>{t('scanNow')}</button>
              <button type="button" class="danger" aria-label={`${t('delete')}: ${f.path}`}
                onClick={() => confirm(t('confirmDeleteFolder', f.path)) && api.removeFolder(collection, f.folder_id).then(() => folders.reload(), fail)}>{t('delete')}</button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
