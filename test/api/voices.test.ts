/**
 * Issue 45: voices grouped across a collection, off by default. Real espeak-ng conversations indexed by a real
 * server (real decoding and voice features), people with voices named, searched by who says it, voices
 * reassigned, split and merged, kept across a re-index, and deleted when the setting goes off.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOAT_TALK, conversation, srtOf, type Turn } from '../support/conversation.js';
import { runCli } from '../support/cli.js';
import { callJson, mcpClient } from '../mcp/clients.js';
import { ADMIN_KEY, settledTask, startTestServer, type TestServer } from '../support/server.js';

const DAD = { voice: 'en+m3', pitch: 35 };
const ANNA = { voice: 'en+f2', pitch: 70 };
/** Anna speaks first here: the speaker numbers of a recording say nothing across recordings. */
const GARDEN: readonly Turn[] = [
  { speaker: 1, text: 'The tomatoes in the garden are finally red. Shall we pick them this afternoon?' },
  { speaker: 2, text: 'Yes, and the beans are ready too. I will fetch the big basket from the shed.' },
  { speaker: 1, text: 'Bring the gloves as well, the roses along the fence have sharp thorns.' },
  { speaker: 2, text: 'Of course. After that we can sit on the bench and drink some lemonade.' },
];
const RADIO: readonly Turn[] = [
  { speaker: 1, text: 'This is the weather report for the harbour. The wind turns north tonight and the sea gets rough.' },
  { speaker: 1, text: 'Small boats should stay in the harbour until Sunday morning, when the storm has passed.' },
];

interface Person { person_id: string; name: string | null; voice_count: number; voice_seconds: number; media_count: number }
interface Voice { voice_id: number; media_id: string; speaker: number; seconds: number; sample: { start: number; end: number } | null; sample_url: string | null }

