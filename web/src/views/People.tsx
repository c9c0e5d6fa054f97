/**
 * The people of a collection: the faces and voices settings (with what they mean), each person with their
 * best crop or how often they are heard, a name to give, merging two people who are one, deleting one; and
 * one person's moments to play and voices to hear.
 */
import { useState } from 'preact/hooks';
import type { LinkSuggestion, Person, PersonVoice, Task } from '../api.js';
import { useSession } from '../context.js';
import { ask } from '../components/Dialog.js';
import { tasksChanged } from '../tasks-store.js';
import { failureText } from '../task-words.js';
import { Coded } from '../components/Coded.js';
import { useTasks } from '../use-tasks.js';
import { useCollections } from '../collection-names.js';
import { clock } from '../format.js';
import { t } from '../i18n.js';
import { useLoad } from '../load.js';
import { href } from '../router.js';

function PersonCard({ collection, person, others, onChange }: { collection: string; person: Person; others: Person[]; onChange: () => void }) {
  const { api, notify } = useSession();
  const [name, setName] = useState(person.name ?? '');
  const [other, setOther] = useState('');
  const label = person.name ?? t('unnamed');
  const act = (p: Promise<unknown>) => p.then(onChange, (e: Error) => notify(t('error', e.message), 'error'));
  return (
    <li class="card person stack tight" data-person={person.person_id}>
      {/* biome-ignore lint/a11y/useAnchorContent: the face repeats the name link for the mouse; it is hidden from the keyboard and screen readers on purpose */}
      <a href={href('c', collection, 'people', person.person_id)} class="thumb" tabIndex={-1} aria-hidden="true">
        {person.cover_url ? <img src={person.cover_url} alt="" loading="lazy" /> : <span class="ph" />}
      </a>
      <h3><a href={href('c', collection, 'people', person.person_id)}>{label}</a></h3>
      {(person.face_count > 0 || person.voice_count === 0) && <p class="muted">{t('faceCounts', person.face_count, person.media_count)}</p>}
      {person.voice_count > 0 && <p class="muted" data-voices>{t('voiceCounts', person.voice_count, clock(person.voice_seconds))}</p>}
      <form class="row" onSubmit={(e) => { e.preventDefault(); act(api.namePerson(collection, person.person_id, name.trim() || null)); }}>
        <label class="sr" for={`n-${person.person_id}`}>{t('personName')}</label>
        <input id={`n-${person.person_id}`} value={name} maxLength={200} placeholder={t('personName')} onInput={(e) => setName(e.currentTarget.value)} />
        <button type="submit">{t('save')}</button>
      </form>
      {others.length > 0 && (
        <form class="row" onSubmit={(e) => { e.preventDefault(); if (other) act(api.mergePeople(collection, other, person.person_id)); }}>
          <label class="sr" for={`m-${person.person_id}`}>{t('mergeInto')}</label>
          <select id={`m-${person.person_id}`} value={other} onChange={(e) => setOther(e.currentTarget.value)}>
            <option value="">{t('mergeInto')}</option>
            {others.map((o) => <option key={o.person_id} value={o.person_id}>{o.name ?? `${t('unnamed')} (${o.face_count})`}</option>)}
          </select>
          <button type="submit" disabled={!other}>{t('merge')}</button>
        </form>
      )}
      <button type="button" class="danger small" aria-label={`${t('delete')}: ${label}`}
        onClick={async () => (await ask({ title: t('deletePersonTitle', label), body: t('deletePersonBody'), confirm: t('delete'), danger: true })) && act(api.deletePerson(collection, person.person_id))}>{t('delete')}</button>
    </li>
  );
}

/**
 * A voice vidx thinks is a named face's: why, a link to hear the voice, and the button that links them
 * (a merge of the voice's person into the face's). vidx never links them by itself.
 */
