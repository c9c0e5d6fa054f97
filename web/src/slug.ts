/**
 * An identifier made from a name, as collection ids must be (letters, digits, `-`, `_`; 1..100): German
 * letters spelled out, accents dropped, anything else a dash.
 * @example
 * slugFrom('Family videos'); // 'family-videos'
 * slugFrom('Urlaub in Köln 2024'); // 'urlaub-in-koeln-2024'
 */
export function slugFrom(name: string): string {
  const spelled = name.toLowerCase().replace(/ä/g, 'ae').replace(/ö/g, 'oe').replace(/ü/g, 'ue').replace(/ß/g, 'ss');
  const plain = spelled.normalize('NFKD').replace(/\p{M}+/gu, '');
  const slug = plain.replace(/[^a-z0-9_-]+/g, '-').replace(/-{2,}/g, '-').replace(/^-+|-+$/g, '');
  return (slug || 'collection').slice(0, 90);
}

/**
 * The n-th candidate when an id is taken: the slug, then `slug-2`, `slug-3`, …
 * @example
 * candidate('family-videos', 2); // 'family-videos-2'
 */
export function candidate(slug: string, n: number): string {
  return n <= 1 ? slug : `${slug}-${n}`;
}
