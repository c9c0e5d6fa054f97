/**
 * Issue 34, the CLI's rough edges, against a real server on 127.0.0.1: `--json` failures are one JSON
 * answer on stdout ({"error": {code, message, status}}) with a non-zero exit, for the server's refusals
 * and the CLI's own; search prints titles, not media ids; a folder scan that completed with a failed file
 * says so in `vidx tasks`; `vidx doctor` calls a regular file in the data dir's place a file, not "not
 * writable" with a mkdir to run.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexFixtures } from '../search/fixtures.js';
import { runCli } from '../support/cli.js';
import { agedFiles } from '../support/folder-media.js';
import { ADMIN_KEY, settledTask, startTestServer, type TestServer } from '../support/server.js';

describe('the CLI says things a script and a person can use', () => {
  let s: TestServer;
  let tmp: string;
  const cli = (args: string[]) => runCli([...args, '--url', s.url], { VIDX_API_KEY: ADMIN_KEY, VIDX_DATA_DIR: s.dataDir });

  beforeAll(async () => {
    tmp = mkdtempSync(join(process.cwd(), 'test', '.tmp', 'cli-edges-'));
    s = await startTestServer({ queryEmbedder: null });
    expect((await s.call('POST', '/collections', { json: { collection_id: 'demo', name: 'Demo' } })).status).toBe(201);
    indexFixtures(s.vidx, s.dataDir, 'demo');
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('prints a refusal of the server as {"error": …} on stdout with --json, and exits non-zero', async () => {
    const r = await cli(['search', 'penalty', '--collection', 'nowhere', '--json']);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({ error: { code: 'not_found', message: expect.stringContaining('nowhere'), status: 404 } });
    // A person still reads it on stderr.
    expect(r.stderr).toMatch(/^vidx search: .*nowhere.*\(HTTP 404 not_found\)$/m);
    const invalid = await cli(['search', 'penalty', '--collection', 'demo', '--near', 'Atlantis of the Nowhere', '--json']);
    expect(invalid.code).not.toBe(0);
    expect(JSON.parse(invalid.stdout).error).toMatchObject({ code: expect.any(String), message: expect.any(String), status: expect.any(Number) });
  });

  it('prints the CLI’s own failures the same way, with status null', async () => {
    const usage = await cli(['search', '--collection', 'demo', '--json']);
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stdout)).toEqual({ error: { code: 'usage', message: expect.stringMatching(/give a query/), status: null } });
    const away = await runCli(['collections', 'list', '--json', '--url', 'http://127.0.0.1:9'], { VIDX_API_KEY: ADMIN_KEY });
    expect(away.code).toBe(3);
    expect(JSON.parse(away.stdout)).toEqual({ error: { code: 'unreachable', message: expect.stringMatching(/cannot reach vidx/), status: null } });
    // Without --json, stdout stays empty.
    expect((await cli(['search', '--collection', 'demo'])).stdout).toBe('');
  });

  it('prints a refusal of vidx keys, which works on the data dir, the same way', async () => {
    const r = await runCli(['keys', 'revoke', 'no-such-key', '--json'], { VIDX_DATA_DIR: join(tmp, 'keys-data') });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toEqual({ error: { code: 'not_found', message: expect.stringContaining('no-such-key'), status: null } });
  });

  it('prints titles in search results, not media ids', async () => {
    const r = await cli(['search', 'penalty', '--collection', 'demo']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\d\.\d\d {2}Cup final 2024 {2}0:52 {2}.*penalty/m);
    expect(r.stdout).not.toMatch(/cup-final/);
  });

  it('says a folder scan completed with a failed file', async () => {
    const dir = join(s.mediaDir, 'memos');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'kaputt.mp4'), Buffer.alloc(4096, 7));
    agedFiles(dir);
    const f = await s.call('POST', '/collections/demo/folders', { json: { path: dir, watch: false } });
    expect(f.status, JSON.stringify(f.body)).toBe(201);
    expect((await settledTask(s, f.body.scan_task_id)).status).toBe('completed');
    const list = await cli(['tasks', 'list']);
    expect(list.stdout).toMatch(new RegExp(`^${f.body.scan_task_id}\\s+completed, 1 file failed\\s`, 'm'));
    const show = await cli(['tasks', 'show', f.body.scan_task_id]);
    expect(show.stdout).toMatch(/status {4}completed, 1 file failed/);
    expect(show.stdout).toMatch(/failed {2}kaputt\.mp4: /);
  });

  it('doctor calls a regular file where the data dir should be a file, with no mkdir to run', async () => {
    const file = join(tmp, 'not-a-dir');
    writeFileSync(file, 'x');
    for (const dataDir of [file, join(file, 'vidx')]) {
      const r = await runCli(['doctor', '--json', '--url', 'http://127.0.0.1:9'], { VIDX_DATA_DIR: dataDir, VIDX_HUB_URL: 'http://127.0.0.1:9' });
      const checks = (JSON.parse(r.stdout) as { checks: { name: string; status: string; detail: string; fix?: string }[] }).checks;
      const data = checks.find((c) => c.name === 'data dir')!;
      expect(r.code).toBe(1);
      expect(data.status).toBe('fail');
      expect(data.detail).toMatch(new RegExp(`^${file} is a file, not a folder`));
      expect(data.detail).not.toMatch(/writable/);
      expect(data.fix).not.toMatch(/mkdir/);
      expect(data.fix).toMatch(/VIDX_DATA_DIR/);
    }
  });
});
