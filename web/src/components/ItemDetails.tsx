/**
 * An item's details in the player: title (renamed here by its owner), type, length, size, the date with
 * what kind of date it is, and where a folder item lies inside its folder.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Item } from '../api.js';
import { useSession } from '../context.js';
import { formatBytes } from '../../../src/tools/bytes.js';
import { clock, dateTime, placeText } from '../format.js';
import { type Lang, t, useLang } from '../i18n.js';

/**
 * "recorded 14 Jul 2019, 09:30" when the file states it, "file date …" when only the file's own date is
 * known (never shown as when it was taken), '' without a date.
 * @example
 * datedText(item, 'en'); // 'recorded 14 Jul 2019, 09:30'
 */
export function datedText(item: Pick<Item, 'captured_at' | 'captured_at_source'>, lang: Lang): string {
  const when = item.captured_at ? dateTime(item.captured_at, lang) : '';
  if (!when) return '';
  return item.captured_at_source === 'file' ? t('fileDate', when) : t('recordedOn', when);
}

/**
 * The details list; `canEdit` (the owner or an admin) adds Rename, which saves the title at once and
 * reports the new one.
 * @example
 * <ItemDetails collection="trips" item={item} canEdit onRenamed={setTitle} />
 */
export function ItemDetails({ collection, item, canEdit, onRenamed }: { collection: string; item: Item; canEdit: boolean; onRenamed: (title: string | null) => void }) {
  const { api, notify } = useSession();
  const lang = useLang();
  const title = item.title || item.media_id;
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(title);
  // Back on Rename once the form closes, so the keyboard is where it was and not at the top of the page.
  const renameButton = useRef<HTMLButtonElement>(null);
  const wasRenaming = useRef(false);
  useEffect(() => {
    if (wasRenaming.current && !renaming) renameButton.current?.focus();
    wasRenaming.current = renaming;
  }, [renaming]);
  const stop = () => { setRenaming(false); setName(title); };
  const dated = datedText(item, lang);
  const rename = (e: Event) => {
    e.preventDefault();
    api.updateItem(collection, item.media_id, { title: name.trim() }).then(
      (changed) => { setRenaming(false); notify(t('renamed')); onRenamed(changed.title); },
      (err: Error) => notify(t('error', err.message), 'error'),
    );
  };
  return (
    <section class="stack tight" aria-labelledby="details-h">
      <h3 id="details-h">{t('itemDetails')}</h3>
      <dl class="details">
        <dt>{t('itemTitle')}</dt>
        <dd>
          {renaming ? (
            <form class="row wrap" onSubmit={rename} onKeyDown={(e) => { if (e.key === 'Escape') stop(); }}>
              <label class="sr" for="item-title">{t('itemTitle')}</label>
              {/* biome-ignore lint/a11y/noAutofocus: the field appears because the user pressed Rename; focus goes where they will type */}
              <input id="item-title" autoFocus required maxLength={200} value={name} onInput={(e) => setName(e.currentTarget.value)} />
              <button type="submit" class="primary">{t('save')}</button>
              <button type="button" onClick={stop}>{t('cancel')}</button>
            </form>
          ) : (
            <span class="row wrap">
              <span>{title}</span>
              {canEdit && (
                <button type="button" ref={renameButton} class="small" aria-label={`${t('rename')}: ${title}`} onClick={() => { setName(title); setRenaming(true); }}>{t('rename')}</button>
              )}
            </span>
          )}
        </dd>
        <dt>{t('mediaType')}</dt><dd>{t(`type_${item.type}`)}</dd>
        {item.type !== 'image' && item.duration ? <><dt>{t('duration')}</dt><dd>{clock(item.duration)}</dd></> : null}
        {item.size != null && <><dt>{t('detailSize')}</dt><dd>{formatBytes(item.size, lang)}</dd></>}
        {dated && (
          <><dt>{t('detailDate')}</dt><dd><time dateTime={item.captured_at ?? ''} title={item.captured_at_source === 'file' ? t('fileDateHint') : item.captured_at_source === 'filename' ? t('nameDateHint') : t('takenHint')}>{dated}</time></dd></>
        )}
        {item.place && <><dt>{t('detailPlace')}</dt><dd data-place>{placeText(item.place, lang)}</dd></>}
        {item.folder_path && <><dt>{t('inFolder')}</dt><dd class="path">{item.folder_path}</dd></>}
      </dl>
    </section>
  );
}
