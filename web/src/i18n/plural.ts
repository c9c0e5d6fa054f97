/** Texts that depend on a count, chosen by the language's own plural rules (Intl.PluralRules) rather than `n === 1`. */

/** One text per plural form the language uses; `other` is always there (en and de use `one` and `other`). */
export type Plural = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

/** One PluralRules per language: making one reads locale data, a count is chosen often. */
const rules = new Map<string, Intl.PluralRules>();

/**
 * The form of `forms` for `count` in the language `locale`; `other` where the language's form is missing.
 * @example
 * pluralForm({ one: '1 item', other: '{0} items' }, 1, 'en'); // '1 item'
 */
export function pluralForm(forms: Plural, count: number, locale: string): string {
  let r = rules.get(locale);
  if (!r) {
    r = new Intl.PluralRules(locale);
    rules.set(locale, r);
  }
  return forms[r.select(count)] ?? forms.other;
}