function Suggestion({ collection, s, onChange }: { collection: string; s: LinkSuggestion; onChange: () => void }) {
  const { api, notify } = useSession();
  const link = () => api.mergePeople(collection, s.face_person_id, s.voice_person_id).then(onChange, (e: Error) => notify(t('error', e.message), 'error'));
  return (
    <li class="card stack tight" data-suggestion={s.voice_person_id}>
      <strong>{t('linkAsk', s.name)}</strong>
      <p class="muted">{t('linkWhy', s.recordings, s.name)}</p>
      <div class="row wrap">
        <a href={href('c', collection, 'people', s.voice_person_id)}>{t('linkSamples')}</a>
        <button type="button" onClick={link}>{t('linkYes')}</button>
      </div>
    </li>
  );
}

/** Whether a pull task is still queued or running. */
const pullOpen = (pull: Task | undefined) => pull !== undefined && (pull.status === 'queued' || pull.status === 'running');

/**
 * What keeps faces from being found, with what to do: the face model is not installed (admins: Install),
 * items were indexed without looking for faces (Re-index them).
 */
function FacesMissing({ collection, unscanned }: { collection: string; unscanned: number }) {
  const { api, me, notify } = useSession();
  const health = useLoad(() => api.health(), [api]);
  const tasks = useTasks(() => health.reload());
  const [pulling, setPulling] = useState<string | null>(null);
  const pull = pulling === null ? undefined : tasks.find((x) => x.kind === 'model_pull' && x.data.model_id === pulling);
  const noModel = health.value?.capabilities.face_embedding?.available === false;
  const fail = (e: Error) => notify(t('error', e.message), 'error');
  const install = async () => {
    const { models } = await api.models();
    const face = models.find((m) => m.capability === 'face_embedding' && (m.default || m.in_use)) ?? models.find((m) => m.capability === 'face_embedding');
    if (face) await api.pullModel(face.id).then(() => { setPulling(face.id); tasksChanged(); }, fail);
  };
  const reindex = () => api.reindex(collection, null).then(() => { tasksChanged(); notify(t('reindexQueued')); }, fail);
  if (!noModel && !unscanned) return null;
  return (
    <div class="notice stack tight" role="note" data-notice="faces-missing">
      {noModel && (
        <p>
          {t('noFaceModel')} {me.role !== 'admin' ? t('askAdmin') : pullOpen(pull) ? <span role="status">{t('installing', Math.round((pull?.progress ?? 0) * 100))}</span> : <button type="button" onClick={() => void install().catch(fail)}>{t('install')}</button>}
        </p>
      )}
      {noModel && pull?.status === 'failed' && <p class="error" role="alert" data-install-error><Coded text={failureText(pull)} /></p>}
      {unscanned > 0 && (
        <p>
          {t('unscanned', unscanned)} <button type="button" onClick={reindex}>{t('reindexThem')}</button> <a href={href('tasks')}>{t('seeTasks')}</a>
        </p>
      )}
    </div>
  );
}

/** One voice of a person: its recording and speaker, a player of its sample, a link to play it in the recording. */
function VoiceSample({ collection, voice }: { collection: string; voice: PersonVoice }) {
  const title = voice.title || voice.media_id;
  return (
    <li class="card stack tight" data-voice={voice.voice_id}>
      <strong>{t('voiceIn', title, voice.speaker)}</strong>
      {/* biome-ignore lint/a11y/useMediaCaption: a few seconds to know a voice by; what is said is in the recording's transcript, one link away */}
      {voice.sample_url && <audio controls preload="none" src={voice.sample_url} aria-label={`${t('playVoice')}: ${title}`} />}
      {voice.sample && <a href={href('c', collection, 'play', voice.media_id, { t: voice.sample.start })}>{t('at', clock(voice.sample.start))}</a>}
    </li>
  );
}

