import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeVideo } from '../support/folder-media.js';
import { settledTask, startTestServer, type TestServer } from '../support/server.js';

/**
 * Issue 31: upload names in any script. The multipart body is built by hand so the bytes of the part's
 * header are exactly what a browser (raw UTF-8 in filename=) or an RFC 5987 client (filename*=UTF-8''…) sends.
 */
describe('upload names in any script', () => {
  let s: TestServer;
  let user: string;
  let clip: Buffer;

  /** A multipart /index request whose file part carries `disposition` as its file-name parameters. */
  const upload = async (name: string, disposition: string, mediaId: string) => {
    const boundary = '----vidxBoundary7MA4YWxkTrZu0gW';
    const body = JSON.stringify({ collection: 'names', video: { content: name, media_id: mediaId } });
    const bytes = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="body"\r\n\r\n${body}\r\n`, 'utf8'),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; ${disposition}\r\nContent-Type: video/mp4\r\n\r\n`, 'utf8'),
      clip,
      Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8'),
    ]);
    const r = await fetch(`${s.url}/index`, { method: 'POST', headers: { 'x-api-key': user, 'content-type': `multipart/form-data; boundary=${boundary}` }, body: bytes });
    const answer = (await r.json()) as { task_id: string };
    expect(r.status, JSON.stringify(answer)).toBe(202);
    const task = await settledTask(s, answer.task_id);
    expect(task.status, task.error?.message).toBe('completed');
    return (await s.call('GET', `/collections/names/items/${mediaId}`, { key: user })).body as { title: string };
  };

  beforeAll(async () => {
    s = await startTestServer({ queryEmbedder: null });
    user = await s.newKey();
    await s.call('POST', '/collections', { key: user, json: { collection_id: 'names', name: 'Names' } });
    await makeVideo(join(s.mediaDir, 'clip.mp4'), 'Summit');
    clip = readFileSync(join(s.mediaDir, 'clip.mp4'));
  }, 120_000);
  afterAll(async () => {
    await s.close();
  });

  it('reads a plain filename= as UTF-8: umlauts and emoji', async () => {
    const item = await upload('Grüße vom Gipfel 🎥.mp4', 'filename="Grüße vom Gipfel 🎥.mp4"', 'gipfel');
    expect(item.title).toBe('Grüße vom Gipfel 🎥');
  });

  it('honours RFC 5987 filename*=UTF-8\'\'…, which wins over a plain ASCII filename=', async () => {
    const name = '山頂からの挨拶 🎥.mp4';
    const item = await upload(name, `filename="fallback.mp4"; filename*=UTF-8''${encodeURIComponent(name)}`, 'sancho');
    expect(item.title).toBe('山頂からの挨拶 🎥');
  });

  it('finds the item by an umlaut word of its title', async () => {
    const r = await s.call('POST', '/search', { key: user, form: { collection: 'names', query: 'Grüße' } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect((r.body.results as Array<{ media_id: string }>).map((x) => x.media_id)).toContain('gipfel');
  });
});
