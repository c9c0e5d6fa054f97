/** A drop target for files that is also a button opening the file chooser (keyboard and touch users). */
import { useRef, useState } from 'preact/hooks';
import { t } from '../i18n.js';

/**
 * Drop target and file button in one; calls `onFiles` with what was dropped or chosen.
 * @example
 * <DropZone onFiles={upload} disabled={!collection} />
 */
export function DropZone({ onFiles, disabled }: { onFiles: (files: File[]) => void; disabled?: boolean }) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: a drop target for the mouse; the file input inside it is the keyboard's way
    <div id="drop" class={`drop ${over ? 'over' : ''}`}
      onDragOver={(e) => { e.preventDefault(); setOver(true); }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        e.preventDefault();
        setOver(false);
        if (!disabled) onFiles([...(e.dataTransfer?.files ?? [])]);
      }}>
      <p>{t('dropHere')}</p>
      {/* The input is hidden but focusable; its label, drawn as a button, shows its focus (see styles.css). */}
      <input id="files" ref={input} class="sr" type="file" multiple disabled={disabled} accept="video/*,audio/*,image/*"
        onChange={(e) => { onFiles([...(e.currentTarget.files ?? [])]); e.currentTarget.value = ''; }} />
      <label for="files" class="button primary">{t('chooseFiles')}</label>
    </div>
  );
}
