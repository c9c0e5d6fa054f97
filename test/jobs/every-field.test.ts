/**
 * Issue 44: the pipeline's output is one schema (src/analysis/schema.ts), and a field of it reaches the store
 * whoever made the analysis. A hand-driven worker (test/support/hand-worker.ts) delivers an analysis with
 * every field of the schema filled, as JSON lines over HTTP to a real server on 127.0.0.1 with a real Redis;
 * then each field is read back from where ANALYSIS_STORAGE says it is kept. Both lists are typed by the
 * schema's keys: a field added to the schema and left out here fails the typecheck.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredAnalysis } from '../../src/analysis/schema.js';
import { ANALYSIS_STORAGE } from '../../src/services/search/item-writes.js';
import { makeVideo } from '../support/folder-media.js';
import { handWorker, jpeg } from '../support/hand-worker.js';
import { startRedis, type TestRedis } from '../support/redis.js';
import { settledTask, startTestServer, waitFor, type TestServer } from '../support/server.js';

/** Float32 values as base64, as vectors travel. */
const vector = (values: number[]) => Buffer.from(new Float32Array(values).buffer).toString('base64');

const line = { start: 0, end: 1.5, text: 'every field arrives', speaker: 1 };
const seen = { start: 0, end: 2, summary: 'On screen: SIGNPOST', ocr: ['SIGNPOST'], tags: ['poster'] };

/** An analysis with every field of the schema, optional ones too (Required: a new field must be named here). */
const FULL: Required<StoredAnalysis> = {
  type: 'video', duration: 4, width: 320, height: 240, language: 'en', title: 'EVERY FIELD',
  transcript: [line],
  transcriptSource: 'embedded',
  subtitleLanguages: ['en', 'de'],
  subtitleTracks: [{ language: 'de', source: 'embedded', segments: [{ start: 0, end: 1.5, text: 'jedes Feld kommt an' }] }],
  screenText: [{ start: 0.5, end: 2, text: 'SIGNPOST' }],
  visual: [seen],
  episodes: [{ index: 0, start: 0, end: 4, audio: [line], visual: [seen], summary: 'Every field arrives.', thumbnail: 'ep-0.jpg', thumbnailTime: 1, pictures: [{ from: 0, time: 1, thumbnail: 'pic-0.jpg' }] }],
  summary: 'Every field arrives.',
  warnings: ['a warning the worker had'],
  passageVectors: { model: 'every-text', dims: 8, items: [{ episodeIndex: 0, time: 0, vector: vector(Array(8).fill(0.25)) }] },
  frameVectors: { model: 'every-frame', dims: 8, items: [{ episodeIndex: 0, time: 1, vector: vector([1, 0, 0, 0, 0, 0, 0, 0]) }] },
  framePrints: [{ time: 1, hash: '0123456789abcdef', detail: 'fedcba9876543210'.repeat(4), colour: Array.from({ length: 48 }, (_, i) => i * 5) }],
  frameSequence: { fps: 4, hashes: '0123456789abcdef'.repeat(16), looks: '0a'.repeat(13 * 16) },
  soundPrint: { fps: 10, frames: '0123456789'.repeat(40) },
  speakers: [{ speaker: 1, start: 0, end: 1.5 }],
  speakersModel: 'every-segmenter+every-embedder',
  faces: [{ start: 0, end: 2, box: { x: 0.1, y: 0.1, width: 0.2, height: 0.3 }, score: 0.9, thumbnail: 'face-0.jpg', vector: [0.6, 0.8, 0, 0], personId: null }],
  facesSamePerson: 0.5,
  voices: [{ speaker: 1, seconds: 1.5, pitch: 4.9, timbre: Array.from({ length: 12 }, (_, i) => i - 6), embedding: { model: 'every-embedder', vector: [0.6, 0.8], sameCosine: 0.3 } }],
};

/**
 * How to read each field back for the item (`@item`): one SQL value that is truthy once it was kept, and
 * what it must be. Keyed like ANALYSIS_STORAGE.
 */
