/**
 * Issue 46, answers written by a local model: a tiny llama-architecture GGUF with random weights
 * (scripts/make-fixture-gguf.ts) pulled through the model registry from a loopback hub and run by llama.cpp
 * through node-llama-cpp in a real server on 127.0.0.1. It writes noise; the JSON grammar keeps its output
 * valid, and what is checked is everything around it: load, streaming, the citations it may name, where the
 * answer says it is from, two asks at once, a caller who leaves, the time limit, a broken file, unloading.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, openAsBlob, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixtureModels, type FixtureSet } from '../../scripts/make-fixture-models.js';
import { modelArchiveForm } from '../../src/client/upload.js';
import { BOAT_TALK } from '../support/conversation.js';
import { startFakeHub, type FakeHub } from '../support/fake-hub.js';
import { ADMIN_KEY, settledTask, startTestServer, waitFor, type TestServer } from '../support/server.js';
import { indexTalk } from '../support/talks.js';
import { runCli } from '../support/cli.js';
import { callJson, mcpClient } from '../mcp/clients.js';

interface Element { type: string; text?: string | null; cites?: number[]; citations?: { media_id: string }[]; mode?: string; model?: string }

const QUESTION = { question: 'When do we leave the harbour?', collection: 'home' };

/** POST /ask as NDJSON, each element as it arrives; `stopAfter` leaves after that many tokens. */
async function askStream(s: TestServer, body: object, stopAfter = Infinity): Promise<Element[]> {
  const controller = new AbortController();
  const res = await fetch(`${s.url}/ask`, { method: 'POST', headers: { 'x-api-key': ADMIN_KEY, 'content-type': 'application/json' }, body: JSON.stringify(body), signal: controller.signal });
  expect(res.status).toBe(200);
  const out: Element[] = [];
  let rest = '';
  const decoder = new TextDecoder();
  try {
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      rest += decoder.decode(chunk, { stream: true });
      const lines = rest.split('\n');
      rest = lines.pop()!;
      for (const line of lines.filter(Boolean)) out.push(JSON.parse(line) as Element);
      if (out.filter((e) => e.type === 'token').length >= stopAfter) {
        controller.abort();
        break;
      }
    }
  } catch (err) {
    if (!controller.signal.aborted) throw err;
  }
  return out;
}

