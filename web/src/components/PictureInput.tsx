/**
 * The picture side of the search box: a labelled button that picks a picture, the chip of the picture (or
 * moment) being searched by, and a line that says how pictures are matched on this server (/health).
 */
import { useEffect, useState } from 'preact/hooks';
import { useSession } from '../context.js';
import { t } from '../i18n.js';
import { useLoad } from '../load.js';
import { href } from '../router.js';
import { PICTURE_TYPES } from '../picture-query.js';

/**
 * The file button (a hidden but focusable input whose label is drawn as a button).
 * @example
 * <PictureButton onPicture={search} />
 */
export function PictureButton({ onPicture }: { onPicture: (file: File) => void }) {
  return (
    <span class="pick-picture">
      <input id="picture" class="sr" type="file" accept={PICTURE_TYPES.join(',')} aria-describedby="picture-hint"
        onChange={(e) => { const file = e.currentTarget.files?.[0]; e.currentTarget.value = ''; if (file) onPicture(file); }} />
      {/* On a phone only the picture shows (the words stay its name), so the search bar fits one line. */}
      <label for="picture" class="button">
        <svg class="icon" viewBox="0 0 24 24" aria-hidden="true"><rect x="3" y="5" width="18" height="14" rx="2" /><circle cx="9" cy="10" r="1.8" /><path d="M4 18l5-5 4 4 3-3 4 4" /></svg>
        <span class="words">{t('pictureButton')}</span>
      </label>
    </span>
  );
}

/** A local preview of a picture, let go when the chip goes. */
function usePreview(file: File): string {
  const [url, setUrl] = useState('');
  useEffect(() => {
    const u = URL.createObjectURL(file);
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, [file]);
  return url;
}

/** A chip of what is searched by besides words: a small picture, what it is, a remove button. */
function Chip({ kind, picture, name, remove, onRemove }: { kind: 'picture' | 'like'; picture: string | null | undefined; name: string; remove: string; onRemove: () => void }) {
  return (
    <span class="probe" data-probe={kind}>
      {picture && <img src={picture} alt="" />}
      <span class="probe-name">{name}</span>
      <button type="button" class="link" aria-label={remove} title={remove} onClick={onRemove}>×</button>
    </span>
  );
}

/**
 * The chip of the picture being searched by: a small preview, its name and a remove button.
 * @example
 * <PictureChip file={file} onRemove={drop} />
 */
export function PictureChip({ file, onRemove }: { file: File; onRemove: () => void }) {
  const name = file.name || t('pastedPicture');
  return <Chip kind="picture" picture={usePreview(file)} name={name} remove={t('removePicture', name)} onRemove={onRemove} />;
}

/**
 * The chip of the moment whose look-alikes are searched: the item's thumbnail, its title and time.
 * @example
 * <LikeChip what="“Beach” at 0:12" picture={item.thumbnail_url} onRemove={drop} />
 */
export function LikeChip({ what, picture, onRemove }: { what: string; picture: string | null | undefined; onRemove: () => void }) {
  return <Chip kind="like" picture={picture} name={what} remove={t('removeLike', what)} onRemove={onRemove} />;
}

/**
 * How pictures are matched here: by fingerprint alone, or with the image–text model too (admins are told
 * where to install it).
 * @example
 * <PictureHint />
 */
export function PictureHint() {
  const { api, me } = useSession();
  const health = useLoad(() => api.health(), [api]);
  const kind = health.value?.picture_search;
  if (!kind) return <p id="picture-hint" class="hint" />;
  return (
    <p id="picture-hint" class="hint" data-picture-search={kind.image_text ? 'image_text' : 'fingerprints'}>
      {kind.image_text ? t('pictureHintModel') : t('pictureHintPrints')}
      {!kind.image_text && me.role === 'admin' && <> <a href={href('models')}>{t('pictureModelLink')}</a></>}
    </p>
  );
}