const READ_BACK: Record<keyof StoredAnalysis, [sql: string, expected: unknown]> = {
  type: ['SELECT type FROM items WHERE pk = @item', 'video'],
  duration: ['SELECT duration FROM item_analysis WHERE item_pk = @item', 4],
  width: ['SELECT width FROM items WHERE pk = @item', 320],
  height: ['SELECT height FROM items WHERE pk = @item', 240],
  language: ['SELECT language FROM item_analysis WHERE item_pk = @item', 'en'],
  title: ['SELECT title FROM items WHERE pk = @item', 'EVERY FIELD'],
  transcript: ["SELECT s.text FROM segments s JOIN episodes e ON e.pk = s.episode_pk WHERE e.item_pk = @item AND s.kind = 'audio'", 'every field arrives'],
  transcriptSource: ['SELECT transcript_source FROM item_analysis WHERE item_pk = @item', 'embedded'],
  subtitleLanguages: ['SELECT subtitle_languages FROM item_analysis WHERE item_pk = @item', '["en","de"]'],
  subtitleTracks: ['SELECT l.text FROM subtitle_lines l JOIN episodes e ON e.pk = l.episode_pk WHERE e.item_pk = @item', 'jedes Feld kommt an'],
  screenText: ["SELECT s.text FROM segments s JOIN episodes e ON e.pk = s.episode_pk WHERE e.item_pk = @item AND s.kind = 'screen'", 'SIGNPOST'],
  visual: ["SELECT s.tags FROM segments s JOIN episodes e ON e.pk = s.episode_pk WHERE e.item_pk = @item AND s.kind = 'visual'", '["poster"]'],
  episodes: ['SELECT summary FROM episodes WHERE item_pk = @item', 'Every field arrives.'],
  summary: ['SELECT summary FROM item_analysis WHERE item_pk = @item', 'Every field arrives.'],
  warnings: ['SELECT warnings FROM item_analysis WHERE item_pk = @item', '["a warning the worker had"]'],
  passageVectors: ["SELECT count(*) FROM vectors v JOIN vector_spaces p ON p.id = v.space_id JOIN episodes e ON e.pk = v.episode_pk WHERE e.item_pk = @item AND p.model = 'every-text'", 1],
  frameVectors: ["SELECT count(*) FROM vectors v JOIN vector_spaces p ON p.id = v.space_id JOIN episodes e ON e.pk = v.episode_pk WHERE e.item_pk = @item AND p.model = 'every-frame'", 1],
  framePrints: ['SELECT hex(detail) FROM frame_prints WHERE item_pk = @item', 'FEDCBA9876543210'.repeat(4)],
  frameSequence: ['SELECT length(hashes) + length(looks) FROM frame_sequences WHERE item_pk = @item', 8 * 16 + 13 * 16],
  soundPrint: ['SELECT length(sound) FROM frame_sequences WHERE item_pk = @item', 200],
  speakers: ["SELECT s.speaker || ' ' || a.speakers FROM segments s JOIN episodes e ON e.pk = s.episode_pk JOIN item_analysis a ON a.item_pk = e.item_pk WHERE e.item_pk = @item AND s.kind = 'audio'", '1 [{"speaker":1,"start":0,"end":1.5}]'],
  speakersModel: ['SELECT speakers_model FROM item_analysis WHERE item_pk = @item', 'every-segmenter+every-embedder'],
  faces: ['SELECT count(*) FROM face_tracks WHERE item_pk = @item', 1],
  // Not kept as a value: the face track it grouped is in a person.
  facesSamePerson: ['SELECT count(*) FROM face_tracks WHERE item_pk = @item AND person_pk IS NOT NULL', 1],
  voices: ["SELECT v.speaker || ' ' || v.pitch || ' ' || (p.voice IS NOT NULL) || ' ' || json_extract(v.embedding, '$.model') || ' ' || json_extract(p.voice, '$.embedding.vector[1]') FROM voice_tracks v JOIN people p ON p.pk = v.person_pk WHERE v.item_pk = @item", '1 4.9 1 every-embedder 0.8'],
};

describe('a remote worker delivers every field of the analysis schema', () => {
  let redis: TestRedis;
  let s: TestServer;

  beforeAll(async () => {
    redis = await startRedis();
    s = await startTestServer({ env: { VIDX_QUEUE_URL: redis.url, VIDX_LOCAL_WORKERS: '0' } });
    await makeVideo(join(s.mediaDir, 'every.mp4'), 'EVERY FIELD', 4);
  }, 60_000);
  afterAll(async () => {
    await s?.close();
    await redis?.stop();
  });

  it('keeps each field where ANALYSIS_STORAGE says, read back from SQLite', async () => {
    expect(Object.keys(READ_BACK).sort()).toEqual(Object.keys(ANALYSIS_STORAGE).sort());
    expect((await s.call('POST', '/collections', { json: { collection_id: 'home', name: 'Home' } })).status).toBe(201);
    expect((await s.call('PUT', '/collections/home/faces', { json: { enabled: true } })).status).toBe(200);
    expect((await s.call('PUT', '/collections/home/voices', { json: { enabled: true } })).status).toBe(200);
    const worker = await handWorker(s, 'every');
    await worker.beat();
    const task = (await s.call('POST', '/index', { json: { collection: 'home', video: { path: join(s.mediaDir, 'every.mp4'), media_id: 'every', title: 'EVERY FIELD' } } })).body.task_id as string;
    const job = await waitFor(() => (s.vidx.store.db.prepare('SELECT job_id FROM analysis_jobs WHERE task_id = ?').get(task) as { job_id: string } | undefined)?.job_id, 20_000, 'the job');
    const beats = worker.keepBeating([job]);
    try {
      expect((await worker.start(job)).body.status).toBe('ready');
      const picture = await jpeg();
      const delivered = await worker.deliverLines(job, FULL, { 'ep-0.jpg': picture, 'pic-0.jpg': picture, 'face-0.jpg': picture });
      expect(delivered.body).toEqual({ status: 'committed' });
      const settled = await settledTask(s, task, 30_000);
      expect(settled.error ?? null).toBeNull();
      expect(settled.status).toBe('completed');
    } finally {
      beats.stop();
    }
    const db = s.vidx.store.db;
    const item = (db.prepare("SELECT pk FROM items WHERE media_id = 'every'").get() as { pk: number }).pk;
    const found = Object.fromEntries(Object.entries(READ_BACK).map(([field, [sql]]) => [field, db.prepare(sql).pluck().get({ item })]));
    expect(found).toEqual(Object.fromEntries(Object.entries(READ_BACK).map(([field, [, expected]]) => [field, expected])));
    // The files a delivery names arrive too: the episode's thumbnail and its picture are served.
    const moment = (await s.call('GET', '/collections/home/items/every')).body as { thumbnail_url?: string };
    expect(moment.thumbnail_url).toBeTruthy();
  });
});
