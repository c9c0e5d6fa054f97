/**
 * How a collection's grid is ordered and filtered (server-side: GET …/items?sort=&order=&type=). The choice
 * is kept for the tab, per collection, so coming back from the player finds the grid as it was left.
 */
import { useState } from 'preact/hooks';
import type { ItemListing } from './api.js';

/** The grid's order and filter; `type` '' is every type. */
export interface Listing { sort: NonNullable<ItemListing['sort']>; order: 'asc' | 'desc'; type: '' | NonNullable<ItemListing['type']> }

/** The order each sort starts with: newest, longest first; names A to Z. */
export const NATURAL_ORDER: Record<Listing['sort'], Listing['order']> = { added: 'desc', captured: 'desc', duration: 'desc', name: 'asc' };

/** A new grid: newest additions first, every type. */
export const DEFAULT_LISTING: Listing = { sort: 'added', order: 'desc', type: '' };

const SORTS = Object.keys(NATURAL_ORDER);

/**
 * A stored listing read back, anything unexpected replaced by the default.
 * @example
 * parseListing('{"sort":"name","order":"asc","type":"image"}'); // { sort: 'name', order: 'asc', type: 'image' }
 */
export function parseListing(text: string | null): Listing {
  try {
    const v = JSON.parse(text ?? '') as Partial<Listing>;
    const sort = SORTS.includes(v.sort ?? '') ? (v.sort as Listing['sort']) : DEFAULT_LISTING.sort;
    const order = v.order === 'asc' || v.order === 'desc' ? v.order : NATURAL_ORDER[sort];
    const type = v.type === 'video' || v.type === 'audio' || v.type === 'image' ? v.type : '';
    return { sort, order, type };
  } catch {
    return DEFAULT_LISTING;
  }
}

/**
 * The listing of one collection and a setter that keeps it (sessionStorage).
 * @example
 * const [listing, setListing] = useListing('trips');
 */
export function useListing(collection: string): [Listing, (l: Listing) => void] {
  const name = `vidx.listing.${collection}`;
  const [state, setState] = useState<{ collection: string; listing: Listing }>(() => ({ collection, listing: parseListing(sessionStorage.getItem(name)) }));
  // Another collection in the same view: its own stored listing, read during render so no request goes out with the old one.
  const listing = state.collection === collection ? state.listing : parseListing(sessionStorage.getItem(name));
  const set = (l: Listing) => {
    sessionStorage.setItem(name, JSON.stringify(l));
    setState({ collection, listing: l });
  };
  return [listing, set];
}
