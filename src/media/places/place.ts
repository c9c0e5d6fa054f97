/** The named place of a point, as the gazetteer gives it and the names of places in German speak of it. */

/** Where a photo or video was taken, in words (GeoNames' names; the country in English). */
export interface Place {
  city: string;
  /** A part of the city GeoNames names ("Kreuzberg"), when the point lies in one. */
  district: string | null;
  region: string | null;
  country: string;
  /** ISO 3166-1 alpha-2. */
  country_code: string;
}
