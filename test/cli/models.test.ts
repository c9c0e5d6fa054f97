import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deadPort } from '../support/dead-port.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixtureModels, type FixtureSet } from '../../scripts/make-fixture-models.js';
import { runCli } from '../support/cli.js';

/**
 * Issue 34.4: a machine without the hub. `vidx models pull` says at once that the hub cannot be reached and
 * how to import instead; `vidx models export` / `import` carry a model over, checked against the manifest.
 */
describe('vidx models on a machine without the hub', () => {
  let tmp: string;
  let fixtures: FixtureSet;
  beforeAll(async () => {
    tmp = mkdtempSync(join(process.cwd(), 'test', '.tmp', 'cli-models-'));
    fixtures = await makeFixtureModels(join(tmp, 'hub'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  const env = (modelsDir: string, hubUrl = 'http://127.0.0.1:9') => ({ VIDX_MODELS_DIR: modelsDir, VIDX_MODELS_MANIFEST: fixtures.manifestPath, VIDX_HUB_URL: hubUrl, VIDX_DATA_DIR: join(tmp, 'data') });

  it('fails a pull at once with the hub named, no retries, and how to import', async () => {
    const hubUrl = `http://127.0.0.1:${await deadPort()}`;
    const r = await runCli(['models', 'pull', 'tiny-e5', '--yes'], env(join(tmp, 'offline'), hubUrl));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Download failed: cannot reach the model hub at ${hubUrl} (ECONNREFUSED): this machine seems to be offline`);
    expect(r.stderr).toContain('vidx models import <folder|archive>');
    expect(r.stderr).not.toMatch(/retrying|fetch failed|resume/);
  });

  it('exports a model and imports the archive elsewhere; imports a hub folder; refuses a damaged one by name', async () => {
    const here = join(tmp, 'here');
    const folder = join(tmp, 'download', 'tiny-whisper');
    cpSync(join(fixtures.hubDir, 'vidx-test', 'tiny-whisper'), folder, { recursive: true });
    const fromFolder = await runCli(['models', 'import', folder], env(here));
    expect(fromFolder.stderr).toBe('');
    expect(fromFolder.stdout).toMatch(/^Imported tiny-whisper: \d+ files, .+, checked against the manifest\.\n$/);

    const archive = join(tmp, 'tiny-whisper.tar');
    const exported = await runCli(['models', 'export', 'tiny-whisper', archive], env(here));
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain(`On the other machine: vidx models import ${archive}`);
    const there = join(tmp, 'there');
    const imported = await runCli(['models', 'import', archive], env(there));
    expect(imported.code).toBe(0);
    expect((await runCli(['models', 'list'], env(there))).stdout).toMatch(/tiny-whisper \*\s+asr\s+installed/);

    writeFileSync(join(folder, 'config.json'), '{"changed": true}');
    const bad = await runCli(['models', 'import', folder], env(join(tmp, 'third')));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^Import failed: model tiny-whisper: file "config\.json" has \d+ bytes, expected \d+\.\nNothing was installed\.\n$/);
    expect(existsSync(join(tmp, 'third', 'vidx-test', 'tiny-whisper'))).toBe(false);

    const notInstalled = await runCli(['models', 'export', 'tiny-e5', join(tmp, 'e5.tar')], env(there));
    expect(notInstalled.code).toBe(1);
    expect(notInstalled.stderr).toContain('model tiny-e5 is not installed');
    expect(existsSync(join(tmp, 'e5.tar'))).toBe(false);
    expect((await runCli(['models', 'import'], env(there))).code).toBe(2);
  });
});