describe('voices across a collection', () => {
  let s: TestServer;
  let other: string;

  const index = async (file: string, media_id: string, reindex = false) => {
    const r = await s.call('POST', '/index', { json: { collection: 'home', video: { path: join(s.mediaDir, file), media_id }, reindex_if_exists: reindex } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const task = await settledTask(s, r.body.task_id as string, 120_000);
    expect(task.status, JSON.stringify(task.error)).toBe('completed');
  };
  const people = async () => (await s.call('GET', '/collections/home/people')).body as { voices: boolean; people: Person[] };
  const voicesOf = async (person: string) => ((await s.call('GET', `/collections/home/people/${person}/voices`)).body as { voices: Voice[] }).voices;
  /** Who speaks as speaker `speaker` of `media`: the person holding that voice. */
  const personOf = async (media: string, speaker: number) => {
    for (const p of (await people()).people) if ((await voicesOf(p.person_id)).some((v) => v.media_id === media && v.speaker === speaker)) return p.person_id;
    return null;
  };

  beforeAll(async () => {
    s = await startTestServer();
    other = await s.newKey();
    expect((await s.call('POST', '/collections', { json: { collection_id: 'home', name: 'Home' } })).status).toBe(201);
    // Each memo's words come as subtitles beside it (no speech model here); who speaks comes from the sound.
    const talk = async (name: string, voices: { voice: string; pitch: number }[], turns: readonly Turn[]) => {
      await writeFile(join(s.mediaDir, `${name}.srt`), srtOf(await conversation(join(s.mediaDir, `${name}.m4a`), voices, turns)));
    };
    await talk('boat', [DAD, ANNA], BOAT_TALK);
    await talk('garden', [ANNA, DAD], GARDEN);
    await talk('radio', [DAD], RADIO);
  }, 120_000);
  afterAll(() => s?.close());

  it('keeps no voiceprint while voices are off, which they are at first', async () => {
    await index('boat.m4a', 'boat');
    expect((await people()).voices).toBe(false);
    expect((await people()).people).toEqual([]);
    expect(s.vidx.store.db.prepare('SELECT count(*) AS n FROM voice_tracks').get()).toEqual({ n: 0 });
    // Another owner may neither turn them on nor see them.
    expect((await s.call('PUT', '/collections/home/voices', { key: other, json: { enabled: true } })).status).toBe(404);
  });

  it('groups one voice across recordings into one person, and two voices never into one', async () => {
    const on = await s.call('PUT', '/collections/home/voices', { json: { enabled: true } });
    expect(on.body).toEqual({ collection_id: 'home', voices: true });
    await index('boat.m4a', 'boat', true);
    await index('garden.m4a', 'garden');
    await index('radio.m4a', 'radio');
    const dad = await personOf('boat', 1);
    const anna = await personOf('boat', 2);
    expect(dad).not.toBeNull();
    expect(anna).not.toBeNull();
    expect(dad).not.toBe(anna);
    expect(await personOf('garden', 2)).toBe(dad);
    expect(await personOf('garden', 1)).toBe(anna);
    expect(await personOf('radio', 1)).toBe(dad);
    const listed = (await people()).people;
    expect(listed.find((p) => p.person_id === dad)).toMatchObject({ voice_count: 3, media_count: 3, face_count: 0 });
    expect(listed.find((p) => p.person_id === anna)).toMatchObject({ voice_count: 2, media_count: 2 });
    // Each voice has a few seconds to hear: a signed link to its recording with a media fragment.
    const sample = (await voicesOf(dad!)).find((v) => v.media_id === 'radio')!;
    expect(sample.sample!.end - sample.sample!.start).toBeGreaterThan(2);
    expect(sample.sample!.end - sample.sample!.start).toBeLessThanOrEqual(6);
    expect(sample.sample_url).toMatch(/#t=\d+(\.\d)?,\d+(\.\d)?$/);
    expect((await fetch(sample.sample_url!.split('#')[0]!)).status).toBe(200);
  });

  it('finds what a named person said, and names who says each result’s line', async () => {
    const dad = (await personOf('boat', 1))!;
    expect((await s.call('PUT', `/collections/home/people/${dad}`, { json: { name: 'Dad' } })).status).toBe(200);
    const said = await s.call('POST', '/search', { json: { collection: 'home', query: 'harbour', speaker: 'dad' } });
    expect(said.status, JSON.stringify(said.body)).toBe(200);
    // "harbour" is said by Anna on the boat and twice by Dad on the radio: only Dad's moments are left.
    expect(said.body.results.map((r: { media_id: string }) => r.media_id)).toEqual(['radio', 'radio']);
    for (const r of said.body.results) expect(r.speaker).toEqual({ person_id: dad, name: 'Dad' });
    const all = await s.call('POST', '/search', { json: { collection: 'home', query: 'harbour' } });
    const boat = all.body.results.find((r: { media_id: string }) => r.media_id === 'boat');
    expect(boat.speaker.person_id).toBe(await personOf('boat', 2));
    // Everything Dad said, with no words: by person id too.
    const everything = await s.call('POST', '/search', { json: { collection: 'home', speaker: dad, limit: 20 } });
    expect(new Set(everything.body.results.map((r: { media_id: string }) => r.media_id))).toEqual(new Set(['boat', 'garden', 'radio']));
    // The same through the CLI and the MCP search tool.
    const cli = await runCli(['search', 'harbour', '--speaker', 'Dad', '--collection', 'home', '--url', s.url], { VIDX_API_KEY: ADMIN_KEY });
    expect(cli.code, cli.stderr).toBe(0);
    expect(cli.stdout).toMatch(/radio.*Dad: .*harbour/i);
    const agent = await mcpClient('http', s.url, ADMIN_KEY);
    try {
      const { moments } = await callJson(agent, 'search', { collection: 'home', query: 'harbour', speaker: 'Dad' });
      expect(moments.map((m: { media_id: string; speaker: { name: string } }) => [m.media_id, m.speaker.name])).toEqual([['radio', 'Dad'], ['radio', 'Dad']]);
    } finally {
      await agent.close();
    }
    // Another owner sees none of it: the person, their voices and the filter are each a 404.
    expect((await s.call('GET', `/collections/home/people/${dad}/voices`, { key: other })).status).toBe(404);
    expect((await s.call('POST', `/collections/home/people/${dad}/voices`, { key: other, json: { voice_ids: [1] } })).status).toBe(404);
    expect((await s.call('POST', '/collections', { key: other, json: { collection_id: 'theirs', name: 'Theirs' } })).status).toBe(201);
    expect((await s.call('POST', '/search', { key: other, json: { collection: 'theirs', query: 'harbour', speaker: dad } })).status).toBe(404);
    const nobody = await s.call('POST', '/search', { json: { collection: 'home', query: 'harbour', speaker: 'Nobody' } });
    expect(nobody.status).toBe(404);
    expect(nobody.body.errors[0].field).toBe('speaker');
  });

  it('reassigns many voices in one call, refuses unknown ones by name, splits one off and merges it back', async () => {
    const dad = (await personOf('boat', 1))!;
    const anna = (await personOf('boat', 2))!;
    const dadVoices = await voicesOf(dad);
    const wrong = await s.call('POST', `/collections/home/people/${anna}/voices`, { json: { voice_ids: [dadVoices[0]!.voice_id, 999_999] } });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors[0]).toMatchObject({ field: 'voice_ids' });
    expect(wrong.body.errors[0].message).toContain('999999');
    expect((await voicesOf(dad)).length).toBe(3);

    const moved = await s.call('POST', `/collections/home/people/${anna}/voices`, { json: { voice_ids: dadVoices.filter((v) => v.media_id !== 'boat').map((v) => v.voice_id) } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.voice_count).toBe(4);
    expect((await voicesOf(dad)).map((v) => v.media_id)).toEqual(['boat']);
    const back = await s.call('POST', `/collections/home/people/${dad}/voices`, { json: { voice_ids: dadVoices.map((v) => v.voice_id) } });
    expect(back.body.voice_count).toBe(3);

    const radio = dadVoices.find((v) => v.media_id === 'radio')!;
    const split = await s.call('POST', `/collections/home/people/${dad}/split`, { json: { voice_id: radio.voice_id } });
    expect(split.status, JSON.stringify(split.body)).toBe(200);
    expect(split.body).toMatchObject({ voice_count: 1, face_count: 0 });
    expect((await s.call('POST', `/collections/home/people/${dad}/split`, { json: { voice_id: radio.voice_id } })).status).toBe(404);
    expect((await s.call('POST', `/collections/home/people/${dad}/split`, { json: {} })).status).toBe(422);
    const merged = await s.call('POST', `/collections/home/people/${dad}/merge`, { json: { person_id: split.body.person_id } });
    expect(merged.body).toMatchObject({ name: 'Dad', voice_count: 3 });
  });

  it('keeps person ids and names across a re-index, and deletes every voiceprint when voices go off', async () => {
    const dad = (await personOf('boat', 1))!;
    await index('radio.m4a', 'radio', true);
    expect(await personOf('radio', 1)).toBe(dad);
    expect((await people()).people.find((p) => p.person_id === dad)!.name).toBe('Dad');

    expect((await s.call('PUT', '/collections/home/voices', { json: { enabled: false } })).body).toEqual({ collection_id: 'home', voices: false });
    const db = s.vidx.store.db;
    expect(db.prepare('SELECT count(*) AS n FROM voice_tracks').get()).toEqual({ n: 0 });
    expect(db.prepare('SELECT count(*) AS n FROM people WHERE voice IS NOT NULL').get()).toEqual({ n: 0 });
    expect((await people()).people).toEqual([]);
    // Turns inside each recording stay: they are anonymous and hold no voiceprint.
    const analysis = await s.call('GET', '/collections/home/items/boat/analysis');
    expect(new Set(analysis.body.speakers.map((t: { speaker: number }) => t.speaker))).toEqual(new Set([1, 2]));
  });
});
