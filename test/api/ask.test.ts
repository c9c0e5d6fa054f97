/**
 * Issue 46, the extractive path: questions in English and German answered from real indexed memos (espeak-ng
 * talks with their words as subtitles beside them), each answer citing the line that says it, and no answer
 * where nothing does. A real server on 127.0.0.1 with real SQLite and ffmpeg.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOAT_TALK, GEBURTSTAG } from '../support/conversation.js';
import { indexTalk } from '../support/talks.js';
import { runCli } from '../support/cli.js';
import { callJson, mcpClient } from '../mcp/clients.js';
import { ADMIN_KEY, startTestServer, type TestServer } from '../support/server.js';

interface Citation { collection: string; media_id: string; start_time: number; end_time: number; quote: string; captured_at: string | null }
interface Answer { question: string; language: string; citations: Citation[]; answer: { text: string | null; cites: number[]; note?: string }; mode: string; ms: number }

describe('POST /ask', () => {
  let s: TestServer;
  let other: string;

  const ask = async (json: Record<string, unknown>, key?: string) => s.call('POST', '/ask?stream=false', { json, ...(key ? { key } : {}) });

  beforeAll(async () => {
    s = await startTestServer({ queryEmbedder: null });
    other = await s.newKey();
    for (const id of ['home', 'family']) expect((await s.call('POST', '/collections', { json: { collection_id: id, name: id } })).status).toBe(201);
    const talks = [
      ['home', 'boat', [{ voice: 'en+m3', pitch: 35 }, { voice: 'en+f2', pitch: 70 }], BOAT_TALK],
      ['family', 'geburtstag', [{ voice: 'de+m1', pitch: 40 }, { voice: 'de+f3', pitch: 75 }], GEBURTSTAG],
    ] as const;
    for (const [collection, name, voices, turns] of talks) await indexTalk(s, collection, name, voices, turns);
  }, 180_000);
  afterAll(() => s?.close());

  it('answers "when" with the time the line names, citing that line first', async () => {
    const r = await ask({ question: 'When do we leave the harbour?', collection: 'home' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const a = r.body as Answer;
    expect(a.language).toBe('en');
    expect(a.mode).toBe('extractive');
    expect(a.citations[0]).toMatchObject({ collection: 'home', media_id: 'boat', quote: BOAT_TALK[1]!.text });
    expect(a.answer.cites).toEqual([0]);
    // The memo has only a file date: the answer names no date (a copy's date says nothing of the recording).
    expect(a.answer.text).toMatch(/^At nine — in “boat” at 0:\d\d: “Yes, I have them here\. We leave the harbour at nine/);
  });

  it('answers a German question in German, across all collections when none is named', async () => {
    const r = await ask({ question: 'Wann wird Oma neunzig?' });
    const a = r.body as Answer;
    expect(a.language).toBe('de');
    expect(a.citations[0]).toMatchObject({ collection: 'family', media_id: 'geburtstag', quote: GEBURTSTAG[2]!.text });
    expect(a.answer.text).toMatch(/^Im März — in „geburtstag“ bei 0:\d\d: „Das ist schön\. Sie wird im März neunzig/);
    // The citation opens the player at the line.
    expect(a.citations[0]!.end_time).toBeGreaterThan(a.citations[0]!.start_time);
  });

  it('answers "who" and "what" with the line that says most of the question', async () => {
    const who = (await ask({ question: 'Who will bring the camera?', collection: 'home' })).body as Answer;
    expect(who.citations[0]!.quote).toBe(BOAT_TALK[3]!.text);
    expect(who.answer.text).toContain('I will also bring the camera');
    const what = (await ask({ question: 'Welchen Kuchen backe ich?', collection: 'family' })).body as Answer;
    expect(what.citations[0]!.quote).toBe(GEBURTSTAG[3]!.text);
  });

  it('says that nothing says so, never guessing, in the question’s language', async () => {
    const none = (await ask({ question: 'Where did we eat the sardines?', collection: 'home' })).body as Answer;
    expect(none.answer).toEqual({ text: null, cites: [], note: 'Nothing in this collection says so.' });
    expect(none.citations).toEqual([]);
    const nichts = (await ask({ question: 'Wo haben wir die Sardinen gegessen?' })).body as Answer;
    expect(nichts.answer).toEqual({ text: null, cites: [], note: 'Nichts in deinem Archiv sagt das.' });
    // Only stop words or emoji: nothing to look for, a plain "nothing" answer.
    for (const question of ['what is it?', '🙂🙂🙂']) {
      const r = await ask({ question, collection: 'home' });
      expect(r.status).toBe(200);
      expect(r.body.answer.text).toBeNull();
    }
  });

  it('streams the citations, the answer and done as NDJSON by default', async () => {
    const res = await fetch(`${s.url}/ask`, { method: 'POST', headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' }, body: JSON.stringify({ question: 'When do we leave the harbour?', collection: 'home' }) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/x-ndjson');
    const parts = (await res.text()).trim().split('\n').map((l) => JSON.parse(l) as { type: string });
    expect(parts.map((p) => p.type)).toEqual(['citations', 'answer', 'done']);
  });

  it('answers through the CLI and the MCP tool', async () => {
    const cli = await runCli(['ask', 'When do we leave the harbour?', '--collection', 'home', '--url', s.url], { VIDX_API_KEY: ADMIN_KEY });
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(/^At nine — in “boat”/);
    expect(cli.stdout).toContain('[1] home/boat');
    const agent = await mcpClient('http', s.url, ADMIN_KEY);
    try {
      const said = await callJson(agent, 'ask', { question: 'Wann wird Oma neunzig?' });
      expect(said.answer).toMatch(/^Im März/);
      expect(said.citations[0]).toMatchObject({ collection: 'family', media_id: 'geburtstag', resource: expect.stringContaining('geburtstag') });
      expect((await callJson(agent, 'ask', { question: 'Where did we eat the sardines?' })).answer).toBeNull();
    } finally {
      await agent.close();
    }
  });

  it('refuses an empty or overlong question by name, and another owner’s collection with 404', async () => {
    for (const question of ['', '   ', 'x'.repeat(10_000)]) {
      const r = await ask({ question, collection: 'home' });
      expect(r.status).toBe(422);
      expect(r.body.errors[0].field).toBe('question');
    }
    expect((await ask({ question: 'When do we leave the harbour?', collection: 'home' }, other)).status).toBe(404);
    // Another owner asking everywhere finds nothing of this owner's.
    const theirs = (await ask({ question: 'When do we leave the harbour?' }, other)).body as Answer;
    expect(theirs.answer.text).toBeNull();
  });
});
