import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureCorpus, type CorpusManifest } from '../support/corpus.js';
import { startTestApp } from '../support/app.js';
import { waitFor, type TestServer } from '../support/server.js';

describe('the analysis cache keys on every input, not on content alone', () => {
  let s: TestServer;
  let corpus: CorpusManifest;
  let root: string;
  beforeAll(async () => {
    corpus = await ensureCorpus();
    root = mkdtempSync(join(corpus.dir, '..', 'cache-key-'));
    s = await startTestApp({ env: { VIDX_MEDIA_ROOTS: root } });
  });
  afterAll(async () => {
    await s.close();
    rmSync(root, { recursive: true, force: true });
  });

  async function analyze(video: Record<string, unknown>) {
    const r = await s.call('POST', '/analyze', { form: { video } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const t = await waitFor(async () => {
      const x = (await s.call('GET', `/tasks/${r.body.task_id}`)).body;
      return x.status === 'completed' || x.status === 'failed' ? x : undefined;
    }, 120_000, 'analysis');
    expect(t.status, t.error?.message).toBe('completed');
    return t.result;
  }

  it('reads the subtitles beside a copy of an analysed file, and reads them again when they change', async () => {
    const a = join(root, 'a.mp4');
    const b = join(root, 'b.mp4');
    copyFileSync(corpus.german.path, a);
    copyFileSync(corpus.german.path, b);
    const first = await analyze({ path: a });
    expect(first.transcript_source).toBe('none');

    const srt = corpus.german.sidecars.find((x) => x.format === 'srt')!;
    writeFileSync(join(root, 'b.srt'), readFileSync(srt.path));
    const copy = await analyze({ path: b });
    expect(copy.transcript_source).toBe('sidecar');
    expect(copy.audio_summary.map((x: { text: string }) => x.text)).toEqual(srt.cues.map((c) => c.text));

    writeFileSync(join(root, 'b.srt'), '1\n00:00:01,000 --> 00:00:04,000\nGanz neuer Untertitel.\n');
    const changed = await analyze({ path: b });
    expect(changed.audio_summary.map((x: { text: string }) => x.text)).toEqual(['Ganz neuer Untertitel.']);
    // Three whole analyses: on a busy machine each can take most of a minute.
  }, 240_000);

  it('analyses again for another title or metadata', async () => {
    const a = join(root, 'a.mp4');
    const plain = await analyze({ path: a, title: 'Wetter' });
    const other = await analyze({ path: a, title: 'Anderer Titel', additional_metadata: { ort: 'Hamburg' } });
    expect(plain.title).toBe('Wetter');
    expect(other.title).toBe('Anderer Titel');
  }, 240_000);
});