/** One person's voices and moments, each a link to the player at its start. */
function PersonMoments({ collection, personId }: { collection: string; personId: string }) {
  const { api } = useSession();
  const found = useLoad(() => api.personMoments(collection, personId), [api, collection, personId]);
  const voices = useLoad(() => api.personVoices(collection, personId), [api, collection, personId]);
  const name = found.value ? (found.value.person.name ?? t('unnamed')) : '';
  return (
    <div class="stack">
      <div class="row between wrap">
        <h2>{t('momentsOf', name)}</h2>
        <a class="button" href={href('c', collection, 'people')}>{t('allPeople')}</a>
      </div>
      {found.error && <p class="error" role="alert">{t('error', found.error.message)}</p>}
      {(voices.value?.voices.length ?? 0) > 0 && (
        <section class="stack tight" aria-label={t('voicesOf', name)}>
          <h3>{t('voicesOf', name)}</h3>
          <ul class="cards grid voices">{voices.value!.voices.map((v) => <VoiceSample key={v.voice_id} collection={collection} voice={v} />)}</ul>
        </section>
      )}
      <ol class="moments">
        {(found.value?.moments ?? []).map((m) => (
          <li key={`${m.media_id}-${m.track_id}`}>
            <a class="card moment" data-result href={href('c', collection, 'play', m.media_id, { t: Math.round(m.start * 10) / 10 })}>
              <span class="thumb">{m.thumbnail_url ? <img src={m.thumbnail_url} alt="" loading="lazy" /> : <span class="ph" />}<span class="badge">{clock(m.start)}</span></span>
              <span class="stack tight"><strong>{m.title || m.media_id}</strong><span class="muted">{t('at', clock(m.start))} – {clock(m.end)}</span></span>
            </a>
          </li>
        ))}
      </ol>
    </div>
  );
}

/**
 * The people view of a collection, or one person's moments when `personId` is given.
 * @example
 * <People collection="family" />
 */
export function People({ collection, personId }: { collection: string; personId?: string }) {
  const { api, notify } = useSession();
  const { name } = useCollections(api);
  const list = useLoad(() => api.people(collection), [api, collection]);
  // The box shows the choice at once; the server's answer (or its refusal) settles it.
  const [asked, setAsked] = useState<boolean | null>(null);
  const [askedVoices, setAskedVoices] = useState<boolean | null>(null);
  if (personId) return <PersonMoments collection={collection} personId={personId} />;
  const faces = asked ?? list.value?.faces ?? false;
  const voices = askedVoices ?? list.value?.voices ?? false;
  const toggleVoices = async (on: boolean) => {
    if (!on && !(await ask({ title: t('confirmVoicesOff', name(collection)), body: t('voicesExplain'), confirm: t('delete'), danger: true }))) return;
    setAskedVoices(on);
    api.setVoices(collection, on).then(
      () => list.reload(),
      (e: Error) => { setAskedVoices(null); notify(t('error', e.message), 'error'); },
    );
  };
  const people = list.value?.people ?? [];
  const toggle = async (on: boolean) => {
    if (!on && !(await ask({ title: t('confirmFacesOff', name(collection)), body: t('facesExplain'), confirm: t('delete'), danger: true }))) return;
    setAsked(on);
    api.setFaces(collection, on).then(
      () => list.reload(),
      (e: Error) => { setAsked(null); notify(t('error', e.message), 'error'); },
    );
  };
  return (
    <div class="stack">
      <h2>{t('people')} · {name(collection)}</h2>
      {list.error && <p class="error" role="alert">{t('error', list.error.message)}</p>}
      {list.value && (
        <div class="card stack tight">
          <label class="row"><input type="checkbox" checked={faces} onChange={(e) => toggle(e.currentTarget.checked)} /> {t('facesOn')}</label>
          <p class="muted">{t('facesExplain')}</p>
          <label class="row"><input type="checkbox" checked={voices} onChange={(e) => toggleVoices(e.currentTarget.checked)} data-voices-setting /> {t('voicesOn')}</label>
          <p class="muted">{t('voicesExplain')}</p>
        </div>
      )}
      {list.value && faces && <FacesMissing collection={collection} unscanned={list.value.unscanned_items} />}
      {list.value && (faces || voices) && !people.length && <p class="muted">{t('noPeople')}</p>}
      {(list.value?.suggestions.length ?? 0) > 0 && (
        <ul class="cards grid" aria-label={t('linkSamples')}>
          {list.value!.suggestions.map((s) => <Suggestion key={s.voice_person_id} collection={collection} s={s} onChange={() => list.reload()} />)}
        </ul>
      )}
      <ul class="cards grid" aria-label={t('people')}>
        {people.map((p) => (
          <PersonCard key={p.person_id} collection={collection} person={p} others={people.filter((o) => o.person_id !== p.person_id)} onChange={() => list.reload()} />
        ))}
      </ul>
    </div>
  );
}
