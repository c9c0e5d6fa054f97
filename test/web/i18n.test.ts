/** The page's text tables (web/src/i18n), run under node: the same keys and arguments in both languages, counts by Intl.PluralRules. */
import { describe, expect, it } from 'vitest';
import { de } from '../../web/src/i18n/de.js';
import { en } from '../../web/src/i18n/en.js';
import { type Plural, pluralForm } from '../../web/src/i18n/plural.js';

/** The `{n}` arguments a text uses, whatever its plural form. */
const argsOf = (text: string | Plural) => [...new Set(Object.values(typeof text === 'string' ? { other: text } : text).flatMap((x) => x?.match(/\{\d\}/g) ?? []))].sort();

describe('page texts', () => {
  it('has the same keys, kinds and arguments in English and German', () => {
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(typeof de[key], key).toBe(typeof en[key]);
      // A plural's `one` may say "1" outright; the other forms and plain texts use the same arguments.
      const strip = (x: string | Plural) => (typeof x === 'string' ? x : { other: x.other });
      expect(argsOf(strip(de[key])), key).toEqual(argsOf(strip(en[key])));
    }
  });

  it('picks the plural form of a count by the language’s rules', () => {
    expect([0, 1, 2, 5].map((n) => pluralForm(en.itemCount, n, 'en').replace('{0}', String(n)))).toEqual(['0 items', '1 item', '2 items', '5 items']);
    expect([1, 3].map((n) => pluralForm(de.itemCount, n, 'de').replace('{0}', String(n)))).toEqual(['1 Eintrag', '3 Einträge']);
    expect(pluralForm(en.gridReindexQueued, 1, 'en')).toBe('Re-indexing 1 item was queued.');
    expect(pluralForm(de.groupCount, 2, 'de')).toBe('{0} Gruppen von Kopien');
    // A form the table lacks falls back to `other`.
    expect(pluralForm({ other: '{0} x' }, 1, 'en')).toBe('{0} x');
  });
});
