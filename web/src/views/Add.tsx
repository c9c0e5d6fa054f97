/** Add videos: pick a collection and the spoken language, drop files; each shows its upload and indexing progress. */
import { useState } from 'preact/hooks';
import { VidxError, type Task } from '../api.js';
import { DropZone } from '../components/DropZone.js';
import { Folders } from '../components/Folders.js';
import { tasksChanged } from '../tasks-store.js';
import { useTasks } from '../use-tasks.js';
import { useSession } from '../context.js';
import { type Lang, t } from '../i18n.js';
import { useLoad } from '../load.js';
import { href } from '../router.js';
import { failureText, stepText } from '../task-words.js';

/** One file being added; `photo`: a picture, which is opened, not played. */
interface Upload { key: number; collection: string; name: string; photo: boolean; sent: number; total: number; taskId?: string; error?: string }

/** Whether a dropped file is a picture (browsers often leave a HEIC file's type empty). */
const isPhoto = (file: File) => file.type.startsWith('image/') || /\.(heic|heif)$/i.test(file.name);

function state(u: Upload, task: Task | undefined): { text: string; pct: number; mediaId?: string } {
  if (u.error) return { text: `${t('failed')}: ${u.error}`, pct: 0 };
  if (!u.taskId) {
    const pct = u.total ? Math.round((u.sent / u.total) * 100) : 0;
    return { text: t('uploading', pct), pct };
  }
  if (!task || task.status === 'queued') return { text: t('uploaded'), pct: 0 };
  if (task.status === 'running') return { text: `${t('indexing')} · ${stepText(task)}`, pct: Math.round(task.progress * 100) };
  if (task.status === 'failed') return { text: `${t('failed')}: ${failureText(task)}`, pct: 0 };
  const mediaId = typeof task.result?.media_id === 'string' ? task.result.media_id : undefined;
  return { text: t('indexed'), pct: 100, mediaId };
}

let nextKey = 1;

/**
 * The "add videos" view: collection and language, drop zone, one row per upload with its progress.
 * @example
 * <Add initial="trips" />
 */
export function Add({ initial }: { initial: string }) {
  const { api, notify } = useSession();
  const mine = useLoad(() => api.collections(false), [api]);
  const [collection, setCollection] = useState(initial);
  const [lang, setLang] = useState<Lang>('en');
  const [uploads, setUploads] = useState<Upload[]>([]);
  const tasks = useTasks();
  const ids = mine.value?.collections.map((c) => c.collection_id) ?? [];
  const chosen = ids.includes(collection) ? collection : '';

  const add = (files: File[]) => {
    if (!chosen) return notify(t('chooseCollection'), 'error');
    for (const file of files) {
      const key = nextKey++;
      const patch = (p: Partial<Upload>) => setUploads((list) => list.map((u) => (u.key === key ? { ...u, ...p } : u)));
      setUploads((list) => [...list, { key, collection: chosen, name: file.name, photo: isPhoto(file), sent: 0, total: file.size }]);
      api.upload(file, chosen, lang, (sent, total) => patch({ sent, total })).done.then(
        (taskId) => { patch({ taskId, sent: file.size }); tasksChanged(); },
        (e: unknown) => patch({ error: e instanceof VidxError ? e.message : String(e) }),
      );
    }
  };

  return (
    <div class="stack">
      <h2>{t('add')}</h2>
      <div class="row wrap">
        <label for="add-collection">{t('collection')}</label>
        <select id="add-collection" value={chosen} onChange={(e) => setCollection(e.currentTarget.value)}>
          <option value="">—</option>
          {mine.value?.collections.map((c) => <option key={c.collection_id} value={c.collection_id}>{c.name}</option>)}
        </select>
        <label for="add-lang">{t('indexLanguage')}</label>
        <select id="add-lang" value={lang} onChange={(e) => setLang(e.currentTarget.value as Lang)}>
          <option value="en">English</option>
          <option value="de">Deutsch</option>
        </select>
      </div>
      {!chosen && <p class="muted">{t('chooseCollection')} <a href={href()}>{t('collections')}</a></p>}
      <DropZone onFiles={add} disabled={!chosen} />
      {chosen && <Folders collection={chosen} />}
      {uploads.length > 0 && (
        <ul class="uploads" aria-label={t('add')}>
          {uploads.map((u) => {
            const s = state(u, tasks.find((x) => x.id === u.taskId));
            return (
              <li key={u.key} class="card row between wrap" data-upload={u.name}>
                <strong>{u.name}</strong>
                <span class="muted" data-state>{s.text}</span>
                <progress max={100} value={s.pct} aria-label={`${t('progress')}: ${u.name}`}>{s.pct}%</progress>
                {s.mediaId && <a href={href('c', u.collection, 'play', s.mediaId)} aria-label={`${t(u.photo ? 'open' : 'play')}: ${u.name}`}>{t(u.photo ? 'open' : 'play')}</a>}
              </li>
            );
          })}
        </ul>
      )}
    </div>
  );
}
