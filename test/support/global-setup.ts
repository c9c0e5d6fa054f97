/**
 * Runs once before the suite: makes the temp root, and builds lib/ when its sources changed, so test servers
 * run their analysis threads from compiled JavaScript as production does (test/support/compiled-thread.ts).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildServer } from '../../scripts/build-server.js';

/**
 * vitest's global setup.
 * @example
 * // vitest.config.ts: globalSetup: ['test/support/global-setup.ts']
 */
export default async function setup(): Promise<void> {
  mkdirSync(join(process.cwd(), 'test', '.tmp'), { recursive: true });
  // About 1 s when stale, nothing when fresh; two vitest runs at once each build beside lib/ and rename into place.
  await buildServer({ ifStale: true });
}
