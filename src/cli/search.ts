import { apiClient, CliError, EXIT } from './client.js';
import { CLIENT_HELP, CLIENT_OPTIONS, clientFrom, intFlag, output, parseFlags, runCommand } from './common.js';
import { clock } from '../tools/clock.js';

/**
 * What a search understood, as the line printed before its results.
 * @example
 * understoodLine({ place: 'Lisbon', from: '2019-01-01', to: '2019-12-31', words: '' }); // 'understood: in Lisbon, 2019-01-01 – 2019-12-31'
 */
export function understoodLine(u: { place: string | null; from: string | null; to: string | null; words: string }): string {
  const parts = [...(u.place ? [`in ${u.place}`] : []), ...(u.from && u.to ? [u.from === u.to ? u.from : `${u.from} – ${u.to}`] : []), ...(u.words ? [`words "${u.words}"`] : [])];
  return `understood: ${parts.join(', ')}`;
}

const HELP = `Usage: vidx search "<query>" --collection C [options]

Searches one collection (POST /search) and prints the best moments first: score, title, time, the
passage that matched and a link to that moment.

Options:
  --collection C    collection to search (required)
  --limit N         results wanted, 1..100 (default 10)
  --media-id ID     search one media item only
  --threshold X     drop results scoring below X, 0..1 (default 0)
  --near PLACE      only items recorded near a city, region or country (Lisbon, Lissabon, Bavaria,
                    Deutschland) or "latitude,longitude"
  --near-km KM      the radius around a city or point (default 25)
  --speaker WHO     only what this person says: a name or a person id (needs voices on for the
                    collection); with no query, everything they say
  --as-typed        search the words as given: never read a misspelt word as the collection's nearest,
                    nor a date or place in them as a filter

Dates (English or German: 2019, "May 2024", "last summer", "Weihnachten 2022") and places the
collection's items were recorded at ("Lisbon") in the query are searched as filters; a line
"understood: …" says so before the results. Relative dates count from the server's clock.

${CLIENT_HELP}`;


/**
 * \`vidx search "<query>" --collection C\`: POST /search and print the results.
 * @example
 * process.exitCode = await searchCommand(['apple cake', '--collection', 'trips', '--json']);
 */
export async function searchCommand(argv: string[]): Promise<number> {
  return runCommand('search', HELP, argv, async () => {
    const { values, positionals } = parseFlags(argv, {
      ...CLIENT_OPTIONS,
      collection: { type: 'string', short: 'c' },
      limit: { type: 'string' },
      'media-id': { type: 'string' },
      threshold: { type: 'string' },
      near: { type: 'string' },
      'near-km': { type: 'string' },
      speaker: { type: 'string' },
      'as-typed': { type: 'boolean' },
    });
    const query = positionals.join(' ').trim();
    if (!query && !values.speaker) throw new CliError('give a query, e.g. vidx search "apple cake" --collection trips (or --speaker)', EXIT.USAGE);
    if (!values.collection) throw new CliError('--collection is required', EXIT.USAGE);
    const threshold = values.threshold === undefined ? undefined : Number(values.threshold);
    if (threshold !== undefined && !(threshold >= 0 && threshold <= 1)) throw new CliError(`--threshold must be a number from 0 to 1, got "${values.threshold}"`, EXIT.USAGE);
    const nearKm = values['near-km'] === undefined ? undefined : Number(values['near-km']);
    if (nearKm !== undefined && !(nearKm > 0 && nearKm <= 2000)) throw new CliError(`--near-km must be a number of km above 0, at most 2000, got "${values['near-km']}"`, EXIT.USAGE);
    const body = {
      ...(query ? { query } : {}),
      ...(values.speaker ? { speaker: values.speaker } : {}),
      collection: values.collection,
      limit: intFlag('--limit', values.limit, 10, 1, 100),
      ...(values['media-id'] ? { media_id: values['media-id'] } : {}),
      ...(threshold !== undefined ? { threshold } : {}),
      ...(values.near ? { near: values.near } : {}),
      ...(nearKm !== undefined ? { near_km: nearKm } : {}),
      ...(values['as-typed'] ? { correct_typos: false, understand: false } : {}),
    };
    const res = await apiClient(clientFrom(values)).POST('/search', { body });
    const lines = res.results.map((r) => {
      const text = r.content.replace(/\s+/g, ' ').trim();
      const short = text.length > 100 ? `${text.slice(0, 99)}…` : text;
      const where = r.place ? `  (${[r.place.city, r.place.country].join(', ')})` : '';
      // The title a person gave or the file's name; the media id only for an item without either.
      const who = r.speaker ? `${r.speaker.name ?? r.speaker.person_id}: ` : '';
      return `${r.score.toFixed(2)}  ${r.title || r.media_id}  ${clock(r.start_time)}  ${who}${short}${where}${r.src ? `\n      ${r.src}` : ''}`;
    });
    // What the answer could not look for, and words searched as others, come before the moments they shaped.
    const said = [
      ...(res.understood ? [understoodLine(res.understood)] : []),
      ...(res.corrected.length ? [`showing results for ${res.corrected.map((c) => `${c.to} (not ${c.from})`).join(', ')}; --as-typed searches "${res.original_query ?? query}" instead`] : []),
      ...res.notices.map((n) => `note: ${n.message}`),
    ];
    output(values.json, res, [...said, res.results.length ? lines.join('\n') : 'no results'].join('\n'));
    return EXIT.OK;
  });
}
