/**
 * Creates a collection from a name: its identifier is made from the name (a unique slug, editable under
 * "More options"); the "public" box only for admins (the API refuses it to others).
 */
import { useState } from 'preact/hooks';
import { VidxError } from '../api.js';
import { collectionsChanged, useCollections } from '../collection-names.js';
import { useSession } from '../context.js';
import { t } from '../i18n.js';
import { candidate, slugFrom } from '../slug.js';

/** Tries the slug, then slug-2, slug-3 … while the server says the id is taken (at most this many). */
const TRIES = 20;

/**
 * The "new collection" form.
 * @example
 * <CollectionForm onCreated={(id) => go(href('c', id))} open />
 */
export function CollectionForm({ onCreated, open = false }: { onCreated: (id: string) => void; open?: boolean }) {
  const { api, me, notify } = useSession();
  const { list } = useCollections(api);
  const [name, setName] = useState('');
  const [id, setId] = useState('');
  const [idEdited, setIdEdited] = useState(false);
  const [description, setDescription] = useState('');
  const [isPublic, setPublic] = useState(false);
  const slug = idEdited ? id : slugFrom(name);
  const submit = async (e: Event) => {
    e.preventDefault();
    // An id the user typed is taken as it is; one made from the name goes on to -2, -3 … past the ids
    // the page knows, and further when the server says one is taken (another owner's private one).
    const known = new Set(list.map((c) => c.collection_id));
    let n = 1;
    while (!idEdited && known.has(candidate(slug, n))) n++;
    for (const last = n + (idEdited ? 0 : TRIES); n <= last; n++) {
      try {
        const c = await api.createCollection({ collection_id: candidate(slug, n), name: name.trim(), description: description || null, is_public: isPublic });
        setName(''); setId(''); setIdEdited(false); setDescription(''); setPublic(false);
        collectionsChanged();
        onCreated(c.collection_id);
        return;
      } catch (err) {
        if (err instanceof VidxError && err.status === 409 && !idEdited) continue;
        return notify(t('error', (err as Error).message), 'error');
      }
    }
  };
  return (
    <details class="card" open={open}>
      <summary>{t('newCollection')}</summary>
      <form onSubmit={submit} class="stack">
        <label for="nc-name">{t('name')}</label>
        <input id="nc-name" required maxLength={100} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <details>
          <summary>{t('moreOptions')}</summary>
          <div class="stack">
            <label for="nc-id">{t('identifier')}</label>
            <input id="nc-id" maxLength={100} pattern="[A-Za-z0-9_\-]+" value={slug} aria-describedby="nc-id-hint"
              onInput={(e) => { setId(e.currentTarget.value); setIdEdited(true); }} />
            <p id="nc-id-hint" class="muted">{t('identifierHint')}</p>
            <label for="nc-desc">{t('description')}</label>
            <input id="nc-desc" value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
            {me.role === 'admin' && (
              <label class="check"><input type="checkbox" checked={isPublic} onChange={(e) => setPublic(e.currentTarget.checked)} /> {t('isPublic')}</label>
            )}
          </div>
        </details>
        <button type="submit" class="primary">{t('create')}</button>
      </form>
    </details>
  );
}
