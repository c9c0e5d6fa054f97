/** Own and public collections: create, rename, publish (admins), delete with a confirmation. */
import { useState } from 'preact/hooks';
import type { Collection } from '../api.js';
import { CollectionForm } from '../components/CollectionForm.js';
import { useSession } from '../context.js';
import { t } from '../i18n.js';
import { useLoad } from '../load.js';
import { go, href } from '../router.js';
import { ask } from '../components/Dialog.js';
import { collectionsChanged } from '../collection-names.js';

function Card({ c, mine, reload }: { c: Collection; mine: boolean; reload: () => void }) {
  const { api, me, notify } = useSession();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(c.name);
  const pub = mine ? {} : { pub: 1 };
  const act = (p: Promise<unknown>, done?: string) =>
    p.then(() => { if (done) notify(done); collectionsChanged(); reload(); }, (e: Error) => notify(t('error', e.message), 'error'));
  const remove = async () => {
    const yes = await ask({ title: t('deleteCollectionTitle', c.name), body: t('deleteCollectionBody'), confirm: t('delete'), danger: true });
    if (yes) act(api.deleteCollection(c.collection_id), t('deleted'));
  };
  const rename = (e: Event) => {
    e.preventDefault();
    setRenaming(false);
    act(api.updateCollection(c.collection_id, { name }));
  };
  const thumb = c.thumbnails?.[0];
  return (
    <li class="card collection">
      {/* biome-ignore lint/a11y/useAnchorContent: the picture repeats the name link for the mouse; it is hidden from the keyboard and screen readers on purpose */}
      <a href={href('c', c.collection_id, pub)} class="thumb" tabIndex={-1} aria-hidden="true">
        {thumb ? <img src={thumb} alt="" loading="lazy" /> : <span class="ph" />}
      </a>
      <div class="stack tight">
        {renaming ? (
          <form onSubmit={rename} class="row">
            <label class="sr" for={`rn-${c.collection_id}`}>{t('name')}</label>
            <input id={`rn-${c.collection_id}`} value={name} required maxLength={100} onInput={(e) => setName(e.currentTarget.value)} />
            <button type="submit">{t('save')}</button>
            <button type="button" onClick={() => setRenaming(false)}>{t('cancel')}</button>
          </form>
        ) : (
          <h3><a href={href('c', c.collection_id, pub)}>{c.name}</a></h3>
        )}
        <p class="muted">{c.is_public ? t('public') : t('private')}{c.description ? ` · ${c.description}` : ''}</p>
        <div class="row wrap">
          <a class="button" href={href('c', c.collection_id, 'search', pub)}>{t('search')}</a>
          <a class="button" href={href('c', c.collection_id, 'explore', pub)}>{t('explore')}</a>
          {(mine || me.role === 'admin') && !renaming && (
            <button type="button" onClick={() => setRenaming(true)} aria-label={`${t('rename')}: ${c.name}`}>{t('rename')}</button>
          )}
          {(c.is_public ? mine || me.role === 'admin' : me.role === 'admin') && (
            <button type="button" onClick={() => act(api.updateCollection(c.collection_id, { is_public: !c.is_public }))}>
              {c.is_public ? t('makePrivate') : t('makePublic')}
            </button>
          )}
          {(mine || me.role === 'admin') && (
            <button type="button" class="danger" aria-label={`${t('delete')}: ${c.name}`} onClick={remove}>
              {t('delete')}
            </button>
          )}
        </div>
      </div>
    </li>
  );
}

/**
 * The collections view: the key's own, the form for a new one, then other owners' public ones.
 * @example
 * <Collections />
 */
export function Collections() {
  const { api } = useSession();
  const mine = useLoad(() => api.collections(false), [api]);
  const pub = useLoad(() => api.collections(true), [api]);
  const reload = () => { mine.reload(); pub.reload(); };
  const own = new Set(mine.value?.collections.map((c) => c.collection_id));
  const others = pub.value?.collections.filter((c) => !own.has(c.collection_id)) ?? [];
  return (
    <div class="stack">
      <section aria-labelledby="mine-h">
        <h2 id="mine-h">{t('myCollections')}</h2>
        {mine.error && <p class="error" role="alert">{t('error', mine.error.message)}</p>}
        {mine.value && !mine.value.collections.length && <p class="empty">{t('noCollectionsYet')}</p>}
        <ul class="cards">{mine.value?.collections.map((c) => <Card key={c.collection_id} c={c} mine reload={reload} />)}</ul>
      </section>
      <CollectionForm onCreated={(id) => go(href('c', id))} open={mine.value?.collections.length === 0} />
      {others.length > 0 && (
        <section aria-labelledby="pub-h">
          <h2 id="pub-h">{t('publicCollections')}</h2>
          <ul class="cards">{others.map((c) => <Card key={c.collection_id} c={c} mine={false} reload={reload} />)}</ul>
        </section>
      )}
    </div>
  );
}
