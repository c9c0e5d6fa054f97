/** Selecting many items of the grid: "select all shown", how many are selected, and what to do with them. */
import { useEffect, useRef } from 'preact/hooks';
import { t } from '../i18n.js';

/**
 * The selection row above the grid; the actions appear once something is selected.
 * @example
 * <SelectionBar shown={48} selected={3} onAll={selectAll} onReindex={reindex} onDelete={remove} onClear={clear} />
 */
export function SelectionBar({ shown, selected, busy, onAll, onReindex, onDelete, onClear }: {
  shown: number; selected: number; busy: boolean;
  onAll: (on: boolean) => void; onReindex: () => void; onDelete: () => void; onClear: () => void;
}) {
  const all = useRef<HTMLInputElement>(null);
  const every = shown > 0 && selected >= shown;
  // "Some selected" is a third state a checkbox can only show through its DOM property.
  useEffect(() => {
    if (all.current) all.current.indeterminate = selected > 0 && !every;
  }, [selected, every]);
  if (!shown) return null;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a toolbar of actions on the selection, not a form section
    <div class="row wrap selection" role="group" aria-label={t('selection')}>
      <label class="check">
        <input ref={all} type="checkbox" checked={every} onChange={(e) => onAll(e.currentTarget.checked)} /> {t('selectAllShown', shown)}
      </label>
      <span class="muted" aria-live="polite">{selected > 0 ? t('selectedCount', selected) : ''}</span>
      {selected > 0 && (
        <>
          <button type="button" disabled={busy} onClick={onReindex}>{t('reindexSelected')}</button>
          <button type="button" class="danger" disabled={busy} onClick={onDelete}>{t('deleteSelected')}</button>
          <button type="button" class="link" onClick={onClear}>{t('clearSelection')}</button>
        </>
      )}
    </div>
  );
}
