/**
 * Issue 44: the analysis's warnings are keyed messages, said in the reader's language where they leave the
 * server (the task's result), as errors are.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callJson } from '../mcp/clients.js';
import { srt } from '../support/subtitled-media.js';
import { settledTask, startTestServer, type TestServer } from '../support/server.js';

const ENGLISH = 'subtitles cut: clip.srt has 600 cues, more than a recording of this length holds; the first 500 are kept';
const GERMAN = 'Untertitel gekürzt: clip.srt hat 600 Einträge, mehr als eine Aufnahme dieser Länge fasst; die ersten 500 bleiben';

describe('an analysis warning in the reader’s language', () => {
  let s: TestServer;
  let taskId: string;
  beforeAll(async () => {
    s = await startTestServer({ queryEmbedder: null });
    // 2 s of picture and no sound (no speech step), with a sidecar of more cues than 2 s may hold (500 at least).
    await promisify(execFile)('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=navy:s=160x90:r=5', '-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', join(s.mediaDir, 'clip.mp4')]);
    writeFileSync(join(s.mediaDir, 'clip.srt'), srt(Array.from({ length: 600 }, (_, i): [number, number, string] => [i * 0.003, i * 0.003 + 0.002, `line ${i}`])));
    await s.call('POST', '/collections', { json: { collection_id: 'c', name: 'C' } });
    const r = await s.call('POST', '/index', { json: { collection: 'c', video: { path: join(s.mediaDir, 'clip.mp4'), media_id: 'clip' } } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    taskId = r.body.task_id;
    const task = await settledTask(s, taskId);
    expect(task.status, task.error?.message).toBe('completed');
  }, 120_000);
  afterAll(() => s?.close());

  it('says it in English by default and in German for Accept-Language: de, keeping the field a list of words', async () => {
    const en = await s.call('GET', `/tasks/${taskId}`);
    expect(en.body.result.warnings).toContain(ENGLISH);
    const de = await s.call('GET', `/tasks/${taskId}`, { headers: { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' } });
    expect(de.body.result.warnings).toContain(GERMAN);
    expect(de.body.result.warnings).not.toContain(ENGLISH);
    for (const w of de.body.result.warnings) expect(typeof w).toBe('string');
  });

  it('says it in German in the task list too', async () => {
    const list = await s.call('GET', '/tasks?endpoint=/index', { headers: { 'accept-language': 'de' } });
    const task = list.body.tasks.find((t: { id: string }) => t.id === taskId);
    expect(task.result.warnings).toContain(GERMAN);
  });

  it('says it in the language of the MCP client asking (get_task over /mcp)', async () => {
    const client = new Client({ name: 'vidx-test-agent', version: '1.0.0' });
    const headers = { authorization: `Bearer ${s.adminKey}`, 'accept-language': 'de' };
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/mcp`), { requestInit: { headers } }));
    try {
      const task = await callJson(client, 'get_task', { task_id: taskId });
      expect(task.result.warnings).toContain(GERMAN);
    } finally {
      await client.close();
    }
  });

  it('stores the warning keyed, so a later reader may have it in either language', async () => {
    const row = s.vidx.store.db.prepare("SELECT a.warnings FROM item_analysis a JOIN items i ON i.pk = a.item_pk WHERE i.media_id = 'clip'").get() as { warnings: string };
    expect(JSON.parse(row.warnings)).toContainEqual({ key: 'analysis_subtitle_cues_cut', params: { name: 'clip.srt', cues: 600, kept: 500 } });
  });
});
