import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { ensureCorpus, type CorpusManifest } from '../support/corpus.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../support/server.js';

describe('vidx collections, index, analyze, search and tasks against a running server', () => {
  let s: TestServer;
  let corpus: CorpusManifest;
  let elsewhere: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    corpus = await ensureCorpus();
    s = await startTestServer({ env: { VIDX_MEDIA_ROOTS: dirname(corpus.slides.path) } });
    // A copy outside the server's media roots: only an upload can reach it.
    elsewhere = mkdtempSync(join(tmpdir(), 'vidx-cli-'));
    copyFileSync(corpus.slides.path, join(elsewhere, 'my talk.mp4'));
    env = { VIDX_API_KEY: ADMIN_KEY, VIDX_DATA_DIR: s.dataDir };
  });
  afterAll(async () => {
    await s.close();
    rmSync(elsewhere, { recursive: true, force: true });
  });

  const cli = (args: string[], extra: Record<string, string> = {}) => runCli([...args, '--url', s.url], { ...env, ...extra });

  it('creates and lists collections, as text and as JSON', async () => {
    const created = await cli(['collections', 'create', 'talks', '--name', 'Talks', '--description', 'conference talks']);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout).toBe('created collection talks (private)\n');
    const list = await cli(['collections', 'list']);
    expect(list.stdout).toMatch(/^ID\s+NAME\s+PUBLIC\s+DESCRIPTION\ntalks\s+Talks\s+no\s+conference talks$/m);
    const json = JSON.parse((await cli(['collections', 'list', '--json'])).stdout);
    expect(json.collections.map((c: { collection_id: string }) => c.collection_id)).toEqual(['talks']);
    const taken = await cli(['collections', 'create', 'talks']);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(/HTTP 409/);
  });

  it('exits 4 for a missing or unknown key and says where the key came from', async () => {
    const unknown = await cli(['collections', 'list'], { VIDX_API_KEY: 'vidx_nope' });
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toMatch(/unknown API key \(HTTP 401 unauthorized\); the key came from VIDX_API_KEY/);
    const none = await runCli(['collections', 'list', '--url', s.url], { VIDX_DATA_DIR: elsewhere });
    expect(none.code).toBe(4);
    expect(none.stderr).toMatch(/HTTP 401 unauthorized\); no key given: pass --key or set VIDX_API_KEY/);
  });

  it('indexes an uploaded file with stage lines on stderr, then searches it', async () => {
    const r = await cli(['index', join(elsewhere, 'my talk.mp4'), '--collection', 'talks', '--media-id', 'talk-1', '--title', 'My talk']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^indexed talk-1 into talks: 3 episode\(s\), 0:24, transcript: embedded$/m);
    // Not a terminal: one line per stage, each with the bar, the percentage and the stage.
    expect(r.stderr).toMatch(/uploading my talk\.mp4/);
    expect(r.stderr).toMatch(/^\[#*-*\]\s+\d+%\s+running: on-screen text/m);
    expect(r.stderr).toMatch(/^\[#{24}\] 100%\s+completed: done/m);

    const hits = await cli(['search', 'apple cake', '--collection', 'talks']);
    expect(hits.code, hits.stderr).toBe(0);
    expect(hits.stdout).toMatch(/^\d\.\d\d {2}My talk {2}0:0\d {2}.*apple cake/im);
    const json = JSON.parse((await cli(['search', 'penalty', '--collection', 'talks', '--limit', '1', '--json'])).stdout);
    expect(json.results).toHaveLength(1);
    expect(json.results[0].media_id).toBe('talk-1');
    const typo = await cli(['search', 'penallty', '--collection', 'talks']);
    expect(typo.stdout).toMatch(/^showing results for penalty \(not penallty\); --as-typed searches "penallty" instead$/m);
    expect(typo.stdout).toMatch(/talk-1/);
    const asTyped = await cli(['search', 'penallty', '--collection', 'talks', '--as-typed']);
    expect(asTyped.stdout).not.toMatch(/showing results/);
    expect(asTyped.stdout).toMatch(/^no results$/m);

    const again = await cli(['index', join(elsewhere, 'my talk.mp4'), '--collection', 'talks', '--media-id', 'talk-1', '-q']);
    expect(again.stdout).toMatch(/^skipped talk-1 in talks/);
    expect(again.stderr).toBe('');
  });

  it('analyzes by path with --json, and returns at once with --no-wait', async () => {
    const r = await cli(['analyze', corpus.slides.path, '--path', '--json', '-q']);
    expect(r.code, r.stderr).toBe(0);
    const task = JSON.parse(r.stdout);
    expect(task.status).toBe('completed');
    expect(task.data.video.path).toBe(corpus.slides.path);
    expect(task.result.episodic_summary).toHaveLength(3);

    const queued = await cli(['analyze', corpus.slides.path, '--path', '--no-wait']);
    const id = queued.stdout.trim();
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const shown = await cli(['tasks', 'show', id, '--wait']);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(new RegExp(`^task ${id}\\n {2}endpoint {2}/analyze\\n {2}status {4}completed`));
    expect(shown.stdout).toMatch(/result:\n {2}video, 0:24, language en, transcript: embedded, 3 episode\(s\)/);

    const list = await cli(['tasks', 'list', '--endpoint', '/analyze']);
    expect(list.stdout).toMatch(/^ID\s+STATUS\s+ENDPOINT\s+PROGRESS\s+STAGE\s+CREATED$/m);
    expect(list.stdout).toContain(id);
  });

  it('exits 1 with the reason when the task fails, and 2 when the server refuses the request', async () => {
    const broken = await cli(['analyze', corpus.broken.truncated.path, '--path', '-q']);
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/task [0-9a-f-]+ failed: .*truncated/i);
    const outside = await cli(['analyze', join(elsewhere, 'my talk.mp4'), '--path']);
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/HTTP 422/);
    const missing = await cli(['index', join(elsewhere, 'missing.mp4'), '--collection', 'talks']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/cannot read .*missing\.mp4: ENOENT/);
  });
});