describe('answers by the local model', () => {
  let tmp: string;
  let fixtures: FixtureSet;
  let hub: FakeHub;
  let s: TestServer;

  beforeAll(async () => {
    tmp = mkdtempSync(join(process.cwd(), 'test', '.tmp', 'ask-model-'));
    fixtures = await makeFixtureModels(join(tmp, 'hub'));
    hub = await startFakeHub({ root: fixtures.hubDir, revisions: Object.fromEntries(fixtures.manifest.models.map((m) => [m.repo, m.revision])) });
    s = await startTestServer({ queryEmbedder: null, env: { VIDX_MODELS_MANIFEST: fixtures.manifestPath, VIDX_HUB_URL: hub.url, VIDX_ASK_MODEL_IDLE_SECONDS: '1.5' } });
    expect((await s.call('POST', '/collections', { json: { collection_id: 'home', name: 'Home' } })).status).toBe(201);
    await indexTalk(s, 'home', 'boat', [{ voice: 'en+m3', pitch: 35 }, { voice: 'en+f2', pitch: 70 }], BOAT_TALK);
  }, 180_000);
  afterAll(async () => {
    await s?.close();
    await hub?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('answers extractively until a model is pulled, then the model writes, streamed token by token', async () => {
    expect((await s.call('POST', '/ask?stream=false', { json: QUESTION })).body).toMatchObject({ mode: 'extractive' });
    const pull = await s.call('POST', '/models/tiny-llm/pull');
    expect(pull.status).toBe(202);
    expect((await settledTask(s, pull.body.task_id as string, 60_000)).status).toBe('completed');
    expect((await s.call('GET', '/health', { key: null })).body.capabilities.answer).toEqual({ available: true, model: 'tiny-llm' });

    const parts = await askStream(s, QUESTION);
    expect(parts[0]!.type).toBe('citations');
    expect(parts.at(-1)).toMatchObject({ type: 'done', mode: 'model', model: 'tiny-llm' });
    const tokens = parts.filter((p) => p.type === 'token');
    expect(tokens.length).toBeGreaterThan(1);
    const answer = parts.find((p) => p.type === 'answer')!;
    const citations = parts[0]!.citations!;
    expect(answer.cites!.length).toBeGreaterThan(0);
    for (const i of answer.cites!) expect(i).toBeLessThan(citations.length);
    // The streamed text is the model's answer; where it is said comes after it, from the index.
    const written = tokens.map((t) => t.text).join('').trim();
    expect(answer.text!.startsWith(written.slice(0, 20))).toBe(true);
    expect(answer.text).toMatch(/ — in “boat” at 0:\d\d$/);
  });

  it('answers two questions at once, and one whose caller left frees its place', async () => {
    const left = await askStream(s, QUESTION, 1);
    expect(left.filter((p) => p.type === 'token')).toHaveLength(1);
    const both = await Promise.all([1, 2].map(() => s.call('POST', '/ask?stream=false', { json: QUESTION })));
    for (const r of both) expect(r.body, JSON.stringify(r.body.notice)).toMatchObject({ mode: 'model', model: 'tiny-llm' });
    // Deterministic (temperature 0): the same question, the same answer.
    expect(both[0]!.body.answer).toEqual(both[1]!.body.answer);
  });

  it('tells a script and an agent which model wrote the answer', async () => {
    const cli = await runCli(['ask', QUESTION.question, '--collection', 'home', '--url', s.url], { VIDX_API_KEY: ADMIN_KEY });
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toContain('(written by tiny-llm from the moments below)');
    const agent = await mcpClient('http', s.url, ADMIN_KEY);
    try {
      expect(await callJson(agent, 'ask', QUESTION)).toMatchObject({ mode: 'model', model: 'tiny-llm' });
    } finally {
      await agent.close();
    }
  });

  it('falls back to the extractive answer with a notice when the model takes too long', async () => {
    const slow = await startTestServer({ queryEmbedder: null, dataDir: mkdtempSync(join(tmp, 'slow-')), env: { VIDX_MODELS_MANIFEST: fixtures.manifestPath, VIDX_HUB_URL: hub.url, VIDX_ASK_MODEL_SECONDS: '0.001' } });
    try {
      expect((await slow.call('POST', '/collections', { json: { collection_id: 'home', name: 'Home' } })).status).toBe(201);
      await indexTalk(slow, 'home', 'boat', [{ voice: 'en+m3', pitch: 35 }, { voice: 'en+f2', pitch: 70 }], BOAT_TALK);
      const pull = await slow.call('POST', '/models/tiny-llm/pull');
      expect((await settledTask(slow, pull.body.task_id as string, 60_000)).status).toBe('completed');
      const r = await slow.call('POST', '/ask?stream=false', { json: QUESTION });
      expect(r.body.mode).toBe('extractive');
      expect(r.body.notice).toBe('The local model did not write this answer (it took longer than 0.001 s); this one is taken from the moments.');
      expect(r.body.answer.text).toMatch(/^At nine — in “boat”/);
      const de = await slow.call('POST', '/ask?stream=false', { json: { question: 'Wann legen wir ab?', collection: 'home', language: 'de' } });
      if (de.body.answer.text !== null) expect(de.body.notice).toMatch(/^Das lokale Modell hat diese Antwort nicht geschrieben/);
    } finally {
      await slow.close();
    }
  });

  it('unloads the model after it has been idle, and loads it again on the next question', async () => {
    await s.call('POST', '/ask?stream=false', { json: QUESTION });
    expect((await s.call('GET', '/health', { key: null })).body.answer_model).toEqual({ loaded: true });
    await waitFor(async () => ((await s.call('GET', '/health', { key: null })).body.answer_model.loaded === false ? true : undefined), 10_000, 'the model unloaded');
    expect((await s.call('POST', '/ask?stream=false', { json: QUESTION })).body.mode).toBe('model');
    expect((await s.call('GET', '/health', { key: null })).body.answer_model).toEqual({ loaded: true });
  });

  it('answers from the moments, saying why, when the model cannot be loaded', async () => {
    const broken = await startTestServer({ queryEmbedder: null, dataDir: mkdtempSync(join(tmp, 'broken-')), env: { VIDX_MODELS_MANIFEST: fixtures.manifestPath, VIDX_HUB_URL: hub.url } });
    try {
      expect((await broken.call('POST', '/collections', { json: { collection_id: 'home', name: 'Home' } })).status).toBe(201);
      await indexTalk(broken, 'home', 'boat', [{ voice: 'en+m3', pitch: 35 }, { voice: 'en+f2', pitch: 70 }], BOAT_TALK);
      const pull = await broken.call('POST', '/models/tiny-llm-broken/pull');
      expect((await settledTask(broken, pull.body.task_id as string, 60_000)).status).toBe('completed');
      const r = await broken.call('POST', '/ask?stream=false', { json: QUESTION });
      expect(r.body.mode).toBe('extractive');
      expect(r.body.notice).toMatch(/^The local model did not write this answer \(.+\); this one is taken from the moments\.$/);
      expect(r.body.answer.text).toMatch(/^At nine — in “boat”/);
      expect((await broken.call('GET', '/health', { key: null })).body.answer_model).toEqual({ loaded: false });
    } finally {
      await broken.close();
    }
  });

  it('refuses at import a model file that is not GGUF, one cut short and one with another hash', async () => {
    const importTar = async (name: string, change: (file: string) => void) => {
      const folder = join(tmp, name);
      mkdirSync(folder);
      copyFileSync(join(fixtures.hubDir, 'vidx-test/tiny-llm/tiny-llm.gguf'), join(folder, 'tiny-llm.gguf'));
      change(join(folder, 'tiny-llm.gguf'));
      const tar = join(tmp, `${name}.tar`);
      execFileSync('tar', ['-cf', tar, '-C', folder, '.']);
      return s.call('POST', '/models/import', { body: modelArchiveForm(await openAsBlob(tar), `${name}.tar`, 'tiny-llm') });
    };
    const size = fixtures.manifest.models.find((m) => m.id === 'tiny-llm')!.files[0]!.size!;
    const notGguf = await importTar('not-gguf', (f) => writeFileSync(f, Buffer.alloc(size, 0x41)));
    expect(notGguf.status).toBe(422);
    expect(notGguf.body).toMatchObject({ code: 'import_not_gguf', detail: 'model tiny-llm: file "tiny-llm.gguf" is not a GGUF file (it does not begin with GGUF): llama.cpp cannot load it' });
    const cut = await importTar('cut', (f) => truncateSync(f, 1000));
    expect(cut.status).toBe(422);
    expect(cut.body).toMatchObject({ code: 'import_wrong_size' });
    const otherHash = await importTar('other-hash', (f) => {
      const bytes = execFileSync('cat', [f]);
      bytes[bytes.length - 1] ^= 0xff;
      writeFileSync(f, bytes);
    });
    expect(otherHash.status).toBe(422);
    expect(otherHash.body).toMatchObject({ code: 'import_wrong_hash' });
    // The pulled model still answers.
    expect((await s.call('POST', '/ask?stream=false', { json: QUESTION })).body.mode).toBe('model');
  });
});
