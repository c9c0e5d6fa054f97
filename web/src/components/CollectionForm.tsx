/** Creates a collection; the "public" box only for admins (the API refuses it to others). */
import { useState } from 'preact/hooks';
import { useSession } from '../context.js';
import { t } from '../i18n.js';

/**
 * The "new collection" form (folded away until opened).
 * @example
 * <CollectionForm onCreated={reload} />
 */
export function CollectionForm({ onCreated }: { onCreated: () => void }) {
  const { api, me, notify } = useSession();
  const [id, setId] = useState('');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [isPublic, setPublic] = useState(false);
  const submit = (e: Event) => {
    e.preventDefault();
    api.createCollection({ collection_id: id, name: name || id, description: description || null, is_public: isPublic }).then(
      () => { setId(''); setName(''); setDescription(''); setPublic(false); onCreated(); },
      (err: Error) => notify(t('error', err.message), 'error'),
    );
  };
  return (
    <details class="card">
      <summary>{t('newCollection')}</summary>
      <form onSubmit={submit} class="stack">
        <label for="nc-id">{t('collectionId')}</label>
        <input id="nc-id" required maxLength={100} pattern="[A-Za-z0-9_\-]+" value={id} onInput={(e) => setId(e.currentTarget.value)} />
        <label for="nc-name">{t('name')}</label>
        <input id="nc-name" maxLength={100} value={name} placeholder={id} onInput={(e) => setName(e.currentTarget.value)} />
        <label for="nc-desc">{t('description')}</label>
        <input id="nc-desc" value={description} onInput={(e) => setDescription(e.currentTarget.value)} />
        {me.role === 'admin' && (
          <label class="check"><input type="checkbox" checked={isPublic} onChange={(e) => setPublic(e.currentTarget.checked)} /> {t('isPublic')}</label>
        )}
        <button type="submit" class="primary">{t('create')}</button>
      </form>
    </details>
  );
}
