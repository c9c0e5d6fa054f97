/**
 * A photo as itself: the picture large, fitted to the screen or at its full size (then scrollable, also
 * with the arrow keys), with no clock, timeline or chapters: a still has no moments. The picture is the
 * item's `picture_url` (a JPEG the server made for a HEIC or TIFF, which browsers do not show); the original
 * file stays one link away.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../i18n.js';

/**
 * The picture viewer, focused once it is there; a click on the picture or the button switches between
 * "fit" and "full size". `original`: the kept file, offered for download when it is not the picture shown.
 * @example
 * <PhotoViewer src={item.picture_url} original={item.src} title="Bakery sign" />
 */
export function PhotoViewer({ src, original, title }: { src: string; original?: string; title: string }) {
  const [full, setFull] = useState(false);
  const frame = useRef<HTMLDivElement>(null);
  useEffect(() => {
    frame.current?.focus();
  }, []);
  return (
    <figure class="photo stack tight">
      {/* Focusable so the keyboard lands here and arrow keys scroll a picture shown at full size. */}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: focusable so arrow keys scroll a picture shown at full size */}
      {/* biome-ignore lint/a11y/useSemanticElements: a picture frame, not a form section */}
      <div ref={frame} class={`photo-frame ${full ? 'full' : 'fit'}`} tabIndex={0} role="group" aria-label={title}
        onKeyDown={(e) => { if (e.key === '+' || e.key === '-') { e.preventDefault(); setFull(e.key === '+'); } }}>
        {/* biome-ignore lint/a11y/useKeyWithClickEvents: the frame around it takes + and - from the keyboard */}
        <img src={src} alt={title} onClick={() => setFull(!full)} />
      </div>
      <figcaption class="row wrap">
        <button type="button" aria-pressed={full} onClick={() => setFull(!full)}>{t('photoFull')}</button>
        <a href={src} target="_blank" rel="noreferrer noopener">{t('photoOpen')}</a>
        {original && original !== src && <a href={original} download>{t('photoOriginal')}</a>}
      </figcaption>
    </figure>
  );
}
