/**
 * Issue 47: the archive by time in a second time zone. Events, on this day, the timeline and dates in search
 * words follow the server's time zone; CI machines run in UTC, so their tests run again here in a child
 * vitest whose TZ is far from it (New Zealand, across the date line from UTC for half the day) — a day that
 * is cut at UTC midnight rather than local midnight fails there.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const FILES = ['test/api/timeline.test.ts', 'test/services/event-grouping.test.ts', 'test/services/date-words.test.ts', 'test/api/understood-dates.test.ts'];

describe('the archive by time in another time zone', () => {
  it('groups, counts and reads dates by the server zone’s days, not UTC’s', () => {
    const here = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const zone = here === 'Pacific/Auckland' ? 'America/Los_Angeles' : 'Pacific/Auckland';
    const dir = mkdtempSync(join(process.cwd(), 'test', '.tmp', 'zones-'));
    try {
      const report = join(dir, 'report.json');
      const run = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', ...FILES, '--reporter=json', `--outputFile=${report}`], {
        env: { ...process.env, TZ: zone }, encoding: 'utf8', timeout: 240_000,
      });
      const result = JSON.parse(readFileSync(report, 'utf8')) as { numTotalTests: number; numFailedTests: number; testResults: { assertionResults: { fullName: string; status: string; failureMessages: string[] }[] }[] };
      const failed = result.testResults.flatMap((f) => f.assertionResults).filter((a) => a.status !== 'passed').map((a) => `${a.fullName}: ${a.failureMessages.join('\n').slice(0, 500)}`);
      expect(failed, `in ${zone}`).toEqual([]);
      expect(result.numTotalTests).toBeGreaterThanOrEqual(25);
      expect(run.status, run.stderr.slice(-2000)).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 300_000);
});
