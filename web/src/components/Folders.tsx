/**
 * Folders bound to a collection (the folders API): add one by its path on the server, follow its scan's
 * progress and step, see the last scan's counts and each failed file with its reason, scan again, remove
 * it after an in-page confirmation that says the files on disk stay. A self-contained part of the Add view.
 */
import { useState } from 'preact/hooks';
import type { Folder, ScanResult } from '../api.js';
import { useSession } from '../context.js';
import { dateTime, fieldSentence } from '../format.js';
import { lang, t } from '../i18n.js';
import { useLoad } from '../load.js';
import { failureText, problemText, scanCounts, stepText } from '../task-words.js';
import { ask } from './Dialog.js';
import { tasksChanged } from '../tasks-store.js';
import { useTasks } from '../use-tasks.js';

/** The last scan's failed, warned-about and skipped files, folded away until opened (failed ones open). */
function ScanDetails({ result }: { result: ScanResult }) {
  const warned = result.warnings ?? [];
  if (!result.failed.length && !result.skipped_files.length && !warned.length) return null;
  return (
    <>
      {result.failed.length > 0 && (
        <details class="scan-failed" open>
          <summary>{t('failedFiles')} ({result.failed.length})</summary>
          <ul>{result.failed.map((f) => <li key={f.path}><code>{f.path}</code>: {problemText(f)}</li>)}</ul>
        </details>
      )}
      {warned.length > 0 && (
        <details class="scan-warnings">
          <summary>{t('warnedFiles')} ({warned.length})</summary>
          <ul>{warned.map((f) => <li key={f.path}><code>{f.path}</code>: {problemText(f)}</li>)}</ul>
        </details>
      )}
      {result.skipped_files.length > 0 && (
        <details class="scan-skipped">
          <summary>{t('skippedFiles')} ({result.skipped})</summary>
          <ul>{result.skipped_files.map((f) => <li key={f.path}><code>{f.path}</code>: {problemText(f)}</li>)}</ul>
        </details>
      )}
    </>
  );
}

/**
 * A collection's folders: the add form and one row per folder.
 * @example
 * <Folders collection="family" />
 */
export function Folders({ collection }: { collection: string }) {
  const { api, notify } = useSession();
  const folders = useLoad(() => api.folders(collection), [api, collection]);
  const tasks = useTasks(() => folders.reload());
  const [path, setPath] = useState('');
  const [recursive, setRecursive] = useState(true);
  const [watch, setWatch] = useState(true);
  const [refused, setRefused] = useState('');
  const fail = (e: Error) => notify(t('error', e.message), 'error');
  const add = (e: Event) => {
    e.preventDefault();
    setRefused('');
    // A refused path is said beside the field (admins also read which folders are allowed).
    api.addFolder(collection, { path: path.trim(), recursive, watch }).then(() => { setPath(''); folders.reload(); tasksChanged(); }, (err: Error) => setRefused(fieldSentence(err, 'path')));
  };
  const remove = async (f: Folder) => {
    if (await ask({ title: t('deleteFolderTitle', f.path), body: t('deleteFolderBody'), confirm: t('delete'), danger: true })) api.removeFolder(collection, f.folder_id).then(() => folders.reload(), fail);
  };
  const scanState = (f: Folder) => {
    const task = tasks.find((x) => x.id === f.scan_task_id);
    if (task && (task.status === 'queued' || task.status === 'running')) return { text: `${t(task.status)} · ${stepText(task)}`, pct: Math.round((task.progress ?? 0) * 100) };
    if (task?.status === 'failed') return { text: `${t('failed')}: ${failureText(task)}`, pct: 0 };
    if (f.last_scan_result) return { text: scanCounts(f.last_scan_result), pct: 100 };
    return { text: f.last_scan ? t('scanned', dateTime(f.last_scan, lang())) : '', pct: 0 };
  };
  return (
    <section class="card stack" aria-labelledby="folders-h">
      <h3 id="folders-h">{t('folders')}</h3>
      <form class="stack" onSubmit={add}>
        <label for="folder-path">{t('folderPath')}</label>
        <input id="folder-path" required value={path} placeholder="/home/me/Videos" aria-invalid={refused ? 'true' : undefined} aria-describedby={refused ? 'folder-refused' : undefined}
          onInput={(e) => setPath(e.currentTarget.value)} />
        {refused && <p id="folder-refused" class="error" role="alert">{refused}</p>}
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
            <li key={f.folder_id} class="stack tight folder" data-folder={f.path}>
              <div class="row between wrap">
                <strong>{f.path}</strong>
                <span class="muted" data-state>{s.text}</span>
                <progress max={100} value={s.pct} aria-label={`${t('progress')}: ${f.path}`}>{s.pct}%</progress>
                <button type="button" aria-label={`${t('scanNow')}: ${f.path}`} onClick={() => api.scanFolder(collection, f.folder_id).then(() => { folders.reload(); tasksChanged(); }, fail)}>{t('scanNow')}</button>
                <button type="button" class="danger" aria-label={`${t('delete')}: ${f.path}`} onClick={() => remove(f)}>{t('delete')}</button>
              </div>
              {f.last_scan_result && <ScanDetails result={f.last_scan_result} />}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
