/**
 * Issue 45, the pulled speaker pair: stand-ins shaped as pyannote segmentation-3.0 and WeSpeaker ResNet34
 * (scripts/make-fixture-models.ts) pulled through the model registry from a loopback hub, then espeak-ng
 * talks indexed by a real server on 127.0.0.1 with the analysis on its thread: the turns come from the pair
 * (`speakers_model` says so) and still find who says what.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixtureModels, type FixtureSet } from '../../scripts/make-fixture-models.js';
import { BOAT_TALK, type PlacedTurn, type Voice } from '../support/conversation.js';
import { startFakeHub, type FakeHub } from '../support/fake-hub.js';
import { settledTask, startTestServer, type TestServer } from '../support/server.js';
import { indexTalk } from '../support/talks.js';

interface Said {
  speakers: { speaker: number; start: number; end: number }[];
  speakers_model: string | null;
  episodes: { audio: { start: number; text: string; speaker: number | null }[] }[];
}

const TWO: Voice[] = [{ voice: 'en+m3', pitch: 35 }, { voice: 'en+f2', pitch: 70 }];

describe('speaker turns by the pulled model pair', () => {
  let tmp: string;
  let fixtures: FixtureSet;
  let hub: FakeHub;
  let s: TestServer;
  let boat: PlacedTurn[];

  const analysis = async (mediaId: string) => (await s.call('GET', `/collections/talks/items/${mediaId}/analysis`)).body as Said;

  beforeAll(async () => {
    tmp = mkdtempSync(join(process.cwd(), 'test', '.tmp', 'speaker-models-'));
    fixtures = await makeFixtureModels(join(tmp, 'hub'));
    hub = await startFakeHub({ root: fixtures.hubDir, revisions: Object.fromEntries(fixtures.manifest.models.map((m) => [m.repo, m.revision])) });
    s = await startTestServer({ env: { VIDX_MODELS_MANIFEST: fixtures.manifestPath, VIDX_HUB_URL: hub.url } });
    expect((await s.call('POST', '/collections', { json: { collection_id: 'talks', name: 'Talks' } })).status).toBe(201);
  });
  afterAll(async () => {
    await s?.close();
    await hub?.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  it('pulls the pair through the registry as tasks, and lists each with its licence and credit', async () => {
    for (const id of ['tiny-pyannote', 'tiny-wespeaker']) {
      const r = await s.call('POST', `/models/${id}/pull`);
      expect(r.status, JSON.stringify(r.body)).toBe(202);
      const task = await settledTask(s, r.body.task_id as string, 60_000);
      expect(task.status, JSON.stringify(task.error)).toBe('completed');
    }
    const list = (await s.call('GET', '/models')).body as { models: { id: string; capability: string; state: string; in_use: boolean; license: string; credit?: string }[]; capabilities: Record<string, { available: boolean; model?: string }> };
    for (const [id, capability] of [['tiny-pyannote', 'speaker_segmentation'], ['tiny-wespeaker', 'speaker_embedding']]) {
      expect(list.models.find((m) => m.id === id)).toMatchObject({ capability, state: 'installed', in_use: true, license: 'MIT', credit: 'vidx tests' });
      expect(list.capabilities[capability!]).toEqual({ available: true, model: id });
    }
  });

  it('turns a two-voice talk into two speakers by the pair, each line with the speaker who says it', async () => {
    boat = await indexTalk(s, 'talks', 'boat', TWO, BOAT_TALK);
    const said = await analysis('boat');
    expect(said.speakers_model).toBe('tiny-pyannote+tiny-wespeaker');
    expect(new Set(said.speakers.map((t) => t.speaker))).toEqual(new Set([1, 2]));
    const lines = said.episodes.flatMap((e) => e.audio);
    // The first voice to speak is speaker 1, as in the truth.
    for (const turn of boat) expect(lines.find((l) => Math.abs(l.start - turn.start) < 0.05)?.speaker, turn.text).toBe(turn.speaker);
  });

  it('groups voices across a collection by the embedder\'s prints, keeping the MFCC print beside them', async () => {
    expect((await s.call('POST', '/collections', { json: { collection_id: 'home', name: 'Home' } })).status).toBe(201);
    expect((await s.call('PUT', '/collections/home/voices', { json: { enabled: true } })).status).toBe(200);
    await indexTalk(s, 'home', 'boat-1', TWO, BOAT_TALK);
    await indexTalk(s, 'home', 'boat-2', TWO, BOAT_TALK);
    const people = (await s.call('GET', '/collections/home/people')).body.people as { person_id: string; voice_count: number }[];
    expect(people.map((p) => p.voice_count)).toEqual([2, 2]);
    // Each voice track keeps the embedder's print (and the person's centre blends them); the voices stay apart.
    const tracks = s.vidx.store.db.prepare("SELECT json_extract(embedding, '$.model') AS model, json_array_length(embedding, '$.vector') AS dims, json_array_length(timbre) AS mfccs FROM voice_tracks").all();
    expect(tracks).toEqual(Array(4).fill({ model: 'tiny-wespeaker', dims: 79, mfccs: 12 }));
    const centres = s.vidx.store.db.prepare("SELECT json_extract(voice, '$.embedding.model') FROM people WHERE voice IS NOT NULL").pluck().all();
    expect(centres).toEqual(['tiny-wespeaker', 'tiny-wespeaker']);
  });

  it('hears one voice as one speaker, and says no model made the turns once the pair is removed', async () => {
    await indexTalk(s, 'talks', 'alone', TWO, BOAT_TALK.map((t) => ({ ...t, speaker: 1 })));
    const alone = await analysis('alone');
    expect(alone.speakers_model).toBe('tiny-pyannote+tiny-wespeaker');
    expect(new Set(alone.speakers.map((t) => t.speaker))).toEqual(new Set([1]));

    for (const id of ['tiny-pyannote', 'tiny-wespeaker']) expect((await s.call('DELETE', `/models/${id}`)).status).toBe(200);
    await indexTalk(s, 'talks', 'boat-again', TWO, BOAT_TALK);
    const again = await analysis('boat-again');
    expect(again.speakers_model).toBeNull();
    expect(new Set(again.speakers.map((t) => t.speaker))).toEqual(new Set([1, 2]));
  });
});
