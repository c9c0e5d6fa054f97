/**
 * Models, for admins: each capability with the model it uses (or would), its size and whether it is
 * installed; Install pulls it with progress (the same manifest, revisions and checks as `vidx models pull`),
 * Remove deletes it after an in-page confirmation; Import brings in a model from another machine, and a failed
 * install says why in the page's language.
 */
import { useRef, useState } from 'preact/hooks';
import type { Capability, ModelInfo, Task } from '../api.js';
import { ask } from '../components/Dialog.js';
import { tasksChanged } from '../tasks-store.js';
import { useTasks } from '../use-tasks.js';
import { useSession } from '../context.js';
import { formatBytes } from '../../../src/tools/bytes.js';
import { lang, t, type TextKey } from '../i18n.js';
import { useLoad } from '../load.js';
import { pullFailureText } from '../task-words.js';
import { Coded } from '../components/Coded.js';

/** Capabilities that come with vidx (nothing to install), shown after the pulled ones. */
const SHIPPED = ['ocr', 'ocr_german', 'vad', 'face_detection'];

function stateText(m: ModelInfo, pull: Task | undefined): string {
  if (pull && (pull.status === 'queued' || pull.status === 'running')) return t('installing', Math.round(pull.progress * 100));
  if (m.state === 'installed') return m.in_use ? `${t('installed')} · ${t('inUse')}` : t('installed');
  return m.state === 'partial' ? t('partlyInstalled') : t('notInstalled');
}

function ModelRow({ m, pull, reload }: { m: ModelInfo; pull: Task | undefined; reload: () => void }) {
  const { api, notify } = useSession();
  const busy = pull !== undefined && (pull.status === 'queued' || pull.status === 'running');
  const install = () => api.pullModel(m.id).then(() => tasksChanged(), (e: Error) => notify(t('error', e.message), 'error'));
  const remove = async () => {
    if (!(await ask({ title: t('confirmRemoveModel', m.id), body: t('removeModelBody', formatBytes(m.bytes_on_disk, lang())), confirm: t('remove'), danger: true }))) return;
    api.removeModel(m.id).then(reload, (e: Error) => notify(t('error', e.message), 'error'));
  };
  const pct = busy ? Math.round((pull?.progress ?? 0) * 100) : m.state === 'installed' ? 100 : 0;
  return (
    <li class="card model" data-model={m.id} data-state={busy ? 'installing' : m.state}>
      <div class="row between wrap">
        <div class="stack tight">
          <strong>{m.id}{m.default && <> <span title={t('defaultModel')} data-default><span aria-hidden="true">★</span><span class="sr">{t('defaultModel')}</span></span></>}</strong>
          <span class="muted">{formatBytes(m.size_bytes, lang())} · {t('licence', m.license)}</span>
          {m.credit && <span class="muted" data-credit>{t('modelCredit', m.credit)}</span>}
          <span data-state-text>{stateText(m, pull)}</span>
          {pull?.status === 'failed' && m.state !== 'installed' && <span class="error" data-install-error><Coded text={pullFailureText(pull, 'models')} /></span>}
        </div>
        <div class="row">
          {m.state !== 'installed' && !busy && <button type="button" class="primary" onClick={install} aria-label={`${t('install')}: ${m.id}`}>{t('install')}</button>}
          {m.state !== 'missing' && !busy && <button type="button" class="danger" onClick={remove} aria-label={`${t('remove')}: ${m.id}`}>{t('remove')}</button>}
        </div>
      </div>
      {busy && <progress max={100} value={pct} aria-label={`${t('progress')}: ${m.id}`}>{pct}%</progress>}
    </li>
  );
}

function CapabilityLine({ name, cap }: { name: string; cap: Capability }) {
  return (
    <li class="row between wrap" data-capability={name}>
      <span>{t(`cap_${name}` as TextKey)}</span>
      <span class={cap.available ? 'muted' : 'error'}>{cap.available ? `${cap.model ?? ''} · ${t('shipped')}` : (cap.reason ?? t('notInstalled'))}</span>
    </li>
  );
}

/**
 * Import: a model archive from another machine (`vidx models export`, or a tar of the hub's repository
 * folder), uploaded and checked by the server; the outcome is said next to the button, in the page's language.
 */
function ImportModel({ done }: { done: () => void }) {
  const { api, notify } = useSession();
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<{ busy?: string; error?: string }>({});
  const pick = (file: File | undefined) => {
    if (!file) return;
    setState({ busy: file.name });
    api.importModel(file).then(
      (m) => {
        setState({});
        notify(t('modelImported', m.id));
        done();
      },
      (e: Error) => setState({ error: t('importFailed', e.message) }),
    );
    if (input.current) input.current.value = '';
  };
  return (
    <section aria-labelledby="import-h" class="stack tight" data-import>
      <h3 id="import-h" class="sr">{t('importModel')}</h3>
      <p class="muted"><Coded text={t('importHint')} /></p>
      <div class="row wrap">
        <input ref={input} type="file" hidden aria-label={t('importModel')} accept=".tar,.tgz,.gz,application/x-tar,application/gzip" data-import-file onChange={(e) => pick(e.currentTarget.files?.[0])} />
        <button type="button" disabled={state.busy !== undefined} onClick={() => input.current?.click()}>{t('importModel')}</button>
        {state.busy !== undefined && <span role="status">{t('importing', state.busy)}</span>}
      </div>
      {state.error && <p class="error" role="alert" data-import-error>{state.error}</p>}
    </section>
  );
}

/**
 * The Models view (admins).
 * @example
 * <Models />
 */
export function Models() {
  const { api } = useSession();
  const list = useLoad(() => api.models(), [api]);
  const tasks = useTasks(() => list.reload());
  const pulls = tasks.filter((x) => x.kind === 'model_pull');
  const byCapability = new Map<string, ModelInfo[]>();
  for (const m of list.value?.models ?? []) byCapability.set(m.capability, [...(byCapability.get(m.capability) ?? []), m]);
  return (
    <div class="stack">
      <h2>{t('models')}</h2>
      <p class="muted">{t('modelsIntro')}</p>
      <p class="muted" data-legend>{t('defaultStar')}</p>
      {list.error && <p class="error" role="alert">{t('error', list.error.message)}</p>}
      {[...byCapability].map(([capability, models]) => (
        <section key={capability} aria-labelledby={`cap-${capability}`} class="stack tight">
          <h3 id={`cap-${capability}`}>{t(`cap_${capability}` as TextKey)}</h3>
          <ul class="stack tight">
            {models.map((m) => <ModelRow key={m.id} m={m} reload={list.reload} pull={pulls.find((p) => p.data.model_id === m.id)} />)}
          </ul>
        </section>
      ))}
      <ImportModel done={list.reload} />
      {list.value && (
        <section aria-labelledby="shipped-h" class="stack tight">
          <h3 id="shipped-h">{t('shippedHeading')}</h3>
          <ul class="stack tight">
            {SHIPPED.filter((c) => list.value!.capabilities[c]).map((c) => <CapabilityLine key={c} name={c} cap={list.value!.capabilities[c]} />)}
          </ul>
        </section>
      )}
    </div>
  );
}
