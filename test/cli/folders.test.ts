import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../support/server.js';
import { makePhoto, makeVideo } from '../support/folder-media.js';

describe('vidx index <folder> and vidx folders', () => {
  let s: TestServer;
  let base: string;
  const cli = (...args: string[]) => runCli([...args, '--url', s.url], { VIDX_API_KEY: ADMIN_KEY }, { timeoutMs: 180_000 });

  beforeAll(async () => {
    base = realpathSync(mkdtempSync(join(tmpdir(), 'vidx-cli-folders-')));
    mkdirSync(join(base, 'phone', 'sub'), { recursive: true });
    await Promise.all([makeVideo(join(base, 'phone', 'harbour.mp4'), 'HARBOUR', 2), makePhoto(join(base, 'phone', 'sub', 'menu.jpg'), 'MENU')]);
    s = await startTestServer({ env: { VIDX_MEDIA_ROOTS: base } });
    await s.call('POST', '/collections', { json: { collection_id: 'phone', name: 'Phone' } });
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    rmSync(base, { recursive: true, force: true });
  });

  it('index <folder> adds the folder and follows its scan with a progress bar', async () => {
    const r = await cli('index', join(base, 'phone'), '--collection', 'phone');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/scanned 2 file\(s\): 2 added, 0 changed, 0 moved, 0 removed, 0 unchanged, 0 skipped, 0 failed/);
    expect(r.stderr).toMatch(/\[[#-]+\]/);
    const list = await cli('folders', 'list', '--collection', 'phone', '--json');
    expect(list.code, list.stderr).toBe(0);
    const [folder] = JSON.parse(list.stdout).folders;
    expect(folder).toMatchObject({ path: join(base, 'phone'), watch: false });
    const again = await cli('folders', 'scan', folder.folder_id, '--collection', 'phone', '--json', '--quiet');
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).result).toMatchObject({ unchanged: 2, added: 0 });
    const rerun = await cli('index', join(base, 'phone'), '--collection', 'phone');
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stderr).toMatch(/already bound/);
    expect(rerun.stdout).toMatch(/2 unchanged/);
    const outside = await cli('folders', 'add', tmpdir(), '--collection', 'phone');
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/media roots/);
    const removed = await cli('folders', 'remove', folder.folder_id, '--collection', 'phone');
    expect(removed.code, removed.stderr).toBe(0);
    expect((await s.call('GET', '/collections/phone/items')).body.items).toEqual([]);
  }, 200_000);
});
