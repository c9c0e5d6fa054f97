import { z } from '@hono/zod-openapi';

/**
 * Where an item was recorded, named offline from its GPS point (GeoNames; see docs/places.md).
 * @example
 * Place.parse({ city: 'Lisbon', district: null, region: 'Lisbon', country: 'Portugal', country_code: 'PT' });
 */
export const Place = z
  .object({
    city: z.string().openapi({ description: 'The populated place (of 1,000 or more people) the point lies in or nearest to, as GeoNames names it (in German where GeoNames has a German name and the reader reads German: `München`)' }),
    district: z.string().nullable().openapi({ description: 'A part of the city GeoNames names (`Kreuzberg`), when the point lies in one' }),
    region: z.string().nullable().openapi({ description: 'The first-order region (state, province), in English, or in German (`Bayern`) where GeoNames has it for a German reader' }),
    country: z.string().openapi({ description: 'The country, in English, or in German for a German reader (Accept-Language preferring de; search_language de for POST /search)' }),
    country_code: z.string().length(2).openapi({ description: 'ISO 3166-1 alpha-2' }),
  })
  .openapi('Place');

/** The `near` filter's fields, shared by POST /search and the items list. */
export const nearFields = {
  near: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .optional()
    .openapi({
      description:
        'vidx extra: only items recorded near a place: a city (`Lisbon`, `Lissabon`), a region (`Bavaria`), a country (`Portugal`, `Deutschland`), or `latitude,longitude` (`38.72,-9.14`). Items without GPS are left out. A name nothing is called is a 422 naming `near`',
    }),
  near_km: z.coerce
    .number()
    .gt(0)
    .max(2000)
    .optional()
    .openapi({ description: 'vidx extra: the radius around a city or a `latitude,longitude` point, in km (default 25); a region or country is matched whole' }),
};

/** The credit the GeoNames licence (CC BY 4.0) asks for wherever place names are shown. */
export const GEONAMES_CREDIT = 'Place names from GeoNames (geonames.org), CC BY 4.0';

/**
 * GET /collections/{id}/places: where the items were recorded, most items first.
 * @example
 * PlaceList.parse({ places: [{ city: 'Lisbon', region: 'Lisbon', country: 'Portugal', country_code: 'PT', items: 3, latitude: 38.72, longitude: -9.14 }], credit: GEONAMES_CREDIT });
 */
export const PlaceList = z
  .object({
    places: z.array(
      z.object({
        city: z.string(),
        region: z.string().nullable(),
        country: z.string(),
        country_code: z.string(),
        items: z.number().int().openapi({ description: 'Items recorded there' }),
        latitude: z.number().openapi({ description: "The mean of the items' latitudes" }),
        longitude: z.number().openapi({ description: "The mean of the items' longitudes" }),
      }),
    ),
    credit: z.string().openapi({ description: 'Where the place names come from, to show with them' }),
  })
  .openapi('PlaceList');
