/**
 * The analysis thread that test servers start: lib/'s compiled build of src/services/threads/thread.ts, as
 * `npm start` runs it, but only while lib/ was built from today's sources (test/support/global-setup.ts builds
 * it before the suite). A thread from the TypeScript sources compiles them through tsx first (~2.4 s a
 * server); a compiled one starts in a fraction of that. When lib/ is stale (sources edited in watch mode) the
 * servers fall back to the sources: slower, never yesterday's code.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SERVER_OUT, serverBuildFresh } from '../../scripts/build-server.js';

/**
 * The compiled thread module's URL when lib/ matches the sources, else undefined (the pool then uses the sources).
 * @example
 * const vidx = await startVidx(config, { threadEntry: compiledThreadEntry() });
 */
export function compiledThreadEntry(): URL | undefined {
  const entry = join(SERVER_OUT, 'services', 'threads', 'thread.js');
  // The digest is read per server (about 12 ms): a source edited during a watch run must not meet an old thread.
  return existsSync(entry) && serverBuildFresh() ? pathToFileURL(entry) : undefined;
}

/**
 * The compiled search thread module's URL when lib/ matches the sources, else undefined (the sources then).
 * @example
 * const vidx = await startVidx(config, { searchThreadEntry: compiledSearchThreadEntry() });
 */
export function compiledSearchThreadEntry(): URL | undefined {
  const entry = join(SERVER_OUT, 'startup', 'search-thread.js');
  return existsSync(entry) && serverBuildFresh() ? pathToFileURL(entry) : undefined;
}
