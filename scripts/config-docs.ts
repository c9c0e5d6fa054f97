/**
 * Writes the settings table of docs/configuration.md from src/settings/schema.ts, between the
 * `<!-- settings:start -->` and `<!-- settings:end -->` markers. `--check` only says whether it is current
 * (exit 1 when not), which is what test/config/settings.test.ts asks.
 *
 * @example
 * npx tsx scripts/config-docs.ts          # rewrite the table
 * npx tsx scripts/config-docs.ts --check  # exit 1 when the table is stale
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { settingsTable } from '../src/settings/schema.js';

const START = '<!-- settings:start -->';
const END = '<!-- settings:end -->';

/** docs/configuration.md of this checkout. */
export const CONFIGURATION_DOC = join(fileURLToPath(new URL('..', import.meta.url)), 'docs', 'configuration.md');

/**
 * The page with its table replaced by the one the schema gives.
 * @example
 * withSettingsTable('a\n<!-- settings:start -->\nold\n<!-- settings:end -->\nb'); // table between the markers
 */
export function withSettingsTable(page: string): string {
  const from = page.indexOf(START);
  const to = page.indexOf(END);
  if (from < 0 || to < from) throw new Error(`docs/configuration.md lacks the ${START} … ${END} markers`);
  return `${page.slice(0, from + START.length)}\n${settingsTable()}\n${page.slice(to)}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const page = readFileSync(CONFIGURATION_DOC, 'utf8');
  const next = withSettingsTable(page);
  if (process.argv.includes('--check')) {
    if (next !== page) {
      console.error('docs/configuration.md: the settings table is stale; run npx tsx scripts/config-docs.ts');
      process.exit(1);
    }
  } else if (next !== page) writeFileSync(CONFIGURATION_DOC, next);
}
