/**
 * What the server read in the search's words besides words (a place of the collection, a date), as chips in
 * the search bar: "in Lisbon ×", "2019 ×". Removing one searches the words as typed, with nothing read in them.
 */
import type { Understood } from '../api.js';
import { daysText } from '../format.js';
import { t, useLang } from '../i18n.js';

/**
 * The chips of what a search understood; nothing when it understood nothing. `onRemove` searches the words as typed.
 * @example
 * <UnderstoodChips understood={{ place: 'Lisbon', from: '2019-01-01', to: '2019-12-31', words: '' }} onRemove={() => go(asTyped)} />
 */
export function UnderstoodChips({ understood, onRemove }: { understood: Understood | undefined; onRemove: () => void }) {
  const language = useLang();
  if (!understood) return null;
  const parts = [
    ...(understood.place ? [{ kind: 'place', text: t('inPlace', understood.place) }] : []),
    ...(understood.from && understood.to ? [{ kind: 'days', text: daysText(understood.from, understood.to, language) }] : []),
  ];
  if (parts.length === 0) return null;
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of chips inside the search form; a fieldset would draw a frame and a legend
    <span class="understood" role="group" aria-label={t('understoodLabel')} data-understood>
      {parts.map((p) => (
        <span key={p.kind} class="chip speaker" data-understood-part={p.kind}>
          {p.text}
          <button type="button" class="small" aria-label={t('dropUnderstood', p.text)} title={t('dropUnderstood', p.text)} onClick={onRemove}>×</button>
        </span>
      ))}
    </span>
  );
}
