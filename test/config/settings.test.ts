/**
 * Settings are read in one place (src/config.ts, from src/settings/schema.ts): the docs table is derived from
 * the schema, and a wrong value stops the start naming its variable.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CONFIGURATION_DOC, withSettingsTable } from '../../scripts/config-docs.js';
import { loadConfig, ConfigError } from '../../src/config.js';
import { SETTINGS } from '../../src/settings/schema.js';
import { runCli } from '../support/cli.js';

const dataDir = mkdtempSync(join(tmpdir(), 'vidx-settings-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('settings', () => {
  it("docs/configuration.md's table is the schema's (run scripts/config-docs.ts after changing a setting)", () => {
    const page = readFileSync(CONFIGURATION_DOC, 'utf8');
    expect(withSettingsTable(page)).toBe(page);
    for (const name of Object.keys(SETTINGS)) expect(page).toContain(`| \`${name}\` |`);
  });

  it('still reads a renamed setting by its old name, and says to use the new one', () => {
    const old = loadConfig({ VIDX_WORKERS_DIR: '/opt/vidx/threads' });
    expect(old.threadsDir).toBe('/opt/vidx/threads');
    expect(old.warnings).toEqual([expect.stringContaining('VIDX_WORKERS_DIR is now called VIDX_THREADS_DIR')]);
    const both = loadConfig({ VIDX_WORKERS_DIR: '/old', VIDX_THREADS_DIR: '/new' });
    expect(both.threadsDir).toBe('/new');
    expect(loadConfig({ VIDX_THREADS_DIR: '/new' }).warnings).toEqual([]);
  });

  it('names every variable whose value does not parse, all at once', () => {
    let err: unknown;
    try {
      loadConfig({ VIDX_DATA_DIR: dataDir, VIDX_PORT: 'eighty', VIDX_LOG: 'loud', VIDX_TASK_CONCURRENCY: '0' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const problems = (err as ConfigError).problems.map((p) => p.setting).sort();
    expect(problems).toEqual(['VIDX_LOG', 'VIDX_PORT', 'VIDX_TASK_CONCURRENCY']);
    expect((err as Error).message).toMatch(/VIDX_PORT must be an integer from 0 to 65535, got "eighty"/);
  });

  it('a tool path that does not exist stops the start; flags win over variables', () => {
    expect(() => loadConfig({ VIDX_DATA_DIR: dataDir, FFMPEG_PATH: join(dataDir, 'no-ffmpeg') })).toThrow(/FFMPEG_PATH names a file or folder that does not exist/);
    expect(loadConfig({ VIDX_DATA_DIR: dataDir, VIDX_PORT: '9000' }, ['--port', '9001']).port).toBe(9001);
  });

  it('vidx serve with a wrong value exits before listening and says which variable, and doctor says how to fix it', async () => {
    const serve = await runCli(['serve'], { VIDX_DATA_DIR: dataDir, VIDX_PORT: '70000' });
    expect(serve.code).not.toBe(0);
    expect(serve.stderr).toMatch(/VIDX_PORT must be an integer from 0 to 65535, got "70000"/);
    expect(serve.stdout).not.toMatch(/listening/i);
    const doctor = await runCli(['doctor', '--json'], { VIDX_DATA_DIR: dataDir, VIDX_MAX_UPLOAD_MB: 'lots' });
    const report = JSON.parse(doctor.stdout) as { ok: boolean; checks: { name: string; status: string; fix?: string }[] };
    expect(report.ok).toBe(false);
    expect(report.checks).toContainEqual(expect.objectContaining({ name: 'VIDX_MAX_UPLOAD_MB', status: 'fail', fix: expect.stringMatching(/default 4096/) }));
  });
});
