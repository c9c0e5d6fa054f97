/**
 * src/client/openapi.d.ts is what scripts/gen-client.ts makes from the API document of today's routes: a
 * route changed without `npm run gen:client` fails here, before a client is typed against the old API.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLIENT_TYPES, clientTypes } from '../../scripts/gen-client.js';

describe('src/client/openapi.d.ts', () => {
  it('is current with the routes (run npm run gen:client after changing one)', async () => {
    const fresh = (await clientTypes()).split('\n');
    const committed = readFileSync(CLIENT_TYPES, 'utf8').split('\n');
    // The first line that differs says where it went stale (the whole 5000-line text would drown it).
    const at = Array.from({ length: Math.max(fresh.length, committed.length) }, (_, i) => i).find((i) => fresh[i] !== committed[i]);
    const stale = at === undefined ? null : { line: at + 1, committed: committed[at] ?? '(end of file)', generated: fresh[at] ?? '(end of file)' };
    expect(stale, 'src/client/openapi.d.ts is stale: run npm run gen:client').toBeNull();
  }, 60_000);
});
